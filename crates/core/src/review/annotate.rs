//! A reviewed game written back as PGN: the game's tags with the players' totals added, the
//! moves with their marks, lichess-style `[%eval]` and `[%wdl]` comments, and the better line
//! after each marked move as a variation.

use super::{white_chances, AnalysedGame, ScoredPosition, Summary, Verdict};
use crate::board::Color;
use crate::pgn::{write_game, BlackNumbers, Movetext};
use crate::search::{Score, MATE_BOUND};

/// The tags this writer adds itself, dropped from the game's own (an analysis of an analysis
/// replaces the old totals).
pub const OWN_TAGS: [&str; 11] = [
    "Annotator",
    "WhiteInaccuracies",
    "WhiteMistakes",
    "WhiteBlunders",
    "WhiteAverageLoss",
    "WhiteACPL",
    "BlackInaccuracies",
    "BlackMistakes",
    "BlackBlunders",
    "BlackAverageLoss",
    "BlackACPL",
];

/// What the annotated game needs besides the review itself.
pub struct Output<'a> {
    /// The game's own tags, in order.
    pub tags: &'a [(String, String)],
    /// Its result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: &'a str,
    /// The game's variant when the game has no `Variant` tag and is not chess, so that the
    /// file reads back.
    pub variant_tag: Option<&'a str>,
    /// How the positions were searched, for the `Annotator` tag: `depth 12`.
    pub limit: &'a str,
}

/// The score of `pos` as lichess's `[%eval]` writes it, White's view: pawns with two decimals
/// (`0.35`, `-1.20`) or a mate (`#3` White mates in 3, `#-2` Black mates in 2). `None` where
/// the game is over: there is nothing left to evaluate.
pub fn eval_text(pos: &ScoredPosition) -> Option<String> {
    if pos.game_over {
        return None;
    }
    let white = match pos.side {
        Color::White => pos.score,
        Color::Black => -pos.score,
    };
    Some(if white.abs() >= MATE_BOUND {
        match Score::from_internal(white) {
            Score::Mate(n) => format!("#{n}"),
            Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        }
    } else {
        format!("{:.2}", f64::from(white) / 100.0)
    })
}

/// `[%eval 0.35] [%wdl 520 300 180]` (White's view) for the position a move led to.
fn position_comment(variant: &str, pos: &ScoredPosition) -> String {
    let wdl = white_chances(variant, pos);
    match eval_text(pos) {
        Some(e) => format!("[%eval {e}] [%wdl {wdl}]"),
        None => format!("[%wdl {wdl}]"),
    }
}

/// The tags, the totals comment and the annotated movetext of one game, ending with an empty
/// line.
pub fn annotated_game(
    out: &Output,
    game: &AnalysedGame,
    verdicts: &[Verdict],
    summary: &Summary,
) -> String {
    let mut tags: Vec<(String, String)> = out
        .tags
        .iter()
        .filter(|(name, _)| !OWN_TAGS.contains(&name.as_str()))
        .cloned()
        .collect();
    let mut tag = |name: &str, value: String| tags.push((name.to_string(), value));
    if let Some(v) = out.variant_tag {
        tag("Variant", v.to_string());
    }
    tag("Annotator", format!("cannonade analyse, {}", out.limit));
    for (side, p) in [("White", &summary.white), ("Black", &summary.black)] {
        tag(&format!("{side}Inaccuracies"), p.inaccuracies.to_string());
        tag(&format!("{side}Mistakes"), p.mistakes.to_string());
        tag(&format!("{side}Blunders"), p.blunders.to_string());
        tag(
            &format!("{side}AverageLoss"),
            format!("{:.1}", p.average_loss_percent()),
        );
        tag(
            &format!("{side}ACPL"),
            format!("{:.0}", p.average_cp_loss()),
        );
    }
    // Every move is followed by a comment, so Black's moves carry their number too
    // (`12... Nf6`), as PGN's export format and lichess write them.
    let mut text = Movetext::from_fen(
        game.positions.first().map(|p| p.fen.as_str()),
        BlackNumbers::Always,
    );
    text.comment(&format!(
        "Analysed by cannonade, {}. {}",
        out.limit,
        summary.sentence()
    ));
    for (i, (mv, v)) in game.moves.iter().zip(verdicts).enumerate() {
        let after = &game.positions[i + 1];
        text.push_move(&format!("{}{}", mv.pgn, v.mark.map_or("", |m| m.glyph())));
        let mut comment = position_comment(game.variant, after);
        if let (Some(mark), Some(best)) = (v.mark, v.better_line.first()) {
            comment += &format!(
                " {}: {:.0}% of the expected score lost; {best} was best.",
                mark.name(),
                100.0 * v.loss
            );
        }
        text.comment(&comment);
        if !v.better_line.is_empty() {
            text.variation(&v.better_line);
        }
    }
    write_game(&tags, &text.finish(out.result))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{mv, pos};
    use super::super::{judge, Summary};
    use super::*;
    use crate::search::MATE;

    #[test]
    fn evals_are_white_s_view_in_pawns_or_mates() {
        assert_eq!(eval_text(&pos(Color::White, 35, "")).unwrap(), "0.35");
        assert_eq!(eval_text(&pos(Color::Black, 120, "")).unwrap(), "-1.20");
        // Black to move mates in 2: White's view is "mated in 2".
        assert_eq!(eval_text(&pos(Color::Black, MATE - 3, "")).unwrap(), "#-2");
        assert_eq!(eval_text(&pos(Color::White, MATE - 5, "")).unwrap(), "#3");
        let mut over = pos(Color::White, -MATE, "");
        over.game_over = true;
        assert_eq!(eval_text(&over), None);
    }

    #[test]
    fn a_marked_move_gets_its_glyph_its_comment_and_the_better_line() {
        let mut start = pos(Color::White, 0, "e2e4");
        start.fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into();
        start.best_pgn = vec!["e4".into(), "e5".into()];
        let game = AnalysedGame {
            variant: "chess",
            moves: vec![mv("a2a3")],
            positions: vec![start, pos(Color::Black, 500, "h7h6")],
        };
        let verdicts = judge(&game);
        let tags = vec![
            ("White".to_string(), "W".to_string()),
            ("WhiteBlunders".to_string(), "9".to_string()),
        ];
        let text = annotated_game(
            &Output {
                tags: &tags,
                result: "*",
                variant_tag: None,
                limit: "depth 3",
            },
            &game,
            &verdicts,
            &Summary::of(&verdicts),
        );
        assert!(text.starts_with("[White \"W\"]\n[Annotator \"cannonade analyse, depth 3\"]"));
        assert_eq!(text.matches("WhiteBlunders").count(), 1, "{text}");
        assert!(text.contains("[WhiteBlunders \"1\"]"), "{text}");
        let one_line = text.replace('\n', " ");
        assert!(one_line.contains("1. a2a3?? {[%eval -5.00]"), "{text}");
        assert!(one_line.contains("e4 was best.} ( 1. e4 e5 ) *"), "{text}");
    }
}
