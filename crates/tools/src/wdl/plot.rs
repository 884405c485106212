//! The picture of a fit: for a few bands of move numbers, the observed win rate and draw rate
//! of the data's positions in score bins (dots) against the model's mean prediction for the
//! same positions (lines). Left the win rate, right the draw rate.

use super::fit::Sample;
use crate::datagen::GameResult;
use cannonade_core::engine::registry::VariantInfo;
use cannonade_core::engine::wdl::Model;
use plotters::prelude::*;
use std::path::Path;

/// Score bins drawn across the picture.
const BINS: usize = 30;
/// A bin with fewer positions is not drawn: its rates would be noise.
const MIN_PER_BIN: usize = 30;
const BANDS: usize = 3;
const COLOURS: [RGBColor; BANDS] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
];

/// Per score bin of one band: (mean score, observed, predicted) for the win and the draw.
struct Bin {
    score: f64,
    win: (f64, f64),
    draw: (f64, f64),
}

/// Splits the move numbers into `BANDS` bands of about as many positions each: the lowest
/// and highest move number of each.
fn bands(samples: &[Sample]) -> Vec<(u32, u32)> {
    let mut moves: Vec<u32> = samples.iter().map(|s| s.move_number).collect();
    moves.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::new();
    let mut lo = moves[0];
    for k in 1..=BANDS {
        let hi = moves[(moves.len() * k / BANDS).min(moves.len() - 1)];
        let hi = if k == BANDS {
            moves[moves.len() - 1]
        } else {
            hi
        };
        if hi >= lo {
            out.push((lo, hi));
            lo = hi + 1;
        }
    }
    out
}

/// The scores drawn, -span..span: most of the data's (its 95th percentile of |score|, in whole
/// hundreds, at least 400), for games whose scores run larger (Cannon Shogi) show their whole
/// curve.
fn span(samples: &[Sample]) -> f64 {
    let mut sizes: Vec<f64> = samples.iter().map(|s| s.score.abs()).collect();
    sizes.sort_unstable_by(f64::total_cmp);
    let p95 = sizes[(sizes.len() - 1) * 95 / 100];
    ((p95 / 100.0).ceil() * 100.0).clamp(400.0, 5000.0)
}

fn bins(model: &Model, samples: &[Sample], band: (u32, u32), span: f64) -> Vec<Bin> {
    let count = BINS;
    let width = 2.0 * span / count as f64;
    // Per bin: positions, score sum, wins, draws, predicted win sum, predicted draw sum.
    let mut acc = vec![(0usize, 0.0, 0.0, 0.0, 0.0, 0.0); count];
    for s in samples {
        if s.move_number < band.0 || s.move_number > band.1 || s.score.abs() >= span {
            continue;
        }
        let i = (((s.score + span) / width) as usize).min(count - 1);
        let (w, d, _) = model.probabilities(s.score, s.move_number);
        let a = &mut acc[i];
        a.0 += 1;
        a.1 += s.score;
        a.2 += f64::from(u8::from(s.result == GameResult::Win));
        a.3 += f64::from(u8::from(s.result == GameResult::Draw));
        a.4 += w;
        a.5 += d;
    }
    acc.into_iter()
        .filter(|a| a.0 >= MIN_PER_BIN)
        .map(|(n, score, wins, draws, pw, pd)| {
            let n = n as f64;
            Bin {
                score: score / n,
                win: (wins / n, pw / n),
                draw: (draws / n, pd / n),
            }
        })
        .collect()
}

/// Draws the picture of `model` fitted to `samples` into the SVG file `path`.
pub fn draw(
    path: &Path,
    variant: &VariantInfo,
    model: &Model,
    samples: &[Sample],
    draw_share: f64,
) -> Result<(), String> {
    let root = SVGBackend::new(path, (1100, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let title = format!(
        "{}: win chances by score (dots: data, lines: model); draws {:.1}% of games",
        variant.full_name,
        draw_share * 100.0
    );
    let root = root
        .titled(&title, ("sans-serif", 20))
        .map_err(|e| e.to_string())?;
    let panels = root.split_evenly((1, 2));
    let bands = bands(samples);
    let span = span(samples);
    let binned: Vec<Vec<Bin>> = bands
        .iter()
        .map(|&b| bins(model, samples, b, span))
        .collect();
    type Pick = fn(&Bin) -> (f64, f64);
    let picks: [(&str, Pick); 2] = [("win rate", |b| b.win), ("draw rate", |b| b.draw)];
    for (panel, (what, pick)) in panels.iter().zip(picks) {
        let mut chart = ChartBuilder::on(panel)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(-span..span, 0.0..1.0)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("score (cp, side to move)")
            .y_desc(what)
            .draw()
            .map_err(|e| e.to_string())?;
        for ((band, bins), colour) in bands.iter().zip(&binned).zip(COLOURS) {
            let label = format!("moves {}-{}", band.0, band.1);
            chart
                .draw_series(LineSeries::new(
                    bins.iter().map(|b| (b.score, pick(b).1)),
                    colour.stroke_width(2),
                ))
                .map_err(|e| e.to_string())?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(
                    bins.iter()
                        .map(|b| Circle::new((b.score, pick(b).0), 3, colour.filled())),
                )
                .map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())
}
