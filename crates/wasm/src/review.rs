//! `rules.review`: a game the page searched, judged by the core's review module
//! (`cannonade_core::review`) exactly as `cannonade analyse` judges it. The page gives each
//! position's score and line, as the engine reported them; everything else (the positions, the
//! notation, the win chances, the marks, the totals, the annotated PGN) is the core's.

use crate::pgn::{self, Headers};
use crate::rules::{color_name, RulesError};
use cannonade_core::board::Color;
use cannonade_core::engine::registry;
use cannonade_core::engine::wdl::Wdl;
use cannonade_core::games::Notation;
use cannonade_core::review::annotate::{self, eval_text};
use cannonade_core::review::{
    internal_score, judge, line_in_pgn, white_chances, AnalysedGame, ScoredPosition, Summary,
    CP_CAP,
};
use cannonade_core::search::{Score, MATE_BOUND};
use serde::{Deserialize, Serialize};

/// What the page asks for (see docs/web.md).
#[derive(Deserialize, Debug, Clone)]
#[serde(rename_all = "camelCase")]
pub struct ReviewRequest {
    pub variant: String,
    #[serde(default)]
    pub start_fen: Option<String>,
    /// The game's moves, UCI strings.
    pub moves: Vec<String>,
    /// One per position: before the first move, then after each.
    pub positions: Vec<PositionIn>,
    /// The game's tags, for the annotated PGN.
    #[serde(default)]
    pub headers: serde_json::Value,
    /// How the positions were searched, for the PGN's `Annotator` tag (`depth 12`).
    #[serde(default)]
    pub limit: Option<String>,
}

/// One position's search, as the engine's last `info ... score ... pv ...` line said it.
#[derive(Deserialize, Debug, Clone)]
pub struct PositionIn {
    /// Side to move's view; none where the game is over.
    #[serde(default)]
    pub score: Option<ScoreIn>,
    #[serde(default)]
    pub pv: Vec<String>,
}

/// `{cp: 31}` or `{mate: -3}`, as UCI prints them.
#[derive(Deserialize, Debug, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct ScoreIn {
    #[serde(default)]
    pub cp: Option<i32>,
    #[serde(default)]
    pub mate: Option<i32>,
}

impl ScoreIn {
    /// The search's own score, for a score the engine can report.
    fn internal(self) -> Option<i32> {
        let score = match (self.cp, self.mate) {
            (Some(cp), None) if cp.abs() < MATE_BOUND => Score::Cp(cp),
            // Mates the search can see: bounded before the arithmetic.
            (None, Some(n)) if n.abs() <= MATE_BOUND => Score::Mate(n),
            _ => return None,
        };
        let v = internal_score(score);
        (Score::from_internal(v) == score).then_some(v)
    }
}

/// Win, draw and loss chances, 0 to 1.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct Chances {
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl From<Wdl> for Chances {
    fn from(w: Wdl) -> Chances {
        let part = |n: u32| f64::from(n) / 1000.0;
        Chances {
            win: part(w.win),
            draw: part(w.draw),
            loss: part(w.loss),
        }
    }
}

/// How a position stands, White's view.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Standing {
    /// Centipawns, mates and game ends counted as ±`CP_CAP`.
    pub white_cp: i32,
    pub white_chances: Chances,
    /// `+0.31`, `-1.20`, `#3` (White mates in 3), `#-2`; null where the game is over.
    pub eval: Option<String>,
}

fn standing(variant: &str, pos: &ScoredPosition) -> Standing {
    let white = match pos.side {
        Color::White => pos.score,
        Color::Black => -pos.score,
    };
    Standing {
        white_cp: white.clamp(-CP_CAP, CP_CAP),
        white_chances: white_chances(variant, pos).into(),
        eval: eval_text(pos).map(|e| {
            if e.starts_with(['-', '#']) {
                e
            } else {
                format!("+{e}")
            }
        }),
    }
}

/// One move's review.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MoveReview {
    /// 1 for the game's first move.
    pub ply: usize,
    /// Its number as PGN writes it.
    pub move_number: u32,
    pub uci: String,
    pub san: String,
    pub mover: &'static str,
    /// The position after the move.
    #[serde(flatten)]
    pub after: Standing,
    /// Expected score (win + draw/2) the move gave away, 0 to 1.
    pub loss: f64,
    pub mark: Option<&'static str>,
    /// The move was the engine's first choice.
    pub best: bool,
    /// For a marked move, the engine's line instead, in the game's notation.
    pub better_line: Vec<String>,
}

/// One player's totals.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlayerTotals {
    pub moves: usize,
    /// Expected score lost per move, 0 to 1.
    pub average_loss: f64,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// Centipawns lost per move.
    pub acpl: f64,
}

impl From<&cannonade_core::review::PlayerSummary> for PlayerTotals {
    fn from(p: &cannonade_core::review::PlayerSummary) -> PlayerTotals {
        PlayerTotals {
            moves: p.moves,
            average_loss: p.average_loss_percent() / 100.0,
            inaccuracies: p.inaccuracies,
            mistakes: p.mistakes,
            blunders: p.blunders,
            acpl: p.average_cp_loss(),
        }
    }
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Totals {
    pub white: PlayerTotals,
    pub black: PlayerTotals,
}

/// The review.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ReviewJson {
    pub moves: Vec<MoveReview>,
    /// The position before the first move.
    pub start: Standing,
    pub totals: Totals,
    /// The totals in words, as `cannonade analyse` says them (`White: 3.1% (42 cp) ...`).
    pub summary: String,
    /// The annotated game, as `cannonade analyse` writes it.
    pub pgn: String,
}

fn refuse(message: String) -> RulesError {
    RulesError::Review(message)
}

/// Reviews the game `request` describes.
pub fn review(request: &ReviewRequest) -> Result<ReviewJson, RulesError> {
    let info = registry::find(&request.variant)
        .ok_or_else(|| RulesError::UnknownVariant(request.variant.clone()))?;
    let headers = Headers::from_json(&request.headers)?;
    if request.positions.len() != request.moves.len() + 1 {
        return Err(refuse(format!(
            "{} positions for {} moves: one before the first move and one after each",
            request.positions.len(),
            request.moves.len()
        )));
    }
    let mut session = info.new_session();
    session.set_position(request.start_fen.as_deref(), &[], Notation::Uci)?;
    let start_fen = request.start_fen.as_ref().map(|_| session.fen());
    let mut positions = Vec::with_capacity(request.positions.len());
    let mut texts = Vec::with_capacity(request.moves.len());
    for (i, given) in request.positions.iter().enumerate() {
        let last = i == request.moves.len();
        let outcome = session.outcome();
        // As `cannonade analyse`: the game's own end stands in its last position; before it
        // (a repetition nobody claimed) the search's score does, where there is one.
        let scored = match (
            outcome.filter(|_| last || given.score.is_none()),
            given.score,
        ) {
            (Some(o), _) => ScoredPosition::game_over(session.as_ref(), o),
            (None, None) => {
                return Err(refuse(format!(
                    "position {i} has no score, and the game is not over there"
                )))
            }
            (None, Some(s)) => {
                let score = s.internal().ok_or_else(|| {
                    refuse(format!(
                        "position {i}: a score is {{cp: N}} or {{mate: N}}, within the engine's range"
                    ))
                })?;
                if line_in_pgn(session.as_ref(), &given.pv).len() < given.pv.len() {
                    let bad = &given.pv[line_in_pgn(session.as_ref(), &given.pv).len()];
                    return Err(refuse(format!(
                        "position {i}: the line's move '{bad}' is not legal where it is played"
                    )));
                }
                ScoredPosition::searched(session.as_ref(), score, given.pv.clone())
            }
        };
        positions.push(scored);
        if let Some(mv) = request.moves.get(i) {
            texts.push(session.move_text(mv, Notation::Uci)?);
            session.play(mv, Notation::Uci)?;
        }
    }
    let result = match headers.result()? {
        Some(r) => r.to_string(),
        None => session.outcome().map_or_else(
            || "*".to_string(),
            |o| o.result_string(session.side_to_move()).to_string(),
        ),
    };
    let game = AnalysedGame {
        variant: session.variant(),
        moves: texts,
        positions,
    };
    let verdicts = judge(&game);
    let summary = Summary::of(&verdicts);
    let tags = pgn::tags(info, start_fen.as_deref(), &headers, &result);
    let text = annotate::annotated_game(
        &annotate::Output {
            tags: &tags,
            result: &result,
            variant_tag: None,
            limit: request
                .limit
                .as_deref()
                .unwrap_or("searched in the browser"),
        },
        &game,
        &verdicts,
        &summary,
    );
    let moves = game
        .moves
        .iter()
        .zip(&verdicts)
        .enumerate()
        .map(|(i, (mv, v))| {
            let before = &game.positions[i];
            MoveReview {
                ply: i + 1,
                move_number: cannonade_core::engine::wdl::move_number_of(&before.fen),
                uci: mv.uci.clone(),
                san: mv.pgn.clone(),
                mover: color_name(v.mover),
                after: standing(game.variant, &game.positions[i + 1]),
                loss: v.loss,
                mark: v.mark.map(|m| m.glyph()),
                best: v.best,
                better_line: v.better_line.clone(),
            }
        })
        .collect();
    Ok(ReviewJson {
        moves,
        start: standing(game.variant, &game.positions[0]),
        totals: Totals {
            white: (&summary.white).into(),
            black: (&summary.black).into(),
        },
        summary: summary.sentence(),
        pgn: text,
    })
}

/// [`review`] of the page's JSON text.
pub fn review_json(text: &str) -> Result<ReviewJson, RulesError> {
    let request: ReviewRequest = serde_json::from_str(text).map_err(|e| refuse(format!("{e}")))?;
    review(&request)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cannonade_core::search::MATE;
    use serde_json::json;

    fn ask(v: serde_json::Value) -> Result<ReviewJson, RulesError> {
        review_json(&v.to_string())
    }

    /// Fool's mate: White's second move hands over the game (a blunder with the better line),
    /// Black's mate is the engine's own move, and the game's end stands in the last position.
    #[test]
    fn a_blunder_is_marked_with_the_better_line_and_the_mate_ends_it() {
        let r = ask(json!({
            "variant": "chess",
            "moves": ["f2f3", "e7e5", "g2g4", "d8h4"],
            "positions": [
                {"score": {"cp": 30}, "pv": ["e2e4", "e7e5"]},
                {"score": {"cp": -20}, "pv": ["e7e5", "e2e4"]},
                {"score": {"cp": -50}, "pv": ["e2e4"]},
                {"score": {"mate": 1}, "pv": ["d8h4"]},
                {"score": null, "pv": []}
            ],
            "headers": {"White": "You", "Black": "Cannonade"},
            "limit": "depth 8"
        }))
        .unwrap();
        assert_eq!(r.moves.len(), 4);
        let g4 = &r.moves[2];
        assert_eq!(
            (g4.ply, g4.move_number, g4.san.as_str(), g4.mover),
            (3, 2, "g4", "white")
        );
        assert_eq!(g4.mark, Some("??"));
        assert_eq!(g4.better_line, ["e4"]);
        assert_eq!(g4.after.eval.as_deref(), Some("#-1"));
        assert_eq!(g4.after.white_cp, -CP_CAP);
        let qh4 = &r.moves[3];
        assert!(qh4.best && qh4.mark.is_none() && qh4.loss == 0.0);
        assert_eq!(qh4.san, "Qh4#");
        assert_eq!(qh4.after.eval, None, "the game is over");
        assert_eq!(qh4.after.white_cp, -CP_CAP);
        assert_eq!(r.moves[0].after.eval.as_deref(), Some("+0.20"));
        assert_eq!(r.moves[1].after.eval.as_deref(), Some("-0.50"));
        assert_eq!(r.start.eval.as_deref(), Some("+0.30"));
        assert_eq!(r.totals.white.blunders, 1);
        assert_eq!(r.totals.black.blunders, 0);
        assert_eq!(r.totals.white.moves, 2);
        assert!(r.summary.starts_with("White: "));
        assert!(r.pgn.contains("[Result \"0-1\"]"), "{}", r.pgn);
        assert!(
            r.pgn.contains("[Annotator \"cannonade analyse, depth 8\"]"),
            "{}",
            r.pgn
        );
        assert!(r.pgn.replace('\n', " ").contains("2. g4??"), "{}", r.pgn);
        // The annotated game reads back as the same moves.
        let back = crate::pgn::read(&r.pgn, None).unwrap();
        assert_eq!(back[0].moves, ["f2f3", "e7e5", "g2g4", "d8h4"]);
    }

    /// The judging is the core's: the same verdicts as `judge` on the same positions.
    #[test]
    fn the_marks_are_the_core_s_judging() {
        let r = ask(json!({
            "variant": "cannonshogi",
            "startFen": null,
            "moves": ["c3c4", "c7c6"],
            "positions": [
                {"score": {"cp": 0}, "pv": ["g3g4"]},
                {"score": {"cp": 700}, "pv": ["c7c6"]},
                {"score": {"cp": -690}, "pv": []}
            ]
        }))
        .unwrap();
        let mut s = registry::find("cannonshogi").unwrap().new_session();
        let pos = |s: &dyn cannonade_core::engine::Session, score, pv: &[&str]| {
            ScoredPosition::searched(s, score, pv.iter().map(|m| m.to_string()).collect())
        };
        let mut positions = vec![pos(s.as_ref(), 0, &["g3g4"])];
        let mut moves = Vec::new();
        for (m, score, pv) in [("c3c4", 700, vec!["c7c6"]), ("c7c6", -690, vec![])] {
            moves.push(s.move_text(m, Notation::Uci).unwrap());
            s.play(m, Notation::Uci).unwrap();
            positions.push(pos(s.as_ref(), score, &pv));
        }
        let verdicts = judge(&AnalysedGame {
            variant: "cannonshogi",
            moves,
            positions,
        });
        for (ours, core) in r.moves.iter().zip(&verdicts) {
            assert_eq!(ours.loss, core.loss);
            assert_eq!(ours.mark, core.mark.map(|m| m.glyph()));
            assert_eq!(ours.best, core.best);
        }
        assert_eq!(r.moves[0].mark, Some("??"));
        let g4 = registry::find("cannonshogi")
            .unwrap()
            .new_session()
            .move_text("g3g4", Notation::Uci)
            .unwrap()
            .pgn;
        assert_eq!(r.moves[0].better_line, [g4]);
        assert!(r.pgn.contains("[Variant \"cannonshogi\"]"));
    }

    #[test]
    fn bad_requests_are_refused_with_their_reason() {
        let one = |score: serde_json::Value, pv: serde_json::Value| json!({"variant": "chess", "moves": [], "positions": [{"score": score, "pv": pv}]});
        let cases = [
            (
                json!({"variant": "nosuch", "moves": [], "positions": []}),
                "unknown variant 'nosuch' (see `cannonade variants`)".to_string(),
            ),
            (
                json!({"variant": "chess", "moves": ["e2e4"], "positions": [{"score": {"cp": 1}}]}),
                "review: 1 positions for 1 moves: one before the first move and one after each"
                    .to_string(),
            ),
            (
                json!({"variant": "chess", "moves": ["e2e5"], "positions": [{"score": {"cp": 1}}, {"score": {"cp": 1}}]}),
                "'e2e5' is not a legal move in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
                    .to_string(),
            ),
            (
                one(json!(null), json!([])),
                "review: position 0 has no score, and the game is not over there".to_string(),
            ),
            (
                one(json!({"cp": 1, "mate": 2}), json!([])),
                "review: position 0: a score is {cp: N} or {mate: N}, within the engine's range"
                    .to_string(),
            ),
            (
                one(json!({"mate": i32::MAX}), json!([])),
                "review: position 0: a score is {cp: N} or {mate: N}, within the engine's range"
                    .to_string(),
            ),
            (
                one(json!({"cp": MATE}), json!([])),
                "review: position 0: a score is {cp: N} or {mate: N}, within the engine's range"
                    .to_string(),
            ),
            (
                one(json!({"cp": 5}), json!(["e2e4", "e2e4"])),
                "review: position 0: the line's move 'e2e4' is not legal where it is played"
                    .to_string(),
            ),
            (
                json!({"variant": "chess", "startFen": "8/8 w", "moves": [], "positions": [{}]}),
                RulesError::from(
                    registry::find("chess")
                        .unwrap()
                        .new_session()
                        .set_position(Some("8/8 w"), &[], Notation::Uci)
                        .unwrap_err(),
                )
                .to_string(),
            ),
        ];
        for (request, message) in cases {
            assert_eq!(
                ask(request.clone()).unwrap_err().to_string(),
                message,
                "{request}"
            );
        }
        let e = review_json("{\"variant\": 3}").unwrap_err().to_string();
        assert!(e.starts_with("review: invalid type"), "{e}");
        assert!(review_json("not json").is_err());
        let e = ask(one(json!({"cp": "5"}), json!([])))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("review: "), "{e}");
    }
}
