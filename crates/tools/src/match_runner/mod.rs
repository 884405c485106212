//! `cannonade match`: engine-against-engine games refereed with the games' own rules, for
//! every variant of the registry, with engines speaking UCI or XBoard.
//!
//! - [`args`]: cutechess-cli style command line.
//! - [`engine`]: engine processes and the two protocol drivers.
//! - [`game`]: one refereed game (clocks, adjudication, every ending).
//! - [`stats`]: Elo, LOS, SPRT from trinomial or pentanomial counts.
//! - [`pgn`]: PGN output and opening files.
//! - [`tournament`]: schedule, worker threads, running output.

pub mod args;
pub mod game;
pub mod pgn;
pub mod process;
pub mod stats;
pub mod tournament;

pub use args::ArgsError;
pub use tournament::{run_match, MatchError, MatchSummary, SprtDecision};

/// Runs `cannonade match` with the words that followed the subcommand.
pub fn run(words: &[String]) -> Result<(), String> {
    if words.is_empty() || words.iter().any(|w| w == "-help" || w == "--help") {
        println!("{}", USAGE);
        return Ok(());
    }
    let settings = args::parse(words).map_err(|e| e.to_string())?;
    run_match(&settings).map(|_| ()).map_err(|e| e.to_string())
}

pub const USAGE: &str = "\
usage: cannonade match -engine cmd=PROGRAM [name=N] [proto=uci|xboard] [option.NAME=VALUE]
                             [tc=[MOVES/]SECONDS[+INC]] [st=S] [depth=N] [nodes=N]
                             [timemargin=MS] [dir=D] [arg=A]
                       -engine ... [-engine ...] [-each KEY=VALUE ...]
       [-variant NAME] [-games N] [-rounds N] [-repeat] [-concurrency N]
       [-tc TC] [-tolerance MS] [-maxmoves N] [-seed N] [-event NAME]
       [-openings file=F [format=epd|pgn] [order=random|sequential] [plies=N] [start=N]]
       [-openings random plies=N]
       [-pgnout FILE] [-sprt elo0=A elo1=B alpha=X beta=Y [prior=COUNTS]]
       [-draw movenumber=N movecount=M score=CP] [-resign movecount=M score=CP [twosided=true]]
       [-tournament round-robin|gauntlet] [-stall SECONDS] [-debug] [-quiet]
See docs/match.md.";
