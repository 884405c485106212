//! Tests of the trainer: training on synthetic problems with a known answer, validation
//! splits, thinning, and training from a net.

use super::*;
use cannonade_core::nnue::float::uniform;
use cannonade_core::nnue::testing::{random_features, random_float_net};

/// A problem a net of this shape can learn exactly: each of 64 features has a value, and the
/// score is the sum over the side to move's features minus the sum over the other side's.
fn synthetic_data(n: usize, seed: u64) -> Dataset {
    let features = 64;
    let mut rng = SplitMix64::new(seed);
    let values: Vec<f32> = (0..features).map(|_| 120.0 * uniform(&mut rng)).collect();
    let mut data = Dataset::new(features);
    for _ in 0..n {
        let k = 4 + (rng.next_u64() % 12) as usize;
        let stm = random_features(&mut rng, features, k);
        let k = 4 + (rng.next_u64() % 12) as usize;
        let nstm = random_features(&mut rng, features, k);
        let score = stm.iter().map(|&f| values[f as usize]).sum::<f32>()
            - nstm.iter().map(|&f| values[f as usize]).sum::<f32>();
        // A result drawn with the probability the score gives.
        let p = 1.0 / (1.0 + (-score / 400.0).exp());
        let u = (uniform(&mut rng) + 1.0) / 2.0;
        let result = if u < p { 1 } else { -1 };
        data.push(&stm, &nstm, stm.len() as u32, score.round() as i16, result)
            .unwrap();
    }
    data
}

fn small_config() -> TrainConfig {
    TrainConfig {
        hidden: 32,
        epochs: 12,
        batch: 128,
        lr: 0.01,
        wdl: 0.0,
        validation: 0.1,
        seed: 3,
        ..TrainConfig::default()
    }
}

#[test]
fn training_learns_a_learnable_problem() {
    let data = synthetic_data(3000, 21);
    let out = train(&data, &small_config(), "chess", &mut Silent).unwrap();
    let start = out.epochs[0].validation_loss.unwrap();
    let end = out.float_validation_loss.unwrap();
    let quantised = out.quantised_validation_loss.unwrap();
    eprintln!("validation loss {start:.5} -> {end:.5} (quantised {quantised:.5})");
    assert!(end < start / 10.0, "validation loss {start} -> {end}");
    // The quantised net is as good as the float one, give or take rounding.
    assert!(quantised < end * 1.2 + 1e-5, "{quantised} vs {end}");
    assert_eq!(out.quantisation.clipped, 0);
    // On the positions it was trained on, the quantised net scores what the float net does,
    // within the tolerance of `quantised_net_matches_the_float_net`.
    let (mut worst, mut total, mut spread) = (0.0f32, 0.0f32, 0.0f32);
    for i in 0..data.len() {
        let (stm, nstm) = data.features(i);
        let f = out.float.evaluate_cp(stm, nstm, 0, DEFAULT_SCALE as f32);
        let stm: Vec<u32> = stm.iter().map(|&x| u32::from(x)).collect();
        let nstm: Vec<u32> = nstm.iter().map(|&x| u32::from(x)).collect();
        let q = out.network.evaluate_features(&stm, &nstm, 0) as f32;
        worst = worst.max((q - f).abs());
        total += (q - f).abs();
        spread += f.abs();
    }
    let (mean, spread) = (total / data.len() as f32, spread / data.len() as f32);
    eprintln!("trained net: worst {worst:.1} cp, mean {mean:.2} cp, mean |score| {spread:.0} cp");
    assert!(mean <= 0.015 * spread && worst <= 0.05 * spread);
    assert_eq!(out.train_positions + out.validation_positions, 3000);
    assert_eq!(out.validation_positions, 300);
}

#[test]
fn the_same_seed_gives_the_same_net_on_any_number_of_threads() {
    let data = synthetic_data(600, 8);
    let cfg = TrainConfig {
        epochs: 2,
        wdl: 0.3,
        ..small_config()
    };
    let run = |threads: usize, seed: u64| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let cfg = TrainConfig {
            seed,
            ..cfg.clone()
        };
        pool.install(|| train(&data, &cfg, "chess", &mut Silent))
            .unwrap()
            .network
            .to_bytes()
    };
    let one = run(1, 3);
    assert_eq!(one, run(1, 3));
    assert_eq!(one, run(3, 3));
    assert_ne!(one, run(1, 4), "another seed must give another net");
}

#[test]
fn bad_settings_are_refused() {
    let data = synthetic_data(50, 1);
    let bad = [
        TrainConfig {
            hidden: 20,
            ..small_config()
        },
        TrainConfig {
            batch: 0,
            ..small_config()
        },
        TrainConfig {
            wdl: 1.5,
            ..small_config()
        },
        TrainConfig {
            validation: 1.0,
            ..small_config()
        },
    ];
    for cfg in bad {
        assert!(train(&data, &cfg, "chess", &mut Silent).is_err());
    }
    let mut d = Dataset::new(10);
    assert!(d.push(&[10], &[], 1, 0, 0).is_err(), "feature out of range");
    assert!(d.push(&[1], &[2], 2, 0, 2).is_err(), "result out of range");
}

#[test]
fn the_hand_written_yardstick_finds_the_scale_that_fits() {
    // Scores made from the evaluation at 2 cp of score per cp of evaluation: with S = 400 the
    // score-only target is sigmoid(2e / 400) = sigmoid(e / 200), so the fitted scale is 200 and
    // the loss is nothing but the rounding of the scores.
    let mut rng = SplitMix64::new(5);
    let mut data = Dataset::new(8);
    for _ in 0..2000 {
        let e = (rng.next_u64() % 1601) as i32 - 800;
        data.push(&[1], &[2], 2, (2 * e) as i16, 0).unwrap();
        data.push_reference(Some(e));
    }
    let all: Vec<u32> = (0..data.len() as u32).collect();
    let (loss, k) = reference_loss(&data, &all, 0.0, 400).unwrap();
    assert!((k - 200.0).abs() < 2.0, "fitted scale {k}");
    assert!(loss < 1e-8, "loss {loss}");
    // With the results (all draws here) in the target no scale fits every position.
    let (with_results, _) = reference_loss(&data, &all, 0.5, 400).unwrap();
    assert!(with_results > 0.01, "loss with results {with_results}");

    // One position without an evaluation and the dataset has no yardstick at all.
    data.push(&[1], &[2], 2, 0, 0).unwrap();
    data.push_reference(None);
    data.push(&[1], &[2], 2, 0, 0).unwrap();
    data.push_reference(Some(10));
    assert_eq!(data.reference(0), None);
    let all: Vec<u32> = (0..data.len() as u32).collect();
    assert_eq!(reference_loss(&data, &all, 0.0, 400), None);
}

#[test]
fn validation_holds_out_whole_blocks_of_consecutive_positions() {
    let n = 300_000;
    let (train_set, held) = split(n, 0.05, 3);
    assert_eq!(held.len(), 15_000);
    let mut seen = vec![false; n];
    for &i in train_set.iter().chain(&held) {
        assert!(!seen[i as usize], "position {i} twice");
        seen[i as usize] = true;
    }
    assert!(seen.iter().all(|&s| s), "every position is used");
    // Held out by blocks: all but the last block taken are whole, so nearly every held-out
    // position's neighbours (the same game's positions) are held out too.
    let mut is_held = vec![false; n];
    held.iter().for_each(|&i| is_held[i as usize] = true);
    let whole_blocks = (0..n.div_ceil(SPLIT_BLOCK))
        .filter(|b| {
            let r = b * SPLIT_BLOCK..((b + 1) * SPLIT_BLOCK).min(n);
            r.clone().all(|i| is_held[i])
        })
        .count();
    assert_eq!(whole_blocks, 15_000 / SPLIT_BLOCK);
    // Another seed holds out other blocks; small data still splits by the fraction.
    assert_ne!(split(n, 0.05, 4).1, held);
    assert_eq!(split(100, 0.1, 1).1.len(), 10);
    assert_eq!(split(1, 0.5, 1), (vec![0], vec![]));
    assert_eq!(split(0, 0.5, 1), (vec![], vec![]));
}

#[test]
fn thinning_keeps_every_dense_position_and_a_share_of_the_sparse_ones_in_order() {
    // Position i has 2 features when i is even (sparse) and 20 when odd (dense); its score is
    // its index, so the kept positions can be named and their order checked.
    let mut data = Dataset::new(64);
    let dense: Vec<u32> = (0..20).collect();
    for i in 0..10_000 {
        let f: &[u32] = if i % 2 == 0 { &[1, 2] } else { &dense };
        data.push(f, f, 2, i as i16, (i % 3) as i8 - 1).unwrap();
        data.push_reference(Some(-i));
    }
    let thin = data.thin(16, 0.25, 7);
    let kept: Vec<i16> = (0..thin.len()).map(|j| thin.label(j).0).collect();
    assert!(kept.windows(2).all(|w| w[0] < w[1]), "order kept");
    let dense_kept = kept.iter().filter(|&&i| i % 2 == 1).count();
    let sparse_kept = kept.iter().filter(|&&i| i % 2 == 0).count();
    assert_eq!(dense_kept, 5_000, "every dense position");
    assert!(
        (1_100..1_400).contains(&sparse_kept),
        "{sparse_kept} of 5,000 sparse kept"
    );
    // Each kept position carries its own features, result and reference.
    for j in 0..thin.len() {
        let (score, result) = thin.label(j);
        let i = score as usize;
        assert_eq!(thin.features(j), data.features(i));
        assert_eq!(result, data.label(i).1);
        assert_eq!(thin.reference(j), Some(-(i as i16)));
    }
    assert_eq!(thin.max_active(), 20);
    // The same seed thins alike; keep 1 keeps all, keep 0 only the dense.
    assert_eq!(data.thin(16, 0.25, 7).len(), thin.len());
    assert_eq!(data.thin(16, 1.0, 7).len(), 10_000);
    assert_eq!(data.thin(16, 0.0, 7).len(), 5_000);
}

#[test]
fn training_from_a_net_starts_where_that_net_ended() {
    let data = synthetic_data(3000, 21);
    let first = train(&data, &small_config(), "chess", &mut Silent).unwrap();
    let cfg = TrainConfig {
        epochs: 1,
        init: Some(FloatNetwork::from_quantised(&first.network, DEFAULT_SCALE)),
        ..small_config()
    };
    let second = train(&data, &cfg, "chess", &mut Silent).unwrap();
    let untrained = first.epochs[0].validation_loss.unwrap();
    let ended = first.quantised_validation_loss.unwrap();
    let starts = second.epochs[0].validation_loss.unwrap();
    assert!(
        (starts - ended).abs() < 0.05 * ended + 1e-6 && starts < untrained / 5.0,
        "random start {untrained}, first net ended at {ended}, second starts at {starts}"
    );
    // A starting net of the wrong shape is refused.
    let cfg = TrainConfig { hidden: 64, ..cfg };
    assert!(train(&data, &cfg, "chess", &mut Silent).is_err());
}

/// Positions whose score depends only on the men on the board, not on the features: a net of
/// one output cannot tell them apart, a net with output buckets can.
fn men_only_data(n: usize, seed: u64) -> Dataset {
    let mut rng = SplitMix64::new(seed);
    let mut data = Dataset::new(64);
    for _ in 0..n {
        let stm = random_features(&mut rng, 64, 8);
        let nstm = random_features(&mut rng, 64, 8);
        let men = 2 + (rng.next_u64() % 31) as u32;
        let score: i16 = if men <= 16 { 300 } else { -300 };
        data.push(&stm, &nstm, men, score, 0).unwrap();
    }
    data
}

#[test]
fn output_buckets_learn_what_the_men_on_the_board_decide() {
    let data = men_only_data(3000, 9);
    let run = |outputs| {
        let cfg = TrainConfig {
            outputs,
            ..small_config()
        };
        train(&data, &cfg, "chess", &mut Silent).unwrap()
    };
    let one = run(OutputBuckets::ONE);
    let four = run(OutputBuckets::for_game(4, 32));
    let (l1, l4) = (
        one.quantised_validation_loss.unwrap(),
        four.quantised_validation_loss.unwrap(),
    );
    eprintln!("validation loss: one output {l1:.5}, four buckets {l4:.5}");
    // sigmoid(300/400) = 0.68: one output can at best say 0.5 for all, a loss of 0.033.
    assert!(l1 > 0.025, "{l1}");
    assert!(l4 < l1 / 10.0, "{l4} vs {l1}");
    assert_eq!(four.network.output_buckets().count(), 4);
}

#[test]
fn a_training_keeps_the_output_buckets_of_its_starting_net() {
    let data = men_only_data(300, 4);
    let layout = OutputBuckets::for_game(4, 32);
    let start = random_float_net(64, 32, 4).with_outputs(layout);
    let cfg = |outputs| TrainConfig {
        init: Some(start.clone()),
        outputs,
        epochs: 1,
        ..small_config()
    };
    assert!(train(&data, &cfg(layout), "chess", &mut Silent).is_ok());
    let e = train(
        &data,
        &cfg(OutputBuckets::for_game(8, 32)),
        "chess",
        &mut Silent,
    )
    .unwrap_err();
    assert!(matches!(e, TrainError::StartingOutputs { .. }), "{e}");
}
