//! Writes the test games of `tests/program/analyse.rs` (tests/data/analyse/VARIANT.pgn): for a variant,
//! two short games of steady play (a depth-3 search each move) in which one side throws the
//! game on purpose at one move, playing the legal move after which the opponent's depth-5
//! search scores best, and the game goes on a few moves so the blunder is punished. The throw
//! comes at the careless side's first move from its fourth on where that move loses at least
//! `MIN_LOSS` by the depth-5 searches, and its ply is written in the tag `ThrownPly`.
//!
//! `cargo run --release --example blunder_games -- VARIANT > FILE`

use cannonade_core::engine::registry;
use cannonade_core::engine::{EngineState, Session};
use cannonade_core::games::Notation;
use cannonade_core::search::{Limits, Score, SearchControl, SearchOptions, TranspositionTable};

const DEPTH: u32 = 3;
/// The depth of the searches that judge the thrown move: the depth `tests/program/analyse.rs` analyses
/// at, so the throw is a loss by the analysis's own measure.
const THROW_DEPTH: u32 = 5;
/// Plies after the blunder, so the punishment is in the game.
const AFTER: usize = 4;
/// The least loss (centipawns, depth-5 searches) a thrown move must have. The worst move of a
/// fixed ply need not lose much: Cannon Shogi's old throw at White's fourth move lost two pawns,
/// which the game's flat win-chance model calls an inaccuracy. So the careless side waits for a
/// move that loses this much.
const MIN_LOSS: i64 = 400;
/// The last ply a throw may wait for; past it the worst move is thrown whatever it loses.
const LAST_THROW: usize = 40;

/// A depth-`depth` search of `s`: its best move and its score as a number to compare (mates
/// beyond every centipawn score).
fn search(
    s: &dyn Session,
    opts: &SearchOptions,
    tt: &std::sync::Arc<TranspositionTable>,
    depth: u32,
) -> (Option<String>, i64) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    tt.clear();
    let epoch = std::time::Instant::now();
    let host = std::sync::Arc::new(cannonade_core::host::SingleThread::new(move || {
        epoch.elapsed()
    }));
    let ctl = std::sync::Arc::new(SearchControl::new(host, false));
    let r = s.search(&limits, opts, tt, &ctl, Notation::Uci, &mut |_| {});
    let score = match r.score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    };
    (r.best, score)
}

/// The legal move that leaves the opponent best off, with the opponent's score after it.
fn worst_move(
    s: &dyn Session,
    opts: &SearchOptions,
    tt: &std::sync::Arc<TranspositionTable>,
) -> Option<(String, i64)> {
    s.legal_moves(Notation::Uci)
        .into_iter()
        .map(|m| {
            let mut after = s.clone_session();
            after.play(&m, Notation::Uci).expect("legal");
            let opponent = if after.outcome().is_some() {
                // A move that ends the game at once is no blunder worth a test.
                i64::MIN
            } else {
                search(after.as_ref(), opts, tt, THROW_DEPTH).1
            };
            (opponent, m)
        })
        .max_by_key(|(score, _)| *score)
        .map(|(score, m)| (m, score))
}

/// One game's PGN: the careless side throws at ply `first` (counted from 0) or at its first
/// later move that loses at least `MIN_LOSS`.
fn game(info: &'static registry::VariantInfo, first: usize, round: usize) -> String {
    let tt = std::sync::Arc::new(TranspositionTable::new(16));
    // The engine's own options for the game (its net among them), as `cannonade analyse`
    // searches with: the throw must be a blunder by the analysis's judgement.
    let state = EngineState::for_tool(info, &[]).expect("the game's engine");
    let opts = state.options().clone();
    let mut s = info.new_session();
    let mut tokens = Vec::new();
    let mut thrown = None;
    let mut ply = 0;
    while thrown.is_none_or(|t| ply <= t + AFTER) && s.outcome().is_none() {
        let careless = ply >= first && (ply - first).is_multiple_of(2) && thrown.is_none();
        let mut mv = search(s.as_ref(), &opts, &tt, DEPTH).0;
        if careless {
            let best = search(s.as_ref(), &opts, &tt, THROW_DEPTH).1;
            if let Some((worst, opponent)) = worst_move(s.as_ref(), &opts, &tt) {
                // The loss: what the best move keeps less what the worst leaves (the
                // opponent's score is from its side).
                if best.saturating_add(opponent) >= MIN_LOSS || ply + 2 > LAST_THROW {
                    mv = Some(worst);
                    thrown = Some(ply);
                }
            }
        }
        let Some(mv) = mv else { break };
        if ply.is_multiple_of(2) {
            tokens.push(format!("{}.", ply / 2 + 1));
        }
        tokens.push(s.move_text(&mv, Notation::Uci).expect("legal").pgn);
        s.play(&mv, Notation::Uci).expect("legal");
        ply += 1;
    }
    let (white, black) = if first.is_multiple_of(2) {
        ("Careless", "Steady")
    } else {
        ("Steady", "Careless")
    };
    let thrown = thrown.expect("the careless side threw a move");
    let mut out = format!(
        "[Event \"analyse test\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
         [Black \"{black}\"]\n[Result \"*\"]\n[ThrownPly \"{thrown}\"]\n"
    );
    if !info.standard {
        out += &format!("[Variant \"{}\"]\n", info.game.name);
    }
    out + &format!("\n{} *\n\n", tokens.join(" "))
}

fn main() {
    let variant = std::env::args().nth(1).unwrap_or_else(|| "chess".into());
    let info = registry::find(&variant).expect("a variant of `cannonade variants`");
    // White blunders at its fourth move, Black at its fourth.
    print!("{}", game(info, 6, 1));
    print!("{}", game(info, 7, 2));
}
