//! The shogi family: Cannon Shogi (`cannonshogi`) as Fairy-Stockfish and pychess-variants play
//! it, on the shared 9x9 `u128` bitboards, with hands, drops, shogi-style promotion, the four
//! cannons and their two flying promotions, and shogi's repetition rules.

mod eval;
pub mod eval_params;
mod fen;
mod movegen;
pub mod nnue_features;
mod piece;
mod position;
mod see;
mod tables;

pub use eval::{hand_value, role_value};
pub use piece::{Kind, Piece, Role, HAND_KINDS, HAND_ORDER, PIECES_IN_GAME};
pub use position::ShogiPosition;
pub use tables::{ShogiTables, BB};

use crate::board::fen::diagram;
use crate::board::zobrist::pair_key;
use crate::board::{BitWord, Color, Square};
use crate::games::tuning::{EvalTraced, EvalTuning, ParamTable, Trace};
use crate::games::{
    from_white, EndReason, FenError, Game, GameError, Move, MoveKind, Notation, Outcome, Variant,
};
use arrayvec::ArrayVec;

/// Room for the moves of any Cannon Shogi position with the game's pieces (a FEN with more of
/// a kind than [`PIECES_IN_GAME`] is refused). A side has its king's 8 steps, each piece's
/// moves on the board and, for each of the `h` kinds it holds in hand, a drop on each empty
/// square. A piece moves to at most 16 squares of its lines (rook, bishop, the four cannons;
/// promoted, 20 with its extra steps), 8 (lance), 6 (gold), 5 (silver), 3 (soldier) or 2
/// (knight), each twice where it may promote or not. A piece on the board instead of in hand
/// brings its moves and takes one of the at most 79 empty squares from each kind in hand. The
/// most is reached with one piece of every kind in hand (11 x 70 drops) and on the board the
/// second rook, bishop and cannon of each kind (32 each) and three lances (16 each): 8 + 240 +
/// 770 = 1018 (the test below tries every choice of kinds in hand). With every piece in hand
/// a side has at most 11 x 79 = 869 drops.
pub const SHOGI_MOVES: usize = 1024;

/// The move list of the family: room for [`SHOGI_MOVES`] moves.
pub type ShogiMoves = ArrayVec<Move, SHOGI_MOVES>;

/// Cannon Shogi.
pub type CannonShogi = ShogiPosition;

impl ShogiPosition {
    /// The move string, the same in UCI and XBoard (nine ranks, no shots): `d2d7`, `d2d7+`
    /// for a promotion, `U@e5` for a drop (upper-case letter for either side).
    pub fn move_string(&self, m: Move) -> String {
        let geo = &self.t.geo;
        match m.kind() {
            MoveKind::Drop => format!(
                "{}@{}",
                Role::from_index(m.piece() as usize).base_letter(),
                geo.square_name(m.to(), false)
            ),
            kind => {
                let mut s = geo.square_name(m.from(), false);
                s += &geo.square_name(m.to(), false);
                if kind == MoveKind::Promotion {
                    s.push('+');
                }
                s
            }
        }
    }

    /// The move in Fairy-Stockfish's shogi notation (Hodges' with digits), which
    /// pychess-variants writes in its PGN exports: the piece (`+` first if promoted), the
    /// origin's digits only when another piece of the same kind could go there too, `-` for a
    /// move, `x` for a capture or `*` for a drop, the destination as file and rank digits
    /// counted from the right and from the top (shogi's way: `i2` is `18`), and `+` for a
    /// promotion or `=` for a move that could promote and does not (`R-87+`, `P36-46`,
    /// `C*49`, `B-67=`).
    pub fn hodges(&self, m: Move) -> String {
        let geo = &self.t.geo;
        let square = |sq| {
            format!(
                "{}{}",
                geo.files() - geo.file_of(sq),
                geo.ranks() - geo.rank_of(sq)
            )
        };
        if m.kind() == MoveKind::Drop {
            let role = Role::from_index(m.piece() as usize);
            return format!("{}*{}", role.base_letter(), square(m.to()));
        }
        let Some(piece) = self.piece_at(m.from()) else {
            return self.move_string(m);
        };
        let mut moves = ShogiMoves::default();
        self.legal_moves(&mut moves);
        let ambiguous = moves.iter().any(|&o| {
            o.kind() != MoveKind::Drop
                && o.to() == m.to()
                && o.from() != m.from()
                && self.piece_at(o.from()) == Some(piece)
        });
        let mut s = String::new();
        if piece.role().is_promoted() {
            s.push('+');
        }
        s.push(piece.role().base_letter());
        if ambiguous {
            s += &square(m.from());
        }
        s.push(if self.piece_at(m.to()).is_some() {
            'x'
        } else {
            '-'
        });
        s += &square(m.to());
        let could_promote = moves
            .iter()
            .any(|&o| o.from() == m.from() && o.to() == m.to() && o.kind() == MoveKind::Promotion);
        if m.kind() == MoveKind::Promotion {
            s.push('+');
        } else if could_promote {
            s.push('=');
        }
        s
    }

    /// The piece a move would capture, if any.
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        if m.kind() == MoveKind::Drop {
            None
        } else {
            self.piece_at(m.to())
        }
    }
}

/// Cannon Shogi's evaluation, taken apart for the tuner (`cannonade tune`).
impl EvalTraced for ShogiPosition {
    fn params() -> &'static ParamTable {
        &eval_params::TABLE
    }
    fn eval_trace(&self) -> Trace {
        ShogiPosition::eval_trace(self)
    }
}

impl Game for ShogiPosition {
    type Moves = ShogiMoves;

    fn eval_tuning() -> Option<EvalTuning<Self>> {
        Some(EvalTuning::of())
    }

    fn new_game(variant: &'static Variant) -> Result<Self, GameError> {
        Ok(ShogiPosition::from_fen(variant.start_fen)?)
    }

    fn with_fen(&self, fen: &str) -> Result<Self, FenError> {
        ShogiPosition::from_fen(fen)
    }

    fn to_fen(&self) -> String {
        self.fen()
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn legal_moves(&self, out: &mut ShogiMoves) {
        self.generate_legal(out)
    }

    #[inline]
    fn tactical_moves(&self, out: &mut ShogiMoves) {
        self.generate_tactical(out)
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        m.kind() == MoveKind::Promotion || self.is_capture(m)
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

    /// The unpromoted pawns of each side (the pieces in hand change too often to belong here).
    fn structure_key(&self) -> Option<u64> {
        let pawns = self.by_kind[Kind::Soldier.index()];
        Some(pair_key(
            (pawns & self.ours(Color::White)).0.fold_u64(),
            (pawns & self.ours(Color::Black)).0.fold_u64(),
        ))
    }

    fn null_move_ok(&self) -> bool {
        // With drops there is nearly always a useful move: zugzwang is rare.
        self.checkers.is_empty()
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn compute_key(&self) -> u64 {
        ShogiPosition::compute_key(self)
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.checkers.any()
    }

    #[inline]
    fn may_give_check(&self, m: Move) -> bool {
        self.may_check(m.from(), m.to())
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        self.fourfold().map(|v| self.repetition_result(v))
    }

    fn no_moves_outcome(&self) -> Outcome {
        if self.in_check() {
            Outcome::Loss(EndReason::Checkmate)
        } else {
            // Stalemate loses in shogi.
            Outcome::Loss(EndReason::Stalemate)
        }
    }

    fn is_repetition_within(&self, plies: usize) -> bool {
        self.repeated_within(plies)
    }

    fn repetition_outcome(&self, plies: usize) -> Option<Outcome> {
        self.repetition_verdict(plies)
            .map(|v| self.repetition_result(v))
    }

    fn move_to_string(&self, m: Move, _notation: Notation) -> String {
        self.move_string(m)
    }

    fn pgn_aliases(&self, m: Move) -> Vec<String> {
        vec![self.hodges(m)]
    }

    fn evaluate(&self) -> i32 {
        from_white(self.side, self.evaluate_white())
    }

    fn material(&self) -> i32 {
        from_white(self.side, self.material_white())
    }

    fn capture_value(&self, m: Move) -> i32 {
        let captured = self.captured_piece(m).map_or(0, |p| {
            // The captor gains the piece in hand; the victim loses its board value.
            role_value(p.role()) + hand_value(p.role().unpromoted())
        });
        let promotion = if m.kind() == MoveKind::Promotion {
            let r = Role::from_index(m.piece() as usize);
            role_value(r.promoted()) - role_value(r)
        } else {
            0
        };
        captured + promotion
    }

    fn mover_value(&self, m: Move) -> i32 {
        match m.kind() {
            MoveKind::Drop => role_value(Role::from_index(m.piece() as usize)),
            _ => self.piece_at(m.from()).map_or(0, |p| role_value(p.role())),
        }
    }

    fn moved_kind(&self, m: Move) -> usize {
        match m.kind() {
            MoveKind::Drop => m.piece() as usize,
            _ => self.piece_at(m.from()).map_or(0, |p| p.role().index()),
        }
    }

    #[inline]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see_ge_impl(m, threshold)
    }

    fn fen_piece(&self, sq: Square) -> Option<String> {
        self.piece_at(sq).map(|p| p.fen())
    }

    fn occupant(&self, sq: Square) -> Option<(Color, u8)> {
        self.piece_at(sq).map(|p| (p.color(), p.code()))
    }

    fn board_diagram(&self) -> String {
        let mut s = diagram(&self.t.geo, |sq| {
            self.piece_at(sq).map_or(" .".to_string(), |p| {
                let f = p.fen();
                if f.len() == 1 {
                    format!(" {f}")
                } else {
                    f
                }
            })
        });
        let hand = |c: Color| {
            let mut h = String::new();
            for r in HAND_ORDER {
                for _ in 0..self.hand_count(c, r) {
                    h += &Piece::new(c, r).fen();
                }
            }
            if h.is_empty() {
                "-".to_string()
            } else {
                h
            }
        };
        s += &format!(
            "hands: white {} black {}\n",
            hand(Color::White),
            hand(Color::Black)
        );
        s
    }
}

impl ShogiPosition {
    /// The result of a repetition for the side to move, given who checked perpetually.
    fn repetition_result(&self, perpetual_checker: Option<Color>) -> Outcome {
        match perpetual_checker {
            None => Outcome::Draw(EndReason::Repetition),
            Some(checker) if checker == self.side => Outcome::Loss(EndReason::PerpetualCheck),
            Some(_) => Outcome::Win(EndReason::PerpetualCheck),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fairy-Stockfish's shogi notation, as pychess-variants exports it: a random game of
    /// Cannon Shogi written by Fairy-Stockfish (pyffish 0.0.90 with its variants.ini), move
    /// by move. Drops, captures, promotions taken and declined (`=`), promoted pieces and
    /// origins given where two pieces could go to the same square.
    #[test]
    fn moves_read_as_fairy_stockfish_writes_them() {
        let uci =
            "d2d4 g8g5 d4d3 f8f1+ e1e2 G@e5 g3g4 b8b3+ c2c6 g9f8 e3f3 e7e6 i3i4 e6f6 i1i2 d8b6 \
         g4f4 f1c1 d3d7+ S@e4 d7d8 b3a4 d1e1 a4a5 e2d1 c1c2 f4g4 e4d3 d8d5 d3e4+ i2i3 c9d8 \
         c3c4 d8c9 d5g5 c2g2 c6c2 C@f1 A@d5 c8f5 g5h4 f5c8 c2a2 b6g1+ h1g3 S@g9 i4i5 a5b6 \
         b2d4 b6b8 a2a5 f9g8 g3h5 g2i2 h4e4 e5d4 f2b6 c7d7 S@c1 i2b2 d5d2 B@c2 d1e2 f1i4+ \
         a5a2 g8h7 f3f4 c2d3 e2d1 a9a8 e4f5 d7e7 d2d4 d3f5+ d1d2 U@a4 i5i6 a7b7 b6f2 d9d8";
        let fsf =
            "U-66 A-35 U-67 Ux49+ K-58 G*55 P-36 R-87+ A-74 S-42 P-47 P-54 P-16 P-44 L-18 I-84 \
         P36-46 +Ux79 U-63+ S*56 +U-62 +R-96 G-59 +R-95 K-69 +U-78 P-36 S-67= +U-65 S-56+ \
         L-17 S-62 P-76 S-71 +Ux35 +Ux38 A-78 C*49 A*65 C-45 +U-26 C-72 A-98 Ix39+ N-37 S*31 \
         P-15 +R-84 B-66 +R-82 A-95 G-32 N-25 +U-18 +Ux56 Gx66 I-84 P-63 S*79 +U-88 A-68 B*78 \
         K-58 C-16+ A-98 G-23 P47-46 B-67= K-69 L-92 +U-45 P-53 Ax66 Bx45+ K-68 U*96 P-14 \
         P-83 I-48 G-62";
        let mut pos = crate::engine::registry::new_game::<CannonShogi>("cannonshogi").unwrap();
        let mut ambiguous = 0;
        for (u, f) in uci.split_whitespace().zip(fsf.split_whitespace()) {
            let m = pos.parse_move(u, Notation::Uci).unwrap();
            assert_eq!(pos.hodges(m), f, "{u} in {}", pos.to_fen());
            ambiguous += usize::from(f.chars().filter(char::is_ascii_digit).count() > 2);
            pos.make_move(m);
        }
        assert!(ambiguous > 0, "the sample has a move with its origin");
    }
    use crate::games::FenField;

    #[test]
    fn the_structure_key_follows_the_pawns_of_each_side() {
        let start: CannonShogi = crate::engine::registry::new_game("cannonshogi").unwrap();
        let key = |p: &CannonShogi| p.structure_key().unwrap();
        let base = key(&start);
        let mut moves = ArrayVec::<Move, SHOGI_MOVES>::new();
        start.legal_moves(&mut moves);
        // A move from the start changes the key exactly when it moves or takes a pawn (the
        // cannons can take pawns at once).
        let soldier_on = |sq| start.piece_at(sq).map(|pc| pc.role().kind()) == Some(Kind::Soldier);
        let mut pawn_moves = 0;
        for &m in &moves {
            let mut p = start.clone();
            let pawns_touched = soldier_on(m.from()) || soldier_on(m.to());
            p.make_move(m);
            let uci = start.move_to_string(m, Notation::Uci);
            assert_eq!(key(&p) != base, pawns_touched, "{uci}");
            pawn_moves += usize::from(pawns_touched);
        }
        assert!(pawn_moves > 0 && pawn_moves < moves.len());
    }

    /// The count of [`SHOGI_MOVES`] worked out for every choice of the kinds a side holds in
    /// hand: each kind has one piece in hand if chosen, and its other pieces go on the board
    /// when a piece there brings more moves than the drops its square takes away.
    #[test]
    fn the_move_list_holds_every_position_with_the_games_pieces() {
        // Most moves of one unpromoted piece of each hand kind, targets counted twice for the
        // choice of promoting (a promoted piece has fewer: 20 or 6).
        let most: [usize; HAND_KINDS] = [32, 32, 10, 4, 16, 6, 32, 32, 32, 32, 6];
        for r in [Role::Rook, Role::Bishop, Role::GoldCannon, Role::IronCannon] {
            assert_eq!(most[r.index()], 32);
        }
        assert_eq!(most[Role::Gold.index()], 6);
        let mut highest = 0;
        for held in 0u32..1 << HAND_KINDS {
            let h = held.count_ones() as usize;
            let (mut placed, mut board_moves) = (0, 0);
            for (kind, &n) in PIECES_IN_GAME.iter().enumerate() {
                let free = n as usize - (held >> kind & 1) as usize;
                if most[kind] > h {
                    placed += free;
                    board_moves += free * most[kind];
                }
            }
            highest = highest.max(8 + board_moves + h * (81 - 2 - placed));
        }
        assert_eq!(highest, 1018);
        assert!(highest <= SHOGI_MOVES);
    }

    #[test]
    fn the_start_position_has_the_games_pieces() {
        let start: CannonShogi = crate::engine::registry::new_game("cannonshogi").unwrap();
        for (kind, &n) in PIECES_IN_GAME.iter().enumerate() {
            let role = Role::from_index(kind);
            let on_board = start
                .occupied()
                .into_iter()
                .filter(|&sq| start.piece_at(sq).is_some_and(|p| p.role() == role))
                .count();
            assert_eq!(on_board, n as usize, "{role:?}");
        }
        let more = "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL[G] w - - 0 1";
        let e = start.with_fen(more).err().expect("refused");
        assert_eq!(e.field, FenField::Position, "{e}");
    }

    /// Each refused FEN names the field it was refused for; the reason is the message shown.
    #[test]
    fn a_refused_fen_names_its_field() {
        let start: CannonShogi = crate::engine::registry::new_game("cannonshogi").unwrap();
        let board = "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL";
        let no_black_king = "lnsg1gsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL";
        for (fen, field, reason) in [
            (String::new(), FenField::Empty, "empty FEN"),
            (
                format!("{board}[K] w - - 0 1"),
                FenField::Hand,
                "a king cannot be in hand",
            ),
            (
                format!("{board}[Z] w - - 0 1"),
                FenField::Hand,
                "hand has an unknown piece letter 'Z'",
            ),
            (
                format!("{board}[2] w - - 0 1"),
                FenField::Hand,
                "hand ends with a count and no piece",
            ),
            (
                format!("{board}[P w - - 0 1"),
                FenField::Hand,
                "FEN hand must end with ']' right after the pieces",
            ),
            (
                format!("{no_black_king}[] w - - 0 1"),
                FenField::Position,
                "FEN must have exactly one black king, it has 0",
            ),
            (
                format!("{board}[] x - - 0 1"),
                FenField::SideToMove,
                "FEN side to move 'x' is not w or b",
            ),
            (
                format!("{board}[] w KQ - 0 1"),
                FenField::Castling,
                "FEN field 'KQ': Cannon Shogi has no castling or en passant",
            ),
            (
                format!("{board}[] w - e3 0 1"),
                FenField::EnPassant,
                "FEN field 'e3': Cannon Shogi has no castling or en passant",
            ),
            (
                format!("{board}[] w - - 0 1 2"),
                FenField::Trailing,
                "FEN has extra fields: '2'",
            ),
            (
                format!("{board}/9[] w - - 0 1"),
                FenField::Board,
                "FEN board has 10 ranks, Cannon Shogi has 9",
            ),
            (
                format!("sfen {board} b"),
                FenField::Hand,
                "SFEN needs board, side, hand and (optionally) the move number",
            ),
            (
                format!("sfen {board} b 2P x"),
                FenField::FullmoveNumber,
                "FEN move number 'x' is not a number",
            ),
        ] {
            let e = start.with_fen(&fen).err().expect("refused");
            assert_eq!((e.field, e.to_string().as_str()), (field, reason), "{fen}");
        }
    }
}
