//! Cannon, David E. Whitcher's 10x10 war game of soldiers, towns and cannons (rules contract:
//! `docs/rules/cannon.md`). Not a chess game: no king, no check. Each side places its town on
//! its first rank, then moves soldiers; three soldiers in a row form a cannon that slides and
//! shoots. Taking the enemy town wins, and so does leaving the enemy without a move.

mod eval;
mod fen;
mod movegen;
pub mod nnue_features;
mod notation;
mod position;
mod see;
mod shift_limit;
mod tables;

#[cfg(test)]
mod tests;

pub use fen::MAX_SOLDIERS;
pub use movegen::TOWN_CODE;
pub use position::CannonPosition;
pub use shift_limit::MAX_SHIFTS;

use crate::board::fen::diagram;
use crate::board::{Color, Square};
use crate::games::{
    EndReason, FenError, Game, GameError, Move, Notation, Outcome, RuleOption, Variant,
};
use arrayvec::ArrayVec;
use movegen::Gen;

/// Room for the moves of any Cannon position. A side either places its town (on at most 8
/// squares) or moves its soldiers, at most [`MAX_SOLDIERS`] of them (a FEN with more is
/// refused). No two moves share their squares (see `movegen`), and a soldier's moves go one
/// square forward, diagonally forward or sideways (5), two squares along one of the 8 lines (a
/// retreat or a shot: 8) or three (a cannon's shift or a shot: 8): at most 21 each.
pub const CANNON_MOVES: usize = MAX_SOLDIERS as usize * 21;

/// The move list of the family: room for [`CANNON_MOVES`] moves.
pub type CannonMoves = ArrayVec<Move, CANNON_MOVES>;

/// The rule switches of Cannon (its registry entry offers them).
pub const CANNON_OPTIONS: &[RuleOption] = &[
    RuleOption {
        name: "CannonClearShot",
        default: false,
        help: "A cannon shot at the third square also needs the second square empty (as Ludii plays)",
    },
    RuleOption {
        name: "CannonShiftLimit",
        default: false,
        help: "Tournament rule: no cannon shifts more than three times in a row without a move of another cannon or soldier",
    },
];

/// Value of a soldier for move ordering and evaluation.
pub const SOLDIER_VALUE: i32 = 100;
/// Taking the town ends the game; ordering puts it first.
pub const TOWN_VALUE: i32 = 10_000;

/// Below this many soldiers, having to move is often a burden (every step walks into a
/// capture), so passing is no longer a safe guess of a lower bound.
const NULL_MOVE_MIN_SOLDIERS: u32 = 5;

impl Game for CannonPosition {
    type Moves = CannonMoves;

    fn new_game(variant: &'static Variant) -> Result<Self, GameError> {
        Ok(CannonPosition::from_fen(variant.start_fen, false)?)
    }

    fn set_rule_option(&mut self, name: &str, value: bool) -> Result<(), GameError> {
        if name.eq_ignore_ascii_case("CannonClearShot") {
            self.clear_shot = value;
            Ok(())
        } else if name.eq_ignore_ascii_case("CannonShiftLimit") {
            self.set_shift_limit(value);
            Ok(())
        } else {
            Err(GameError::UnknownRuleOption {
                name: name.to_string(),
                hint: Some("Cannon has CannonClearShot and CannonShiftLimit"),
            })
        }
    }

    fn with_fen(&self, fen: &str) -> Result<Self, FenError> {
        let mut pos = CannonPosition::from_fen(fen, self.clear_shot)?;
        // Every run of shifts starts empty.
        pos.shift_limit = self.shift_limit;
        Ok(pos)
    }

    fn to_fen(&self) -> String {
        self.fen()
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn legal_moves(&self, out: &mut CannonMoves) {
        self.generate(out, Gen::All)
    }

    #[inline]
    fn tactical_moves(&self, out: &mut CannonMoves) {
        self.generate(out, Gen::Tactical)
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        self.is_capture(m)
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

    /// Passing is never legal in Cannon, so a null move is only a search guess that "moving is
    /// worth something". That holds while both towns stand and the side to move has enough
    /// soldiers to have a harmless move; it fails while towns are being placed (the order of
    /// placement is fixed) and in thin endings, where zugzwang is common.
    fn null_move_ok(&self) -> bool {
        let us = self.side;
        self.town(us).is_some()
            && self.town(!us).is_some()
            && self.soldiers(us).count() >= NULL_MOVE_MIN_SOLDIERS
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn compute_key(&self) -> u64 {
        CannonPosition::compute_key(self)
    }

    /// Cannon has no check: a threatened town is just a piece that may be taken.
    fn in_check(&self) -> bool {
        false
    }

    fn rule_outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.decided_outcome() {
            return Some(o);
        }
        if self.repetitions(usize::MAX) >= 2 {
            return Some(Outcome::Draw(EndReason::Repetition));
        }
        None
    }

    /// The side to move's town was taken: the game ended with the last move.
    fn decided_outcome(&self) -> Option<Outcome> {
        self.town_taken(self.side)
            .then_some(Outcome::Loss(EndReason::TownTaken))
    }

    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Loss(EndReason::NoLegalMove)
    }

    fn is_repetition_within(&self, plies: usize) -> bool {
        self.repetitions(plies) >= 1
    }

    fn move_to_string(&self, m: Move, notation: Notation) -> String {
        self.move_string(m, notation)
    }

    fn parse_move(&self, s: &str, notation: Notation) -> Option<Move> {
        self.parse(s, notation)
    }

    fn move_to_pgn(&self, m: Move) -> String {
        self.pgn_string(m)
    }

    fn evaluate(&self) -> i32 {
        self.evaluate_side_to_move()
    }

    fn material(&self) -> i32 {
        let us = self.side;
        if self.town_taken(us) {
            return -TOWN_VALUE;
        }
        SOLDIER_VALUE * (self.soldiers(us).count() as i32 - self.soldiers(!us).count() as i32)
    }

    fn capture_value(&self, m: Move) -> i32 {
        if !self.is_capture(m) {
            0
        } else if self.towns[(!self.side).index()].contains(m.to()) {
            TOWN_VALUE
        } else {
            SOLDIER_VALUE
        }
    }

    #[inline]
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        self.see_ge_impl(m, threshold)
    }

    fn fen_piece(&self, sq: Square) -> Option<String> {
        self.letter_at(sq).map(String::from)
    }

    fn occupant(&self, sq: Square) -> Option<(Color, u8)> {
        self.letter_at(sq).map(|c| {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            (color, c.to_ascii_uppercase() as u8)
        })
    }

    fn board_diagram(&self) -> String {
        let mut s = diagram(&self.t.geo, |sq| {
            format!(" {}", self.letter_at(sq).unwrap_or('.'))
        });
        let hand: String = [('T', Color::White), ('t', Color::Black)]
            .iter()
            .filter(|(_, c)| self.town_in_hand(*c))
            .map(|(l, _)| *l)
            .collect();
        if !hand.is_empty() {
            s += &format!("in hand: {hand}\n");
        }
        s
    }
}
