//! The picture of a tuning run: each parameter's value after every game pair, as a fraction
//! of its range (0 its minimum, 1 its maximum), so that margins of hundreds and depths of a
//! few plies share one axis. A line that has flattened out has settled.

use plotters::prelude::*;
use std::path::Path;

/// Draws the trajectories into the SVG file `path`. `ranges` holds (min, max) per parameter,
/// in the order of `names` and of each row's values.
pub fn draw(
    path: &Path,
    title: &str,
    names: &[String],
    ranges: &[(f64, f64)],
    rows: &[(u64, Vec<f64>)],
) -> Result<(), String> {
    let last = rows.last().map_or(1, |r| r.0.max(1));
    let root = SVGBackend::new(path, (1000, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0u64..last, 0.0..1.0)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("game pairs")
        .y_desc("value, as a fraction of its range")
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, (name, &(min, max))) in names.iter().zip(ranges).enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        let span = (max - min).max(f64::MIN_POSITIVE);
        chart
            .draw_series(LineSeries::new(
                rows.iter().map(|(k, v)| (*k, (v[i] - min) / span)),
                colour.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?
            .label(name.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
