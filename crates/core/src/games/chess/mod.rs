//! The chess family: one position type on any geometry, used by orthodox chess and by the
//! cannon chess variants.

mod cannonrider;
mod chesstonia;
mod eval;
pub mod eval_params;
mod eval_terms;
mod fen;
mod movegen;
pub mod nnue_features;
mod piece;
mod position;
mod quiet_order;
mod rules;
mod san;
mod see;
mod swedish;
mod tables;

pub use cannonrider::Cannonrider;
pub use chesstonia::Chesstonia;
pub use eval::role_value;
pub use piece::{Piece, Role};
pub use position::ChessPosition;
pub use rules::{ChessBoard, ChessRules, Orthodox, GUSTAVIAN_CHESS, GUSTAVIAN_CHESS_START};
pub use swedish::SwedishCannon;
pub use tables::ChessTables;

use crate::board::fen::diagram;
use crate::board::zobrist::{mix64, pair_key};
use crate::board::{BitWord, Bitboard, Color, Geometry, Square};
use crate::games::tuning::{EvalTraced, EvalTuning, ParamTable, Trace};
use crate::games::{
    from_white, EndReason, FenError, Game, GameError, Move, MoveKind, Notation, Outcome, Variant,
};
use arrayvec::ArrayVec;
use std::sync::OnceLock;

/// Room for the moves of any chess-family position. The FEN reader refuses a position where a
/// side could have more ([`ChessPosition::most_moves_of_side`]): the squares each of its
/// pieces reaches with nothing in the way (a queen 27 on 8x8, 28 on the Gustavian board), a
/// pawn as the best piece it may become, Swedish cannons in reserve with their entries,
/// Chesstonia's machinery with its loads and shots. No move raises that count, so no position
/// searched from an accepted one has more. The start positions count 323 (chess), 345 and 359
/// (Swedish Cannon Chess with one and two cannons in reserve), 373 (Chesstonia) and 386
/// (Gustavian Cannonrider Chess, with pawns or Scorpions); 400 leaves room for FENs with a
/// little more material. (The most legal moves found in an orthodox position are 218.)
pub const CHESS_MOVES: usize = 400;

/// The move list of the family: room for [`CHESS_MOVES`] moves.
pub type ChessMoves = ArrayVec<Move, CHESS_MOVES>;

/// Orthodox chess on the 8x8 board with `u64` bitboards.
pub type Chess = ChessPosition<u64>;
/// Orthodox chess on the Gustavian board (a test of the board code).
pub type GustavianChess = ChessPosition<u128>;
/// Gustavian Cannonrider Chess, with pawns or with Scorpions.
pub type CannonriderChess = ChessPosition<u128, Cannonrider>;
/// Swedish Cannon Chess, with two or one cannons in reserve.
pub type SwedishCannonChess = ChessPosition<u64, SwedishCannon>;
/// Cannons of Chesstonia, on a 12x8 word.
pub type ChesstoniaChess = ChessPosition<u128, Chesstonia>;

/// Tables of the orthodox 8x8 board, built on first use.
pub fn chess_tables() -> &'static ChessTables<u64> {
    static TABLES: OnceLock<ChessTables<u64>> = OnceLock::new();
    TABLES.get_or_init(|| ChessTables::new(Geometry::new(8, 8, &[])))
}

/// Tables of the Gustavian board: 10x8, files a and j only on ranks 1 and 8.
pub fn gustavian_tables() -> &'static ChessTables<u128> {
    static TABLES: OnceLock<ChessTables<u128>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let holes: Vec<_> = (1..7).flat_map(|r| [(0, r), (9, r)]).collect();
        ChessTables::new(Geometry::new(10, 8, &holes))
    })
}

/// Tables of Chesstonia's board: files c..j of a 12x8 word are the chess board; files a, b, k
/// and l are holes for every chess piece and hold the cannon machinery (`ChessTables::extra`).
pub fn chesstonia_tables() -> &'static ChessTables<u128> {
    static TABLES: OnceLock<ChessTables<u128>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let holes: Vec<_> = (0..8)
            .flat_map(|r| [(0, r), (1, r), (10, r), (11, r)])
            .collect();
        let (extra, loads) = chesstonia::machine_squares();
        ChessTables::with_extra(Geometry::new(12, 8, &holes), extra, loads)
    })
}

/// The words a chess-family board can use, with the boards each one can hold.
pub trait ChessWord: BitWord {
    /// Tables of a board played on this word, if it fits.
    fn chess_tables(board: ChessBoard) -> Option<&'static ChessTables<Self>>;
}

impl ChessWord for u64 {
    fn chess_tables(board: ChessBoard) -> Option<&'static ChessTables<u64>> {
        match board {
            ChessBoard::Orthodox => Some(chess_tables()),
            ChessBoard::Gustavian | ChessBoard::Chesstonia => None,
        }
    }
}

impl ChessWord for u128 {
    fn chess_tables(board: ChessBoard) -> Option<&'static ChessTables<u128>> {
        match board {
            ChessBoard::Orthodox => None,
            ChessBoard::Gustavian => Some(gustavian_tables()),
            ChessBoard::Chesstonia => Some(chesstonia_tables()),
        }
    }
}

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
    /// The move string: from, to, and a lower-case promotion letter.
    pub fn move_string(&self, m: Move, notation: Notation) -> String {
        let geo = &self.t.geo;
        let zero = notation.ranks_from_zero(geo.ranks());
        let mut s = geo.square_name(m.from(), zero);
        s += &geo.square_name(m.to(), zero);
        match m.kind() {
            // An entry is written as a drop: the piece letter, `@` and the square.
            MoveKind::Entry => {
                let mut d = Role::from_index(m.piece() as usize).letter().to_string();
                d.push('@');
                return d + &geo.square_name(m.to(), zero);
            }
            MoveKind::Promotion => s.push(
                Role::from_index(m.piece() as usize)
                    .letter()
                    .to_ascii_lowercase(),
            ),
            _ => {}
        }
        s
    }

    fn insufficient_material(&self) -> bool {
        let heavy = self.pawn_like()
            | self.role_bb(Role::Rook)
            | self.role_bb(Role::Queen)
            | self.role_bb(Role::Cannon)
            | self.role_bb(Role::Cannonrider)
            | self.role_bb(Role::Wazir)
            | self.role_bb(Role::Ferz)
            // Chesstonia's cannon never leaves its track: there the game is never drawn for
            // want of material.
            | self.role_bb(Role::TrackCannon);
        if heavy.any() {
            return false;
        }
        let minors = self.role_bb(Role::Knight) | self.role_bb(Role::Bishop);
        // King against king, or king and one minor piece against king: no mate is possible.
        minors.count() <= 1
    }

    /// `seed` chained with the squares of each of `roles` among `pieces`, role by role, so
    /// that the same squares held by another role give another key (the correction keys).
    fn chain_roles(&self, seed: u64, pieces: Bitboard<W>, roles: &[Role]) -> u64 {
        roles.iter().fold(seed, |h, &r| {
            mix64(h.rotate_left(23) ^ (self.role_bb(r) & pieces).0.fold_u64())
        })
    }

    /// A key of where both colours' pieces of `roles` stand, `seed` telling one such key from
    /// another: white's chain continued by black's, so that the same squares held by the
    /// other colour give another key.
    fn roles_key(&self, roles: &[Role], seed: u64) -> u64 {
        [Color::White, Color::Black]
            .iter()
            .fold(seed, |h, &c| self.chain_roles(h, self.ours(c), roles))
    }
}

/// The chess family's evaluation, taken apart for the tuner (`cannonade tune`).
impl<W: ChessWord, R: ChessRules> EvalTraced for ChessPosition<W, R> {
    fn params() -> &'static ParamTable {
        &eval_params::TABLE
    }
    fn eval_trace(&self) -> Trace {
        ChessPosition::eval_trace(self)
    }
}

impl<W: ChessWord, R: ChessRules> Game for ChessPosition<W, R> {
    type Moves = ChessMoves;

    fn eval_tuning() -> Option<EvalTuning<Self>> {
        Some(EvalTuning::of())
    }

    fn new_game(variant: &'static Variant) -> Result<Self, GameError> {
        let name = variant.name;
        let Some(board) = ChessBoard::of_size(variant.files, variant.ranks) else {
            return Err(GameError::NotThisGame {
                name: name.to_string(),
                why: "is on a board the chess family does not have",
            });
        };
        let Some(tables) = W::chess_tables(board) else {
            return Err(GameError::NotThisGame {
                name: name.to_string(),
                why: "does not fit this bitboard word",
            });
        };
        Ok(ChessPosition::from_fen(tables, variant, variant.start_fen)?)
    }

    fn with_fen(&self, fen: &str) -> Result<Self, FenError> {
        ChessPosition::from_fen(self.t, self.variant, fen)
    }

    fn to_fen(&self) -> String {
        self.fen()
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn legal_moves(&self, out: &mut ChessMoves) {
        self.generate_legal(out)
    }

    #[inline]
    fn tactical_moves(&self, out: &mut ChessMoves) {
        R::generate_tactical(self, out)
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        self.is_capture_or_promotion(m)
    }

    #[inline]
    fn make_move(&mut self, m: Move) {
        self.make(m)
    }

    #[inline]
    fn unmake_move(&mut self) {
        self.unmake()
    }

    fn make_null_move(&mut self) {
        self.make_null()
    }

    fn unmake_null_move(&mut self) {
        self.unmake_null()
    }

    /// The pawns (and the pieces that move like them) of each side.
    fn structure_key(&self) -> Option<u64> {
        let pawns = self.pawn_like();
        Some(pair_key(
            (pawns & self.ours(Color::White)).0.fold_u64(),
            (pawns & self.ours(Color::Black)).0.fold_u64(),
        ))
    }

    fn piece_keys(&self) -> Option<[u64; 2]> {
        let pawns = self.pawn_like();
        let side = |c: Color| self.chain_roles(c.index() as u64, self.ours(c) & !pawns, R::ROLES);
        Some([side(Color::White), side(Color::Black)])
    }

    fn minor_key(&self) -> Option<u64> {
        Some(self.roles_key(&[Role::Knight, Role::Bishop, Role::King], 7))
    }

    fn major_key(&self) -> Option<u64> {
        // The family's heavy pieces: the Swedish cannon and the cannonrider move along lines
        // as a rook does.
        Some(self.roles_key(
            &[
                Role::Rook,
                Role::Queen,
                Role::King,
                Role::Cannon,
                Role::Cannonrider,
            ],
            11,
        ))
    }

    fn null_move_ok(&self) -> bool {
        if self.in_check() {
            return false;
        }
        // A side that can always make a move that changes nothing is never in zugzwang.
        if R::has_free_tempo(self) {
            return true;
        }
        // Zugzwang is common when only king and pawns are left.
        let us = self.ours(self.side) & self.t.geo.valid();
        let pieces =
            us & !(self.pawn_like() | self.role_bb(Role::King) | self.role_bb(Role::Stone));
        pieces.any()
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    #[inline]
    fn key_after_hint(&self, m: Move) -> Option<u64> {
        ChessPosition::key_after_hint(self, m)
    }

    fn compute_key(&self) -> u64 {
        ChessPosition::compute_key(self)
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.checkers().any()
    }

    #[inline]
    fn may_give_check(&self, m: Move) -> bool {
        R::may_give_check(self, m)
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        if self.halfmove >= 100 {
            // A mate on the hundredth ply wins; the caller checks mate before this.
            let mut moves = ChessMoves::new();
            self.generate_legal(&mut moves);
            if !(moves.is_empty() && self.in_check()) {
                return Some(Outcome::Draw(EndReason::FiftyMoveRule));
            }
        }
        if self.repetitions(usize::MAX) >= 2 {
            return Some(Outcome::Draw(EndReason::Repetition));
        }
        if self.insufficient_material() {
            return Some(Outcome::Draw(EndReason::InsufficientMaterial));
        }
        None
    }

    fn no_moves_outcome(&self) -> Outcome {
        if self.in_check() {
            Outcome::Loss(EndReason::Checkmate)
        } else {
            Outcome::Draw(EndReason::Stalemate)
        }
    }

    fn is_repetition_within(&self, plies: usize) -> bool {
        self.repetitions(plies) >= 1
    }

    fn move_to_string(&self, m: Move, notation: Notation) -> String {
        self.move_string(m, notation)
    }

    fn move_to_pgn(&self, m: Move) -> String {
        self.san(m)
    }

    fn evaluate(&self) -> i32 {
        from_white(self.side, self.evaluate_white())
    }

    fn material(&self) -> i32 {
        from_white(self.side, self.material_white())
    }

    #[inline]
    fn scale_net_value(&self, v: i32) -> i32 {
        R::scale_net_value(self, v)
    }

    #[inline]
    fn scale_toward_draw(&self, v: i32) -> i32 {
        R::scale_toward_draw(self, v)
    }

    #[inline]
    fn draw_clock(&self) -> u32 {
        u32::from(self.halfmove)
    }

    fn capture_value(&self, m: Move) -> i32 {
        self.captured_piece(m).map_or(0, |p| role_value(p.role()))
            + if m.kind() == MoveKind::Promotion {
                role_value(Role::from_index(m.piece() as usize))
            } else {
                0
            }
    }

    fn mover_value(&self, m: Move) -> i32 {
        if m.kind() == MoveKind::Entry {
            return 0;
        }
        self.piece_at(m.from()).map_or(0, |p| role_value(p.role()))
    }

    fn moved_kind(&self, m: Move) -> usize {
        if m.kind() == MoveKind::Entry {
            return Role::from_index(m.piece() as usize).index();
        }
        self.piece_at(m.from()).map_or(0, |p| p.role().index())
    }

    fn add_quiet_order(&self, moves: &[Move], scores: &mut [i32]) {
        self.add_threat_order(moves, scores);
    }

    #[inline]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see_ge_impl(m, threshold)
    }

    fn fen_piece(&self, sq: Square) -> Option<String> {
        self.piece_at(sq).map(|p| p.letter().to_string())
    }

    fn occupant(&self, sq: Square) -> Option<(Color, u8)> {
        self.piece_at(sq).map(|p| (p.color(), p.code()))
    }

    fn board_diagram(&self) -> String {
        let geo = &self.t.geo;
        diagram(geo, |sq| {
            if !geo.is_valid(sq) && !self.t.extra.contains(sq) {
                "  ".to_string()
            } else {
                format!(" {}", self.piece_at(sq).map_or('.', Piece::letter))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry::new_game;

    fn most<G: Game>(name: &str, count: impl Fn(&G, Color) -> usize) -> usize {
        let start: G = new_game(name).unwrap();
        let (white, black) = (count(&start, Color::White), count(&start, Color::Black));
        assert_eq!(white, black, "{name}");
        white
    }

    /// The prefetch hint is the real key after every ordinary move and promotion that leaves
    /// the castling rights alone and opens no en-passant capture, along random games and in
    /// positions with captures, promotions, rights and an en-passant square.
    #[test]
    fn the_key_hint_is_the_key_after_the_move_where_it_foresees_everything() {
        use crate::board::zobrist::SplitMix64;
        let start: Chess = new_game("chess").unwrap();
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        let mut rng = SplitMix64::new(64);
        let (mut checked, mut normal) = (0, 0);
        for fen in fens {
            let mut pos = start.with_fen(fen).unwrap();
            for _ply in 0..40 {
                let mut moves = ChessMoves::new();
                pos.generate_legal(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let hint = pos.key_after_hint(m);
                    if matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion) {
                        normal += 1;
                        assert!(hint.is_some(), "{fen}: {m:?}");
                    }
                    let Some(k) = hint else { continue };
                    let rights = pos.castling;
                    pos.make_move(m);
                    if pos.castling == rights && pos.ep.is_none() {
                        assert_eq!(k, pos.key(), "{fen}: {m:?}");
                        checked += 1;
                    }
                    pos.unmake_move();
                }
                let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                pos.make_move(m);
            }
        }
        assert!(
            checked > 1000 && checked * 10 > normal * 8,
            "{checked} of {normal}"
        );
    }

    #[test]
    fn the_structure_key_follows_the_pawns_of_each_side_and_nothing_else() {
        let start: Chess = new_game("chess").unwrap();
        let key = |fen: &str| start.with_fen(fen).unwrap().structure_key().unwrap();
        let base = key("4k3/pp6/8/8/8/8/PP6/4K1N1 w - - 0 1");
        // Pieces that are not pawns, the side to move and the kings do not count.
        assert_eq!(base, key("3k4/pp6/8/8/8/8/PP6/4K1N1 b - - 0 1"));
        assert_eq!(base, key("4k3/pp6/8/8/8/5N2/PP6/4K3 w - - 0 1"));
        // A pawn moved, a pawn taken, and the same pawns with the colours swapped all differ.
        let others = [
            key("4k3/pp6/8/8/8/1P6/P7/4K1N1 w - - 0 1"),
            key("4k3/p7/8/8/8/8/PP6/4K1N1 w - - 0 1"),
            key("4k3/PP6/8/8/8/8/pp6/4K1N1 w - - 0 1"),
        ];
        for k in others {
            assert_ne!(k, base);
        }
        // On the 128-bit word of the Gustavian board too, a move from the start changes the
        // key exactly when it moves or takes a pawn-like piece.
        let rider: CannonriderChess = new_game("cannonriderscorpion").unwrap();
        let base = rider.structure_key().unwrap();
        let mut moves = ChessMoves::new();
        rider.generate_legal(&mut moves);
        let pawn_like = rider.pawn_like();
        let mut pawn_moves = 0;
        for &m in &moves {
            let touched = pawn_like.contains(m.from()) || pawn_like.contains(m.to());
            let mut p = rider.clone();
            p.make(m);
            assert_eq!(p.structure_key().unwrap() != base, touched, "{m:?}");
            pawn_moves += usize::from(touched);
        }
        assert!(pawn_moves > 0 && pawn_moves < moves.len());
    }

    #[test]
    fn the_net_value_shrinks_with_the_material_in_orthodox_chess_only() {
        let start: Chess = new_game("chess").unwrap();
        // 16 pawns, 4 knights, 4 bishops, 4 rooks and 2 queens in Stockfish's weights.
        let full = 16 * 534 + 4 * 781 + 4 * 825 + 4 * 1276 + 2 * 2538;
        assert_eq!(start.scale_net_value(1000), 1000 * 77777 / (77777 + full));
        assert_eq!(start.scale_net_value(-1000), -1000 * 77777 / (77777 + full));
        let bare = start.with_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(bare.scale_net_value(1000), 1000);
        let rook = start.with_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(rook.scale_net_value(1000), 1000 * 77777 / (77777 + 1276));
        // The other chess-family games keep their nets' values.
        let swedish: SwedishCannonChess = new_game("swedishcannon").unwrap();
        assert_eq!(swedish.scale_net_value(1000), 1000);
    }

    #[test]
    fn the_endings_a_classical_evaluation_knows_as_drawn_scale_toward_0_in_orthodox_chess() {
        let start: Chess = new_game("chess").unwrap();
        let scaled = |fen: &str, v: i32| start.with_fen(fen).unwrap().scale_toward_draw(v);
        // Rook against bishop or knight: 4/64, whichever side is to move and ahead.
        assert_eq!(scaled("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1", 640), 40);
        assert_eq!(scaled("4k3/8/8/3n4/8/8/8/R3K3 b - - 0 1", -640), -40);
        // Rook and bishop against rook: 14/64.
        assert_eq!(scaled("r3k3/8/8/8/8/8/8/RB2K3 w - - 0 1", 640), 140);
        // A lone minor piece, even against pawns, and two knights against a bare king: 0.
        assert_eq!(scaled("4k3/5p2/8/8/8/8/8/1B2K3 w - - 0 1", 300), 0);
        assert_eq!(scaled("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", 900), 0);
        // Two knights against a pawn can win; two bishops win; a rook and pawn against a
        // bishop, or a queen against a rook, are not the rule's: left alone.
        assert_eq!(scaled("4k3/8/8/8/4p3/8/8/1NN1K3 w - - 0 1", 900), 900);
        assert_eq!(scaled("4k3/8/8/8/8/8/8/2BBK3 w - - 0 1", 900), 900);
        assert_eq!(scaled("4k3/8/8/3b4/8/8/P7/R3K3 w - - 0 1", 640), 640);
        assert_eq!(scaled("4k3/8/8/3r4/8/8/8/Q3K3 w - - 0 1", 640), 640);
        // The side the value favours is the stronger one: black, a rook behind but better
        // by the value, keeps it, having a pawn.
        assert_eq!(scaled("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1", -200), -200);
        // A rook's pawn and the bishop that cannot cover its promotion square, the other
        // king in the corner: 0, for either colour; the other bishop, or the king away from
        // the corner, or a pawn for the defender: left alone.
        assert_eq!(scaled("1k6/8/8/8/8/8/P7/2B1K3 w - - 0 1", 900), 0);
        assert_eq!(scaled("4kb2/7p/8/8/8/8/8/6K1 b - - 0 1", 700), 0);
        assert_eq!(scaled("1k6/8/8/8/8/8/P7/1B2K3 w - - 0 1", 900), 900);
        assert_eq!(scaled("7k/8/8/8/8/8/P7/2B1K3 w - - 0 1", 900), 900);
        assert_eq!(scaled("1k6/8/8/8/8/4p3/P7/2B1K3 w - - 0 1", 900), 900);
        // The same with no bishop at all: a king and a rook's pawn against the king in the
        // corner; a knight's pawn, or the king away, left alone.
        assert_eq!(scaled("k7/8/8/8/8/8/P7/4K3 w - - 0 1", 900), 0);
        assert_eq!(scaled("1k6/8/8/8/8/8/P7/4K3 b - - 0 1", -900), 0);
        assert_eq!(scaled("k7/8/8/8/8/8/1P6/4K3 w - - 0 1", 900), 900);
        assert_eq!(scaled("7k/8/8/8/8/8/P7/4K3 w - - 0 1", 900), 900);
        // A bishop each on squares of different colours (c1 and e6, or c1 and c8), nothing
        // else but pawns: 18/64 and 4/64 for each passed pawn of the side ahead (a2 is passed,
        // e4 is not; black's a7 and b7 both are).
        assert_eq!(scaled("4k3/4p3/4b3/8/4P3/8/P7/2B1K3 w - - 0 1", 640), 220);
        assert_eq!(scaled("2b1k3/pp6/8/8/8/8/8/2B1K3 b - - 0 1", 640), 260);
        // Bishops of one colour (c1 and d6), or a knight besides: left alone.
        assert_eq!(scaled("4k3/4p3/3b4/8/4P3/8/P7/2B1K3 w - - 0 1", 640), 640);
        assert_eq!(scaled("4k3/4p3/4b3/8/4P3/8/P7/2B1KN2 w - - 0 1", 640), 640);
        // The other chess-family games keep their values.
        let swedish: SwedishCannonChess = new_game("swedishcannon").unwrap();
        assert_eq!(swedish.scale_toward_draw(640), 640);
    }

    #[test]
    fn the_piece_keys_follow_each_sides_pieces_and_not_the_pawns() {
        let start: Chess = new_game("chess").unwrap();
        let keys = |fen: &str| start.with_fen(fen).unwrap().piece_keys().unwrap();
        let [white, black] = keys("4k3/pp6/8/8/8/8/PP6/4K1N1 w - - 0 1");
        // Pawns and the side to move do not count.
        assert_eq!([white, black], keys("4k3/8/1p6/8/8/P7/8/4K1N1 b - - 0 1"));
        // A white knight moved changes white's key alone; the black king moved, black's alone.
        let [w, b] = keys("4k3/pp6/8/8/8/5N2/PP6/4K3 w - - 0 1");
        assert!(w != white && b == black);
        let [w, b] = keys("3k4/pp6/8/8/8/8/PP6/4K1N1 w - - 0 1");
        assert!(w == white && b != black);
        // The same squares held by another kind of piece, or by the other colour, differ.
        let [w, _] = keys("4k3/pp6/8/8/8/8/PP6/4K1B1 w - - 0 1");
        assert_ne!(w, white);
        let [w, b] = keys("4K3/pp6/8/8/8/8/PP6/4k1n1 w - - 0 1");
        assert!(w != black && b != white);
        // In a game whose pawn-like pieces include the scorpion, a scorpion's move from the
        // start changes neither key, and a cannon's changes its own side's.
        let rider: CannonriderChess = new_game("cannonriderscorpion").unwrap();
        let base = rider.piece_keys().unwrap();
        let mut moves = ChessMoves::new();
        rider.generate_legal(&mut moves);
        let pawn_like = rider.pawn_like();
        for &m in &moves {
            let mut p = rider.clone();
            p.make(m);
            let [w, b] = p.piece_keys().unwrap();
            assert_eq!(b, base[1], "{m:?}");
            assert_eq!(w != base[0], !pawn_like.contains(m.from()), "{m:?}");
        }
    }

    #[test]
    fn the_minor_key_follows_knights_bishops_and_kings_alone() {
        let start: Chess = new_game("chess").unwrap();
        let key = |fen: &str| start.with_fen(fen).unwrap().minor_key().unwrap();
        let base = key("r3k3/pp3b2/8/8/8/8/PP6/3QK1N1 w - - 0 1");
        // Pawns, rooks, queens and the side to move do not count.
        assert_eq!(base, key("4k3/p4b2/1p6/8/8/8/1P6/4K1N1 b - - 0 1"));
        // A knight, a bishop or a king moved does.
        assert_ne!(base, key("r3k3/pp3b2/8/8/8/5N2/PP6/3QK3 w - - 0 1"));
        assert_ne!(base, key("r3k3/pp6/8/8/2b5/8/PP6/3QK1N1 w - - 0 1"));
        assert_ne!(base, key("r4k2/pp3b2/8/8/8/8/PP6/3QK1N1 w - - 0 1"));
        // The same squares held by another kind of minor piece, or by the other colour, differ.
        assert_ne!(base, key("r3k3/pp3b2/8/8/8/8/PP6/3QK1B1 w - - 0 1"));
        assert_ne!(base, key("r3k3/pp3b2/8/8/8/8/PP6/3QK1n1 w - - 0 1"));
    }

    #[test]
    fn the_draw_clock_is_the_fifty_move_rules_halfmove_clock() {
        use crate::engine::session::apply_moves;
        let start: Chess = new_game("chess").unwrap();
        let mut p = start
            .with_fen("4k3/4p3/8/8/8/8/3P4/4K1N1 w - - 37 60")
            .unwrap();
        assert_eq!(p.draw_clock(), 37);
        // The live clock, not the FEN's: it counts on, and a pawn move starts it again.
        apply_moves(&mut p, &["g1f3"], Notation::Uci).unwrap();
        assert_eq!(p.draw_clock(), 38);
        apply_moves(&mut p, &["e7e5"], Notation::Uci).unwrap();
        assert_eq!(p.draw_clock(), 0);
    }

    #[test]
    fn the_major_key_follows_rooks_queens_and_kings_alone() {
        let start: Chess = new_game("chess").unwrap();
        let key = |fen: &str| start.with_fen(fen).unwrap().major_key().unwrap();
        let base = key("r3k3/pp3b2/8/8/8/8/PP6/3QK1N1 w - - 0 1");
        // Pawns, knights, bishops and the side to move do not count.
        assert_eq!(base, key("r3k3/p7/1p3n2/8/8/8/1P6/3QK3 b - - 0 1"));
        // A rook, a queen or a king moved does.
        assert_ne!(base, key("1r2k3/pp3b2/8/8/8/8/PP6/3QK1N1 w - - 0 1"));
        assert_ne!(base, key("r3k3/pp3b2/8/8/8/8/PP6/2Q1K1N1 w - - 0 1"));
        assert_ne!(base, key("r4k2/pp3b2/8/8/8/8/PP6/3QK1N1 w - - 0 1"));
        // The same squares held by another heavy piece, or by the other colour, differ.
        assert_ne!(base, key("r3k3/pp3b2/8/8/8/8/PP6/3RK1N1 w - - 0 1"));
        assert_ne!(base, key("R3k3/pp3b2/8/8/8/8/PP6/3QK1N1 b - - 0 1"));
        // The minor key is another key of the same position.
        assert_ne!(
            start
                .with_fen("r3k3/pp3b2/8/8/8/8/PP6/3QK1N1 w - - 0 1")
                .unwrap()
                .minor_key()
                .unwrap(),
            base
        );
    }

    /// What the position keeps up to date as it changes (the pieces' placement sums for the
    /// evaluation, the checkers) equals what a look at the board gives, along random games with
    /// their moves taken back, in every variant of the family.
    fn kept_state_matches_the_board<W: ChessWord, R: ChessRules>(name: &str) {
        let start: ChessPosition<W, R> = new_game(name).unwrap();
        let mut rng = crate::board::zobrist::SplitMix64::new(7);
        let weights = eval_params::TABLE.current();
        let check = |p: &ChessPosition<W, R>| {
            assert_eq!(
                (p.placement, p.phase),
                p.placement_from_scratch(),
                "{}",
                p.to_fen()
            );
            assert_eq!(p.checkers(), p.compute_checkers(), "{}", p.to_fen());
            // The tuner's view of the evaluation gives the evaluation (up to the rounding of
            // the king danger's 64ths and of the phase blend).
            let traced = p.eval_trace().evaluate(&weights);
            let evaluated = p.evaluate_white() as f32;
            assert!(
                (traced - evaluated).abs() <= 3.0,
                "{traced} {evaluated} {}",
                p.to_fen()
            );
        };
        for _ in 0..20 {
            let mut p = start.clone();
            let mut played = 0;
            for _ in 0..120 {
                let mut moves = ChessMoves::new();
                p.generate_legal(&mut moves);
                if moves.is_empty() {
                    break;
                }
                p.make(moves[rng.next_u64() as usize % moves.len()]);
                played += 1;
                check(&p);
                // Now and then a move taken back at once, and a null move.
                if rng.next_u64().is_multiple_of(4) {
                    p.unmake();
                    played -= 1;
                    check(&p);
                } else if !p.in_check() && rng.next_u64().is_multiple_of(8) {
                    p.make_null();
                    check(&p);
                    p.unmake_null();
                    check(&p);
                }
            }
            for _ in 0..played {
                p.unmake();
                check(&p);
            }
            assert_eq!(p.to_fen(), start.to_fen());
        }
    }

    #[test]
    fn placement_sums_and_checkers_follow_every_move() {
        kept_state_matches_the_board::<u64, Orthodox>("chess");
        kept_state_matches_the_board::<u64, SwedishCannon>("swedishcannon");
        kept_state_matches_the_board::<u64, SwedishCannon>("swedishcannon1");
        kept_state_matches_the_board::<u128, Chesstonia>("chesstonia");
        kept_state_matches_the_board::<u128, Cannonrider>("cannonrider");
        kept_state_matches_the_board::<u128, Cannonrider>("cannonriderscorpion");
    }

    /// The moves that give check by moving or removing a second piece (castling, en passant)
    /// or by changing the piece (promotion) are never denied by `may_give_check`, and `make`
    /// finds their checks; a quiet move far from the king's lines is denied, so the shortcut
    /// is in use.
    #[test]
    fn may_give_check_knows_the_special_moves() {
        let start: Chess = new_game("chess").unwrap();
        let gives = |fen: &str, mv: &str| {
            let mut p = start.with_fen(fen).unwrap();
            let m = p.parse_move(mv, Notation::Uci).expect(mv);
            let may = p.may_give_check(m);
            p.make(m);
            (may, p.in_check())
        };
        // Castling: the rook checks from f1.
        assert_eq!(
            gives("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"),
            (true, true)
        );
        // En passant: both pawns leave the fourth rank and open the rook's line to h4.
        assert_eq!(
            gives("k7/8/8/8/r2pP2K/8/8/8 b - e3 0 1", "d4e3"),
            (true, true)
        );
        // Promotion: the new queen checks, the new knight does not.
        assert_eq!(
            gives("2k5/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8q"),
            (true, true)
        );
        assert_eq!(
            gives("2k5/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8n"),
            (false, false)
        );
        // A discovered check: the bishop leaves the rook's file.
        assert_eq!(
            gives("4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1", "e4b7"),
            (true, true)
        );
        // Quiet moves that cannot check are denied.
        let initial = start.to_fen();
        assert_eq!(gives(&initial, "a2a3"), (false, false));
        assert_eq!(gives(&initial, "g1f3"), (false, false));
    }

    /// The Cannonrider's shortcut (`Cannonrider::may_give_check`) on the checks a random game
    /// rarely plays: a nightrider's line opened, a cannon's screen put down, a rider landing on
    /// a knight line. Whether the move checks is asked of the position read from scratch, not
    /// of `make`, which trusts the shortcut.
    #[test]
    fn cannonrider_may_give_check_sees_knight_lines_and_screens() {
        let start: CannonriderChess = new_game("cannonrider").unwrap();
        let gives = |fen: &str, mv: &str| {
            let mut p = start.with_fen(fen).unwrap();
            let m = p.parse_move(mv, Notation::Uci).expect(mv);
            let may = p.may_give_check(m);
            p.make(m);
            (may, p.with_fen(&p.to_fen()).unwrap().in_check())
        };
        // The rook on f6 stands on the knight line e8-f6-g4-h2 from the king to the Cannonrider
        // on h2 (a light square here: a nightrider); f6-f5 lands off every line of the king
        // and opens it.
        let opened = "4k5/*8*/*4R3*/*8*/*8*/*8*/*6C1*/K9 w - - 0 1";
        assert_eq!(gives(opened, "f6f5"), (true, true));
        // With the Cannonrider on g4 (dark: a cannon) the same move opens nothing.
        let dark = "4k5/*8*/*4R3*/*8*/*5C2*/*8*/*8*/K9 w - - 0 1";
        assert_eq!(gives(dark, "f6f5"), (true, false));
        // A screen: the cannon on e2 (dark) sees the king once the knight lands on e4.
        let screen = "4k5/*8*/*8*/*8*/*8*/*1N6*/*3C4*/K9 w - - 0 1";
        assert_eq!(gives(screen, "c3e4"), (true, true));
        // A knight move that stays off the king's lines and away from it: denied.
        assert_eq!(gives(screen, "c3d5"), (false, false));
    }

    /// The counts that [`CHESS_MOVES`] is chosen from.
    #[test]
    fn the_move_list_holds_every_start_position() {
        let counts = [
            most::<Chess>("chess", |p, c| p.most_moves_of_side(c)),
            most::<SwedishCannonChess>("swedishcannon1", |p, c| p.most_moves_of_side(c)),
            most::<SwedishCannonChess>("swedishcannon", |p, c| p.most_moves_of_side(c)),
            most::<ChesstoniaChess>("chesstonia", |p, c| p.most_moves_of_side(c)),
            most::<CannonriderChess>("cannonrider", |p, c| p.most_moves_of_side(c)),
            most::<CannonriderChess>("cannonriderscorpion", |p, c| p.most_moves_of_side(c)),
        ];
        assert_eq!(counts, [323, 345, 359, 373, 386, 386]);
        assert!(counts.iter().all(|&n| n <= CHESS_MOVES));
    }

    /// A variant on a board the word cannot hold is refused as one this game type cannot play.
    #[test]
    fn a_variant_on_a_larger_board_is_not_this_game() {
        let e = new_game::<Chess>("chesstonia").unwrap_err();
        assert!(matches!(&e, GameError::NotThisGame { name, .. } if name == "chesstonia"));
        assert_eq!(
            e.to_string(),
            "'chesstonia' does not fit this bitboard word"
        );
        let e = new_game::<Chess>("nosuchgame").unwrap_err();
        assert_eq!(e, GameError::UnknownVariant("nosuchgame".to_string()));
        assert_eq!(e.to_string(), "unknown variant 'nosuchgame'");
    }

    #[test]
    fn a_position_that_could_outgrow_the_move_list_is_refused() {
        let start: Chess = new_game("chess").unwrap();
        // Fourteen queens could have 10 + 14 x 27 = 388 moves, fifteen 415.
        let fen = |h3: &str| format!("6nk/6pp/8/8/8/{h3}/QQQQQQQ1/QQQQQQQK w - - 0 1");
        assert!(start.with_fen(&fen("8")).is_ok());
        let refused = start.with_fen(&fen("7Q")).unwrap_err();
        assert!(
            refused.reason.contains("more than a move list holds"),
            "{refused}"
        );
        assert_eq!(refused.field, crate::games::FenField::Position);
    }
}
