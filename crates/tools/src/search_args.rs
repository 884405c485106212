//! The search options of the tools that search positions one by one (`analyse`, `epd`): one
//! limit per position (depth, nodes or time), threads, hash and engine options, declared once
//! and flattened into each tool's arguments.

use cannonade_core::engine::options;
use cannonade_core::search::Limits;
use std::time::Duration;

/// How each position is searched. A tool flattens this into its arguments and names its own
/// default depth (the help of `--depth` is set by the tool, which knows it).
#[derive(clap::Args, Clone, Debug, Default)]
#[command(group(clap::ArgGroup::new("limit").args(["movetime", "depth", "nodes"])))]
pub struct SearchArgs {
    /// Milliseconds searched per position.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Depth searched per position.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Nodes searched per position.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table size in MB.
    #[arg(long, value_name = "MB")]
    pub hash: Option<usize>,
    /// An engine option or rule switch, NAME=VALUE (as `uci` lists them), or a search
    /// parameter (as `cannonade spsa --list` lists them); may be repeated.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

impl SearchArgs {
    /// The search limit (`default_depth` when none is given), and how a report names it.
    pub fn limits(&self, default_depth: u32) -> (Limits, String) {
        let mut l = Limits::default();
        let text = if let Some(ms) = self.movetime {
            l.move_time = Some(Duration::from_millis(ms));
            format!("{ms} ms per position")
        } else if let Some(n) = self.nodes {
            l.nodes = Some(n);
            format!("{n} nodes per position")
        } else {
            let d = self.depth.unwrap_or(default_depth);
            l.depth = Some(d);
            format!("depth {d}")
        };
        (l, text)
    }

    /// The engine settings for `EngineState::for_tool`: `--threads` and `--hash` first, so an
    /// explicit `--option` of the same name wins.
    pub fn engine_settings(&self) -> Vec<String> {
        let mut s = Vec::new();
        if let Some(t) = self.threads {
            s.push(format!("{}={t}", options::THREADS));
        }
        if let Some(h) = self.hash {
            s.push(format!("{}={h}", options::HASH));
        }
        s.extend(self.options.iter().cloned());
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_limit_with_the_tools_default_depth() {
        let a = SearchArgs::default();
        let (l, text) = a.limits(7);
        assert_eq!((l.depth, l.nodes, l.move_time), (Some(7), None, None));
        assert_eq!(text, "depth 7");
        let a = SearchArgs {
            nodes: Some(500),
            ..SearchArgs::default()
        };
        let (l, text) = a.limits(7);
        assert_eq!((l.depth, l.nodes), (None, Some(500)));
        assert_eq!(text, "500 nodes per position");
    }

    #[test]
    fn explicit_options_come_after_threads_and_hash() {
        let a = SearchArgs {
            threads: Some(2),
            hash: Some(8),
            options: vec![format!("{}=4", options::THREADS)],
            ..SearchArgs::default()
        };
        let s = a.engine_settings();
        assert_eq!(s.len(), 3);
        assert_eq!(s.last(), Some(&format!("{}=4", options::THREADS)));
        assert!(s[0].starts_with(options::THREADS) && s[1].starts_with(options::HASH));
    }
}
