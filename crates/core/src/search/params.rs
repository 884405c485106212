//! The search's margins and reduction constants, each declared once with its default, its
//! range and how SPSA should step it (`cannonade spsa`). The search reads them from the
//! [`SearchParams`] of its [`SearchOptions`](super::SearchOptions), copied into each thread, so
//! a tunable margin costs no more than the literal it replaced; the option table offers each
//! as a hidden Spin option (see `engine/options.rs`), so a tuner or a match can set them.
//!
//! The defaults are the values the search was written with; changing one changes the `bench`
//! signature. To list them: `cannonade spsa --list`.

/// How one parameter is declared: the option's name, its default (what the engine plays
/// with), its range, and SPSA's settings for it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ParamSpec {
    /// The option's name (CamelCase, as Stockfish's tuning options are named).
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's final perturbation (`c_end`): how far the two engines of the last game pairs
    /// are apart, about a twentieth of the range.
    pub c_end: f64,
    /// SPSA's final learning rate (`r_end`, fishtest's name): `a_end = r_end * c_end^2`.
    pub r_end: f64,
    /// What the parameter does, in one line.
    pub help: &'static str,
}

impl ParamSpec {
    /// Whether the parameter acts only when the search is timed (the `Time…` parameters, which
    /// decide when to stop): a search limited by nodes or depth never reads it, so a tuning at
    /// fixed nodes would only walk it at random.
    pub fn clock_only(&self) -> bool {
        self.name.starts_with("Time")
    }
}

/// fishtest's usual final learning rate.
pub const DEFAULT_R_END: f64 = 0.002;

/// `search_params! { Name field: default, min..=max, c_end; "help"; ... }` makes
/// [`SearchParams`] (one `i32` field per line), [`PARAMS`] (the specs, in order) and the
/// by-index accessors the option table and the tuner use.
macro_rules! search_params {
    ($($name:ident $field:ident: $default:expr, $min:literal..=$max:literal, $c_end:expr; $help:literal;)*) => {
        /// The values the search runs with; `Default` is the engine as shipped.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub struct SearchParams {
            $(#[doc = $help] pub $field: i32,)*
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $($field: $default,)* }
            }
        }

        /// Every parameter's declaration, in the order of [`SearchParams::get`]'s indices.
        pub const PARAMS: &[ParamSpec] = &[$(ParamSpec {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            c_end: $c_end as f64,
            r_end: DEFAULT_R_END,
            help: $help,
        },)*];

        impl SearchParams {
            /// The value of parameter `i` (an index into [`PARAMS`]).
            pub fn get(&self, i: usize) -> i32 {
                let all = [$(self.$field,)*];
                all[i]
            }

            /// Sets parameter `i` (an index into [`PARAMS`]); the caller keeps it in range.
            pub fn set(&mut self, i: usize, value: i32) {
                let fields = [$(&mut self.$field,)*];
                *fields[i] = value;
            }
        }
    };
}

search_params! {
    RfpMargin rfp_margin: 80, 20..=250, 10; "reverse futility: margin per ply of depth";
    RfpDepth rfp_depth: 7, 1..=12, 1; "reverse futility: deepest node it prunes";
    RfpHistoryDivisor rfp_history_divisor: 0, 0..=2000, 60; "reverse futility: one more centipawn of margin per this much history of the opponent's quiet move into the node (0: off)";
    RfpCutNodeMargin rfp_cut_node_margin: 0, 0..=40, 3; "reverse futility: margin per ply less at an expected cut node the table knows nothing of (0: off)";
    RazorBase razor_base: 200, 0..=600, 30; "razoring: margin at depth 0";
    RazorMargin razor_margin: 250, 50..=600, 25; "razoring: margin per ply of depth";
    RazorDepth razor_depth: 3, 1..=6, 1; "razoring: deepest node it tries";
    NmpBase nmp_base: 3, 1..=6, 1; "null move: reduction at any depth";
    NmpDepthDivisor nmp_depth_divisor: 4, 2..=8, 1; "null move: one ply more reduction per this many plies of depth";
    NmpEvalDivisor nmp_eval_divisor: 200, 50..=500, 20; "null move: one ply more reduction per this much eval above beta";
    NmpEvalMax nmp_eval_max: 3, 0..=6, 1; "null move: most extra reduction for eval above beta";
    NmpStaticMargin nmp_static_margin: 0, 0..=300, 15; "null move: only where the static value is at least beta plus this, less a twelfth of it per ply of depth, and the table does not lower it (0: off)";
    ProbCutMargin probcut_margin: 200, 50..=500, 20; "ProbCut: margin above beta";
    LmpBase lmp_base: 3, 0..=10, 1; "late-move pruning: quiet moves tried at depth 0 (plus depth squared)";
    FutilityBase futility_base: 100, 0..=300, 15; "late-move futility: margin at reduced depth 0";
    FutilityMargin futility_margin: 120, 30..=300, 12; "late-move futility: margin per ply of reduced depth";
    FutilityDepth futility_depth: 6, 1..=12, 1; "late-move futility: deepest reduced depth it prunes";
    HistoryPruneMargin history_prune_margin: 3000, 500..=8000, 350; "history pruning: history below minus this per ply prunes";
    PruneHistoryDivisor prune_history_divisor: 0, 0..=16384, 800; "futility and exchange pruning: a quiet move judged one reduced ply deeper per this much history (0: off)";
    HistoryPruneDepth history_prune_depth: 3, 1..=6, 1; "history pruning: deepest reduced depth it prunes";
    SeeCaptureMargin see_capture_margin: 100, 20..=300, 12; "SEE pruning: material a capture may lose per ply";
    SeeQuietMargin see_quiet_margin: 25, 5..=80, 4; "SEE pruning: material a quiet move may lose per reduced ply squared";
    LmrBase lmr_base: 50, 0..=150, 7; "late-move reductions: constant term, in hundredths of a ply";
    LmrDivisor lmr_divisor: 200, 100..=400, 15; "late-move reductions: ln(depth)*ln(moves) divided by this, in hundredths";
    LmrHistoryDivisor lmr_history_divisor: 8192, 2048..=32768, 1200; "late-move reductions: one ply less per this much history";
    LmrCutNode lmr_cut_node: 1, 0..=3, 1; "late-move reductions: plies more for a quiet move at an expected cut node";
    SingularMargin singular_margin: 2, 0..=8, 1; "singular extensions: margin below the table score per ply";
    LowPlyHistory low_ply_history: 0, 0..=16, 1; "low-ply history: its weight in the order of the quiet moves at the root's first plies, over 1 + 2 x ply (0: off)";
    CheckExtensionDepth check_extension_depth: 0, 0..=20, 1; "check extension: shallowest node whose safe checks are searched a ply deeper";
    DoubleExtensionMargin double_extension_margin: 20, 0..=100, 4; "singular extensions: two plies when the search without the table move fails this far below its bound";
    FailHighBlend fail_high_blend: 1, 0..=4, 1; "fail-high blend: beta's weight against the node's depth (0: a fail high is returned as found)";
    CorrectionMinor correction_minor: 0, 0..=1, 1; "correction history: also by where the minor pieces and kings stand, where the game gives that key (0: off)";
    CorrectionMajor correction_major: 0, 0..=1, 1; "correction history: also by where the rooks, queens (the game's heavy pieces) and kings stand, where the game gives that key (0: off)";
    EndgameScale endgame_scale: 0, 0..=1, 1; "static values scaled toward 0 in the endings the game knows as (nearly) drawn (0: off)";
    ShuffleDamping shuffle_damping: 0, 0..=400, 20; "static values damped toward 0 by the game's draw clock (the fifty-move rule's plies) over this (0: off)";
    AspirationDelta aspiration_delta: 20, 5..=60, 3; "aspiration window: first half-width";
    AspirationGrowth aspiration_growth: 10, 0..=40, 2; "aspiration window: added to the half-width (besides half of it) after a fail";
    QsFutilityMargin qs_futility_margin: 200, 50..=500, 20; "quiescence delta pruning: margin above the capture's gain";
    HistoryBonusQuad history_bonus_quad: 16, 4..=48, 2; "history bonus: per depth squared";
    HistoryBonusLinear history_bonus_linear: 32, 0..=128, 6; "history bonus: per ply of depth";
    HistoryBonusMax history_bonus_max: 4000, 1000..=12000, 500; "history bonus: largest";
    TimeShare time_share: 90, 30..=120, 5; "time: percent of the soft budget after which no new iteration starts (before stability and a falling score scale it)";
    TimeNodeFactor time_node_factor: 0, 0..=250, 10; "time: the soft share also scaled by 1.5 less the best move's share of the root's nodes, times this in hundredths (0: off)";
    TimeMovesLeft time_moves_left: 30, 10..=50, 2; "time: moves a game is guessed still to last when the GUI sends no moves to go (sudden death, increments)";
}

/// The parameter called `name` (case-insensitive, as options are): its index into [`PARAMS`].
pub fn index_of(name: &str) -> Option<usize> {
    PARAMS
        .iter()
        .position(|p| p.name.eq_ignore_ascii_case(name))
}

/// Late-move reductions by depth and move number, `base + ln(depth) * ln(moves) / divisor`
/// (`LmrBase`, `LmrDivisor` in hundredths), rounded down: built once per search from its
/// parameters, 4 KB.
pub struct Reductions([[u8; 64]; 64]);

impl Reductions {
    pub fn new(p: &SearchParams) -> Self {
        let base = f64::from(p.lmr_base) / 100.0;
        let divisor = f64::from(p.lmr_divisor) / 100.0;
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as u8;
            }
        }
        Reductions(t)
    }

    #[inline]
    pub fn get(&self, depth: i32, moves: usize) -> i32 {
        i32::from(self.0[(depth as usize).min(63)][moves.min(63)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_declared_sensibly() {
        let d = SearchParams::default();
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(
                p.c_end > 0.0 && p.c_end <= f64::from(p.max - p.min),
                "{}",
                p.name
            );
            assert_eq!(d.get(i), p.default, "{}", p.name);
            assert!(
                PARAMS[..i]
                    .iter()
                    .all(|q| !q.name.eq_ignore_ascii_case(p.name)),
                "{} twice",
                p.name
            );
            assert!(
                p.name.chars().all(|c| c.is_ascii_alphanumeric()),
                "{}",
                p.name
            );
        }
        // The divisors the search divides by are never zero.
        for name in [
            "NmpDepthDivisor",
            "NmpEvalDivisor",
            "LmrDivisor",
            "LmrHistoryDivisor",
        ] {
            assert!(PARAMS[index_of(name).unwrap()].min > 0, "{name}");
        }
    }

    #[test]
    fn set_changes_only_its_own_parameter() {
        for (i, changed) in PARAMS.iter().enumerate() {
            let mut p = SearchParams::default();
            p.set(i, changed.max);
            for (j, read) in PARAMS.iter().enumerate() {
                let want = if i == j { read.max } else { read.default };
                assert_eq!(p.get(j), want, "set {} read {}", changed.name, read.name);
            }
        }
        assert_eq!(index_of("lmrbase"), index_of("LmrBase"));
        assert_eq!(index_of("NoSuchMargin"), None);
    }

    #[test]
    fn default_reductions_are_half_the_log_product_rounded() {
        let r = Reductions::new(&SearchParams::default());
        // ln(1) = 0: nothing is reduced at depth 1 or for the first move beyond the 0.5.
        assert_eq!(r.get(1, 40), 0);
        // ln(10) * ln(20) / 2 = 3.45, + 0.5 -> 3.
        assert_eq!(r.get(10, 20), 3);
        // ln(63)^2 / 2 = 8.58, + 0.5 -> 9; beyond the table the last row and column hold.
        assert_eq!(r.get(100, 1000), 9);
        let bold = Reductions::new(&SearchParams {
            lmr_divisor: 100,
            ..SearchParams::default()
        });
        assert_eq!(bold.get(10, 20), 7);
    }
}
