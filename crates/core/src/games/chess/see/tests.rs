//! SEE of the chess family: hand-built positions with values worked out by hand, and for every
//! variant a property test against the brute-force resolver of `games::see_oracle`.

use super::see_value;
use crate::board::{BitWord, Square};
use crate::games::chess::Chess;
use crate::games::chess::ChessMoves;
use crate::games::chess::{
    CannonriderChess, ChessPosition, ChessRules, ChessWord, ChesstoniaChess, Role,
    SwedishCannonChess,
};
use crate::games::see_oracle::{check_random_game, exchange_value, SeeOracle};
use crate::games::{Game, Move, MoveKind, Notation};
use proptest::prelude::*;

impl<W: ChessWord, R: ChessRules> SeeOracle for ChessPosition<W, R> {
    fn captures_onto(&self, sq: Square, out: &mut ChessMoves) {
        let mut all = ChessMoves::new();
        self.generate_pseudo(&mut all);
        let best = R::PROMOTIONS.first().copied();
        for m in all {
            let capture = matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion)
                && m.to() == sq
                && self.piece_at(sq).is_some()
                && self.t.geo.is_valid(m.from());
            let promotion_ok = m.kind() != MoveKind::Promotion
                || Some(Role::from_index(m.piece() as usize)) == best;
            if capture && promotion_ok {
                out.push(m);
            }
        }
    }

    fn attacker_key(&self, m: Move) -> (i32, usize, usize) {
        let role = self.piece_at(m.from()).unwrap().role();
        (see_value(role), role.index(), m.from().index())
    }

    /// The material the move wins: the material balance after it minus before (the reserve
    /// and Chesstonia's machinery count as material, so drops and firing gain nothing).
    fn gain(&self, m: Move) -> i32 {
        let before = self.material();
        let mut p = self.clone();
        p.make_move(m);
        -p.material() - before
    }

    fn by_king(&self, m: Move) -> bool {
        self.piece_at(m.from()).map(|p| p.role()) == Some(Role::King)
    }
}

fn find<W: ChessWord, R: ChessRules>(p: &ChessPosition<W, R>, s: &str) -> Move {
    p.parse_move(s, Notation::Uci)
        .unwrap_or_else(|| panic!("{s} is not legal in {}", p.to_fen()))
}

/// The exchange value of `mv`, checked three ways: the fast `see`, the brute force, and the
/// `see_ge` boundary.
fn value<W: ChessWord, R: ChessRules>(p: &ChessPosition<W, R>, mv: &str) -> i32 {
    let m = find(p, mv);
    let v = p.see(m);
    assert_eq!(v, exchange_value(p, m), "brute force disagrees on {mv}");
    assert!(p.see_ge(m, v) && !p.see_ge(m, v + 1));
    v
}

fn chess(fen: &str) -> Chess {
    crate::engine::registry::new_game::<Chess>("chess")
        .unwrap()
        .with_fen(fen)
        .unwrap()
}

fn swedish(fen: &str) -> SwedishCannonChess {
    crate::engine::registry::new_game::<SwedishCannonChess>("swedishcannon")
        .unwrap()
        .with_fen(fen)
        .unwrap()
}

fn cannonrider(fen: &str) -> CannonriderChess {
    crate::engine::registry::new_game::<CannonriderChess>("cannonrider")
        .unwrap()
        .with_fen(fen)
        .unwrap()
}

const P: i32 = 82;
const N: i32 = 337;
const B: i32 = 365;
const R: i32 = 477;
const Q: i32 = 1025;
const C: i32 = 350;
const CR: i32 = 540;

#[test]
fn values_follow_role_value_with_the_king_last() {
    assert_eq!(
        [P, N, B, R, Q],
        [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen
        ]
        .map(see_value)
    );
    assert_eq!(see_value(Role::Cannon), C);
    assert_eq!(see_value(Role::Cannonrider), CR);
    assert!(Role::ALL
        .iter()
        .all(|&r| see_value(r) <= see_value(Role::King)));
}

#[test]
fn pawn_takes_knight_defended_by_a_pawn() {
    let p = chess("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(value(&p, "e4d5"), N - P);
    // Undefended: the whole knight.
    let p = chess("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(value(&p, "e4d5"), N);
}

#[test]
fn rook_takes_rook_with_a_queen_behind() {
    // Rd2xd7 Rxd7 Qxd7: the queen behind the rook joins when the rook has gone.
    let p = chess("3r2k1/3r4/8/8/8/8/3R4/3QK3 w - - 0 1");
    assert_eq!(value(&p, "d2d7"), R);
    // Without the queen it is an even trade.
    let p = chess("3r2k1/3r4/8/8/8/8/3R4/4K3 w - - 0 1");
    assert_eq!(value(&p, "d2d7"), 0);
}

#[test]
fn bishop_behind_a_pawn_joins_on_the_diagonal() {
    // exd5 cxd5 cxd5 Rxd5 Bxd5: the bishop on b3 sees d5 once the c4 pawn has gone, so black
    // does not take the second time. Without that x-ray white would stop at N - P.
    let p = chess("3rk3/8/2p5/3n4/2P1P3/1B6/8/4K3 w - - 0 1");
    assert_eq!(value(&p, "e4d5"), N);
    let p = chess("3rk3/8/2p5/3n4/2P1P3/8/8/4K3 w - - 0 1");
    assert_eq!(value(&p, "e4d5"), N - P);
}

#[test]
fn a_quiet_move_onto_an_attacked_square_loses_the_piece() {
    let p = chess("4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1");
    let m = find(&p, "d1d4");
    assert_eq!(value(&p, "d1d4"), -Q);
    assert!(!p.see_ge(m, -50));
    assert_eq!(value(&p, "d1d3"), 0);
    assert!(p.see_ge(find(&p, "d1d3"), -50));
}

#[test]
fn a_king_takes_only_an_undefended_capturer() {
    // Rxd5: only the king defends d5, and the bishop on f3 guards it: the king cannot take.
    let p = chess("8/8/4k3/3p4/8/5B2/8/3RK3 w - - 0 1");
    assert_eq!(value(&p, "d1d5"), P);
    // Without the bishop the king takes the rook.
    let p = chess("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1");
    assert_eq!(value(&p, "d1d5"), P - R);
}

#[test]
fn promotions_count_what_they_add() {
    // e8=Q is taken by the rook: the pawn is lost.
    let p = chess("r6k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(value(&p, "e7e8q"), Q - P - Q);
    assert_eq!(value(&p, "e7e8n"), N - P - N);
    // Undefended: a queen for a pawn.
    let p = chess("7k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(value(&p, "e7e8q"), Q - P);
    // A pawn that recaptures onto its last rank promotes: Rd1 is taken by c2xd1=Q, which the
    // king takes back.
    let p = chess("4k3/8/8/8/8/8/2p5/R3K3 w - - 0 1");
    assert_eq!(value(&p, "a1d1"), -(R + Q - P - Q));
}

#[test]
fn en_passant_removes_the_pawn_beside() {
    // exd6 e.p.: the captured pawn's square empties, so the rook on d1 sees d6.
    let p = chess("4k3/8/8/3pP3/8/8/7K/3r4 w - d6 0 1");
    assert_eq!(value(&p, "e5d6"), 0);
    let p = chess("4k3/8/8/3pP3/8/8/7K/8 w - d6 0 1");
    assert_eq!(value(&p, "e5d6"), P);
}

#[test]
fn castling_is_worth_nothing() {
    let p = chess("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let m = find(&p, "e1g1");
    assert_eq!(m.kind(), MoveKind::Castle);
    assert!(p.see_ge(m, 0) && !p.see_ge(m, 1));
}

#[test]
fn swedish_cannon_gains_its_screen_when_a_rook_leaves() {
    // Rd3xd5 exd5, then the d1 cannon (over the d2 rook, now that d3 is empty) recaptures
    // before the rook behind it: Cxd5 wins the pawn and black's Rd8 may not take (Rd2xd5).
    // Without the cannon white would have to stop at -140.
    let p = swedish("3r3k/8/4p3/3n4/8/3R4/3R4/3CK3[] w - - 0 1");
    assert_eq!(value(&p, "d3d5"), N - R + P);
}

#[test]
fn swedish_cannon_loses_its_attack_when_its_screen_recaptures() {
    // exd5 Rxd5: the black rook was the d8 cannon's screen; once it stands on d5 the cannon
    // has nothing to hop over and cannot take back.
    let p = swedish("3C3k/3r4/8/3n4/4P3/8/8/4K3[] w - - 0 1");
    assert_eq!(value(&p, "e4d5"), N - P);
    // With the rook on d6 behind a d7 pawn, the rook's recapture gives the cannon (over d7) a
    // line to d5, so black does not recapture at all.
    let p = swedish("3C3k/3p4/3r4/3n4/4P3/8/8/4K3[] w - - 0 1");
    assert_eq!(value(&p, "e4d5"), N);
}

#[test]
fn swedish_cannon_drop_is_a_placed_piece() {
    // The cannon enters on d2 and the pawn goes to d4, where it is the screen of the black
    // cannon on d8: Cxd2, and the king takes back, so black does not take.
    let p = swedish("3ck3/8/8/8/8/8/3P4/4K3[C] w - - 0 1");
    let m = find(&p, "C@d2");
    assert_eq!(m.kind(), MoveKind::Entry);
    assert_eq!(value(&p, "C@d2"), 0);
    let p = swedish("3ck3/8/8/8/8/8/3P4/7K[C] w - - 0 1");
    assert_eq!(value(&p, "C@d2"), -C);
}

#[test]
fn cannonrider_powers_follow_the_square_colour() {
    // d1 is dark: a cannon that hops d3 to take the knight on d5, retaken by e6.
    let p = cannonrider("5k4/*8*/*3p4*/*2n5*/*8*/*2P5*/*8*/3C1K4 w - - 0 1");
    assert_eq!(value(&p, "d1d5"), N - CR);
    // Without the screen on d3 it cannot reach d5 at all; as a nightrider on light c1 it
    // takes e5 along c1-d3-e5 instead.
    let p = cannonrider("5k4/*8*/*8*/*3n4*/*8*/*8*/*8*/2C2K4 w - - 0 1");
    assert_eq!(value(&p, "c1e5"), N);
    // A nightrider behind a nightrider: black's knight on e5 is defended by its pawn f6; white
    // and rook e8: dxe5 fxe5 Nxe5 Rxe5, and the rider joins along c1-d3-e5 once the knight
    // has left d3, so black does not play Rxe5. Without that x-ray white stops at N - P.
    let p = cannonrider("4rk4/*8*/*4p3*/*3n4*/*2P5*/*2N5*/*8*/2C2K4 w - - 0 1");
    assert_eq!(value(&p, "d4e5"), N);
    let p = cannonrider("4rk4/*8*/*4p3*/*3n4*/*2P5*/*2N5*/*8*/5K4 w - - 0 1");
    assert_eq!(value(&p, "d4e5"), N - P);
}

#[test]
fn chesstonia_fired_pieces_can_be_lost_and_stones_never() {
    // White's cannon on k4, loaded with the Wazir (l1): the rank-4 screen is the g4 pawn; the
    // Wazir may land on f4, e4, d4 or c4. A black pawn on e5 covers d4 and f4.
    let fen =
        "1*rnbqkbnr**/**pp1ppppp**/pc9S/w3p6F/f5P3C1/s10P/**PPPP1PPP**/**RNBQKBNR*W w KQkq - 0 1";
    let p = crate::engine::registry::new_game::<ChesstoniaChess>("chesstonia")
        .unwrap()
        .with_fen(fen)
        .unwrap();
    const W: i32 = 120;
    assert_eq!(value(&p, "l1f4"), -W);
    assert_eq!(value(&p, "l1d4"), -W);
    assert_eq!(value(&p, "l1e4"), 0);
    assert_eq!(value(&p, "l1c4"), 0);
    // The machinery's own moves are worth nothing.
    for m in ["k4k5", "l1l4"] {
        assert_eq!(value(&p, m), 0);
    }
}

#[test]
fn see_ge_is_monotone_in_the_threshold() {
    let p = chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let mut moves = ChessMoves::new();
    p.legal_moves(&mut moves);
    for m in moves {
        let v = p.see(m);
        for t in [-2000, -100, 0, 100, 2000] {
            assert_eq!(p.see_ge(m, t), v >= t);
        }
    }
}

fn property<W: BitWord + ChessWord, R: ChessRules>(
    variant: &str,
    choices: &[(u16, i16)],
) -> Result<usize, String> {
    let start = crate::engine::registry::new_game::<ChessPosition<W, R>>(variant).unwrap();
    check_random_game(&start, choices)
}

fn games() -> impl Strategy<Value = Vec<(u16, i16)>> {
    proptest::collection::vec((any::<u16>(), -1200i16..1200), 10..70)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn see_matches_brute_force_in_chess(g in games()) {
        property::<u64, crate::games::chess::Orthodox>("chess", &g).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn see_matches_brute_force_in_swedishcannon(g in games()) {
        property::<u64, crate::games::chess::SwedishCannon>("swedishcannon", &g)
            .map_err(TestCaseError::fail)?;
    }

    #[test]
    fn see_matches_brute_force_in_swedishcannon1(g in games()) {
        property::<u64, crate::games::chess::SwedishCannon>("swedishcannon1", &g)
            .map_err(TestCaseError::fail)?;
    }

    #[test]
    fn see_matches_brute_force_in_cannonrider(g in games()) {
        property::<u128, crate::games::chess::Cannonrider>("cannonrider", &g)
            .map_err(TestCaseError::fail)?;
    }

    #[test]
    fn see_matches_brute_force_in_cannonriderscorpion(g in games()) {
        property::<u128, crate::games::chess::Cannonrider>("cannonriderscorpion", &g)
            .map_err(TestCaseError::fail)?;
    }

    #[test]
    fn see_matches_brute_force_in_chesstonia(g in games()) {
        property::<u128, crate::games::chess::Chesstonia>("chesstonia", &g)
            .map_err(TestCaseError::fail)?;
    }
}
