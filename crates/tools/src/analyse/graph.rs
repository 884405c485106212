//! A picture of one game: White's expected score after every move, with the marked moves
//! shown, as an SVG file.

use cannonade_core::review::{white_chances, AnalysedGame, Mark, Verdict};
use plotters::prelude::*;
use std::path::Path;

/// Why a graph was not drawn.
#[derive(thiserror::Error, Debug)]
#[error("cannot draw {path}: {reason}")]
pub struct GraphError {
    pub path: String,
    pub reason: String,
}

const WIDTH: u32 = 900;
const HEIGHT: u32 = 420;

fn mark_colour(mark: Mark) -> RGBColor {
    match mark {
        Mark::Inaccuracy => RGBColor(0xe6, 0xb4, 0x00),
        Mark::Mistake => RGBColor(0xe6, 0x73, 0x00),
        Mark::Blunder => RGBColor(0xd0, 0x1c, 0x1c),
    }
}

/// The x coordinate of the position after `ply` plies: the move number, Black's half-way.
fn x_of(first_move: u32, black_first: bool, ply: usize) -> f64 {
    let half = 2 * (first_move as usize - 1) + usize::from(black_first) + ply;
    1.0 + half as f64 / 2.0
}

/// Draws `game` into the SVG file `path`, titled `title`.
pub fn draw(
    path: &Path,
    title: &str,
    game: &AnalysedGame,
    verdicts: &[Verdict],
) -> Result<(), GraphError> {
    let fail = |e: &dyn std::fmt::Display| GraphError {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let first = &game.positions[0];
    let first_move = cannonade_core::engine::wdl::move_number_of(&first.fen);
    let black_first = first.side == cannonade_core::board::Color::Black;
    let points: Vec<(f64, f64)> = game
        .positions
        .iter()
        .enumerate()
        .map(|(ply, pos)| {
            let w = white_chances(game.variant, pos);
            (x_of(first_move, black_first, ply), 100.0 * w.expected())
        })
        .collect();
    let x_end = points.last().map_or(2.0, |p| p.0).max(points[0].0 + 1.0);

    let root = SVGBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(points[0].0..x_end, 0.0..100.0)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("move")
        .y_desc("White's expected score (%)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(WHITE)
        .draw()
        .map_err(|e| fail(&e))?;
    // The even line: above it White is better.
    chart
        .draw_series(LineSeries::new(
            [(points[0].0, 50.0), (x_end, 50.0)],
            BLACK.mix(0.3),
        ))
        .map_err(|e| fail(&e))?;
    chart
        .draw_series(
            AreaSeries::new(points.iter().copied(), 0.0, BLUE.mix(0.15))
                .border_style(BLUE.stroke_width(2)),
        )
        .map_err(|e| fail(&e))?;
    for mark in [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder] {
        let colour = mark_colour(mark);
        // The point after the marked move: where the expected score fell to.
        let marked: Vec<(f64, f64)> = verdicts
            .iter()
            .enumerate()
            .filter(|(_, v)| v.mark == Some(mark))
            .map(|(i, _)| points[i + 1])
            .collect();
        chart
            .draw_series(marked.iter().map(|&p| Circle::new(p, 6, colour.filled())))
            .map_err(|e| fail(&e))?
            .label(format!(
                "{} ({}) x{}",
                mark.name(),
                mark.glyph(),
                marked.len()
            ))
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_sit_at_their_move_numbers() {
        assert_eq!(x_of(1, false, 0), 1.0);
        assert_eq!(x_of(1, false, 1), 1.5);
        assert_eq!(x_of(1, false, 2), 2.0);
        assert_eq!(x_of(10, true, 1), 11.0);
    }
}
