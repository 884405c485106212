//! The `cannonade` command: the protocol loop by default, and tools as subcommands.

use cannonade_core::engine::registry::{self, VARIANTS};
use cannonade_core::engine::EngineState;
use cannonade_core::games::Notation;
use cannonade_tools::datagen::{self, DatagenSpec, SearchLimit, Shard};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "cannonade",
    version,
    about = "A UCI/XBoard engine for the cannon family of chess variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree, split by root move (Stockfish's format).
    Perft {
        /// Variant name (see `cannonade variants`).
        #[arg(long, default_value = registry::DEFAULT_VARIANT)]
        variant: String,
        #[arg(long)]
        depth: u32,
        /// Start from this FEN instead of the variant's start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, space separated, in UCI notation.
        #[arg(long, default_value = "")]
        moves: String,
        /// An engine option or rule switch, NAME=VALUE (as `uci` lists them), or a search
        /// parameter (as `cannonade spsa --list` lists them); may be repeated.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Threads to split the root moves over.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// List the variants this build knows: engine name, board size, XBoard name, the game's
    /// real name, and its start position.
    Variants,
    /// Batch answers for differential tests: reads lines `FEN|startpos [moves m1 m2 ...]` on
    /// stdin, writes `FEN<TAB>sorted legal moves<TAB>result` for each.
    Legal {
        #[arg(long)]
        variant: String,
    },
    /// Search fixed positions of every variant to a fixed depth (1 thread, fresh hash) and
    /// print the node count (a signature of the search) and the speed.
    Bench {
        #[arg(long, default_value_t = cannonade_core::engine::bench::DEFAULT_DEPTH)]
        depth: u32,
    },
    /// Write balanced opening positions (EPD, one FEN per line) for matches: random play for
    /// `--plies` plies, kept when a `--depth` search scores within `--max-score` centipawns.
    Openings {
        #[arg(long, default_value = registry::DEFAULT_VARIANT)]
        variant: String,
        #[arg(long, default_value_t = 100)]
        count: usize,
        #[arg(long, default_value_t = 8)]
        plies: usize,
        #[arg(long, default_value_t = 7)]
        depth: u32,
        #[arg(long = "max-score", default_value_t = 60)]
        max_score: i32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// An engine option or rule switch, NAME=VALUE (as `uci` lists them), or a search
        /// parameter (as `cannonade spsa --list` lists them); may be repeated.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Self-play training data for a learned evaluation (see docs/datagen.md): positions with
    /// their search score and the game's result, in a binary file. Running the same command
    /// again on the same file resumes it.
    Datagen {
        #[arg(long)]
        variant: String,
        /// Positions the file should hold (whole games are written, so a few more).
        #[arg(long)]
        positions: u64,
        #[arg(long)]
        out: PathBuf,
        /// Games played at once, one search thread each (the data does not depend on it).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Nodes searched per move [default: 5000].
        #[arg(long, conflicts_with = "depth")]
        nodes: Option<u64>,
        /// Depth searched per move, instead of a node count.
        #[arg(long)]
        depth: Option<u32>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// This machine's part of the job, I/N (I counted from 1): games with index
        /// I-1 modulo N.
        #[arg(long, default_value = "1/1")]
        shard: Shard,
        /// An engine option, NAME=VALUE (Hash, EvalMaterialOnly, a rule switch); may be
        /// repeated.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Train an NNUE for a variant from scored positions (see docs/nnue.md).
    Train(cannonade_tools::train::TrainArgs),
    /// Annotate finished games (see docs/analyse.md): every position searched, each move
    /// marked by the win chances it gave away (?!, ?, ??), better lines, the players' totals,
    /// and a graph of each game (SVG).
    #[command(alias = "analyze")]
    Analyse(cannonade_tools::analyse::AnalyseArgs),
    /// Run test suites of positions (EPD with `bm`, `am`, `dm`; see docs/epd.md) at a fixed
    /// depth, node count or time: the misses, then the solved count of each file.
    Epd(cannonade_tools::epd::EpdArgs),
    /// Fit the chess-family evaluation's weights to scored positions (see docs/evaluation.md).
    Tune(cannonade_tools::tune::TuneArgs),
    /// Fit a game's win-chance model (WDL) to the results of its self-play data and draw the
    /// fit (see docs/wdl.md).
    Wdl(cannonade_tools::wdl::WdlArgs),
    /// Tune the search's margins and reductions by SPSA in self-play (see docs/search.md):
    /// resumable, with the trajectories plotted; `--list` names the parameters.
    Spsa(cannonade_tools::spsa::SpsaArgs),
    /// Play engines against each other (cutechess-cli style options; see docs/match.md).
    #[command(disable_help_flag = true)]
    Match {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

/// The engine for one game with the command line's `--option NAME=VALUE`s, set through the
/// engine's option table as the protocols set them.
fn engine_for(variant: &str, options: &[String]) -> Result<EngineState, String> {
    let info = registry::find(variant)
        .ok_or_else(|| format!("unknown variant '{variant}' (see `cannonade variants`)"))?;
    EngineState::for_tool(info, options).map_err(|e| e.to_string())
}

fn run_perft(
    variant: &str,
    depth: u32,
    fen: Option<&str>,
    moves: &str,
    options: &[String],
    threads: usize,
) -> Result<(), String> {
    let mut state = engine_for(variant, options)?;
    let session = state.session_mut();
    let moves: Vec<&str> = moves.split_whitespace().collect();
    session
        .set_position(fen, &moves, Notation::Uci)
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let split = session.perft_divide(depth, threads.max(1), Notation::Uci);
    let elapsed = start.elapsed();
    let total = split.total;
    for (m, n) in &split.moves {
        println!("{m}: {n}");
    }
    println!();
    println!("Nodes searched: {total}");
    let ms = elapsed.as_millis();
    eprintln!(
        "time {ms} ms, {} nodes/second",
        (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64
    );
    Ok(())
}

fn run_bench(depth: u32) -> Result<(), String> {
    let r = cannonade_core::engine::bench::run(depth, |line| eprintln!("{line}"))
        .map_err(|e| e.to_string())?;
    println!("Nodes searched: {}", r.nodes);
    println!("Nodes/second: {}", r.nps());
    Ok(())
}

fn run_openings(
    variant: &str,
    count: usize,
    plies: usize,
    depth: u32,
    max_score_cp: i32,
    seed: u64,
    options: &[String],
) -> Result<(), String> {
    let state = engine_for(variant, options)?;
    let spec = cannonade_tools::openings::OpeningSpec {
        count,
        plies,
        depth,
        max_score_cp,
        seed,
    };
    // Positions are printed as they are found, so a long run shows its progress.
    cannonade_tools::openings::generate(state.session(), &spec, |fen| println!("{fen}"))
        .map_err(|e| e.to_string())?;
    Ok(())
}

fn run_datagen(spec: &DatagenSpec, out: &std::path::Path) -> Result<(), String> {
    let s = datagen::run(spec, out)?;
    let e = s.endings;
    println!(
        "{} positions in {} ({} written now, {} games, {:.0} positions/s); games ended by \
         the rules {}, adjudicated won {}, adjudicated drawn {}, at the ply cap {}",
        s.positions,
        out.display(),
        s.written(),
        s.games,
        s.positions_per_second(),
        e.rules,
        e.win_adjudicated,
        e.draw_adjudicated,
        e.ply_cap
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft {
            variant,
            depth,
            fen,
            moves,
            options,
            threads,
        }) => run_perft(&variant, depth, fen.as_deref(), &moves, &options, threads),
        Some(Command::Variants) => {
            // Two lines per game: "NAME (FILESxRANKS, XBoard: XBNAME): Full name" (the form
            // scripts/xboard_smoke.sh reads), then its start position.
            for v in VARIANTS {
                println!(
                    "{} ({}x{}, XBoard: {}): {}",
                    v.game.name, v.game.files, v.game.ranks, v.xboard_name, v.full_name
                );
                println!("    start: {}", v.game.start_fen);
            }
            Ok(())
        }
        Some(Command::Legal { variant }) => match registry::find(&variant) {
            None => Err(format!("unknown variant '{variant}'")),
            Some(info) => {
                cannonade_tools::legal::run(info, std::io::stdin().lock(), std::io::stdout().lock())
                    .map_err(|e| e.to_string())
            }
        },
        Some(Command::Bench { depth }) => run_bench(depth),
        Some(Command::Openings {
            variant,
            count,
            plies,
            depth,
            max_score,
            seed,
            options,
        }) => run_openings(&variant, count, plies, depth, max_score, seed, &options),
        Some(Command::Datagen {
            variant,
            positions,
            out,
            threads,
            nodes,
            depth,
            seed,
            shard,
            options,
        }) => {
            let spec = DatagenSpec {
                variant,
                positions,
                threads,
                limit: match depth {
                    Some(d) => SearchLimit::Depth(d),
                    None => SearchLimit::Nodes(nodes.unwrap_or(datagen::DEFAULT_NODES)),
                },
                seed,
                shard,
                options,
                progress: true,
            };
            run_datagen(&spec, &out)
        }
        Some(Command::Train(args)) => cannonade_tools::train::run(&args),
        Some(Command::Analyse(args)) => {
            cannonade_tools::analyse::run(&args).map_err(|e| e.to_string())
        }
        Some(Command::Epd(args)) => cannonade_tools::epd::run(&args)
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Some(Command::Tune(args)) => cannonade_tools::tune::run(&args),
        Some(Command::Wdl(args)) => cannonade_tools::wdl::run(&args),
        Some(Command::Spsa(args)) => cannonade_tools::spsa::run(&args),
        Some(Command::Match { args }) => cannonade_tools::match_runner::run(&args),
        None => {
            cannonade_native::stdio::run(std::sync::Arc::new(
                cannonade_native::simple_host::SimpleHost::new(),
            ));
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
