//! The game the GUI sets up: a new game, a variant, a position, moves taken back; and the long
//! jobs (`perft`, `bench`) run on a copy of it.

use super::{clip, clip_message, describe, XBoard};
use crate::board::Color;
use crate::engine::jobs;
use crate::engine::registry::{self, VariantInfo};
use crate::games::GameError;

impl XBoard {
    /// Starts a new game of `info` at its start position.
    pub(super) fn reset_game(&mut self, info: &'static VariantInfo) -> Result<(), GameError> {
        let was = self.state().variant().game.name;
        self.engine.select_variant(info)?;
        if was != info.game.name {
            if let Some(note) = self.state().nnue_missing() {
                self.say(&format!("telluser {note}"));
            }
        }
        self.setup_fen = None;
        self.history.clear();
        self.excluded.clear();
        self.game_over = false;
        Ok(())
    }

    pub(super) fn cmd_new(&mut self) {
        self.stop_search();
        self.cancel_job();
        self.analyzing = false;
        self.force = false;
        self.engine_side = Color::Black;
        self.clock.depth = None;
        self.clock.mine = None;
        self.clock.theirs = None;
        // An empty table, and a weakened engine chooses afresh.
        self.engine.new_game();
        if let Err(e) = self.reset_game(registry::default_variant()) {
            self.say(&format!("Error ({e}): new"));
        }
    }

    pub(super) fn cmd_variant(&mut self, name: &str) {
        let Some(info) = registry::find(name) else {
            return self.say(&format!("Error (unknown variant): {}", clip(name)));
        };
        self.stop_search();
        if let Err(e) = self.reset_game(info) {
            return self.say(&format!("Error ({e}): variant {}", clip(name)));
        }
        if let Some(desc) = &info.look {
            self.say_setup();
            for l in describe::piece_lines(desc) {
                self.say(&l);
            }
        }
    }

    /// The `setup` line of the current game, with the current position, for a game XBoard
    /// does not know (nothing for the others).
    fn say_setup(&self) {
        let info = self.state().variant();
        if let Some(look) = &info.look {
            self.say(&describe::setup_line(
                info,
                look,
                &self.state().session().fen(),
            ));
        }
    }

    pub(super) fn cmd_setboard(&mut self, fen: &str) {
        // A refused position changes nothing, not even a running search.
        let mut next = self.state().session().clone_session();
        if let Err(e) = next.set_position(Some(fen), &[], super::NOTATION) {
            return self.say(&format!(
                "tellusererror Illegal position: {}",
                clip_message(&e.to_string())
            ));
        }
        self.stop_search();
        match self.engine.set_position(Some(fen), &[]) {
            Ok(()) => {
                self.setup_fen = Some(fen.to_string());
                self.history.clear();
                self.game_over = false;
                // The position again as the setup's. XBoard (4.9.1) takes a `setup` that
                // differs from its board's format as a new board and resets it to the
                // setup's position; it compares the ranks before adding the dead ranks of a
                // hand larger than the board (Cannon Shogi: 9 ranks, 11 kinds in hand, an
                // 11-rank board to XBoard), so every `setup` differs for it. The one answering
                // the `variant` that XBoard sends before a position set up or pasted
                // (`new`, `variant`, `force`, `setboard`) then put XBoard back at the start
                // while the engine took the new position. After this one both boards hold
                // the position set. (A position with Black to move, or a game XBoard thinks
                // has begun, makes XBoard ignore both; in other games the `setup` matches
                // and XBoard ignores it once it has a position set up.)
                self.say_setup();
                if self.analyzing {
                    self.start_analysis();
                }
            }
            Err(e) => self.say(&format!(
                "tellusererror Illegal position: {}",
                clip_message(&e.to_string())
            )),
        }
    }

    pub(super) fn cmd_undo(&mut self, plies: usize) {
        // Nothing to take back: an error that leaves any search running.
        if self.history.len() < plies {
            return self.say(&format!(
                "Error (no move to take back): {}",
                if plies == 1 { "undo" } else { "remove" }
            ));
        }
        self.stop_search();
        let keep = self.history.len() - plies;
        let moves: Vec<&str> = self.history[..keep].iter().map(String::as_str).collect();
        match self.engine.set_position(self.setup_fen.as_deref(), &moves) {
            Ok(()) => {
                self.history.truncate(keep);
                self.game_over = false;
                self.excluded.clear();
                if self.analyzing {
                    self.start_analysis();
                }
            }
            Err(e) => self.say(&format!("Error (cannot take back: {e}): undo")),
        }
    }

    /// Stops a running `perft` or `bench` and prints the `pong`s held for it.
    pub(super) fn cancel_job(&mut self) {
        self.engine.stop_job();
        for pong in std::mem::take(&mut self.held_pongs) {
            self.say(&pong);
        }
    }

    /// `perft N` and `bench [DEPTH]` beside the command loop (the jobs both protocols run), on
    /// a copy of the position: a running search goes on, and `?`, `new`, `variant`, `quit` or
    /// the end of input stop the count. `pong`s wait for it.
    pub(super) fn start_job(&mut self, command: &str, arg: &str) {
        let arg = Some(arg).filter(|a| !a.is_empty());
        let kind = match jobs::parse_depth(command, arg) {
            Ok(kind) => kind,
            Err(e) => {
                return self.say(&format!(
                    "Error ({e}): {}",
                    clip(format!("{command} {}", arg.unwrap_or("")).trim_end())
                ))
            }
        };
        self.cancel_job();
        if let Err(e) = self.engine.start_job(kind) {
            self.say(&format!("Error (cannot start {command}: {e}): {command}"));
        }
    }
}
