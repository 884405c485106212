//! Win chances: what a score means in a game, as the chance of a win, a draw and a loss.
//!
//! The model is Stockfish's win-rate model: the chance of a win from a score `x` (centipawns,
//! side to move's view) is a logistic curve `1 / (1 + exp((a - x) / b))`, the chance of a loss
//! the same curve seen from the other side (`1 / (1 + exp((a + x) / b))`), and a draw what is
//! left. `a` (the score that wins half the time) and `b` (how fast the chance rises with the
//! score) depend on how far the game has gone, each a cubic in the move number. Each game has
//! its own four-and-four coefficients, fitted to the results of its self-play games by
//! `cannonade wdl` and kept beside its net (`nets/NAME.wdl`, embedded through the registry).

use std::fmt;

/// A win-draw-loss triple in per mille, side to move's view; the three sum to 1000.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

impl Wdl {
    /// The expected score, 0.0 (a sure loss) to 1.0 (a sure win): a draw counts half.
    pub fn expected(&self) -> f64 {
        (f64::from(self.win) + f64::from(self.draw) / 2.0) / 1000.0
    }

    /// The same chances seen by the other player.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }
}

impl fmt::Display for Wdl {
    /// As UCI writes it after `wdl`: `W D L`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.win, self.draw, self.loss)
    }
}

/// The chances of `score` (centipawns or a mate score as the search reports it, side to
/// move's view) at move `move_number` of `variant` (an engine name of the registry), by that
/// game's fitted model.
///
/// PLACEHOLDER until the fitted models land: one logistic curve for every game, no draws.
pub fn chances(variant: &str, score: i32, move_number: u32) -> Wdl {
    let _ = (variant, move_number);
    if score >= crate::search::MATE_BOUND {
        return Wdl { win: 1000, draw: 0, loss: 0 };
    }
    if score <= -crate::search::MATE_BOUND {
        return Wdl { win: 0, draw: 0, loss: 1000 };
    }
    let win = (1000.0 / (1.0 + (-f64::from(score) / 150.0).exp())).round() as u32;
    Wdl { win, draw: 0, loss: 1000 - win }
}

/// The move number a FEN carries (its last field, the full-move counter), 1 when it has none.
pub fn move_number_of(fen: &str) -> u32 {
    fen.split_whitespace()
        .last()
        .and_then(|w| w.parse().ok())
        .unwrap_or(1)
        .max(1)
}
