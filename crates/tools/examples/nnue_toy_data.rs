//! Writes quick stand-in training data for `cannonade train` without a search (real data comes
//! from `cannonade datagen`):
//! positions from random games labelled with the hand-written evaluation and the random game's
//! result (see `cannonade_tools::train::random_play_records`), in the trainer's text format.
//!
//! `cargo run --release --example nnue_toy_data -- [VARIANT] [COUNT] [SEED] > FILE`

use cannonade_core::engine::registry;
use cannonade_tools::train::{random_play_records, text_record};
use std::io::{BufWriter, Write};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args.first().map_or("chess", String::as_str);
    let count: usize = args.get(1).map_or(100_000, |s| s.parse().expect("COUNT"));
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("SEED"));
    let info = registry::find(variant).expect("a variant of `cannonade variants`");
    let mut out = BufWriter::new(std::io::stdout().lock());
    // In blocks with their own seeds, so that a large count shows progress on stderr.
    let block = 100_000;
    for (i, start) in (0..count).step_by(block).enumerate() {
        let n = block.min(count - start);
        for r in random_play_records(info, n, seed.wrapping_mul(1_000_003) + i as u64) {
            writeln!(out, "{}", text_record(&r)).expect("write");
        }
        eprintln!("{} positions", start + n);
    }
}
