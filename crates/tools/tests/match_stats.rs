//! The match statistics against values worked out independently: the expected numbers below
//! were computed by hand from the textbook formulas (Python's `statistics.NormalDist`, not this
//! code), and the SPRT log-likelihood ratio is checked against a brute-force maximisation and
//! against the usual closed-form approximation.

use cannonade_tools::match_runner::stats::{
    llr, score_of_elo, sprt_bounds, Pentanomial, Trinomial,
};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn trinomial_elo_error_and_los_as_cutechess_computes_them() {
    // 30 wins, 20 losses, 50 draws: score 0.55.
    let t = Trinomial {
        wins: 30,
        losses: 20,
        draws: 50,
    };
    let e = t.elo();
    // Elo = 400 log10(0.55 / 0.45).
    assert!(close(e.elo, 34.860_070, 1e-5), "{e:?}");
    // Per-game sd = sqrt(0.1225) = 0.35; score interval 0.55 +- 1.96 * 0.035.
    assert!(close(e.error, 48.470_228, 1e-3), "{e:?}");
    // LOS = 1/2 + 1/2 erf(10 / sqrt(100)).
    assert!(close(e.los, 0.921_350_4, 1e-6), "{e:?}");
}

#[test]
fn pentanomial_elo_uses_the_variance_of_pairs() {
    let p = Pentanomial([5, 20, 40, 25, 10]);
    let e = p.elo();
    // Mean pair score 0.5375.
    assert!(close(e.elo, 26.106_693, 1e-5), "{e:?}");
    assert!(close(e.error, 34.826_425, 1e-3), "{e:?}");
    assert!(close(e.los, 0.930_535_5, 1e-5), "{e:?}");
    let mut q = Pentanomial::default();
    q.add(1.0, 0.5);
    q.add(0.0, 0.0);
    q.add(0.5, 0.5);
    assert_eq!(q.0, [1, 0, 1, 1, 0]);
}

#[test]
fn sprt_bounds_are_walds() {
    let (lo, hi) = sprt_bounds(0.05, 0.05);
    assert!(close(lo, -2.944_439, 1e-6));
    assert!(close(hi, 2.944_439, 1e-6));
}

/// Maximum log-likelihood of trinomial counts among distributions with mean score `s`, by
/// scanning the one free parameter (the draw probability) on a fine grid and refining.
fn brute_force_trinomial(w: f64, l: f64, d: f64, s: f64) -> f64 {
    let ll = |pd: f64| {
        let pw = s - pd / 2.0;
        let pl = 1.0 - s - pd / 2.0;
        if pw <= 0.0 || pl <= 0.0 || pd <= 0.0 {
            return f64::NEG_INFINITY;
        }
        w * pw.ln() + l * pl.ln() + d * pd.ln()
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..6 {
        let steps = 2000;
        let mut best = (f64::NEG_INFINITY, lo);
        for i in 0..=steps {
            let x = lo + (hi - lo) * i as f64 / steps as f64;
            let v = ll(x);
            if v > best.0 {
                best = (v, x);
            }
        }
        let span = (hi - lo) / steps as f64 * 2.0;
        lo = (best.1 - span).max(0.0);
        hi = (best.1 + span).min(1.0);
    }
    ll((lo + hi) / 2.0)
}

#[test]
fn trinomial_llr_matches_a_brute_force_maximisation() {
    let (w, l, d) = (120.0, 95.0, 285.0);
    let (elo0, elo1) = (0.0, 10.0);
    let expected = brute_force_trinomial(w, l, d, score_of_elo(elo1))
        - brute_force_trinomial(w, l, d, score_of_elo(elo0));
    let t = Trinomial {
        wins: 120,
        losses: 95,
        draws: 285,
    };
    let got = llr(&t.distribution(), elo0, elo1);
    assert!(close(got, expected, 1e-6), "{got} vs {expected}");
    // Sanity: more wins means a larger ratio for elo1.
    let better = Trinomial {
        wins: 140,
        losses: 75,
        draws: 285,
    };
    assert!(llr(&better.distribution(), elo0, elo1) > got);
}

#[test]
fn pentanomial_llr_agrees_with_the_normal_approximation() {
    // For many pairs, LLR ~ N (s1 - s0) (2 mu - s0 - s1) / (2 var), the "GSPRT" formula.
    let p = Pentanomial([40, 380, 1100, 420, 60]);
    let (elo0, elo1) = (0.0, 5.0);
    let dist = p.distribution();
    let n: f64 = dist.iter().map(|(_, c)| c).sum();
    let mu = dist.iter().map(|(x, c)| x * c).sum::<f64>() / n;
    let var = dist.iter().map(|(x, c)| c * (x - mu).powi(2)).sum::<f64>() / n;
    let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
    let approx = n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var);
    let got = llr(&dist, elo0, elo1);
    assert!(
        close(got, approx, 0.02 * approx.abs() + 0.01),
        "{got} vs {approx}"
    );
    assert!(got > 0.0);
}

#[test]
fn pentanomial_llr_of_a_real_run() {
    // The counts of the SPRT example in docs/match.md, with the ratios computed independently
    // (Python: golden-section maximisation of the Lagrange dual, outcomes never seen as 0.001).
    let (elo0, elo1) = (0.0, 100.0);
    let before = Pentanomial([0, 0, 0, 1, 10]).distribution();
    let after = Pentanomial([0, 0, 1, 1, 10]).distribution();
    assert!(close(llr(&before, elo0, elo1), 2.716_718_3, 1e-5));
    assert!(close(llr(&after, elo0, elo1), 2.963_355_3, 1e-5));
}
