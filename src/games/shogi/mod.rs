//! The shogi family: Cannon Shogi (`cannonshogi`) as Fairy-Stockfish and pychess-variants play
//! it, on the shared 9x9 `u128` bitboards, with hands, drops, shogi-style promotion, the four
//! cannons and their two flying promotions, and shogi's repetition rules.

mod eval;
mod fen;
mod movegen;
mod piece;
mod position;
mod see;
mod tables;

pub use eval::{hand_value, role_value};
pub use piece::{Kind, Piece, Role, HAND_KINDS, HAND_ORDER};
pub use position::ShogiPosition;
pub use tables::{ShogiTables, BB};

use crate::board::fen::diagram;
use crate::board::{Color, Square};
use crate::games::{
    from_white, EndReason, Game, GameError, Move, MoveKind, MoveList, Notation, Outcome, Variant,
};

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

    /// The piece a move would capture, if any.
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        if m.kind() == MoveKind::Drop {
            None
        } else {
            self.piece_at(m.to())
        }
    }
}

impl Game for ShogiPosition {
    fn new_game(variant: &'static Variant) -> Result<Self, GameError> {
        ShogiPosition::from_fen(variant.start_fen)
    }

    fn with_fen(&self, fen: &str) -> Result<Self, GameError> {
        ShogiPosition::from_fen(fen)
    }

    fn to_fen(&self) -> String {
        self.fen()
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn legal_moves(&self, out: &mut MoveList) {
        self.generate_legal(out)
    }

    #[inline]
    fn tactical_moves(&self, out: &mut MoveList) {
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
