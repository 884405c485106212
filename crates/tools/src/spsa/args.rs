//! The command line of `cannonade spsa`, and the settings a run is identified by.

use super::math::Tuned;
use super::runner::Limit;
use super::SpsaError;
use crate::match_runner::args::TimeControl;
use cannonade_core::engine::options::split_name_value;
use cannonade_core::search::params::{self, PARAMS};
use std::path::PathBuf;

/// The options of `cannonade spsa` (see docs/search.md, "Tuning the search").
#[derive(clap::Args, Clone, Debug)]
pub struct SpsaArgs {
    /// Variant the games are played in (see `cannonade variants`).
    #[arg(long, required_unless_present = "list")]
    pub variant: Option<String>,
    /// The search parameters tuned, by name, comma separated (default: all; `--list` names
    /// them).
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub params: Vec<String>,
    /// Game pairs in all (each pair: one opening, both colours).
    #[arg(long, default_value_t = 2000)]
    pub iterations: u64,
    /// Nodes per move (the default limit when neither --nodes nor --tc is given: 20000).
    #[arg(long, conflicts_with = "tc")]
    pub nodes: Option<u64>,
    /// Clock per game, `[MOVES/]SECONDS[+INCREMENT]` as `cannonade match` takes it.
    #[arg(long)]
    pub tc: Option<String>,
    /// Openings (EPD or FEN lines), played in order, each by both colours (default: the start
    /// position).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Game pairs played at once (one core each).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Transposition table of each engine, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Where the run's state is kept (default: spsa-VARIANT.state); the trajectory (.csv) and
    /// the plot (.svg) go beside it. Running the same command again resumes the run.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Seed of the perturbations' directions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The engine played (default: this program).
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// SPSA's final perturbation, for every tuned parameter (default: each one's own).
    #[arg(long = "c-end")]
    pub c_end: Option<f64>,
    /// SPSA's final learning rate, for every tuned parameter (default: 0.002, fishtest's).
    #[arg(long = "r-end")]
    pub r_end: Option<f64>,
    /// An engine option both engines get, NAME=VALUE; may be repeated.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// List the search's parameters (name, default, range, c_end) and stop.
    #[arg(long)]
    pub list: bool,
}

/// The default node limit: a game pair in about a second per core at today's speeds.
pub const DEFAULT_NODES: u64 = 20_000;

impl SpsaArgs {
    /// The tuned parameters: those named, in the table's order, with the overrides applied.
    pub fn tuned(&self) -> Result<Vec<Tuned>, SpsaError> {
        // By default every parameter the games can tell apart: at fixed nodes, not those that
        // act only on a clock.
        let clock = self.tc.is_some();
        let mut chosen: Vec<bool> = PARAMS
            .iter()
            .map(|p| self.params.is_empty() && (clock || !p.clock_only()))
            .collect();
        for name in &self.params {
            let i = params::index_of(name.trim())
                .ok_or_else(|| SpsaError::UnknownParam(name.clone()))?;
            if PARAMS[i].clock_only() && !clock {
                return Err(SpsaError::Invalid(format!(
                    "{} acts only on a clock: tune it with --tc",
                    PARAMS[i].name
                )));
            }
            chosen[i] = true;
        }
        for (what, v) in [("--c-end", self.c_end), ("--r-end", self.r_end)] {
            if v.is_some_and(|v| !(v.is_finite() && v > 0.0)) {
                return Err(SpsaError::Invalid(format!("{what} must be above 0")));
            }
        }
        Ok(PARAMS
            .iter()
            .zip(chosen)
            .filter(|(_, c)| *c)
            .map(|(p, _)| Tuned {
                name: p.name.to_string(),
                min: f64::from(p.min),
                max: f64::from(p.max),
                c_end: self.c_end.unwrap_or(p.c_end),
                r_end: self.r_end.unwrap_or(p.r_end),
            })
            .collect())
    }

    pub fn limit(&self) -> Result<Limit, SpsaError> {
        match (&self.tc, self.nodes) {
            (Some(tc), _) => TimeControl::parse(tc)
                .map(Limit::Clock)
                .map_err(|e| SpsaError::Invalid(e.to_string())),
            (None, Some(0)) => Err(SpsaError::Invalid("--nodes must be at least 1".into())),
            (None, n) => Ok(Limit::Nodes(n.unwrap_or(DEFAULT_NODES))),
        }
    }

    /// `--option`s as (name, value).
    pub fn engine_options(&self) -> Result<Vec<(String, String)>, SpsaError> {
        self.options
            .iter()
            .map(|o| {
                split_name_value(o)
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .map_err(|e| SpsaError::Invalid(e.to_string()))
            })
            .collect()
    }

    /// What identifies the run: a resume must agree on all of these. The concurrency, the
    /// engine's path and the state file's may change between sessions.
    pub fn settings(&self, variant: &str, tuned: &[Tuned]) -> Vec<(String, String)> {
        let limit = match (&self.tc, self.nodes) {
            (Some(tc), _) => format!("tc {tc}"),
            (None, n) => format!("nodes {}", n.unwrap_or(DEFAULT_NODES)),
        };
        let names: Vec<&str> = tuned.iter().map(|t| t.name.as_str()).collect();
        let c_ends: Vec<String> = tuned.iter().map(|t| t.c_end.to_string()).collect();
        let r_ends: Vec<String> = tuned.iter().map(|t| t.r_end.to_string()).collect();
        [
            ("variant", variant.to_string()),
            ("params", names.join(",")),
            ("iterations", self.iterations.to_string()),
            ("limit", limit),
            (
                "openings",
                self.openings
                    .as_ref()
                    .map_or("startpos".into(), |p| p.display().to_string()),
            ),
            ("hash", self.hash.to_string()),
            ("seed", self.seed.to_string()),
            ("c_end", c_ends.join(",")),
            ("r_end", r_ends.join(",")),
            ("options", self.options.join(" ")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }
}

/// The parameter table as `--list` prints it (and docs/search.md shows it).
pub fn list() -> String {
    let mut out = format!(
        "{:<20} {:>7} {:>7} {:>7} {:>7}  {}\n",
        "name", "default", "min", "max", "c_end", "what"
    );
    for p in PARAMS {
        out += &format!(
            "{:<20} {:>7} {:>7} {:>7} {:>7}  {}\n",
            p.name, p.default, p.min, p.max, p.c_end, p.help
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        spsa: SpsaArgs,
    }

    fn args(extra: &[&str]) -> SpsaArgs {
        let line = ["spsa", "--variant", "chess"].iter().chain(extra);
        Cli::parse_from(line).spsa
    }

    fn names(a: &SpsaArgs) -> Vec<String> {
        a.tuned().unwrap().into_iter().map(|t| t.name).collect()
    }

    #[test]
    fn clock_only_parameters_are_tuned_only_on_a_clock() {
        let clock_only: Vec<&str> = PARAMS
            .iter()
            .filter(|p| p.clock_only())
            .map(|p| p.name)
            .collect();
        assert!(clock_only.contains(&"TimeShare"), "{clock_only:?}");
        // At fixed nodes the default set leaves them out, and naming one is refused.
        let at_nodes = names(&args(&[]));
        assert_eq!(at_nodes.len(), PARAMS.len() - clock_only.len());
        assert!(at_nodes.iter().all(|n| !clock_only.contains(&n.as_str())));
        assert!(at_nodes.contains(&"RfpMargin".to_string()));
        let refused = args(&["--params", "RfpMargin,TimeShare"]).tuned();
        assert!(
            matches!(&refused, Err(SpsaError::Invalid(m)) if m.contains("TimeShare")),
            "{refused:?}"
        );
        // On a clock every parameter is tuned by default, and each may be named.
        assert_eq!(names(&args(&["--tc", "5+0.05"])).len(), PARAMS.len());
        assert_eq!(
            names(&args(&["--tc", "5+0.05", "--params", "TimeShare"])),
            ["TimeShare"]
        );
    }
}
