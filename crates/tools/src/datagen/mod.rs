//! `cannonade datagen`: training data for a learned evaluation, made by self-play.
//!
//! Games start from varied openings (random plies, kept when a shallow search finds the position
//! level, as `cannonade openings` does) and are played to their end by the game's own rules, or
//! adjudicated, with a fixed node count (or depth) per move. Every position whose side to move
//! is not in check and whose best move is quiet is kept with its search score and the game's
//! result. The file format, the rules above in numbers, resuming and sharding are described in
//! `docs/datagen.md`.
//!
//! A game depends only on the seed and its game index: each game thread plays with its own
//! table (emptied before every game, with the search's histories, which it keeps) and one search
//! thread, and games are written in index order, so the same command gives the same bytes with
//! any number of threads, and an interrupted file is resumed by playing on from the first game
//! it does not hold complete.

mod format;
mod play;
mod resume;
mod spec;

pub use format::{
    DataError, DataReader, GameResult, Header, Record, FLAG_GAME_END, MAGIC, MAX_FEN_BYTES,
    RECORD_FIXED_BYTES, SCORE_MATE, VERSION,
};
pub use play::{
    stored_score, DRAW_CP, DRAW_FROM_PLY, DRAW_PLIES, MAX_PLIES, MIN_PLY, OPENING_DEPTH,
    OPENING_MAX_CP, OPENING_PLIES, OPENING_TRIES, WIN_CP, WIN_PLIES,
};
pub use spec::{DatagenSpec, Endings, SearchLimit, Shard, Summary, DEFAULT_NODES};

use crate::progress::{hms, Progress};
use play::{Ending, GameOut, Player};
use resume::{open_output, Resumed};
use spec::settings_text;

use cannonade_core::engine::options::MAX_THREADS;
use cannonade_core::search::{Limits, TranspositionTable};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Plain progress lines (stderr not a terminal) come at most this often.
const PLAIN_LINE_EVERY: Duration = Duration::from_secs(10);

/// `1234 positions/s, ETA 00:05:03`: the rate of `written` positions in `elapsed`, and the
/// time the `left` ones will take at it.
fn rate_text(elapsed: Duration, written: u64, left: u64) -> String {
    let rate = written as f64 / elapsed.as_secs_f64().max(1e-9);
    let eta = left as f64 / rate;
    let eta = if eta.is_finite() {
        hms(eta.round() as u64)
    } else {
        "?".to_string()
    };
    format!("{rate:.0} positions/s, ETA {eta}")
}

/// Game numbers handed out and written: a game thread takes the next number, but stays at
/// most `window` games ahead of the writer, so that games finished early wait in memory only
/// for a few slower ones.
struct Schedule {
    next_claim: u64,
    next_write: u64,
}

/// Generates the data of `spec` into `out`, resuming it if it holds part of the same job.
pub fn run(spec: &DatagenSpec, out: &Path) -> Result<Summary, String> {
    let info = crate::variant(&spec.variant).map_err(|e| e.to_string())?;
    if spec.positions == 0 {
        return Err("--positions must be at least 1".into());
    }
    if !(1..=MAX_THREADS).contains(&spec.threads) {
        return Err(format!("--threads must be within 1..{MAX_THREADS}"));
    }
    let limits = match spec.limit {
        SearchLimit::Nodes(0) => return Err("--nodes must be at least 1".into()),
        SearchLimit::Depth(0) => return Err("--depth must be at least 1".into()),
        SearchLimit::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        SearchLimit::Depth(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
    };
    let settings = spec::settings(info, &spec.options)?;
    let header = Header {
        variant: info.game.name.to_string(),
        settings: settings_text(spec, &settings),
    };
    let shard = spec.shard;
    let Resumed {
        mut file,
        positions: resumed_from,
        next,
    } = open_output(out, &header, shard)?;
    let started = Instant::now();
    let mut summary = Summary {
        positions: resumed_from,
        resumed_from,
        games: 0,
        endings: Endings::default(),
        elapsed: Duration::ZERO,
    };
    if spec.progress {
        eprintln!(
            "datagen: {} into {}: {} positions wanted, {resumed_from} there, from game {}",
            info.game.name,
            out.display(),
            spec.positions,
            shard.first_game() + next * shard.count,
        );
    }
    if resumed_from >= spec.positions {
        return Ok(summary);
    }
    let mut progress = Progress::new(
        !spec.progress,
        spec.positions,
        "[{bar:30.cyan/blue}] {pos}/{len} positions, {msg}, {elapsed_precise}",
    )
    .with_plain_lines(PLAIN_LINE_EVERY);
    if let Some(bar) = progress.bar() {
        bar.set_position(resumed_from);
        bar.set_message("starting");
    }
    let writing_from = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let window = 4 * spec.threads as u64;
    let schedule = Mutex::new(Schedule {
        next_claim: next,
        next_write: next,
    });
    let turn = Condvar::new();
    let lock = || schedule.lock().unwrap_or_else(|e| e.into_inner());
    let result = std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(u64, Result<Option<GameOut>, String>)>();
        for _ in 0..spec.threads {
            let tx = tx.clone();
            let start = settings.start.clone_session();
            let (stop, schedule_ref, turn) = (&stop, &lock, &turn);
            let (opts, limits, hash_mb, seed) =
                (&settings.opts, &limits, settings.hash_mb, spec.seed);
            // The search's stack: each move's search runs on this thread.
            let spawned =
                cannonade_native::search_thread("datagen".into()).spawn_scoped(scope, move || {
                    let tt = match TranspositionTable::try_new(hash_mb) {
                        Ok(tt) => Arc::new(tt),
                        Err(e) => {
                            let _ = tx.send((u64::MAX, Err(e.to_string())));
                            return;
                        }
                    };
                    let player = Player {
                        start,
                        opts,
                        limits,
                        tt,
                        seed,
                        stop,
                    };
                    loop {
                        let k = {
                            let mut s = schedule_ref();
                            while !stop.load(Relaxed) && s.next_claim >= s.next_write + window {
                                s = turn.wait(s).unwrap_or_else(|e| e.into_inner());
                            }
                            if stop.load(Relaxed) {
                                return;
                            }
                            s.next_claim += 1;
                            s.next_claim - 1
                        };
                        let game = shard.first_game() + k * shard.count;
                        match player.play(game) {
                            Ok(None) => return,
                            r => {
                                let failed = r.is_err();
                                if tx.send((k, r)).is_err() || failed {
                                    return;
                                }
                            }
                        }
                    }
                });
            // A thread that could not start claims no game: the others play them (the file
            // is the same), and if none started the writer reports the threads ended early.
            drop(spawned);
        }
        drop(tx);
        let mut waiting: BTreeMap<u64, GameOut> = BTreeMap::new();
        let mut next_write = next;
        let outcome = 'write: loop {
            let Ok((k, game)) = rx.recv() else {
                break Err("the game threads ended early".to_string());
            };
            match game {
                Err(e) => break Err(e),
                Ok(Some(g)) => {
                    waiting.insert(k, g);
                }
                Ok(None) => {}
            }
            while let Some(g) = waiting.remove(&next_write) {
                // One write per game: an interrupt leaves at most the game being written cut
                // off, which the next run removes.
                if let Err(e) = file.write_all(&g.bytes) {
                    break 'write Err(format!("cannot write {}: {e}", out.display()));
                }
                summary.positions += g.positions;
                summary.games += 1;
                let e = &mut summary.endings;
                match g.ending {
                    Ending::Rules => e.rules += 1,
                    Ending::WinAdjudicated => e.win_adjudicated += 1,
                    Ending::DrawAdjudicated => e.draw_adjudicated += 1,
                    Ending::PlyCap => e.ply_cap += 1,
                }
                next_write += 1;
                lock().next_write = next_write;
                turn.notify_all();
                let have = summary.positions;
                let text = rate_text(
                    writing_from.elapsed(),
                    have - resumed_from,
                    spec.positions - have.min(spec.positions),
                );
                progress.update(have.min(spec.positions), Some(text.clone()), || {
                    format!("datagen: {have}/{} positions, {text}", spec.positions)
                });
                if summary.positions >= spec.positions {
                    break 'write Ok(());
                }
            }
        };
        stop.store(true, Relaxed);
        turn.notify_all();
        outcome
    });
    progress.finish();
    summary.elapsed = started.elapsed();
    result?;
    file.sync_all()
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use cannonade_core::engine::registry;
    #[test]
    fn the_rate_and_the_time_left() {
        let t = rate_text(Duration::from_secs(10), 1000, 6000);
        assert_eq!(t, "100 positions/s, ETA 00:01:00");
        assert_eq!(
            rate_text(Duration::from_secs(10), 0, 5),
            "0 positions/s, ETA ?"
        );
    }

    use super::play::is_kept;
    use super::spec::settings;
    use super::*;
    use cannonade_core::games::Notation;
    use cannonade_core::search::{Score, SearchControl};

    #[test]
    fn shards_are_counted_from_one() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/8", "9/8", "3", "a/b", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!(s.first_game(), 1);
        assert!(s.contains(4) && !s.contains(3) && !s.contains(5));
    }

    #[test]
    fn scores_are_clamped_and_mates_bounded() {
        assert_eq!(stored_score(Score::Cp(37)), 37);
        assert_eq!(stored_score(Score::Cp(-50_000)), -SCORE_MATE + 1);
        assert_eq!(stored_score(Score::Cp(50_000)), SCORE_MATE - 1);
        assert_eq!(stored_score(Score::Mate(3)), SCORE_MATE);
        assert_eq!(stored_score(Score::Mate(-1)), -SCORE_MATE);
    }

    #[test]
    fn options_go_through_the_engine_state_and_bad_ones_are_refused() {
        let cannon = registry::find("cannon").unwrap();
        let e = settings(cannon, &["Hash=2".into(), "evalmaterialonly=true".into()]).unwrap();
        assert_eq!(e.hash_mb, 2);
        assert!(e.opts.material_only);
        assert!(
            e.text.contains("hash 2 MB; eval material only"),
            "{}",
            e.text
        );
        let rule = cannon.game.rule_options[0];
        let set = format!("{}={}", rule.name.to_ascii_lowercase(), !rule.default);
        let e = settings(cannon, &[set]).unwrap();
        assert!(
            e.text.contains(&format!("{}={}", rule.name, !rule.default)),
            "{}",
            e.text
        );
        for (bad, says) in [
            ("Hash=0", "out of range 1..1048576"),
            ("Hash=lots", "not a whole number"),
            ("Threads=2", "--threads"),
            ("MultiPV=2", "no use"),
            ("NoSuchOption=1", "unknown option"),
            ("EvalMaterialOnly=maybe", "not true or false"),
            ("Use NNUE=perhaps", "not true or false"),
            ("EvalFile=/no/such/net.nnue", "EvalFile"),
            ("Hash", "not NAME=VALUE"),
        ] {
            let e = settings(cannon, &[bad.into()]).err().unwrap();
            assert!(e.contains(says), "{bad}: {e}");
        }
        // The evaluation that scores the data is named in the settings: the hand-written one
        // where the game has no net or Use NNUE is off.
        let bare = registry::find("cannonshogi").unwrap().without_net();
        let e = settings(bare, &[]).unwrap();
        assert!(e.opts.nnue.is_none());
        assert!(e.text.contains("eval hand-written;"), "{}", e.text);
        let e = settings(cannon, &["use nnue=false".into()]).unwrap();
        assert!(e.opts.nnue.is_none());
        assert!(e.text.contains("eval hand-written;"), "{}", e.text);
        // Chess has an embedded net, used by default and named; Use NNUE=false turns it off.
        let chess = registry::find("chess").unwrap();
        let e = settings(chess, &[]).unwrap();
        assert!(e.opts.nnue.is_some());
        assert!(e.text.contains("eval net embedded for chess"), "{}", e.text);
        let e = settings(chess, &["Use NNUE=false".into()]).unwrap();
        assert!(e.opts.nnue.is_none() && e.text.contains("eval hand-written;"));
        // A net of another game is refused (the engine would keep it for that game and go on
        // with this one's), naming the game it is for.
        let dir = std::env::temp_dir().join(format!("cannonade-dg-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let chess_net = dir.join("chess.nnue");
        std::fs::write(&chess_net, chess.net.unwrap()).unwrap();
        let swedish = registry::find("swedishcannon").unwrap();
        let e = settings(swedish, &[format!("EvalFile={}", chess_net.display())])
            .err()
            .unwrap();
        assert!(
            e.contains("is not a net of swedishcannon") && e.contains("for chess"),
            "{e}"
        );
        let e = settings(chess, &[format!("EvalFile={}", chess_net.display())]).unwrap();
        assert!(e.text.contains("chess.nnue for chess"), "{}", e.text);
        std::fs::remove_dir_all(&dir).unwrap();
        // A rule switch of another game is not one of this game's rules.
        let e = settings(chess, &[format!("{}=true", rule.name)])
            .err()
            .unwrap();
        assert!(e.contains("not a rule of chess"), "{e}");
    }

    #[test]
    fn kept_positions_are_late_enough_quiet_and_not_in_check() {
        let at = |variant: &str, fen: &str| {
            let mut s = registry::find(variant).unwrap().new_session();
            s.set_position(Some(fen), &[], Notation::Uci).unwrap();
            s
        };
        let open = at(
            "chess",
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        );
        assert!(is_kept(open.as_ref(), MIN_PLY, "g1f3").unwrap());
        assert!(!is_kept(open.as_ref(), MIN_PLY - 1, "g1f3").unwrap());
        assert!(!is_kept(open.as_ref(), MIN_PLY, "e4d5").unwrap());
        assert!(is_kept(open.as_ref(), MIN_PLY, "e4d3").is_err());
        let check = at("chess", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 40");
        assert!(!is_kept(check.as_ref(), MIN_PLY, "e1f1").unwrap());
        let promotion = at("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 40");
        assert!(!is_kept(promotion.as_ref(), MIN_PLY, "a7a8q").unwrap());
        // A shogi promotion that captures nothing is tactical too.
        let shogi = at("cannonshogi", "l3k3l/P7L/9/9/9/9/9/3U5/4K4[] w - - 0 30");
        assert!(!is_kept(shogi.as_ref(), MIN_PLY, "d2d7+").unwrap());
        assert!(is_kept(shogi.as_ref(), MIN_PLY, "d2d7").unwrap());
    }

    /// The search score and the move choice behind a kept position, side to move's view: an
    /// extra queen is good for its owner whichever side is to move.
    #[test]
    fn a_material_edge_scores_for_its_owner() {
        let chess = registry::find("chess").unwrap();
        let e = settings(chess, &[]).unwrap();
        let tt = Arc::new(TranspositionTable::new(1));
        let limits = Limits {
            nodes: Some(2000),
            ..Limits::default()
        };
        let score = |fen: &str| {
            let mut s = e.start.clone_session();
            s.set_position(Some(fen), &[], Notation::Uci).unwrap();
            tt.clear();
            let ctl = Arc::new(SearchControl::new(cannonade_native::host(), false));
            let r = s.search(&limits, &e.opts, &tt, &ctl, Notation::Uci, &mut |_| {});
            stored_score(r.score)
        };
        assert!(score("3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 b - - 0 1") > 500);
        assert!(score("3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1") < -500);
        assert!(score("4k3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1") > 500);
    }
}
