//! Moves a person enters: typed or sent by the GUI (`usermove`), or entered with the mouse leg
//! by leg (`lift`, `put`, `hover`), answered with the squares the next leg may go to.

use super::{clip, describe, XBoard, NOTATION};
use crate::board::Color;
use crate::engine::{Coord, MoveFacts};

/// A move being entered with the mouse: the square its piece was lifted from (None: the
/// holdings) and the squares its first legs went through. XBoard reports a multi-leg move
/// (a Cannon shot: to the victim, then back to the shooter) as `lift e3`, `put e5`, `lift e5`,
/// `put e3`; each `lift` is answered with where the next leg can go.
pub(super) struct Entry {
    pub(super) from: Option<Coord>,
    pub(super) entered: Vec<Coord>,
    /// The piece on `from` was lifted right after a piece in the holdings: the move is an
    /// entry by gating through it (a Swedish cannon coming in where the pawn stood, `e2e4c`),
    /// and its destinations are marked blue for XBoard to ask the engine's `choice`.
    pub(super) gating: bool,
}

impl XBoard {
    /// A move as XBoard is told it (see [`describe::gui_move`]).
    pub(super) fn gui_form(&self, mv: &str) -> String {
        self.state()
            .session()
            .facts_of(mv, NOTATION)
            .map_or_else(|_| mv.to_string(), |f| self.told(&f))
    }

    /// A legal move as XBoard is told it.
    fn told(&self, f: &MoveFacts) -> String {
        describe::gui_move(f, self.board_size().1, self.kept_letter(f))
    }

    /// For a move that may promote or not, where XBoard would promote the piece anyway: the
    /// letter that keeps it (see [`describe::kept_letter`]).
    fn kept_letter(&self, f: &MoveFacts) -> Option<char> {
        let look = self.state().variant().look.as_ref()?;
        let ranks = self.board_size().1;
        let piece = f.piece.as_deref().filter(|_| f.promotion_choice)?;
        let white = self.state().session().side_to_move() == Color::White;
        describe::kept_letter(look, piece, f.to, white, ranks)
    }

    /// The legal moves as the mouse enters them: where XBoard would promote a piece that may
    /// stay as it is (see [`describe::kept_letter`]), the move offers no choice, so that
    /// XBoard promotes it as it would anyway and both boards show the same. (Asked with its
    /// dialog, XBoard 4.9.1 sent the declined move and emptied the square on its own board.)
    pub(super) fn entry_facts(&self) -> Vec<MoveFacts> {
        let mut facts = self.state().session().move_facts();
        for f in &mut facts {
            if self.kept_letter(f).is_some() {
                f.promotion_choice = false;
            }
        }
        facts
    }

    /// The engine's string of a move XBoard sent (see [`Self::gui_form`]; a trailing `=`, "no
    /// promotion", is dropped); unknown strings are returned unchanged, to be refused as illegal.
    pub(super) fn engine_form(&self, s: &str) -> String {
        // In shogi-like games XBoard marks a move that could promote but does not with `=`.
        let s = s.strip_suffix('=').unwrap_or(s);
        let legal = self.state().session().legal_moves(NOTATION);
        if legal.iter().any(|m| m == s) {
            return s.to_string();
        }
        self.state()
            .session()
            .move_facts()
            .into_iter()
            .find(|f| self.told(f) == s)
            .map_or_else(|| s.to_string(), |f| f.text.xboard)
    }

    pub(super) fn cmd_usermove(&mut self, mv: &str) {
        if mv.is_empty() {
            return self.say("Error (no move given): usermove");
        }
        // An illegal move changes nothing: whatever search runs goes on (a move the engine
        // thinks about is not thrown away).
        let engine_mv = self.engine_form(mv);
        // (Read by the game, not looked up in the move list: a shot may come in two legs.)
        if self
            .state()
            .session()
            .move_text(&engine_mv, NOTATION)
            .is_err()
        {
            return self.say(&self.illegal_move(&engine_mv, mv));
        }
        // A legal move stops the search: a ponder or analysis search is restarted for the
        // new position; the GUI moving for the side the engine thinks for overrides it.
        self.stop_search();
        match self.engine.play(&engine_mv) {
            Ok(()) => {
                self.history.push(engine_mv);
                self.position_changed();
            }
            Err(_) => {
                self.say(&format!("Illegal move: {}", clip(mv)));
                if self.analyzing {
                    self.start_analysis();
                }
            }
        }
    }

    /// The refusal of `mv`, with the reason when it is the first leg of a legal multi-leg
    /// move (a Cannon shot entered by clicking the victim twice, which XBoard would show as the
    /// soldier moving there). The reason avoids the words XBoard takes for other errors
    /// ("time", "draw", "board", ...).
    pub(super) fn illegal_move(&self, engine_mv: &str, mv: &str) -> String {
        let facts = self.state().session().move_facts();
        let ranks = self.state().variant().game.ranks;
        match describe::first_leg_of(&facts, engine_mv, ranks) {
            Some(whole) => format!(
                "Illegal move (only the first leg of {}): {}",
                whole.text.xboard,
                clip(mv)
            ),
            None => format!("Illegal move: {}", clip(mv)),
        }
    }

    /// A board square named by `lift`/`put`/`hover`; None for a holdings square (which XBoard
    /// names with a file letter off the board).
    pub(super) fn gui_square(&self, square: &str) -> Option<Coord> {
        let (files, ranks) = self.board_size();
        describe::parse_square(square, files, ranks)
            .filter(|(_, n)| *n == square.len())
            .map(|(sq, _)| sq)
    }

    /// The board's files and ranks.
    pub(super) fn board_size(&self) -> (usize, usize) {
        let game = &self.state().variant().game;
        (game.files, game.ranks)
    }

    pub(super) fn cmd_lift(&mut self, cmd: &str, square: &str) {
        let sq = self.gui_square(square);
        if cmd == "hover" {
            // Hovering over a destination changes nothing in the move being entered.
            if self.entry.is_none() {
                return;
            }
        } else {
            // A `lift` on the square the last leg reached (after its `put`) asks for the next
            // leg of the same move; any other `lift` starts a new move.
            let next_leg =
                matches!(&self.entry, Some(e) if sq.is_some() && e.entered.last() == sq.as_ref());
            if !next_leg {
                // A piece lifted just after a piece in the holdings, where a piece from the
                // holdings can come in by gating: XBoard reports a click on the cannon in
                // hand, then on the pawn, as two lifts (it takes the second as a change of
                // mind), and that is how a player brings the cannon in.
                let after_holdings =
                    matches!(&self.entry, Some(e) if e.from.is_none() && e.entered.is_empty());
                let gating = after_holdings
                    && sq.is_some_and(|on| {
                        describe::gates_through(&self.state().session().move_facts(), on)
                    });
                self.entry = Some(Entry {
                    from: sq,
                    entered: Vec::new(),
                    gating,
                });
            }
        }
        let Some(entry) = &self.entry else { return };
        let (files, ranks) = self.board_size();
        let facts = self.entry_facts();
        let marks = match entry.from {
            Some(on) if entry.gating => describe::gating_marks(&facts, on),
            _ => describe::entry_marks(&facts, entry.from, &entry.entered),
        };
        self.say(&describe::highlight(&marks, files, ranks));
    }

    pub(super) fn cmd_put(&mut self, square: &str) {
        let sq = self.gui_square(square);
        if let (Some(entry), Some(sq)) = (&self.entry, sq) {
            let (from, gating) = (entry.from, entry.gating);
            let mut entered = entry.entered.clone();
            let facts = self.entry_facts();
            if let (true, Some(on)) = (gating, from) {
                // On a blue square XBoard waits for the letter of the piece coming in, adds
                // it to the move (`e2e4c`) and sends the move. No highlight after it: XBoard
                // reads the square's colour again when the `choice` comes.
                if let Some(letter) = describe::gating_choice(&facts, on, sq) {
                    self.entry = None;
                    return self.say(&format!("choice {letter}"));
                }
            }
            entered.push(sq);
            if describe::goes_on_from(&facts, from, &entered) {
                // The end of a first leg: XBoard asks for the next one with a `lift` here.
                if let Some(entry) = &mut self.entry {
                    entry.entered = entered;
                }
                return;
            }
            if describe::promotion_choice_at(&facts, from, &entered) {
                // A piece put on a magenta square: with sweep promotions XBoard sends this
                // `put` on the press and reads the square's colour again on the release, so
                // clearing the marks now would lose the promotion.
                return;
            }
        }
        // The move is complete (or abandoned): clear the marks.
        self.entry = None;
        let (files, ranks) = self.board_size();
        self.say(&describe::highlight(&[], files, ranks));
    }
}
