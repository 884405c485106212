//! SEE of Cannon Shogi: hand-built positions with values worked out by hand, and a property
//! test against the brute-force resolver of `games::see_oracle`.

use super::see_order;
use crate::board::Square;
use crate::games::see_oracle::{check_random_game, exchange_value, SeeOracle};
use crate::games::shogi::ShogiMoves;
use crate::games::shogi::{hand_value, role_value, Piece, Role, ShogiPosition};
use crate::games::{Game, Move, MoveKind, Notation};
use proptest::prelude::*;

impl SeeOracle for ShogiPosition {
    /// From the move generator's per-piece targets (`targets`), not from `attackers`.
    fn captures_onto(&self, sq: Square, out: &mut ShogiMoves) {
        let us = self.side;
        if !self.ours(!us).contains(sq) {
            return;
        }
        let occ = self.occupied();
        let zone = self.t.zone[us.index()];
        for from in self.ours(us) {
            let role = Piece::from_code(self.board[from.index()]).role();
            if self.targets(role.kind(), us, from, occ).contains(sq) {
                let promote = role.can_promote() && (zone.contains(from) || zone.contains(sq));
                out.push(if promote {
                    Move::new(from, sq, MoveKind::Promotion, role.index() as u8)
                } else {
                    Move::normal(from, sq)
                });
            }
        }
    }

    fn attacker_key(&self, m: Move) -> (i32, usize, usize) {
        let role = self.piece_at(m.from()).unwrap().role();
        (see_order(role), role.index(), m.from().index())
    }

    fn gain(&self, m: Move) -> i32 {
        self.capture_value(m)
    }

    fn by_king(&self, m: Move) -> bool {
        m.kind() != MoveKind::Drop && self.piece_at(m.from()).map(|p| p.role()) == Some(Role::King)
    }
}

fn pos(fen: &str) -> ShogiPosition {
    ShogiPosition::from_fen(fen).unwrap()
}

fn value(p: &ShogiPosition, mv: &str) -> i32 {
    let m = p
        .parse_move(mv, Notation::Uci)
        .unwrap_or_else(|| panic!("{mv} is not legal in {}", p.to_fen()));
    let v = p.see(m);
    assert_eq!(v, exchange_value(p, m), "brute force disagrees on {mv}");
    assert!(p.see_ge(m, v) && !p.see_ge(m, v + 1));
    v
}

/// What taking a piece of role `r` gains.
fn taken(r: Role) -> i32 {
    role_value(r) + hand_value(r.unpromoted())
}

#[test]
fn soldier_takes_a_silver_defended_by_a_gold() {
    let p = pos("k8/9/9/4g4/4s4/4P4/9/9/8K[] w - - 0 1");
    assert_eq!(value(&p, "e4e5"), taken(Role::Silver) - taken(Role::Pawn));
    let p = pos("k8/9/9/9/4s4/4P4/9/9/8K[] w - - 0 1");
    assert_eq!(value(&p, "e4e5"), taken(Role::Silver));
}

#[test]
fn gold_cannon_loses_its_screen_when_the_screen_recaptures() {
    // The white gold cannon on e9 hops the black rook on e7 onto e5. After exe5 Rxe5 the rook
    // has left: the cannon sees e5 with no screen and cannot take back.
    let p = pos("k3U4/9/4r4/9/4s4/4P4/9/9/8K[] w - - 0 1");
    assert_eq!(value(&p, "e4e5"), taken(Role::Silver) - taken(Role::Pawn));
    // Rook on e6 behind a pawn on e7: Rxe5 would give the cannon (over e7) the square, so the
    // rook does not take.
    let p = pos("k3U4/9/4p4/4r4/4s4/4P4/9/9/8K[] w - - 0 1");
    assert_eq!(value(&p, "e4e5"), taken(Role::Silver));
}

#[test]
fn rook_behind_a_rook_joins() {
    // Re4xe5 gxe5 Re2xe5: the second rook sees e5 once the first has gone.
    let p = pos("k8/9/9/4g4/4s4/4R4/9/4R4/8K[] w - - 0 1");
    assert_eq!(
        value(&p, "e4e5"),
        taken(Role::Silver) - taken(Role::Rook) + taken(Role::Gold)
    );
    // Without the second rook the silver costs the rook.
    let p = pos("k8/9/9/4g4/4s4/4R4/9/9/8K[] w - - 0 1");
    assert_eq!(value(&p, "e4e5"), taken(Role::Silver) - taken(Role::Rook));
}

#[test]
fn drops_put_the_piece_at_stake() {
    let p = pos("k8/9/9/4p4/9/9/9/9/8K[G] w - - 0 1");
    assert_eq!(value(&p, "G@e5"), -taken(Role::Gold));
    assert_eq!(value(&p, "G@e4"), 0);
    let m = p.parse_move("G@e5", Notation::Uci).unwrap();
    assert!(!p.see_ge(m, -50));
}

#[test]
fn promotions_gain_and_recaptures_promote() {
    let promote = role_value(Role::PromotedSilver) - role_value(Role::Silver);
    // Sxe7+ is taken by the gold: the silver is lost for a pawn (promoted or not).
    let p = pos("k8/4g4/4p4/4S4/9/9/9/9/8K[] w - - 0 1");
    let lost = taken(Role::Pawn) + promote - taken(Role::PromotedSilver);
    assert_eq!(value(&p, "e6e7+"), lost);
    assert_eq!(value(&p, "e6e7"), taken(Role::Pawn) - taken(Role::Silver));
    let p = pos("k8/9/4p4/4S4/9/9/9/9/8K[] w - - 0 1");
    assert_eq!(value(&p, "e6e7+"), taken(Role::Pawn) + promote);
    // Black's soldier takes the gold on e3, inside black's zone, and promotes.
    let p = pos("k8/9/9/9/9/4p4/9/4G4/8K[] w - - 0 1");
    let tokin = role_value(Role::PromotedPawn) - role_value(Role::Pawn);
    assert_eq!(value(&p, "e2e3"), -(taken(Role::Gold) + tokin));
}

#[test]
fn a_king_takes_only_an_undefended_capturer() {
    // Rxe8: only the black king defends e8, and the white gold on d7 guards it: the king
    // cannot take.
    let p = pos("4k4/4s4/3G5/9/9/9/9/9/4R3K[] w - - 0 1");
    assert_eq!(value(&p, "e1e8"), taken(Role::Silver));
    let p = pos("4k4/4s4/9/9/9/9/9/9/4R3K[] w - - 0 1");
    assert_eq!(value(&p, "e1e8"), taken(Role::Silver) - taken(Role::Rook));
}

#[test]
fn see_order_puts_the_king_last() {
    assert!(Role::ALL
        .iter()
        .all(|&r| see_order(r) <= see_order(Role::King)));
}

fn games() -> impl Strategy<Value = Vec<(u16, i16)>> {
    proptest::collection::vec((any::<u16>(), -1500i16..1500), 10..80)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn see_matches_brute_force_in_cannonshogi(g in games()) {
        let start = crate::engine::registry::new_game::<ShogiPosition>("cannonshogi").unwrap();
        check_random_game(&start, &g).map_err(TestCaseError::fail)?;
    }
}
