//! Random nets and features for tests, here and in the trainer's tests (the tools crate):
//! not used by the engine.

use super::float::uniform;
use super::FloatNetwork;
use crate::board::zobrist::SplitMix64;

/// A float net with weights in the ranges trained nets show: feature transformer weights in
/// ±0.3, its biases in ±0.2, output weights in ±0.5, output bias in ±0.3.
pub fn random_float_net(features: usize, hidden: usize, seed: u64) -> FloatNetwork {
    let mut rng = SplitMix64::new(seed);
    let mut net = FloatNetwork::new_random(features, hidden, seed);
    net.ft_weights
        .iter_mut()
        .for_each(|w| *w = 0.3 * uniform(&mut rng));
    net.ft_bias
        .iter_mut()
        .for_each(|w| *w = 0.2 * uniform(&mut rng));
    net.out_weights
        .iter_mut()
        .for_each(|w| *w = 0.5 * uniform(&mut rng));
    net.out_bias = vec![0.3 * uniform(&mut rng)];
    net
}

/// `n` distinct random features below `features`.
pub fn random_features(rng: &mut SplitMix64, features: usize, n: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let f = (rng.next_u64() % features as u64) as u32;
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}
