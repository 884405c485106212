//! The weights of the chess-family evaluation as numbered parameters, and the two ways the
//! evaluation spends them: summed into a score (`Sum`, the engine's evaluation), or counted per
//! parameter (`Trace`, what `cannonade tune` fits the weights with). The evaluation code is
//! written once, generic over [`Terms`], so the tuner sees exactly the terms the engine plays with.

use super::eval_terms::Tapered;
use super::piece::Role;

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
        pub(crate) const WEIGHTS: [Tapered; NAMES.len()] = [$(Tapered::new($mg, $eg),)*];
    };
}

include!("eval_weights.rs");

/// How many parameters the evaluation has.
pub const COUNT: usize = NAMES.len();

impl Param {
    /// The parameter `role` positions after `self`: the per-role parameters (`Value…`,
    /// `Advance…`, `Centre…`, `Mobility…`) are listed in `Role` order.
    #[inline(always)]
    pub(crate) fn of(self, role: Role) -> usize {
        self as usize + role.index()
    }
}

/// Where the evaluation puts its terms: each term is a parameter and how many times it counts
/// (negative for Black), optionally divided (the king danger is a quadratic count, weighed in
/// 64ths).
pub(crate) trait Terms {
    fn add(&mut self, param: usize, n: i32);
    fn add_scaled(&mut self, param: usize, n: i32, divisor: i32);
}

/// The engine's evaluation: the weighted sum.
#[derive(Default)]
pub(crate) struct Sum(pub Tapered);

impl Terms for Sum {
    #[inline(always)]
    fn add(&mut self, param: usize, n: i32) {
        self.0 += WEIGHTS[param] * n;
    }
    #[inline(always)]
    fn add_scaled(&mut self, param: usize, n: i32, divisor: i32) {
        let t = WEIGHTS[param] * n;
        self.0 += Tapered::new(t.mg / divisor, t.eg / divisor);
    }
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

/// The evaluation of one position taken apart: how many times each parameter counts, from
/// White's point of view, and what the evaluation adds that no parameter weighs (the variant's
/// pieces off the board). With the weights `w`, the evaluation is
/// `offset + Σ counts[p] · w[p]`, middle and end game blended by `phase` (of 24).
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub counts: Vec<f32>,
    pub offset: Tapered,
    pub phase: i32,
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            counts: vec![0.0; COUNT],
            offset: Tapered::default(),
            phase: 0,
        }
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

impl Trace {
    /// The evaluation (White's view, centipawns) these counts give with weights `w`
    /// (`[mg, eg]` per parameter).
    pub fn evaluate(&self, w: &[[f32; 2]]) -> f32 {
        let (mut mg, mut eg) = (self.offset.mg as f32, self.offset.eg as f32);
        for (c, w) in self.counts.iter().zip(w) {
            mg += c * w[0];
            eg += c * w[1];
        }
        let phase = self.phase as f32 / super::eval::FULL_PHASE as f32;
        mg * phase + eg * (1.0 - phase)
    }
}

/// The engine's weights as floats, for the tuner.
pub fn current_weights() -> Vec<[f32; 2]> {
    WEIGHTS.iter().map(|t| [t.mg as f32, t.eg as f32]).collect()
}

/// The weights file (`eval_weights.rs`) for weights `w`, rounded to whole centipawns.
pub fn weights_file(w: &[[f32; 2]]) -> String {
    let mut s = String::new();
    s.push_str(
        "// The weights of the chess-family evaluation: one line per parameter, middle game then end game,\n\
         // in centipawns (see `eval_params.rs` for what each counts). `cannonade tune` rewrites this file;\n\
         // the order of the lines is the parameters' numbering, so keep it when editing by hand.\n\
         params! {\n",
    );
    for (name, w) in NAMES.iter().zip(w) {
        s.push_str(&format!(
            "    {name}: {}, {};\n",
            w[0].round() as i32,
            w[1].round() as i32
        ));
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_role_parameters_follow_the_role_order() {
        for r in 0..Role::COUNT {
            let role = Role::from_index(r);
            let name = format!("{role:?}");
            for (first, prefix) in [
                (Param::ValuePawn, "Value"),
                (Param::AdvancePawn, "Advance"),
                (Param::CentrePawn, "Centre"),
                (Param::MobilityPawn, "Mobility"),
            ] {
                assert_eq!(NAMES[first.of(role)], format!("{prefix}{name}"));
            }
        }
    }

    #[test]
    fn the_weights_file_reads_back_as_the_same_weights() {
        let file = weights_file(&current_weights());
        let written = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/games/chess/eval_weights.rs"
        ))
        .unwrap();
        assert_eq!(file, written);
    }
}
