//! A finished game as PGN: the seven tag roster, variant and start tags, cutechess-style
//! move comments, and the times of the game as cutechess-cli writes them. The writing itself
//! is the core's (`cannonade_core::pgn`); what is the match's (the clock's times, the
//! engines' scores) is here.

use super::game::GameRecord;
use super::process::Score;
use crate::progress::hms;
use cannonade_core::engine::registry::VariantInfo;
use cannonade_core::pgn::{write_game as pgn_game, BlackNumbers, Movetext};
use std::fmt::Write as _;
use std::time::{Duration, SystemTime};

/// What the PGN header needs besides the game itself.
pub struct PgnContext<'a> {
    pub event: &'a str,
    pub site: &'a str,
    pub date: &'a str,
    pub round: u32,
    pub variant: &'static VariantInfo,
    pub time_control: String,
    /// When the game started and how long it took: the `GameStartTime`, `GameEndTime` and
    /// `GameDuration` tags (cutechess-cli's), left out when `None`.
    pub times: Option<(SystemTime, Duration)>,
}

/// Year, month and day (UTC) of a time.
pub(crate) fn civil_date(t: SystemTime) -> (i64, i64, i64) {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Days to civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Today's date as PGN writes it, from the system clock (UTC).
pub fn pgn_date() -> String {
    let (y, m, d) = civil_date(SystemTime::now());
    format!("{y:04}.{m:02}.{d:02}")
}

/// `2026-11-21T14:03:27.512 UTC`: a time as cutechess-cli writes `GameStartTime`.
pub fn pgn_timestamp(t: SystemTime) -> String {
    let since = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let (y, m, d) = civil_date(t);
    format!(
        "{y:04}-{m:02}-{d:02}T{}.{:03} UTC",
        hms(since.as_secs() % 86_400),
        since.subsec_millis()
    )
}

/// `{+0.31/12 0.53s}` as cutechess writes it; mates as `+M5`.
fn comment(score: Option<Score>, depth: Option<u32>, secs: f64) -> String {
    let mut c = String::new();
    if let Some(s) = score {
        match s {
            Score::Cp(cp) => {
                let _ = write!(c, "{:+.2}", cp as f64 / 100.0);
            }
            Score::Mate(m) => {
                let _ = write!(c, "{}M{}", if m > 0 { '+' } else { '-' }, m.abs());
            }
        }
        let _ = write!(c, "/{}", depth.unwrap_or(0));
        c.push(' ');
    }
    let _ = write!(c, "{}s", format_secs(secs));
    c
}

fn format_secs(secs: f64) -> String {
    if secs >= 10.0 {
        format!("{secs:.1}")
    } else {
        format!("{secs:.3}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// The whole game as PGN text, ending with an empty line.
pub fn write_game(ctx: &PgnContext, g: &GameRecord) -> String {
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", ctx.event.to_string()),
        ("Site", ctx.site.to_string()),
        ("Date", ctx.date.to_string()),
        ("Round", ctx.round.to_string()),
        ("White", g.white.clone()),
        ("Black", g.black.clone()),
        ("Result", g.result.pgn().to_string()),
    ];
    if !ctx.variant.standard {
        tags.push(("Variant", ctx.variant.game.name.to_string()));
    }
    if let Some(fen) = &g.start_fen {
        tags.push(("FEN", fen.clone()));
        tags.push(("SetUp", "1".to_string()));
    }
    if let Some((start, duration)) = ctx.times {
        tags.push(("GameStartTime", pgn_timestamp(start)));
        tags.push(("GameEndTime", pgn_timestamp(start + duration)));
        tags.push(("GameDuration", hms(duration.as_secs())));
    }
    tags.push(("PlyCount", g.moves.len().to_string()));
    tags.push(("TimeControl", ctx.time_control.clone()));
    tags.push(("Termination", g.termination.pgn().to_string()));

    // Move numbers follow the start position's side to move and full-move number.
    let mut text = Movetext::from_fen(g.start_fen.as_deref(), BlackNumbers::AtStart);
    for m in &g.moves {
        text.push_move(&m.text.pgn);
        if m.book {
            text.comment("book");
        } else {
            text.comment(&comment(m.score, m.depth, m.time.as_secs_f64()));
        }
    }
    if !g.reason.is_empty() {
        text.comment(&g.reason);
    }
    pgn_game(&tags, &text.finish(g.result.pgn()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_times_are_written_as_cutechess_does() {
        // 2021-03-04 05:06:07.089 UTC.
        let t = std::time::UNIX_EPOCH + Duration::from_millis(1_614_834_367_089);
        assert_eq!(pgn_timestamp(t), "2021-03-04T05:06:07.089 UTC");
        assert_eq!(civil_date(t), (2021, 3, 4));
    }

    #[test]
    fn move_comments_are_cutechess_s() {
        assert_eq!(
            comment(Some(Score::Cp(31)), Some(12), 0.53),
            "+0.31/12 0.53s"
        );
        assert_eq!(comment(Some(Score::Mate(-5)), None, 12.25), "-M5/0 12.2s");
        assert_eq!(comment(None, None, 2.0), "2s");
    }
}
