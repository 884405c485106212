//! Writes the test games of `tests/analyse.rs` (tests/data/analyse/VARIANT.pgn): for a variant,
//! two short games of steady play (a depth-3 search each move) in which one side throws the
//! game on purpose at one move, playing the legal move after which the opponent's depth-3
//! search scores best, and the game goes on a few moves so the blunder is punished.
//!
//! `cargo run --release --example blunder_games -- VARIANT > FILE`

use cannonade::engine::registry;
use cannonade::engine::Session;
use cannonade::games::Notation;
use cannonade::search::{Limits, Score, SearchControl, SearchOptions, TranspositionTable};

const DEPTH: u32 = 3;
/// Plies after the blunder, so the punishment is in the game.
const AFTER: usize = 4;

/// A depth-`DEPTH` search of `s`: its best move and its score as a number to compare (mates
/// beyond every centipawn score).
fn search(s: &dyn Session, tt: &TranspositionTable) -> (Option<String>, i64) {
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    tt.clear();
    let ctl = SearchControl::new(false);
    let r = s.search(
        &limits,
        &SearchOptions::default(),
        tt,
        &ctl,
        Notation::Uci,
        &mut |_| {},
    );
    let score = match r.score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    };
    (r.best, score)
}

/// The legal move that leaves the opponent best off.
fn worst_move(s: &dyn Session, tt: &TranspositionTable) -> Option<String> {
    s.legal_moves(Notation::Uci)
        .into_iter()
        .map(|m| {
            let mut after = s.clone_session();
            after.play(&m, Notation::Uci).expect("legal");
            let opponent = if after.outcome().is_some() {
                // A move that ends the game at once is no blunder worth a test.
                i64::MIN
            } else {
                search(after.as_ref(), tt).1
            };
            (opponent, m)
        })
        .max_by_key(|(score, _)| *score)
        .map(|(_, m)| m)
}

/// One game's PGN, the blunder at ply `blunder` (counted from 0).
fn game(info: &'static registry::VariantInfo, blunder: usize, round: usize) -> String {
    let tt = TranspositionTable::new(16);
    let mut s = info.new_session();
    let mut tokens = Vec::new();
    for ply in 0..=blunder + AFTER {
        if s.outcome().is_some() {
            break;
        }
        let mv = if ply == blunder {
            worst_move(s.as_ref(), &tt)
        } else {
            search(s.as_ref(), &tt).0
        };
        let Some(mv) = mv else { break };
        if ply.is_multiple_of(2) {
            tokens.push(format!("{}.", ply / 2 + 1));
        }
        tokens.push(s.move_text(&mv, Notation::Uci).expect("legal").pgn);
        s.play(&mv, Notation::Uci).expect("legal");
    }
    let (white, black) = if blunder.is_multiple_of(2) {
        ("Careless", "Steady")
    } else {
        ("Steady", "Careless")
    };
    let mut out = format!(
        "[Event \"analyse test\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
         [Black \"{black}\"]\n[Result \"*\"]\n"
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
