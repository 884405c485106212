//! What a datagen run is asked to do (the command line's settings) and what it did.

use super::play::{
    DRAW_CP, DRAW_FROM_PLY, DRAW_PLIES, MAX_PLIES, MIN_PLY, OPENING_DEPTH, OPENING_MAX_CP,
    OPENING_PLIES, WIN_CP, WIN_PLIES,
};
use cannonade_core::engine::options::{
    self, CLEAR_HASH, EVAL_FILE, MOVE_OVERHEAD, MULTI_PV, PONDER, THREADS, UCI_VARIANT,
};
use cannonade_core::engine::registry::VariantInfo;
use cannonade_core::engine::state::EngineState;
use cannonade_core::engine::Session;
use cannonade_core::games::Notation;
use cannonade_core::search::SearchOptions;
use std::str::FromStr;
use std::time::Duration;

/// Nodes searched per move when neither `--nodes` nor `--depth` is given.
pub const DEFAULT_NODES: u64 = 5000;

/// How long each move is searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    Nodes(u64),
    Depth(u32),
}

/// One of `count` disjoint parts of a job: game `g` belongs to shard `index` (counted from 1)
/// when `g % count == index - 1`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole job.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// The first game index of this shard.
    pub fn first_game(self) -> u64 {
        self.index - 1
    }

    pub fn contains(self, game: u64) -> bool {
        game % self.count == self.index - 1
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `1 <= I <= N`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("shard '{s}' is not I/N with 1 <= I <= N (e.g. 3/8)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct DatagenSpec {
    pub variant: String,
    /// Positions the file should hold when done (whole games are written, so it may hold a
    /// few more).
    pub positions: u64,
    /// Games played at once, one search thread each.
    pub threads: usize,
    pub limit: SearchLimit,
    pub seed: u64,
    pub shard: Shard,
    /// Engine options, `NAME=VALUE` (`Hash`, `EvalMaterialOnly`, the variant's rule switches).
    pub options: Vec<String>,
    /// Show progress on stderr.
    pub progress: bool,
}

impl DatagenSpec {
    /// The defaults of the command line, for `positions` positions of `variant`.
    pub fn new(variant: &str, positions: u64) -> Self {
        DatagenSpec {
            variant: variant.to_string(),
            positions,
            threads: 1,
            limit: SearchLimit::Nodes(DEFAULT_NODES),
            seed: 1,
            shard: Shard::ALL,
            options: Vec::new(),
            progress: false,
        }
    }
}

/// How the games of a run ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Endings {
    /// By the game's own rules (mate, repetition, move-count rules, a town taken...).
    pub rules: u64,
    /// Adjudicated as won on score.
    pub win_adjudicated: u64,
    /// Adjudicated as drawn on score.
    pub draw_adjudicated: u64,
    /// Drawn at the ply cap.
    pub ply_cap: u64,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Positions in the file at the end.
    pub positions: u64,
    /// Positions in the file before this run (those of complete games kept on resuming).
    pub resumed_from: u64,
    /// Games written by this run (games without a kept position included).
    pub games: u64,
    pub endings: Endings,
    pub elapsed: Duration,
}

impl Summary {
    /// Positions written by this run.
    pub fn written(&self) -> u64 {
        self.positions - self.resumed_from
    }

    pub fn positions_per_second(&self) -> f64 {
        self.written() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// How datagen plays, made from its `--option`s: the start position with the rule switches,
/// the search options, the table size, and the canonical text of all of them for the header.
pub(super) struct Settings {
    pub(super) start: Box<dyn Session>,
    pub(super) opts: SearchOptions,
    pub(super) hash_mb: usize,
    pub(super) text: String,
}

/// Options the engine has that mean nothing in datagen, and what to use instead: refused
/// rather than ignored.
const NOT_IN_DATAGEN: &[(&str, &str)] = &[
    (
        THREADS,
        "datagen searches with one thread per game; use --threads for games at once",
    ),
    (UCI_VARIANT, "use --variant"),
    (MULTI_PV, "has no use in datagen"),
    (PONDER, "has no use in datagen"),
    (MOVE_OVERHEAD, "has no use in datagen"),
    (CLEAR_HASH, "has no use in datagen"),
];

/// Sets `NAME=VALUE` options through the option table the protocols use, with the same
/// checks (`EngineState::for_tool`): `Hash` (MB per game thread), `EvalMaterialOnly`,
/// `Use NNUE`, `EvalFile` and the variant's rule switches. Options that have no meaning here
/// (`Threads`: one search thread per game; `MultiPV`, `Ponder`, ...) are refused, as is a rule
/// switch of another variant.
pub(super) fn settings(
    info: &'static VariantInfo,
    settings: &[String],
) -> Result<Settings, String> {
    for arg in settings {
        let (name, _) = options::split_name_value(arg).map_err(|e| e.to_string())?;
        if let Some((n, why)) = NOT_IN_DATAGEN
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            return Err(format!("option {n}: {why}"));
        }
    }
    let state = EngineState::for_tool(info, settings).map_err(|e| e.to_string())?;
    for arg in settings {
        let (name, value) = options::split_name_value(arg).map_err(|e| e.to_string())?;
        // The engine keeps a net of another game for later; datagen plays one game.
        if name.eq_ignore_ascii_case(EVAL_FILE) && !value.is_empty() && !state.uses_net_from(value)
        {
            return Err(format!(
                "{EVAL_FILE} {value} is not a net of {}: it is a net for {}",
                state.variant().game.name,
                state.game_of_net_from(value).unwrap_or("another game")
            ));
        }
    }
    let rules = state.rule_values();
    let mut start = state.session().clone_session();
    start
        .set_position(None, &[], Notation::Uci)
        .map_err(|e| e.to_string())?;
    let opts = SearchOptions {
        threads: 1,
        multipv: 1,
        ..state.options().clone()
    };
    let rules_text = if rules.is_empty() {
        "none".to_string()
    } else {
        let list: Vec<String> = rules.iter().map(|(n, v)| format!("{n}={v}")).collect();
        list.join(",")
    };
    // Which evaluation scored the data: the net is named by its description (the embedded
    // one, or the file given with EvalFile).
    let eval = if opts.material_only {
        "material only".to_string()
    } else if opts.nnue.is_some() {
        state.net_description()
    } else {
        "hand-written".to_string()
    };
    let text = format!(
        "hash {} MB; eval {eval}; rules {rules_text}",
        state.hash_mb()
    );
    Ok(Settings {
        start,
        opts,
        hash_mb: state.hash_mb(),
        text,
    })
}

/// The header's settings text: everything the data depends on, so that a resumed run can
/// check it continues the same job.
pub(super) fn settings_text(spec: &DatagenSpec, settings: &Settings) -> String {
    let limit = match spec.limit {
        SearchLimit::Nodes(n) => format!("nodes {n}"),
        SearchLimit::Depth(d) => format!("depth {d}"),
    };
    format!(
        "cannonade {} datagen; {limit} per move; seed {}; shard {}/{}; {}; openings {}-{} \
         random plies, depth {OPENING_DEPTH} within {OPENING_MAX_CP} cp; kept from ply \
         {MIN_PLY}, not in check, best move quiet; adjudication: win at {WIN_CP} cp for \
         {WIN_PLIES} plies, draw within {DRAW_CP} cp for {DRAW_PLIES} plies from ply \
         {DRAW_FROM_PLY}, draw at ply {MAX_PLIES}",
        env!("CARGO_PKG_VERSION"),
        spec.seed,
        spec.shard.index,
        spec.shard.count,
        settings.text,
        OPENING_PLIES.0,
        OPENING_PLIES.1,
    )
}
