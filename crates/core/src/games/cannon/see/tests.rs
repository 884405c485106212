//! SEE of Whitcher's Cannon: hand-built positions with values worked out by hand, and a
//! property test against the brute-force resolver of `games::see_oracle`.

use crate::board::Square;
use crate::games::cannon::tests::start_fen;
use crate::games::cannon::tests::{fen_of, position, MIDDLE_GAME};
use crate::games::cannon::CannonMoves;
use crate::games::cannon::{CannonPosition, SOLDIER_VALUE, TOWN_VALUE};
use crate::games::see_oracle::{check_random_game, exchange_value, SeeOracle};
use crate::games::{Game, Move, MoveKind, Notation};
use proptest::prelude::*;

impl SeeOracle for CannonPosition {
    /// The legal moves (every pseudo-legal move is legal: there is no check) that take on `sq`.
    fn captures_onto(&self, sq: Square, out: &mut CannonMoves) {
        let mut all = CannonMoves::new();
        self.legal_moves(&mut all);
        out.extend(
            all.into_iter()
                .filter(|&m| m.to() == sq && self.is_capture(m)),
        );
    }

    /// A shot stakes nothing: it comes before any soldier.
    fn attacker_key(&self, m: Move) -> (i32, usize, usize) {
        if m.kind() == MoveKind::Shot {
            (0, 0, m.from().index())
        } else {
            (SOLDIER_VALUE, 1, m.from().index())
        }
    }

    fn gain(&self, m: Move) -> i32 {
        self.capture_value(m)
    }

    fn by_king(&self, _m: Move) -> bool {
        false
    }
}

fn value(p: &CannonPosition, mv: &str) -> i32 {
    let m = p
        .parse_move(mv, Notation::Uci)
        .unwrap_or_else(|| panic!("{mv} is not legal in {}", p.to_fen()));
    let v = p.see(m);
    assert_eq!(v, exchange_value(p, m), "brute force disagrees on {mv}");
    assert!(p.see_ge(m, v) && !p.see_ge(m, v + 1));
    v
}

const S: i32 = SOLDIER_VALUE;

#[test]
fn soldiers_recapture_lowest_square_first() {
    // exe5 exe5 dxe5: white ends a soldier up.
    let p = position("Tc1 Sd4 Se4 se5 se6 th10", 'w');
    assert_eq!(value(&p, "e4e5"), S);
    // Without d4 it is a trade.
    let p = position("Tc1 Se4 se5 se6 th10", 'w');
    assert_eq!(value(&p, "e4e5"), 0);
}

#[test]
fn a_shot_ends_the_exchange() {
    // The black cannon e10-e9-e8 shoots e5 (third square; e7 empty): a soldier stepping there
    // is lost, and a recapture is impossible since nothing stands on e5 afterwards.
    let p = position("Tc1 Sd4 Se4 se8 se9 se10 th10", 'w');
    assert_eq!(value(&p, "e4e5"), -S);
    let m = p.parse_move("e4e5", Notation::Uci).unwrap();
    assert!(!p.see_ge(m, -50));
    // A white soldier on e7 fills the square in front of the cannon: no shot.
    let p = position("Tc1 Se4 Se7 se8 se9 se10 th10", 'w');
    assert_eq!(value(&p, "e4e5"), 0);
    // The shot itself gains its victim, whatever defends it.
    let p = position("Tc1 Sb2 Sb3 Sb4 sb7 sc8 th10", 'w');
    assert_eq!(value(&p, "b4b7"), S);
}

#[test]
fn a_capturer_leaving_the_front_square_opens_a_shot() {
    // White's cannon b5-c5-d5 points east; its first square e5 holds the soldier that takes
    // f5 sideways. Once it has gone, the cannon shoots f5, so black does not recapture.
    let p = position("Tc1 Sb5 Sc5 Sd5 Se5 sf5 sg6 th10", 'w');
    assert_eq!(value(&p, "e5f5"), S);
    // Without the cannon black recaptures and it is a trade.
    let p = position("Tc1 Sd5 Se5 sf5 sg6 th10", 'w');
    assert_eq!(value(&p, "e5f5"), 0);
}

#[test]
fn towns() {
    // Taking the town wins outright.
    let p = position("Tc1 Sg9 th10", 'w');
    assert_eq!(value(&p, "g9h10"), TOWN_VALUE);
    // Placing the town where a soldier takes it loses it.
    let fen = fen_of("Tc1 Sc9", 'b').replace("[]", "[t]");
    let p = CannonPosition::from_fen(&fen, false).unwrap();
    assert_eq!(value(&p, "T@c10"), -TOWN_VALUE);
    assert_eq!(value(&p, "T@f10"), 0);
}

fn games() -> impl Strategy<Value = Vec<(u16, i16)>> {
    proptest::collection::vec((any::<u16>(), -300i16..300), 10..90)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn see_matches_brute_force_in_cannon(g in games(), clear in any::<bool>(), middle in any::<bool>()) {
        let fen = if middle { MIDDLE_GAME } else { start_fen() };
        let start = CannonPosition::from_fen(fen, clear).unwrap();
        check_random_game(&start, &g).map_err(TestCaseError::fail)?;
    }
}
