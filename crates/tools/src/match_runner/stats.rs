//! Match statistics: Elo difference with its 95% error bar, likelihood of superiority, and the
//! sequential probability ratio test, from trinomial (win/draw/loss per game) or pentanomial
//! (score per game pair, 0 to 2 in half points) counts.
//!
//! Elo is the logistic model (`score = 1 / (1 + 10^(-elo/400))`) as cutechess-cli and fishtest
//! use. The trinomial error bar and LOS follow cutechess-cli's formulas so its published outputs
//! can be checked by hand; the pentanomial ones use the variance of pair scores, which counts
//! the correlation that the shared opening puts between the two games of a pair. The SPRT is
//! the generalized SPRT of fishtest: the log-likelihood ratio of the maximum-likelihood
//! result distributions whose mean score is that of elo0 and of elo1.

/// The 97.5% quantile of the standard normal distribution (two-sided 95%).
const Z_95: f64 = 1.959_963_984_540_054;

/// Expected score of a player `elo` points stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference of a score (inverse of `score_of_elo`).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The error function, from the Chebyshev fit of `erfc` in Numerical Recipes (fractional error
/// below 1.2e-7 everywhere), which is ample for percentages and error bars.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// The standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// An Elo estimate with its two-sided 95% error bar and the likelihood of superiority.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub error: f64,
    /// Probability (0..1) that the first player is the stronger.
    pub los: f64,
}

/// Win/loss/draw counts from the first player's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Trinomial {
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// Elo, error and LOS as cutechess-cli computes them: the per-game standard deviation of
    /// the score turned into an interval of scores and then of Elo.
    pub fn elo(&self) -> EloEstimate {
        let n = self.games() as f64;
        let (w, l, d) = (
            self.wins as f64 / n,
            self.losses as f64 / n,
            self.draws as f64 / n,
        );
        let mu = w + d / 2.0;
        let var = w * (1.0 - mu).powi(2) + l * mu.powi(2) + d * (0.5 - mu).powi(2);
        let stdev = var.sqrt() / n.sqrt();
        let decisive = (self.wins + self.losses) as f64;
        let los = if decisive == 0.0 {
            0.5
        } else {
            0.5 + 0.5 * erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt())
        };
        interval(mu, stdev, los)
    }

    /// These counts and `other`'s together (two parts of one test).
    pub fn plus(&self, other: &Trinomial) -> Trinomial {
        Trinomial {
            wins: self.wins + other.wins,
            losses: self.losses + other.losses,
            draws: self.draws + other.draws,
        }
    }

    /// `(score, count)` per outcome, for the SPRT.
    pub fn distribution(&self) -> Vec<(f64, f64)> {
        vec![
            (0.0, self.losses as f64),
            (0.5, self.draws as f64),
            (1.0, self.wins as f64),
        ]
    }
}

/// Counts of game pairs by the first player's points in the pair: 0, 0.5, 1, 1.5, 2.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds a pair from the two games' points (each 0, 0.5 or 1) of the first player.
    pub fn add(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round() as usize;
        self.0[half_points.min(4)] += 1;
    }

    /// Elo and error from the variance of pair scores; LOS from the normal approximation.
    pub fn elo(&self) -> EloEstimate {
        let n = self.pairs() as f64;
        let dist = self.distribution();
        let mu = dist.iter().map(|(x, c)| x * c).sum::<f64>() / n;
        let var = dist.iter().map(|(x, c)| c * (x - mu).powi(2)).sum::<f64>() / n;
        let stdev = var.sqrt() / n.sqrt();
        let los = if stdev > 0.0 {
            phi((mu - 0.5) / stdev)
        } else if mu > 0.5 {
            1.0
        } else if mu < 0.5 {
            0.0
        } else {
            0.5
        };
        interval(mu, stdev, los)
    }

    /// These counts and `other`'s together (two parts of one test).
    pub fn plus(&self, other: &Pentanomial) -> Pentanomial {
        Pentanomial(std::array::from_fn(|i| self.0[i] + other.0[i]))
    }

    /// `(pair score as a fraction of 2 points, count)`, for the SPRT.
    pub fn distribution(&self) -> Vec<(f64, f64)> {
        self.0
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as f64 / 4.0, c as f64))
            .collect()
    }
}

/// Elo and error from a mean score and its standard error.
fn interval(mu: f64, stdev: f64, los: f64) -> EloEstimate {
    let lo = elo_of_score(mu - Z_95 * stdev);
    let hi = elo_of_score(mu + Z_95 * stdev);
    EloEstimate {
        // `+ 0.0` turns -0.0 into 0.0 for printing.
        elo: elo_of_score(mu) + 0.0,
        error: (hi - lo) / 2.0,
        los,
    }
}

/// The SPRT's bounds on the log-likelihood ratio: `(lower, upper)`.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// Log-likelihood of `counts` under the distribution closest to them (maximum likelihood)
/// whose mean score is `s`. The maximiser is `p_i = q_i / (1 + t (x_i - s))` with `t` the
/// root of `sum q_i (x_i - s) / (1 + t (x_i - s)) = 0`, found by bisection (the sum falls as
/// `t` grows).
fn max_log_likelihood(dist: &[(f64, f64)], s: f64) -> f64 {
    let n: f64 = dist.iter().map(|(_, c)| c).sum();
    let q: Vec<(f64, f64)> = dist.iter().map(|&(x, c)| (x - s, c / n)).collect();
    let hi_dev = q.iter().map(|(d, _)| *d).fold(f64::MIN, f64::max);
    let lo_dev = q.iter().map(|(d, _)| *d).fold(f64::MAX, f64::min);
    // 1 + t * d must stay positive for every outcome.
    let mut lo = if hi_dev > 0.0 { -1.0 / hi_dev } else { -1e9 };
    let mut hi = if lo_dev < 0.0 { -1.0 / lo_dev } else { 1e9 };
    let f = |t: f64| q.iter().map(|(d, p)| p * d / (1.0 + t * d)).sum::<f64>();
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    q.iter()
        .map(|(d, p)| n * p * (p / (1.0 + t * d)).ln())
        .sum()
}

/// The log-likelihood ratio of elo1 against elo0 for results `(score, count)`.
///
/// Empty outcomes get a tiny count (as fishtest does) so that a run of one kind of result
/// still gives a finite ratio.
pub fn llr(dist: &[(f64, f64)], elo0: f64, elo1: f64) -> f64 {
    let dist: Vec<(f64, f64)> = dist.iter().map(|&(x, c)| (x, c.max(1e-3))).collect();
    max_log_likelihood(&dist, score_of_elo(elo1)) - max_log_likelihood(&dist, score_of_elo(elo0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_known_values() {
        // erf(0.5), erf(1), erf(2) to 7 places.
        assert!((erf(0.5) - 0.520_499_9).abs() < 2e-7);
        assert!((erf(1.0) - 0.842_700_8).abs() < 2e-7);
        assert!((erf(-2.0) + 0.995_322_3).abs() < 2e-7);
        assert!((phi(1.959_963_984_540_054) - 0.975).abs() < 1e-6);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for e in [-300.0, -35.5, 0.0, 12.0, 400.0] {
            assert!((elo_of_score(score_of_elo(e)) - e).abs() < 1e-9);
        }
        // 400 Elo is 10:1 odds.
        assert!((score_of_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
    }
}
