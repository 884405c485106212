//! Evaluations written as weighted counts, so that `cannonade tune` can fit their weights.
//!
//! A game whose evaluation is tunable lists its weights in one file (`eval_weights.rs` in its
//! module, a [`params!`] table) and writes its evaluation once, generic over [`Terms`]: the
//! engine sums the weighted terms (the `Sum` the table generates), the tuner counts how often
//! each parameter appears (a [`Trace`]). So the tuner sees exactly the terms the engine plays
//! with, whatever the game.

use crate::games::Game;

/// A middle-game and an end-game score, blended by phase at the end of an evaluation.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

impl Tapered {
    pub const fn new(mg: i32, eg: i32) -> Self {
        Tapered { mg, eg }
    }
}

impl std::ops::Mul<i32> for Tapered {
    type Output = Tapered;
    fn mul(self, k: i32) -> Tapered {
        Tapered::new(self.mg * k, self.eg * k)
    }
}

impl std::ops::AddAssign for Tapered {
    fn add_assign(&mut self, t: Tapered) {
        self.mg += t.mg;
        self.eg += t.eg;
    }
}

impl std::ops::SubAssign for Tapered {
    fn sub_assign(&mut self, t: Tapered) {
        self.mg -= t.mg;
        self.eg -= t.eg;
    }
}

impl std::ops::Add for Tapered {
    type Output = Tapered;
    fn add(mut self, t: Tapered) -> Tapered {
        self += t;
        self
    }
}

impl std::ops::Sub for Tapered {
    type Output = Tapered;
    fn sub(self, t: Tapered) -> Tapered {
        Tapered::new(self.mg - t.mg, self.eg - t.eg)
    }
}

/// A game's weights table: `params! { Name: mg, eg; ... }` makes the enum `Param` (one variant
/// per line, numbered in order), `NAMES`, `WEIGHTS` (the weights the engine plays with) and
/// `Sum`, the [`Terms`] sink that adds them up.
macro_rules! params {
    ($($name:ident: $mg:expr, $eg:expr;)*) => {
        /// One weight of the evaluation (a middle-game and an end-game value).
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        #[repr(usize)]
        pub enum Param {
            $($name,)*
        }

        /// The parameters' names, in their order (the tuner writes them back).
        pub const NAMES: &[&str] = &[$(stringify!($name),)*];

        /// The weights the engine plays with.
        pub(crate) const WEIGHTS: [$crate::games::tuning::Tapered; NAMES.len()] =
            [$($crate::games::tuning::Tapered::new($mg, $eg),)*];

        /// The engine's evaluation: the weighted sum of the terms.
        #[derive(Default)]
        pub(crate) struct Sum(pub $crate::games::tuning::Tapered);

        impl $crate::games::tuning::Terms for Sum {
            #[inline(always)]
            fn add(&mut self, param: usize, n: i32) {
                self.0 += WEIGHTS[param] * n;
            }
            #[inline(always)]
            fn add_scaled(&mut self, param: usize, n: i32, divisor: i32) {
                let t = WEIGHTS[param] * n;
                self.0 += $crate::games::tuning::Tapered::new(t.mg / divisor, t.eg / divisor);
            }
        }
    };
}
pub(crate) use params;

/// Where an evaluation puts its terms: each term is a parameter and how many times it counts
/// (negative for Black), optionally divided (a quadratic count weighed in fractions).
pub(crate) trait Terms {
    fn add(&mut self, param: usize, n: i32);
    fn add_scaled(&mut self, param: usize, n: i32, divisor: i32);
}

/// The same terms seen from the other side: every count negated (Black's terms in White's sum).
pub(crate) struct Negated<'a, S: Terms>(pub &'a mut S);

impl<S: Terms> Terms for Negated<'_, S> {
    #[inline(always)]
    fn add(&mut self, param: usize, n: i32) {
        self.0.add(param, -n);
    }
    #[inline(always)]
    fn add_scaled(&mut self, param: usize, n: i32, divisor: i32) {
        self.0.add_scaled(param, -n, divisor);
    }
}

/// One position's evaluation taken apart: how many times each parameter counts, from White's
/// point of view, and what the evaluation adds that no parameter weighs. With the weights `w`,
/// the evaluation is `offset + Σ counts[p] · w[p]`, the middle-game sum weighed by `phase` (0
/// to 1) and the end-game sum by `1 − phase`.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub counts: Vec<f32>,
    pub offset: Tapered,
    pub phase: f32,
}

impl Trace {
    /// An empty trace for a table of `count` parameters.
    pub fn new(count: usize) -> Trace {
        Trace {
            counts: vec![0.0; count],
            offset: Tapered::default(),
            phase: 0.0,
        }
    }

    /// The evaluation (White's view, centipawns) these counts give with weights `w`
    /// (`[mg, eg]` per parameter).
    pub fn evaluate(&self, w: &[[f32; 2]]) -> f32 {
        let (mut mg, mut eg) = (self.offset.mg as f32, self.offset.eg as f32);
        for (c, w) in self.counts.iter().zip(w) {
            mg += c * w[0];
            eg += c * w[1];
        }
        mg * self.phase + eg * (1.0 - self.phase)
    }
}

impl Terms for Trace {
    fn add(&mut self, param: usize, n: i32) {
        self.counts[param] += n as f32;
    }
    fn add_scaled(&mut self, param: usize, n: i32, divisor: i32) {
        self.counts[param] += n as f32 / divisor as f32;
    }
}

/// What the tuner needs to know of a game's weights table.
pub struct ParamTable {
    pub names: &'static [&'static str],
    pub weights: &'static [Tapered],
    /// Parameters the tuner never moves, because the data cannot tell them (a king's value:
    /// both kings are always on the board).
    pub fixed: &'static [usize],
    /// The weights file, from the repository's root, and the comment it starts with.
    pub path: &'static str,
    pub header: &'static str,
}

impl ParamTable {
    /// The engine's weights as floats.
    pub fn current(&self) -> Vec<[f32; 2]> {
        self.weights
            .iter()
            .map(|t| [t.mg as f32, t.eg as f32])
            .collect()
    }

    /// The weights file for weights `w`, rounded to whole centipawns.
    pub fn file(&self, w: &[[f32; 2]]) -> String {
        let mut s = String::from(self.header);
        s.push_str("params! {\n");
        for (name, w) in self.names.iter().zip(w) {
            s.push_str(&format!(
                "    {name}: {}, {};\n",
                w[0].round() as i32,
                w[1].round() as i32
            ));
        }
        s.push_str("}\n");
        s
    }
}

/// A game whose evaluation can be taken apart into the parameters of its weights table.
pub trait EvalTraced: Game {
    /// The game's weights table.
    fn params() -> &'static ParamTable;
    /// The evaluation of this position as parameter counts: with the engine's weights,
    /// `trace.evaluate` gives the evaluation (White's view) up to rounding.
    fn eval_trace(&self) -> Trace;
}

/// What `cannonade tune` needs of a game: its weights table and how to trace a position's
/// evaluation ([`Game::eval_tuning`]; `None` for a game whose evaluation is not written as
/// weighted terms).
pub struct EvalTuning<G> {
    pub params: &'static ParamTable,
    pub trace: fn(&G) -> Trace,
}

impl<G: EvalTraced> EvalTuning<G> {
    /// The tuning of a game with a traced evaluation.
    pub fn of() -> Self {
        EvalTuning {
            params: G::params(),
            trace: G::eval_trace,
        }
    }
}

/// Checks a game's table against its file: the file the tuner would write for the weights in
/// use is the file in the repository (so the tuner's output can replace it as it is).
#[cfg(test)]
pub(crate) fn assert_file_matches(table: &ParamTable) {
    // `path` is as seen from the workspace's root, two folders above this crate's.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let written = std::fs::read_to_string(format!("{root}/{}", table.path)).unwrap();
    assert_eq!(table.file(&table.current()), written);
}
