//! Win chances: what a score means in a game, as the chance of a win, a draw and a loss.
//!
//! The model is Stockfish's win-rate model: the chance of a win from a score `x` (centipawns,
//! side to move's view) is a logistic curve `1 / (1 + exp((a - x) / b))`, the chance of a loss
//! the same curve seen from the other side (`1 / (1 + exp((a + x) / b))`), and a draw what is
//! left. `a` (the score that wins half the time) and `b` (how fast the chance rises with the
//! score) depend on how far the game has gone, each a cubic in the move number. Each game has
//! its own four-and-four coefficients, fitted to the results of its self-play games by
//! `cannonade wdl` and kept beside its net (`nets/NAME.wdl`, embedded through the registry).
//!
//! A model file is text: `#` comment lines (how it was made), then
//! `variant NAME`, `moves LO HI` (the move numbers the fit saw; others are clamped into it)
//! and `a C0 C1 C2 C3`, `b C0 C1 C2 C3`, the cubics' coefficients in `m = move / 32`.

use crate::engine::registry;
use crate::search::{Score, MATE_BOUND};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// Move numbers are divided by this before the cubics see them, so that the coefficients stay
/// of the same size (as Stockfish divides its move count).
pub const MOVE_SCALE: f64 = 32.0;
/// The move numbers a model may cover: later moves are read as this one, where data is thin.
pub const MAX_MOVE: u32 = 120;
/// `b` is kept at least this (centipawns): a flat or falling curve would make a better score
/// win less often.
const MIN_B: f64 = 1.0;

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

/// Why a model's text was not read.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    #[error("line {line}: expected '{expected}', found '{found}'")]
    UnexpectedLine {
        line: usize,
        expected: &'static str,
        found: String,
    },
    #[error("line {line}: '{word}' is not a number")]
    NotANumber { line: usize, word: String },
    #[error("line {line}: {what} needs {want} numbers, found {found}")]
    Count {
        line: usize,
        what: &'static str,
        want: usize,
        found: usize,
    },
    #[error("the model ends before its '{0}' line")]
    Missing(&'static str),
    #[error("line {line}: move range {lo}..{hi} is empty or outside 1..{MAX_MOVE}")]
    MoveRange { line: usize, lo: u32, hi: u32 },
    #[error("line {line}: a number is not finite")]
    NotFinite { line: usize },
}

/// One game's fitted curves.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The engine name of the game it was fitted for.
    pub variant: String,
    /// Move numbers outside `lo..=hi` are read as the nearer end.
    pub moves: (u32, u32),
    /// Coefficients of `a(m) = a0 + a1 m + a2 m² + a3 m³`, `m = move / MOVE_SCALE`.
    pub a: [f64; 4],
    /// The same for `b`.
    pub b: [f64; 4],
    /// The comment lines, without their `#`, as written.
    pub comments: Vec<String>,
}

/// A cubic's value at `m`.
pub fn cubic(c: &[f64; 4], m: f64) -> f64 {
    ((c[3] * m + c[2]) * m + c[1]) * m + c[0]
}

impl Model {
    /// `m`, the move number as the cubics read it: clamped into the model's range and scaled.
    pub fn m_of(&self, move_number: u32) -> f64 {
        f64::from(move_number.clamp(self.moves.0, self.moves.1)) / MOVE_SCALE
    }

    /// `a` and `b` at move `move_number`, kept where the curves make sense: `a` at least 0
    /// (below, a win and a loss together would be likelier than certain), `b` at least
    /// [`MIN_B`].
    pub fn params(&self, move_number: u32) -> (f64, f64) {
        let m = self.m_of(move_number);
        (cubic(&self.a, m).max(0.0), cubic(&self.b, m).max(MIN_B))
    }

    /// The chances of a centipawn score as fractions (win, draw, loss), before rounding.
    pub fn probabilities(&self, score: f64, move_number: u32) -> (f64, f64, f64) {
        let (a, b) = self.params(move_number);
        let win = logistic((score - a) / b);
        let loss = logistic((-score - a) / b);
        (win, (1.0 - win - loss).max(0.0), loss)
    }

    /// The chances of a centipawn score in per mille, summing to exactly 1000: the win and
    /// the loss are rounded and the draw takes the rest, so rounding never makes a better
    /// score win less or lose more.
    pub fn wdl(&self, score: i32, move_number: u32) -> Wdl {
        let (w, _, l) = self.probabilities(f64::from(score), move_number);
        let win = (w * 1000.0).round().clamp(0.0, 1000.0) as u32;
        let loss = ((l * 1000.0).round().clamp(0.0, 1000.0) as u32).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }

    /// Reads a model's text (see the module documentation).
    pub fn parse(text: &str) -> Result<Model, ModelError> {
        let mut comments = Vec::new();
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .filter(|(_, l)| match l.strip_prefix('#') {
                Some(c) => {
                    comments.push(c.trim().to_string());
                    false
                }
                None => true,
            })
            .collect::<Vec<_>>()
            .into_iter();
        let mut next = |key: &'static str| -> Result<(usize, Vec<&str>), ModelError> {
            let (line, text) = lines.next().ok_or(ModelError::Missing(key))?;
            let mut words = text.split_whitespace();
            if words.next() != Some(key) {
                return Err(ModelError::UnexpectedLine {
                    line,
                    expected: key,
                    found: text.to_string(),
                });
            }
            Ok((line, words.collect()))
        };
        let (line, name) = next("variant")?;
        let [variant] = name[..] else {
            return Err(ModelError::Count {
                line,
                what: "variant",
                want: 1,
                found: name.len(),
            });
        };
        let variant = variant.to_string();
        let (line, range) = next("moves")?;
        let range: [u32; 2] = numbers(line, "moves", &range)?;
        let [lo, hi] = range;
        if lo < 1 || lo > hi || hi > MAX_MOVE {
            return Err(ModelError::MoveRange { line, lo, hi });
        }
        let (line, a) = next("a")?;
        let a: [f64; 4] = numbers(line, "a", &a)?;
        let (line, b) = next("b")?;
        let b: [f64; 4] = numbers(line, "b", &b)?;
        if a.iter().chain(&b).any(|c| !c.is_finite()) {
            return Err(ModelError::NotFinite { line });
        }
        if let Some((line, text)) = lines.next() {
            return Err(ModelError::UnexpectedLine {
                line,
                expected: "the end of the model",
                found: text.to_string(),
            });
        }
        Ok(Model {
            variant,
            moves: (lo, hi),
            a,
            b,
            comments,
        })
    }
}

impl fmt::Display for Model {
    /// The model's text, as [`Model::parse`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.comments {
            writeln!(f, "# {c}")?;
        }
        writeln!(f, "variant {}", self.variant)?;
        writeln!(f, "moves {} {}", self.moves.0, self.moves.1)?;
        let coefs = |c: &[f64; 4]| {
            c.iter()
                .map(|x| format!("{x:.6}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        writeln!(f, "a {}", coefs(&self.a))?;
        writeln!(f, "b {}", coefs(&self.b))
    }
}

/// `N` numbers of a line, or why not.
fn numbers<T: std::str::FromStr + Copy + Default, const N: usize>(
    line: usize,
    what: &'static str,
    words: &[&str],
) -> Result<[T; N], ModelError> {
    if words.len() != N {
        return Err(ModelError::Count {
            line,
            what,
            want: N,
            found: words.len(),
        });
    }
    let mut out = [T::default(); N];
    for (slot, w) in out.iter_mut().zip(words) {
        *slot = w.parse().map_err(|_| ModelError::NotANumber {
            line,
            word: w.to_string(),
        })?;
    }
    Ok(out)
}

pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The model of a registered variant (an engine name), read from its embedded text once.
/// `None` for an unknown name or a model that does not read (the registry's tests read every
/// one, so only a bad build gets here).
pub fn model_of(variant: &str) -> Option<&'static Model> {
    static MODELS: OnceLock<HashMap<&'static str, Model>> = OnceLock::new();
    let models = MODELS.get_or_init(|| {
        registry::VARIANTS
            .iter()
            .filter_map(|v| Model::parse(v.wdl_model).ok().map(|m| (v.game.name, m)))
            .collect()
    });
    let info = registry::find(variant)?;
    models.get(info.game.name)
}

/// The chances of `score` (centipawns or a mate score as the search reports it, side to
/// move's view) at move `move_number` of `variant` (an engine name of the registry), by that
/// game's fitted model. A mate score is a sure win or loss. An unknown variant (or a model
/// that did not read) falls back to a plain logistic curve without draws.
pub fn chances(variant: &str, score: i32, move_number: u32) -> Wdl {
    if score >= MATE_BOUND {
        return Wdl {
            win: 1000,
            draw: 0,
            loss: 0,
        };
    }
    if score <= -MATE_BOUND {
        return Wdl {
            win: 0,
            draw: 0,
            loss: 1000,
        };
    }
    match model_of(variant) {
        Some(model) => model.wdl(score, move_number),
        None => fallback().wdl(score, move_number),
    }
}

/// The chances of a reported [`Score`]: a mate in any number of moves is a sure result.
pub fn chances_of_score(variant: &str, score: Score, move_number: u32) -> Wdl {
    let internal = match score {
        Score::Cp(cp) => cp.clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
        Score::Mate(n) if n > 0 => MATE_BOUND,
        Score::Mate(_) => -MATE_BOUND,
    };
    chances(variant, internal, move_number)
}

/// A curve without draws, 50% at 0 and 73% at 150 cp, for a game without a model.
fn fallback() -> &'static Model {
    static FALLBACK: OnceLock<Model> = OnceLock::new();
    FALLBACK.get_or_init(|| Model {
        variant: String::new(),
        moves: (1, MAX_MOVE),
        a: [0.0; 4],
        b: [150.0, 0.0, 0.0, 0.0],
        comments: Vec::new(),
    })
}

/// The move number a FEN carries (its last field, the full-move counter), 1 when it has none.
pub fn move_number_of(fen: &str) -> u32 {
    fen.split_whitespace()
        .last()
        .and_then(|w| w.parse().ok())
        .unwrap_or(1)
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry::VARIANTS;

    #[test]
    fn every_registered_game_has_its_own_model_that_reads() {
        for v in VARIANTS {
            let model = Model::parse(v.wdl_model)
                .unwrap_or_else(|e| panic!("{}: nets/{}.wdl: {e}", v.game.name, v.game.name));
            assert_eq!(model.variant, v.game.name, "a model of another game");
            assert!(
                !model.comments.iter().any(|c| c.contains("placeholder")),
                "{}: the model is a placeholder, not fitted",
                v.game.name
            );
            assert_eq!(model_of(v.game.name), Some(&model));
            assert_eq!(model_of(v.xboard_name), Some(&model), "by its XBoard name");
        }
    }

    #[test]
    fn chances_sum_to_1000_and_follow_the_score_in_every_game() {
        for v in VARIANTS {
            let name = v.game.name;
            for mv in [1, 5, 10, 20, 30, 45, 60, 90, 120, 200, 5000] {
                let mut last = chances(name, -MATE_BOUND + 1, mv);
                for score in (-4000..=4000).step_by(7) {
                    let w = chances(name, score, mv);
                    assert_eq!(w.win + w.draw + w.loss, 1000, "{name} {score} cp move {mv}");
                    assert!(
                        w.win >= last.win,
                        "{name}: win falls at {score} cp, move {mv}"
                    );
                    assert!(
                        w.loss <= last.loss,
                        "{name}: loss rises at {score} cp, move {mv}"
                    );
                    last = w;
                }
                // Far ahead is (nearly) a sure win, far behind a sure loss.
                assert!(chances(name, 3000, mv).win > 900, "{name} move {mv}");
                assert!(chances(name, -3000, mv).loss > 900, "{name} move {mv}");
                // An even score is even: the curves are symmetric.
                let even = chances(name, 0, mv);
                assert!(even.win.abs_diff(even.loss) <= 1, "{name} {even:?}");
            }
        }
    }

    #[test]
    fn mates_are_sure_results() {
        for v in VARIANTS {
            let won = Wdl {
                win: 1000,
                draw: 0,
                loss: 0,
            };
            assert_eq!(chances(v.game.name, MATE_BOUND, 40), won);
            assert_eq!(chances(v.game.name, crate::search::MATE - 3, 40), won);
            assert_eq!(chances(v.game.name, -MATE_BOUND, 40), won.flipped());
            assert_eq!(chances_of_score(v.game.name, Score::Mate(2), 40), won);
            assert_eq!(
                chances_of_score(v.game.name, Score::Mate(0), 40),
                won.flipped()
            );
        }
    }

    #[test]
    fn games_without_draws_get_no_draw_band() {
        let no_band = |name: &str| {
            let m = model_of(name).unwrap();
            m.comments.iter().any(|c| c.contains("no draw band"))
        };
        // Cannon Shogi and Whitcher's Cannon almost never end drawn (0.1% and 0.2% of their
        // self-play games).
        for name in ["cannonshogi", "cannon"] {
            assert!(no_band(name), "{name}");
        }
        for v in VARIANTS.iter().filter(|v| no_band(v.game.name)) {
            for mv in [10, 40, 80] {
                for score in [-500, -20, 0, 20, 500] {
                    assert_eq!(chances(v.game.name, score, mv).draw, 0, "{}", v.game.name);
                }
            }
        }
        // Chess does draw: an even position is a draw more often than not.
        let even = chances("chess", 0, 40);
        assert!(even.draw > 0, "{even:?}");
    }

    #[test]
    fn a_model_reads_back_what_it_writes_and_bad_ones_are_refused() {
        let model = Model {
            variant: "chess".into(),
            moves: (9, 110),
            a: [100.5, -2.25, 0.125, 3.0],
            b: [80.0, 1.0, -0.5, 0.0],
            comments: vec!["made by hand".into()],
        };
        assert_eq!(Model::parse(&model.to_string()), Ok(model));
        let good = "variant chess\nmoves 1 120\na 1 2 3 4\nb 5 6 7 8\n";
        assert!(Model::parse(good).is_ok());
        for (text, want) in [
            ("", ModelError::Missing("variant")),
            ("variant chess\n", ModelError::Missing("moves")),
            (
                "variant chess\nmoves 1 120\na 1 2 3\nb 5 6 7 8\n",
                ModelError::Count {
                    line: 3,
                    what: "a",
                    want: 4,
                    found: 3,
                },
            ),
            (
                "variant chess\nmoves 1 120\na 1 2 x 4\nb 5 6 7 8\n",
                ModelError::NotANumber {
                    line: 3,
                    word: "x".into(),
                },
            ),
            (
                "variant chess\nmoves 50 10\na 1 2 3 4\nb 5 6 7 8\n",
                ModelError::MoveRange {
                    line: 2,
                    lo: 50,
                    hi: 10,
                },
            ),
            (
                "variant chess\nmoves 1 120\nb 1 2 3 4\na 5 6 7 8\n",
                ModelError::UnexpectedLine {
                    line: 3,
                    expected: "a",
                    found: "b 1 2 3 4".into(),
                },
            ),
            (
                "variant chess\nmoves 1 120\na 1 2 3 4\nb 5 6 NaN 8\n",
                ModelError::NotFinite { line: 4 },
            ),
        ] {
            assert_eq!(Model::parse(text), Err(want), "{text:?}");
        }
        assert!(matches!(
            Model::parse(&format!("{good}extra 1\n")),
            Err(ModelError::UnexpectedLine { line: 5, .. })
        ));
    }

    #[test]
    fn the_move_number_is_the_fens_last_field() {
        assert_eq!(
            move_number_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 37"),
            37
        );
        assert_eq!(move_number_of("8/8/8 w - - 0 0"), 1);
        assert_eq!(move_number_of("8/8/8 w"), 1);
    }
}
