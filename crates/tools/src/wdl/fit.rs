//! The maximum-likelihood fit of a game's win-chance model: the eight coefficients of `a(m)`
//! and `b(m)` that make the game results of the data likeliest under
//! [`Model::probabilities`], found by full-batch Adam on the mean log loss.

use crate::datagen::GameResult;
use cannonade_core::engine::wdl::{self, Model, MAX_MOVE, MOVE_SCALE};

/// One position of the data: the move number of its FEN, its search score (centipawns, side
/// to move's view, never a mate) and how its game ended for the side to move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    pub move_number: u32,
    pub score: f64,
    pub result: GameResult,
}

/// How the fit went.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FitSummary {
    /// Mean negative log-likelihood of the results under the fitted model (nats).
    pub log_loss: f64,
    /// The same for the results' shares alone, ignoring score and move: what the model beats.
    pub baseline_log_loss: f64,
    pub steps: usize,
}

/// Adam steps of the fit. The loss is smooth and has eight parameters: this many full passes
/// settle it to the fourth decimal on every game's data.
const STEPS: usize = 1500;
const LEARNING_RATE: f64 = 0.05;
/// Coefficients are fitted in hundreds of centipawns, so that all are of the size Adam's
/// steps suit.
const UNIT: f64 = 100.0;
/// A draw the model gives no chance still costs this much, rather than infinitely much.
const FLOOR: f64 = 1e-9;

/// The move numbers the fit covers: the 1st to the 99th percentile of the data's, within
/// `1..=MAX_MOVE`. Beyond them a cubic fitted on a few positions would run wild.
pub fn move_range(samples: &[Sample]) -> (u32, u32) {
    let mut moves: Vec<u32> = samples.iter().map(|s| s.move_number).collect();
    moves.sort_unstable();
    let at = |q: f64| moves[((moves.len() - 1) as f64 * q) as usize];
    let lo = at(0.01).clamp(1, MAX_MOVE);
    let hi = at(0.99).clamp(lo, MAX_MOVE);
    (lo, hi)
}

/// The monomial coefficients (in `m`) of `p((m - c) / h)`, where `p` has coefficients `p`.
fn to_monomials(p: &[f64; 4], c: f64, h: f64) -> [f64; 4] {
    const BINOMIAL: [[f64; 4]; 4] = [
        [1.0, 0.0, 0.0, 0.0],
        [1.0, 1.0, 0.0, 0.0],
        [1.0, 2.0, 1.0, 0.0],
        [1.0, 3.0, 3.0, 1.0],
    ];
    let mut out = [0.0; 4];
    for (k, pk) in p.iter().enumerate() {
        let scale = pk / h.powi(k as i32);
        for (j, o) in out.iter_mut().enumerate().take(k + 1) {
            *o += scale * BINOMIAL[k][j] * (-c).powi((k - j) as i32);
        }
    }
    out
}

/// The mean log loss of `samples` under `model`.
pub fn log_loss(model: &Model, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let (w, d, l) = model.probabilities(s.score, s.move_number);
            -match s.result {
                GameResult::Win => w,
                GameResult::Draw => d,
                GameResult::Loss => l,
            }
            .max(FLOOR)
            .ln()
        })
        .sum();
    total / samples.len() as f64
}

/// The mean log loss of predicting the results' shares alone.
fn baseline(samples: &[Sample]) -> f64 {
    let n = samples.len() as f64;
    [GameResult::Win, GameResult::Draw, GameResult::Loss]
        .iter()
        .map(|r| samples.iter().filter(|s| s.result == *r).count() as f64 / n)
        .filter(|&f| f > 0.0)
        .map(|f| -f * f.ln())
        .sum()
}

/// Fits the model of `variant` to `samples` (not empty). With `no_draws`, `a` stays 0: the
/// curves of a win and a loss then add up to 1 at every score, and the model has no draws.
pub fn fit(variant: &str, samples: &[Sample], no_draws: bool) -> (Model, FitSummary) {
    let moves = move_range(samples);
    let (lo, hi) = (
        f64::from(moves.0) / MOVE_SCALE,
        f64::from(moves.1) / MOVE_SCALE,
    );
    // The cubics are fitted in t = (m - centre) / half, which runs over -1..1 on the data:
    // its powers are far less alike than m's, so the steps do not fight each other.
    let centre = (lo + hi) / 2.0;
    let half = ((hi - lo) / 2.0).max(1e-3);
    let prepared: Vec<(f64, f64, GameResult)> = samples
        .iter()
        .map(|s| {
            let m = f64::from(s.move_number.clamp(moves.0, moves.1)) / MOVE_SCALE;
            ((m - centre) / half, s.score, s.result)
        })
        .collect();
    // a starts at 1 pawn (0 without draws), b at 1 pawn, flat in the move.
    let mut theta = [
        if no_draws { 0.0 } else { 1.0 },
        0.0,
        0.0,
        0.0,
        1.0,
        0.0,
        0.0,
        0.0,
    ];
    let mut first = [0.0f64; 8];
    let mut second = [0.0f64; 8];
    let (beta1, beta2) = (0.9, 0.999);
    for step in 1..=STEPS {
        let grad = gradient(&theta, &prepared);
        // The rate falls along a cosine to a twentieth, so the last steps settle.
        let progress = step as f64 / STEPS as f64;
        let lr =
            LEARNING_RATE * (0.05 + 0.95 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()));
        for i in 0..8 {
            if no_draws && i < 4 {
                continue;
            }
            first[i] = beta1 * first[i] + (1.0 - beta1) * grad[i];
            second[i] = beta2 * second[i] + (1.0 - beta2) * grad[i] * grad[i];
            let m_hat = first[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = second[i] / (1.0 - beta2.powi(step as i32));
            theta[i] -= lr * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
    let scaled = |p: &[f64]| [p[0] * UNIT, p[1] * UNIT, p[2] * UNIT, p[3] * UNIT];
    let model = Model {
        variant: variant.to_string(),
        moves,
        a: to_monomials(&scaled(&theta[..4]), centre, half),
        b: to_monomials(&scaled(&theta[4..]), centre, half),
        comments: Vec::new(),
    };
    let summary = FitSummary {
        log_loss: log_loss(&model, samples),
        baseline_log_loss: baseline(samples),
        steps: STEPS,
    };
    (model, summary)
}

/// The gradient of the mean log loss in `theta` (a's four coefficients, then b's, in
/// hundreds of centipawns over powers of t).
fn gradient(theta: &[f64; 8], samples: &[(f64, f64, GameResult)]) -> [f64; 8] {
    let mut grad = [0.0; 8];
    for &(t, x, result) in samples {
        let powers = [1.0, t, t * t, t * t * t];
        let raw_a = UNIT * wdl::cubic(&[theta[0], theta[1], theta[2], theta[3]], t);
        let raw_b = UNIT * wdl::cubic(&[theta[4], theta[5], theta[6], theta[7]], t);
        // The engine reads a and b clamped (Model::params): where the clamp holds, the loss
        // does not move with them.
        let (a, a_free) = if raw_a > 0.0 {
            (raw_a, 1.0)
        } else {
            (0.0, 0.0)
        };
        let (b, b_free) = if raw_b > 1.0 {
            (raw_b, 1.0)
        } else {
            (1.0, 0.0)
        };
        let w = wdl::logistic((x - a) / b);
        let l = wdl::logistic((-x - a) / b);
        // Derivatives of w and l in a and b.
        let dw_da = -w * (1.0 - w) / b;
        let dw_db = -w * (1.0 - w) * (x - a) / (b * b);
        let dl_da = -l * (1.0 - l) / b;
        let dl_db = -l * (1.0 - l) * (-x - a) / (b * b);
        let (p, dp_da, dp_db) = match result {
            GameResult::Win => (w, dw_da, dw_db),
            GameResult::Loss => (l, dl_da, dl_db),
            GameResult::Draw => (1.0 - w - l, -dw_da - dl_da, -dw_db - dl_db),
        };
        if p <= FLOOR {
            continue;
        }
        // d(-ln p) = -dp / p.
        let ga = -dp_da / p * a_free * UNIT;
        let gb = -dp_db / p * b_free * UNIT;
        for k in 0..4 {
            grad[k] += ga * powers[k];
            grad[4 + k] += gb * powers[k];
        }
    }
    let n = samples.len() as f64;
    grad.map(|g| g / n)
}

/// Results drawn from a known model, for the tests of the fit and of the tool: `n` samples
/// with move numbers from 10 to `10 + moves` and scores within `score_span / 2` of zero, each
/// result drawn with the model's chances. A fixed linear congruential sequence from `seed`:
/// the tests need no random crate and repeat.
#[cfg(test)]
pub(crate) fn synthetic(
    model: &Model,
    n: usize,
    seed: u64,
    moves: u32,
    score_span: f64,
) -> Vec<Sample> {
    let mut state = seed;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let move_number = 10 + (next() * f64::from(moves)) as u32;
            let score = (next() - 0.5) * score_span;
            let (w, d, _) = model.probabilities(score, move_number);
            let u = next();
            let result = if u < w {
                GameResult::Win
            } else if u < w + d {
                GameResult::Draw
            } else {
                GameResult::Loss
            };
            Sample {
                move_number,
                score,
                result,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn truth() -> Model {
        Model {
            variant: "chess".into(),
            moves: (1, MAX_MOVE),
            a: [150.0, 40.0, 0.0, 0.0],
            b: [80.0, 10.0, 0.0, 0.0],
            comments: vec![],
        }
    }

    #[test]
    fn the_fit_finds_the_curves_the_results_were_drawn_from() {
        let truth = truth();
        let samples = synthetic(&truth, 20_000, 0x2545_f491_4f6c_dd1d, 60, 1200.0);
        let (fitted, summary) = fit("chess", &samples, false);
        for mv in [20, 40, 60] {
            let (a0, b0) = truth.params(mv);
            let (a1, b1) = fitted.params(mv);
            assert!(
                (a0 - a1).abs() < 20.0,
                "move {mv}: a {a1:.0}, truly {a0:.0}"
            );
            assert!(
                (b0 - b1).abs() < 15.0,
                "move {mv}: b {b1:.0}, truly {b0:.0}"
            );
        }
        assert!(summary.log_loss < summary.baseline_log_loss);
        assert!(summary.log_loss <= log_loss(&truth, &samples) + 0.005);
    }

    #[test]
    fn without_draws_the_model_has_no_draw_band() {
        let mut truth = truth();
        truth.a = [0.0; 4];
        let samples = synthetic(&truth, 5_000, 0x2545_f491_4f6c_dd1d, 60, 1200.0);
        assert!(samples.iter().all(|s| s.result != GameResult::Draw));
        let (fitted, _) = fit("cannonshogi", &samples, true);
        for mv in [10, 40, 70] {
            for score in [-300, 0, 20, 300] {
                assert_eq!(fitted.wdl(score, mv).draw, 0, "{score} cp at move {mv}");
            }
        }
    }

    #[test]
    fn monomials_agree_with_the_centred_cubic() {
        let p = [1.5, -2.0, 0.25, 3.0];
        let (c, h) = (1.2, 0.7);
        let q = to_monomials(&p, c, h);
        for m in [0.1, 1.0, 2.5] {
            let want = wdl::cubic(&p, (m - c) / h);
            assert!((wdl::cubic(&q, m) - want).abs() < 1e-9);
        }
    }
}
