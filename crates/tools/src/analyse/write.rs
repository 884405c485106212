//! Writing an analysed game back as PGN: the game's tags with the players' totals added, the
//! moves with their marks, lichess-style `[%eval]` and `[%wdl]` comments, and the better line
//! after each marked move as a variation.

use super::game::{AnalysedGame, ScoredPosition};
use super::judge::{white_chances, PlayerSummary, Summary, Verdict};
use crate::pgn::{wrap_tokens, RawGame};
use cannonade_core::board::Color;
use cannonade_core::search::{Score, MATE_BOUND};

/// The tags this tool writes itself, dropped from the game read (an analysis of an analysis
/// replaces the old totals).
const OWN_TAGS: [&str; 11] = [
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

/// What the output needs besides the analysis itself.
pub struct Output<'a> {
    pub raw: &'a RawGame,
    /// The game's variant when the game has no `Variant` tag and is not chess, so that the
    /// file reads back.
    pub variant_tag: Option<&'a str>,
    /// How the positions were searched, for the `Annotator` tag: `depth 12`.
    pub limit: &'a str,
}

fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
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

/// Move-number tokens: `12.` before White's move, `12...` before Black's where it opens a
/// line or follows a comment or variation (`opening`).
fn number_token(number: u32, side: Color, opening: bool) -> Option<String> {
    match side {
        Color::White => Some(format!("{number}.")),
        Color::Black if opening => Some(format!("{number}...")),
        Color::Black => None,
    }
}

/// The tags, the totals comment and the annotated movetext of one game, ending with an empty
/// line.
pub fn write_game(
    out: &Output,
    game: &AnalysedGame,
    verdicts: &[Verdict],
    summary: &Summary,
) -> String {
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        text += &format!("[{name} \"{}\"]\n", quote(value));
    };
    for (name, value) in &out.raw.tags {
        if !OWN_TAGS.contains(&name.as_str()) {
            tag(name, value);
        }
    }
    if let Some(v) = out.variant_tag {
        tag("Variant", v);
    }
    tag("Annotator", &format!("cannonade analyse, {}", out.limit));
    for (side, p) in [("White", &summary.white), ("Black", &summary.black)] {
        tag(&format!("{side}Inaccuracies"), &p.inaccuracies.to_string());
        tag(&format!("{side}Mistakes"), &p.mistakes.to_string());
        tag(&format!("{side}Blunders"), &p.blunders.to_string());
        tag(
            &format!("{side}AverageLoss"),
            &format!("{:.1}", p.average_loss_percent()),
        );
        tag(
            &format!("{side}ACPL"),
            &format!("{:.0}", p.average_cp_loss()),
        );
    }
    text.push('\n');
    let mut tokens = vec![format!(
        "{{Analysed by cannonade, {}. {}}}",
        out.limit,
        summary_sentence(summary)
    )];
    let first = &game.positions[0];
    let mut number = cannonade_core::engine::wdl::move_number_of(&first.fen);
    for (i, (mv, v)) in game.moves.iter().zip(verdicts).enumerate() {
        let (before, after) = (&game.positions[i], &game.positions[i + 1]);
        // Every move is followed by a comment, so Black's moves carry their number too
        // (`12... Nf6`), as PGN's export format and lichess write them.
        tokens.extend(number_token(number, before.side, true));
        tokens.push(format!("{}{}", mv.pgn, v.mark.map_or("", |m| m.glyph())));
        let mut comment = position_comment(game.variant, after);
        if let (Some(mark), Some(best)) = (v.mark, before.best_pgn.first()) {
            comment += &format!(
                " {}: {:.0}% of the expected score lost; {best} was best.",
                mark.name(),
                100.0 * v.loss
            );
        }
        tokens.push(format!("{{{comment}}}"));
        if v.mark.is_some() && !before.best_pgn.is_empty() {
            tokens.push("(".into());
            tokens.extend(line_tokens(&before.best_pgn, number, before.side));
            tokens.push(")".into());
        }
        if before.side == Color::Black {
            number += 1;
        }
    }
    tokens.push(out.raw.result().to_string());
    text += &wrap_tokens(&tokens);
    text += "\n\n";
    text
}

/// A line of moves with its move numbers, starting at move `number` with `side` to move.
fn line_tokens(line: &[String], mut number: u32, mut side: Color) -> Vec<String> {
    let mut out = Vec::new();
    for (i, m) in line.iter().enumerate() {
        out.extend(number_token(number, side, i == 0));
        out.push(m.clone());
        if side == Color::Black {
            number += 1;
        }
        side = !side;
    }
    out
}

/// `White: ... Black: ...` as one sentence each.
pub fn summary_sentence(summary: &Summary) -> String {
    let one = |name: &str, p: &PlayerSummary| format!("{name}: {}.", p.describe());
    format!(
        "{} {}",
        one("White", &summary.white),
        one("Black", &summary.black)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::search::MATE;

    fn pos(side: Color, score: i32) -> ScoredPosition {
        ScoredPosition {
            fen: "x w - - 0 1".into(),
            side,
            score,
            best_uci: Vec::new(),
            best_pgn: Vec::new(),
            game_over: false,
        }
    }

    #[test]
    fn evals_are_white_s_view_in_pawns_or_mates() {
        assert_eq!(eval_text(&pos(Color::White, 35)).unwrap(), "0.35");
        assert_eq!(eval_text(&pos(Color::Black, 120)).unwrap(), "-1.20");
        // Black to move mates in 2: White's view is "mated in 2".
        assert_eq!(eval_text(&pos(Color::Black, MATE - 3)).unwrap(), "#-2");
        assert_eq!(eval_text(&pos(Color::White, MATE - 5)).unwrap(), "#3");
        let mut over = pos(Color::White, -MATE);
        over.game_over = true;
        assert_eq!(eval_text(&over), None);
    }

    #[test]
    fn a_line_numbers_its_moves_from_where_it_starts() {
        let line: Vec<String> = ["Nf6", "Nc3", "e5"].map(String::from).to_vec();
        assert_eq!(
            line_tokens(&line, 7, Color::Black).join(" "),
            "7... Nf6 8. Nc3 e5"
        );
    }
}
