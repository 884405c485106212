//! Tests of the network core: quantisation against the float net, the file format, the
//! accumulator. (Training is tested with the trainer, in the tools crate.)

use super::float::uniform;
use super::testing::{random_features, random_float_net};
use super::*;
use crate::board::zobrist::SplitMix64;

fn quantised(net: &FloatNetwork, variant: &str) -> Network {
    net.quantise(variant, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
        .expect("quantises")
        .0
}

/// Quantised against float centipawns over random positions of 32 active features per side:
/// `(worst error, mean error, mean |float score|)`.
fn quantisation_errors(float: &FloatNetwork, net: &Network, seed: u64) -> (f32, f32, f32) {
    let mut rng = SplitMix64::new(seed);
    let (mut worst, mut total, mut spread) = (0.0f32, 0.0f32, 0.0f32);
    let n = 500;
    for _ in 0..n {
        let stm = random_features(&mut rng, float.features, 32);
        let nstm = random_features(&mut rng, float.features, 32);
        let f = float.evaluate_cp(&stm, &nstm, 0, net.scale() as f32);
        let q = net.evaluate_features(&stm, &nstm, 0) as f32;
        worst = worst.max((q - f).abs());
        total += (q - f).abs();
        spread += f.abs();
    }
    (worst, total / n as f32, spread / n as f32)
}

/// The stated tolerance: the quantised net's score is within 1.5% of the typical score size on
/// average and within 5% on every input. Where it comes from: rounding a feature transformer
/// weight to 1/255 errs by up to 0.002, so a hidden value summed from 33 rows errs by about
/// 0.0065 (standard deviation); through the square (derivative 2a) and output weights of
/// typical size 0.3 over the ~180 hidden units in the squared range, the output errs by about
/// 0.03 units, 12 cp at 400 cp per unit, on scores averaging about 870 cp with these weights.
/// The output weights' rounding to 1/256 adds about a third of that.
#[test]
fn quantised_net_matches_the_float_net() {
    let float = random_float_net(768, 256, 7);
    let (net, report) = float
        .quantise("chess", DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
        .unwrap();
    assert_eq!(report.clipped, 0);
    let (worst, mean, spread) = quantisation_errors(&float, &net, 11);
    eprintln!("quantisation: worst {worst:.1} cp, mean {mean:.2} cp, mean |score| {spread:.0} cp");
    // The inputs must give scores of real size, or the comparison says little.
    assert!(spread > 300.0, "mean |score| {spread}");
    assert!(mean <= 0.015 * spread, "mean error {mean} cp");
    assert!(worst <= 0.05 * spread, "worst error {worst} cp");
}

#[test]
fn evaluation_is_exact_at_the_extremes() {
    // Every hidden value clipped at QA and every output weight at its limit: the largest sums
    // a file can produce, which must not overflow.
    let hidden = MAX_HIDDEN;
    let mut net = quantised(&FloatNetwork::new_random(4, hidden, 1), "chess");
    net.ft_bias.fill(i16::MAX);
    let a = Accumulator::new(&net);
    let qa = i64::from(net.qa);
    for (w, b) in [(MAX_OUT_WEIGHT, i32::MAX), (-MAX_OUT_WEIGHT, i32::MIN)] {
        net.out_weights.fill(w);
        net.out_bias = vec![b];
        net.validate().unwrap();
        let expected = (2 * hidden as i64 * qa * qa * i64::from(w) + i64::from(b) * qa)
            * i64::from(net.scale)
            / (qa * qa * i64::from(net.qb));
        assert_eq!(i64::from(net.evaluate(&a, &a, 0)), expected);
    }
    // One step beyond is refused when the net is read.
    net.out_weights[7] = MAX_OUT_WEIGHT + 1;
    let e = Network::from_bytes(&net.to_bytes()).unwrap_err();
    assert!(e.to_string().contains("output weight 2049"), "{e}");
}

#[test]
fn incremental_updates_equal_a_refresh() {
    let features = 200;
    let net = quantised(&random_float_net(features, 64, 3), "chess");
    let mut rng = SplitMix64::new(5);
    let mut active = random_features(&mut rng, features, 20);
    let mut acc = Accumulator::new(&net);
    acc.refresh(&net, &active);
    for step in 0..2000 {
        match rng.next_u64() % 3 {
            0 if active.len() < 60 => {
                let f = (rng.next_u64() % features as u64) as u32;
                if !active.contains(&f) {
                    active.push(f);
                    acc.add(&net, f);
                }
            }
            1 if !active.is_empty() => {
                let i = (rng.next_u64() % active.len() as u64) as usize;
                acc.remove(&net, active.swap_remove(i));
            }
            _ if !active.is_empty() => {
                // A quiet move: one feature out, another in.
                let i = (rng.next_u64() % active.len() as u64) as usize;
                let f = (rng.next_u64() % features as u64) as u32;
                if !active.contains(&f) {
                    let old = std::mem::replace(&mut active[i], f);
                    acc.add_remove(&net, f, old);
                }
            }
            _ => {}
        }
        let mut fresh = Accumulator::new(&net);
        fresh.refresh(&net, &active);
        assert_eq!(acc, fresh, "after step {step}");
    }
}

#[test]
fn incremental_updates_wrap_like_a_refresh() {
    // Weights so large that partial sums leave the i16 range: wrapping arithmetic still makes
    // the order of additions irrelevant.
    let mut net = quantised(&FloatNetwork::new_random(8, 16, 2), "chess");
    net.ft_weights.fill(30_000);
    let mut acc = Accumulator::new(&net);
    for f in 0..8 {
        acc.add(&net, f);
    }
    for f in [3, 5] {
        acc.remove(&net, f);
    }
    let mut fresh = Accumulator::new(&net);
    fresh.refresh(&net, &[0, 1, 2, 4, 6, 7]);
    assert_eq!(acc, fresh);
}

#[test]
fn a_net_round_trips_through_bytes_and_files() {
    let net = quantised(&random_float_net(100, 32, 9), "cannonshogi");
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), 64 + 2 * 100 * 32 + 2 * 32 + 4 * 32 + 8);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    let dir = std::env::temp_dir().join(format!("cannonade-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("roundtrip.nnue");
    net.save(&path).unwrap();
    let loaded = Network::load_for(&path, "cannonshogi", 100).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let mut rng = SplitMix64::new(4);
    for _ in 0..100 {
        let stm = random_features(&mut rng, 100, 30);
        let nstm = random_features(&mut rng, 100, 30);
        assert_eq!(
            loaded.evaluate_features(&stm, &nstm, 0),
            net.evaluate_features(&stm, &nstm, 0)
        );
    }
    // From a 'static slice, as an embedded net will be.
    let embedded: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    assert_eq!(Network::from_bytes(embedded).unwrap(), net);
}

#[test]
fn damaged_or_foreign_files_are_refused() {
    let net = quantised(&random_float_net(50, 16, 1), "chess");
    let bytes = net.to_bytes();
    let expect = |b: &[u8]| Network::from_bytes(b).unwrap_err();

    // Cut anywhere: after the header, in the middle of the weights, one byte short, in the
    // header.
    for keep in [64, bytes.len() / 2, bytes.len() - 1, 30] {
        let e = expect(&bytes[..keep]);
        assert_eq!(
            e,
            NetError::Truncated {
                expected: if keep < 68 { 68 } else { bytes.len() },
                found: keep
            }
        );
        assert!(e.to_string().contains("truncated"), "{e}");
    }
    assert_eq!(expect(&bytes[..5]), NetError::TooShort { len: 5 });

    // A changed weight byte, and a changed checksum byte.
    for at in [100, bytes.len() - 2] {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        let e = expect(&b);
        assert!(matches!(e, NetError::Checksum { .. }), "{e:?}");
        assert!(e.to_string().contains("corrupted"), "{e}");
    }

    // Damaged header fields are named.
    let mut b = bytes.clone();
    b[0] = b'X';
    assert_eq!(expect(&b), NetError::BadMagic);
    let mut b = bytes.clone();
    b[8] = 2;
    assert_eq!(expect(&b), NetError::UnsupportedVersion { found: 2 });
    let mut b = bytes.clone();
    b[48] = 17; // hidden size 17
    let e = expect(&b);
    assert!(e.to_string().contains("hidden size 17"), "{e}");
    let mut b = bytes.clone();
    b[44] = 51; // one feature more than the weights hold
    assert!(matches!(expect(&b), NetError::Truncated { .. }));
    let mut b = bytes.clone();
    b.push(0);
    assert!(matches!(expect(&b), NetError::TrailingData { .. }));
    let mut b = bytes.clone();
    b[12] = b'C'; // the variant name changed: caught by the checksum
    assert!(matches!(expect(&b), NetError::Checksum { .. }));

    // Intact, but for another game.
    let e = Network::from_bytes_for(&bytes, "cannonshogi", 50).unwrap_err();
    assert_eq!(
        e,
        NetError::WrongVariant {
            expected: "cannonshogi".into(),
            found: "chess".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "the net was trained for variant 'chess', not 'cannonshogi'"
    );
    let e = Network::from_bytes_for(&bytes, "chess", 768).unwrap_err();
    assert_eq!(
        e,
        NetError::WrongFeatureCount {
            expected: 768,
            found: 50
        }
    );
    assert!(Network::from_bytes_for(&bytes, "chess", 50).is_ok());

    let e = Network::load(std::path::Path::new("/nonexistent/x.nnue")).unwrap_err();
    assert!(matches!(e, NetError::Io { .. }));
    assert!(e.to_string().contains("/nonexistent/x.nnue"), "{e}");
}

#[test]
fn a_quantised_net_converts_back_to_the_float_net_it_stands_for() {
    let q = quantised(&random_float_net(300, 32, 17), "chess");
    let back = FloatNetwork::from_quantised(&q, DEFAULT_SCALE);
    // Quantising it again gives the same integers.
    let (again, report) = back
        .quantise("chess", DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
        .unwrap();
    assert_eq!(again, q);
    assert_eq!(report.clipped, 0);
    // In units of another scale, it evaluates the same in centipawns.
    let doubled = FloatNetwork::from_quantised(&q, 2 * DEFAULT_SCALE);
    let mut rng = SplitMix64::new(5);
    for _ in 0..20 {
        let (a, b) = (
            random_features(&mut rng, 300, 20),
            random_features(&mut rng, 300, 20),
        );
        let at = back.evaluate_cp(&a, &b, 0, DEFAULT_SCALE as f32);
        let at_double = doubled.evaluate_cp(&a, &b, 0, 2.0 * DEFAULT_SCALE as f32);
        assert!(
            (at - at_double).abs() < 0.01 * (1.0 + at.abs()),
            "{at} {at_double}"
        );
    }
}

#[test]
fn a_remapped_net_keeps_the_rows_it_is_given_and_starts_the_others_at_zero() {
    let net = random_float_net(100, 16, 23);
    // Inputs 0..100 moved to 50..150 (reversed); 0..50 new.
    let moved = net.remap(150, |i| i.checked_sub(50).map(|j| 99 - j));
    assert_eq!(moved.features, 150);
    let mut rng = SplitMix64::new(9);
    for _ in 0..20 {
        let (a, b) = (
            random_features(&mut rng, 100, 12),
            random_features(&mut rng, 100, 12),
        );
        let shift = |v: &[u32]| v.iter().map(|&f| 149 - f).collect::<Vec<u32>>();
        assert_eq!(
            net.forward(&a, &b, 0),
            moved.forward(&shift(&a), &shift(&b), 0)
        );
    }
    assert!(moved.ft_weights[..50 * 16].iter().all(|&w| w == 0.0));
}

/// `bytes` with byte `at` set to `value` and the checksum made right again, as a file written
/// that way would be.
fn with_header_byte(bytes: &[u8], at: usize, value: u8) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at] = value;
    let n = b.len();
    let crc = crc32(&b[..n - 4]);
    b[n - 4..].copy_from_slice(&crc.to_le_bytes());
    b
}

#[test]
fn king_bucket_layouts_are_stored_in_the_header_and_checked_on_load() {
    // A net of one bucket writes 0 at byte 61, as every net before king buckets did.
    let plain = quantised(&random_float_net(90, 16, 3), "chess");
    let bytes = plain.to_bytes();
    assert_eq!(bytes[61], 0);
    assert_eq!(
        Network::from_bytes(&bytes).unwrap().king_buckets(),
        KingBuckets::None
    );

    // Two buckets of 45 features: 90 rows, the game's 45 features.
    let mut float = random_float_net(90, 16, 4);
    float.buckets = KingBuckets::Halves;
    let halves = quantised(&float, "chess");
    let bytes = halves.to_bytes();
    assert_eq!(bytes[61], KingBuckets::Halves.code());
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, halves);
    assert_eq!(back.king_buckets(), KingBuckets::Halves);
    assert_eq!((back.feature_count(), back.input_rows()), (45, 90));
    assert!(Network::from_bytes_for(&bytes, "chess", 45).is_ok());
    assert_eq!(
        Network::from_bytes_for(&bytes, "chess", 90).unwrap_err(),
        NetError::WrongFeatureCount {
            expected: 90,
            found: 45
        }
    );
    // Only a game with king buckets takes it; any game takes a net of one bucket.
    assert!(back.check_king_buckets(true).is_ok());
    let e = back.check_king_buckets(false).unwrap_err();
    assert_eq!(
        e,
        NetError::NoKingBuckets {
            variant: "chess".into(),
            layout: KingBuckets::Halves
        }
    );
    assert!(e.to_string().contains("halves"), "{e}");
    assert!(plain.check_king_buckets(false).is_ok());

    // An unknown layout code, and rows that are not whole buckets (90 rows in 4 buckets).
    let e = Network::from_bytes(&with_header_byte(&bytes, 61, 9)).unwrap_err();
    assert_eq!(e, NetError::UnknownKingBuckets { code: 9 });
    assert!(e.to_string().contains("code 9"), "{e}");
    let zones = with_header_byte(&bytes, 61, KingBuckets::Zones4.code());
    assert_eq!(
        Network::from_bytes(&zones).unwrap_err(),
        NetError::BucketRows {
            rows: 90,
            buckets: 4,
            layout: KingBuckets::Zones4
        }
    );
    float.buckets = KingBuckets::Zones4;
    assert!(float
        .quantise("chess", DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
        .is_err());
    // Bytes 62 and 63 are the output buckets: a width without a count is refused.
    let e = Network::from_bytes(&with_header_byte(&bytes, 63, 4)).unwrap_err();
    assert!(e.to_string().contains("output buckets"), "{e}");
}

#[test]
fn the_factoriser_stands_for_the_merged_rows() {
    let base = 40;
    let plain = random_float_net(base, 16, 8);
    let mut rng = SplitMix64::new(8);
    // From a net of one bucket: every bucket computes what the net did, to the bit (the
    // buckets' own rows add exact zeros).
    let fact = plain.factorised(KingBuckets::Zones4, base);
    assert_eq!((fact.features, fact.shared), (5 * base, base));
    for _ in 0..50 {
        let stm = random_features(&mut rng, base, 12);
        let nstm = random_features(&mut rng, base, 12);
        let want = plain.forward(&stm, &nstm, 0);
        for (b, c) in [(0, 0), (1, 3), (2, 2), (3, 1)] {
            let s: Vec<u32> = stm.iter().map(|&f| f + b * base as u32).collect();
            let n: Vec<u32> = nstm.iter().map(|&f| f + c * base as u32).collect();
            assert_eq!(fact.forward(&s, &n, 0), want);
        }
    }
    let merged = fact.merged();
    assert_eq!((merged.features, merged.shared), (4 * base, 0));
    assert_eq!(merged.buckets, KingBuckets::Zones4);
    for b in 0..4 {
        let rows = &merged.ft_weights[b * base * 16..(b + 1) * base * 16];
        assert_eq!(rows, &plain.ft_weights[..]);
    }
    // With trained (nonzero) rows of their own, the factorised net and its merged net agree
    // up to the order of the float sums.
    let mut fact = fact;
    for w in &mut fact.ft_weights[..4 * base * 16] {
        *w = 0.2 * uniform(&mut rng);
    }
    let merged = fact.merged();
    for _ in 0..50 {
        let stm = random_features(&mut rng, 4 * base, 12);
        let nstm = random_features(&mut rng, 4 * base, 12);
        let (a, b) = (fact.forward(&stm, &nstm, 0), merged.forward(&stm, &nstm, 0));
        assert!((a - b).abs() < 1e-4, "{a} vs {b}");
    }
    // A bucketed net factorised again keeps its rows as the buckets' own.
    let again = merged.factorised(KingBuckets::Zones4, base);
    assert!(again.ft_weights[4 * base * 16..].iter().all(|&w| w == 0.0));
    assert_eq!(again.merged(), merged);
}

#[test]
fn output_buckets_are_stored_in_the_header_and_each_evaluates_with_its_own_layer() {
    let layout = OutputBuckets::for_game(4, 32);
    let plain = random_float_net(90, 16, 5);
    let mut float = plain.with_outputs(layout);
    // Copied from a net of one output, every bucket computes what the net did.
    let mut rng = SplitMix64::new(5);
    let (stm, nstm) = (
        random_features(&mut rng, 90, 12),
        random_features(&mut rng, 90, 12),
    );
    for b in 0..4 {
        assert_eq!(float.forward(&stm, &nstm, b), plain.forward(&stm, &nstm, 0));
    }
    // Bucket 2 (17 to 24 men) gets a layer of its own.
    let h = float.hidden;
    float.out_weights[2 * 2 * h..3 * 2 * h]
        .iter_mut()
        .for_each(|w| *w = 0.5 * uniform(&mut rng));
    float.out_bias[2] = -0.4;
    let one = quantised(&plain, "chess");
    let net = quantised(&float, "chess");
    let bytes = net.to_bytes();
    // The header holds the count and the width; each extra bucket adds one output layer (2 H
    // weights of two bytes and a four-byte bias).
    assert_eq!(bytes[62..64], [4, 8]);
    assert_eq!(one.to_bytes()[62..64], [0, 0]);
    assert_eq!(bytes.len(), one.to_bytes().len() + 3 * (4 * h + 4));
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    assert_eq!(back.output_buckets(), layout);
    assert_eq!(
        (layout.bucket(16), layout.bucket(17), layout.bucket(24)),
        (1, 2, 2)
    );
    let (s, n): (Vec<u32>, Vec<u32>) = (stm.clone(), nstm.clone());
    for b in [0, 1, 3] {
        assert_eq!(
            back.evaluate_features(&s, &n, b),
            one.evaluate_features(&s, &n, 0)
        );
    }
    assert_ne!(
        back.evaluate_features(&s, &n, 2),
        one.evaluate_features(&s, &n, 0)
    );
    // A file that lost its last bucket's layer is truncated, not misread.
    let header_only = with_header_byte(&one.to_bytes(), 62, 4);
    assert!(matches!(
        Network::from_bytes(&header_only),
        Err(NetError::BadHeader(_)) | Err(NetError::Truncated { .. })
    ));
    let mut cut = bytes[..bytes.len() - 4 - (4 * h + 4)].to_vec();
    let crc = crc32(&cut);
    cut.extend_from_slice(&crc.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&cut),
        Err(NetError::Truncated { .. })
    ));
}
