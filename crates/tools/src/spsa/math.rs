//! fishtest's SPSA: the gain sequences, the perturbation of each game pair and the update.
//! For iteration `k` of `n`, `c_k = c_end * n^γ / k^γ` (the perturbation shrinks to `c_end`
//! at the end) and `a_k = a / (A + k)^α` with `A = n / 10`, `a = a_end * (A + n)^α` and
//! `a_end = r_end * c_end²` (the step ends at `a_end`), γ = 0.101, α = 0.602 (Spall's values).

use cannonade_core::board::zobrist::SplitMix64;

const GAMMA: f64 = 0.101;
const ALPHA: f64 = 0.602;

/// One tuned parameter: its range and SPSA's final perturbation and learning rate.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    pub name: String,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
}

/// What one game pair plays: its iteration, the direction of each parameter, and the values
/// the two engines get (rounded and clamped to each range, as options take them).
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub k: u64,
    /// +1 or -1 per parameter.
    pub delta: Vec<f64>,
    /// `c_k` per parameter.
    pub c: Vec<f64>,
    pub plus: Vec<i64>,
    pub minus: Vec<i64>,
}

/// The schedule of a run of `iterations` game pairs over `params`.
#[derive(Clone, Debug)]
pub struct Spsa {
    pub params: Vec<Tuned>,
    pub iterations: u64,
    seed: u64,
}

impl Spsa {
    pub fn new(params: Vec<Tuned>, iterations: u64, seed: u64) -> Self {
        Spsa {
            params,
            iterations: iterations.max(1),
            seed,
        }
    }

    /// `c_k` of parameter `p` at iteration `k` (1-based).
    pub fn c_k(&self, p: &Tuned, k: u64) -> f64 {
        let n = self.iterations as f64;
        p.c_end * n.powf(GAMMA) / (k as f64).powf(GAMMA)
    }

    /// `a_k` of parameter `p` at iteration `k` (1-based).
    pub fn a_k(&self, p: &Tuned, k: u64) -> f64 {
        let n = self.iterations as f64;
        let big_a = 0.1 * n;
        let a_end = p.r_end * p.c_end * p.c_end;
        let a = a_end * (big_a + n).powf(ALPHA);
        a / (big_a + k as f64).powf(ALPHA)
    }

    /// The pair of iteration `k` around `theta`. The directions come from the seed and `k`
    /// alone, so a resumed run, or one with another concurrency, draws the same ones.
    pub fn perturb(&self, theta: &[f64], k: u64) -> Perturbation {
        let mut rng = SplitMix64::new(self.seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut out = Perturbation {
            k,
            delta: Vec::new(),
            c: Vec::new(),
            plus: Vec::new(),
            minus: Vec::new(),
        };
        for (p, &t) in self.params.iter().zip(theta) {
            let d = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
            let c = self.c_k(p, k);
            let value = |x: f64| x.clamp(p.min, p.max).round() as i64;
            out.delta.push(d);
            out.c.push(c);
            out.plus.push(value(t + c * d));
            out.minus.push(value(t - c * d));
        }
        out
    }

    /// Moves `theta` by the result of a pair, `result` = the "+" engine's points minus the
    /// "-" engine's over its two games (-2..=2), and keeps it in range.
    pub fn update(&self, theta: &mut [f64], pert: &Perturbation, result: f64) {
        for (i, p) in self.params.iter().enumerate() {
            let step = self.a_k(p, pert.k) * result * pert.delta[i] / pert.c[i];
            theta[i] = (theta[i] + step).clamp(p.min, p.max);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, min: f64, max: f64, c_end: f64, r_end: f64) -> Tuned {
        Tuned {
            name: name.into(),
            min,
            max,
            c_end,
            r_end,
        }
    }

    #[test]
    fn the_gains_end_at_c_end_and_a_end() {
        let p = param("X", 0.0, 200.0, 10.0, 0.002);
        let s = Spsa::new(vec![p.clone()], 1000, 1);
        assert!((s.c_k(&p, 1000) - 10.0).abs() < 1e-9);
        // 1000^0.101 = 2.009: the first pairs are twice as far apart.
        assert!((s.c_k(&p, 1) - 20.09).abs() < 0.01, "{}", s.c_k(&p, 1));
        assert!((s.a_k(&p, 1000) - 0.002 * 100.0).abs() < 1e-9);
        // (100 + 1000)^0.602 / (100 + 1)^0.602 = 4.21.
        assert!((s.a_k(&p, 1) / s.a_k(&p, 1000) - 4.21).abs() < 0.01);
    }

    #[test]
    fn a_pair_straddles_theta_and_the_winner_pulls_it() {
        let ps = vec![
            param("A", 0.0, 100.0, 5.0, 0.002),
            param("B", 0.0, 100.0, 5.0, 0.002),
        ];
        let s = Spsa::new(ps, 100, 7);
        let theta = vec![50.0, 99.0];
        let pert = s.perturb(&theta, 100);
        for i in 0..2 {
            assert_eq!(pert.delta[i].abs(), 1.0);
            assert!((pert.c[i] - 5.0).abs() < 1e-9);
        }
        // 50 +- 5; 99 +- 5 clamped to the range.
        let (a_plus, a_minus) = if pert.delta[0] > 0.0 {
            (55, 45)
        } else {
            (45, 55)
        };
        assert_eq!((pert.plus[0], pert.minus[0]), (a_plus, a_minus));
        assert!(pert.plus[1] <= 100 && pert.minus[1] <= 100);
        assert_eq!(
            s.perturb(&theta, 100),
            pert,
            "the same k draws the same directions"
        );
        let mut t = theta.clone();
        s.update(&mut t, &pert, 2.0);
        // A win for "+" moves each parameter towards its "+" value by a_k * 2 / c_k.
        let want = 0.002 * 25.0 * 2.0 / 5.0;
        assert!((t[0] - (50.0 + want * pert.delta[0])).abs() < 1e-9, "{t:?}");
        assert!(t[1] <= 100.0);
        let mut t = theta.clone();
        s.update(&mut t, &pert, 0.0);
        assert_eq!(t, theta, "a drawn pair moves nothing");
    }

    /// The honest test of sign and scale: a "game pair" whose "+" side wins with a chance that
    /// rises as its values near a known optimum. From far off, a few thousand pairs must bring
    /// theta much nearer.
    #[test]
    fn spsa_finds_the_optimum_of_a_synthetic_objective() {
        let optimum = [130.0, 20.0, 6.0];
        let ps = vec![
            param("A", 0.0, 300.0, 15.0, 0.002),
            param("B", 0.0, 60.0, 3.0, 0.002),
            param("C", 1.0, 12.0, 1.0, 0.002),
        ];
        let iterations = 4000;
        let s = Spsa::new(ps.clone(), iterations, 42);
        let start = vec![60.0, 45.0, 2.0];
        let mut theta = start.clone();
        // Strength of a setting: 0 at the optimum, falling with the squared distance in units
        // of each range.
        let strength = |v: &[i64]| -> f64 {
            -v.iter()
                .zip(&optimum)
                .zip(&ps)
                .map(|((&x, o), p)| ((x as f64 - o) / (p.max - p.min)).powi(2))
                .sum::<f64>()
        };
        let mut rng = SplitMix64::new(3);
        let mut game = |me: f64, them: f64| -> f64 {
            // Logistic in the strength difference: a setting a tenth of the range better
            // wins noticeably more often; draws are common, as in engine games.
            let p_win = 1.0 / (1.0 + (-(me - them) * 40.0).exp());
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let v = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            if v < 0.4 {
                0.0
            } else if u < p_win {
                1.0
            } else {
                -1.0
            }
        };
        for k in 1..=iterations {
            let pert = s.perturb(&theta, k);
            let (sp, sm) = (strength(&pert.plus), strength(&pert.minus));
            let result = game(sp, sm) + game(sp, sm);
            s.update(&mut theta, &pert, result);
        }
        let dist = |t: &[f64]| -> f64 {
            t.iter()
                .zip(&optimum)
                .zip(&ps)
                .map(|((x, o), p)| ((x - o) / (p.max - p.min)).powi(2))
                .sum::<f64>()
                .sqrt()
        };
        let (before, after) = (dist(&start), dist(&theta));
        assert!(
            after < before / 3.0,
            "theta {theta:?}: distance {before:.3} -> {after:.3}"
        );
    }
}
