//! One game pair of a tuning run, played by the match runner's referee (`match/game.rs`): the
//! "+" and the "-" engine, each a process of the engine with its own parameter values as
//! options, play the same opening once with each colour.

use crate::match_runner::args::{
    DrawAdjudication, EngineSpec, Proto, ResignAdjudication, TimeControl,
};
use crate::match_runner::game::{play_game, GameResult, GameSetup, Termination};
use crate::match_runner::process::EngineProcess;
use crate::openings::Opening;
use cannonade_core::engine::registry::VariantInfo;
use std::path::PathBuf;
use std::time::Duration;

/// The adjudication of the project's SPRT runs (docs/strength.md): a resignation at 1000 cp
/// that both engines agree on for 4 moves, a draw at |score| <= 10 for 8 moves after move 40,
/// and a draw at move 300. It spares the engines the won and dead endings, which tell SPSA
/// nothing about the margins.
const RESIGN: ResignAdjudication = ResignAdjudication {
    movecount: 4,
    score: 1000,
    twosided: true,
};
const DRAW: DrawAdjudication = DrawAdjudication {
    movenumber: 40,
    movecount: 8,
    score: 10,
};
const MAX_MOVES: u32 = 300;
/// How long an engine with no clock (a node limit) may think before it counts as silent.
const STALL: Duration = Duration::from_secs(60);

/// How long each engine thinks.
#[derive(Clone, Debug, PartialEq)]
pub enum Limit {
    Nodes(u64),
    Clock(TimeControl),
}

/// What is the same for every pair of a run.
pub struct PairSetup {
    pub variant: &'static VariantInfo,
    pub engine: PathBuf,
    pub limit: Limit,
    pub hash_mb: usize,
    /// Options both engines get (`--option`), before the tuned ones.
    pub options: Vec<(String, String)>,
    /// Names of the tuned parameters, in the order of the values given to [`play_pair`].
    pub names: Vec<String>,
}

impl PairSetup {
    fn spec(&self, name: &str, values: &[i64]) -> EngineSpec {
        let mut options = vec![
            ("Hash".to_string(), self.hash_mb.to_string()),
            ("Threads".to_string(), "1".to_string()),
        ];
        options.extend(self.options.iter().cloned());
        options.extend(
            self.names
                .iter()
                .zip(values)
                .map(|(n, v)| (n.clone(), v.to_string())),
        );
        let (tc, nodes) = match &self.limit {
            Limit::Nodes(n) => (None, Some(*n)),
            Limit::Clock(tc) => (Some(*tc), None),
        };
        EngineSpec {
            name: Some(name.to_string()),
            cmd: vec![self.engine.display().to_string()],
            dir: None,
            proto: Proto::Uci,
            options,
            tc,
            st: None,
            depth: None,
            nodes,
            timemargin: None,
        }
    }
}

/// Plays `opening` twice, "+" with `plus` as White first, then with colours reversed; the "+"
/// engine's points minus the "-" engine's (-2..=2). An engine that cannot start, or a game
/// that had to be abandoned, is an error: its result says nothing about the parameters.
pub fn play_pair(
    setup: &PairSetup,
    opening: &Opening,
    plus: &[i64],
    minus: &[i64],
) -> Result<f64, String> {
    let specs = [setup.spec("plus", plus), setup.spec("minus", minus)];
    let start = |i: usize| {
        EngineProcess::start(&specs[i], false).map_err(|e| format!("engine could not start: {e}"))
    };
    let mut engines = [start(0)?, start(1)?];
    let mut total = 0.0;
    let mut failure = None;
    for plus_white in [true, false] {
        let (w, b) = if plus_white { (0, 1) } else { (1, 0) };
        let game = GameSetup {
            variant: setup.variant,
            rules: &[],
            start_fen: opening.fen.clone(),
            opening: &opening.moves,
            players: [w, b],
            specs: [&specs[w], &specs[b]],
            draw: Some(DRAW),
            resign: Some(RESIGN),
            maxmoves: MAX_MOVES,
            stall: STALL,
        };
        let [e0, e1] = &mut engines;
        let pair = if plus_white { [e0, e1] } else { [e1, e0] };
        let record = play_game(&game, pair);
        if record.termination == Termination::Abandoned || !record.broken.is_empty() {
            failure = Some(format!("a game went wrong: {}", record.reason));
            break;
        }
        let white_points = match record.result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => -1.0,
            GameResult::Draw => 0.0,
        };
        total += if plus_white {
            white_points
        } else {
            -white_points
        };
    }
    for e in engines {
        e.quit();
    }
    match failure {
        Some(f) => Err(f),
        None => Ok(total),
    }
}
