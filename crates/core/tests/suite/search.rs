//! Search properties through the library API: the move returned heads a legal line, scores are
//! from the side to move's view, and limits are honoured.

use cannonade_core::games::chess::{Chess, ChessMoves};
use cannonade_core::games::{Game, Move, Notation};
use cannonade_core::search::{
    self, Limits, PvInfo, Report, Score, SearchControl, SearchOptions, TranspositionTable,
};
use proptest::prelude::*;
use std::sync::Arc;

use crate::hosts;

fn start() -> Chess {
    cannonade_core::engine::registry::new_game::<Chess>("chess").unwrap()
}

fn legal(pos: &Chess) -> ChessMoves {
    let mut l = ChessMoves::new();
    pos.legal_moves(&mut l);
    l
}

/// Plays `choices` as indices into the legal move lists, stopping when the game ends.
fn random_position(choices: &[usize]) -> Chess {
    let mut pos = start();
    for &c in choices {
        if pos.outcome().is_some() {
            break;
        }
        let moves = legal(&pos);
        pos.make_move(moves[c % moves.len()]);
    }
    pos
}

fn run(
    pos: &Chess,
    limits: Limits,
    threads: usize,
) -> (search::SearchResult<Move>, Vec<PvInfo<Move>>) {
    let tt = Arc::new(TranspositionTable::new(1));
    let ctl = Arc::new(SearchControl::new(hosts::threads(), false));
    let opts = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    let mut infos = Vec::new();
    let mut done = None;
    let r = search::search(pos, &limits, &opts, &tt, &ctl, &mut |rep| match rep {
        Report::Info(i) => infos.push(i),
        Report::Done(d) => done = Some(d),
    });
    assert_eq!(
        done.as_ref(),
        Some(&r),
        "the result is reported before returning"
    );
    (r, infos)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn search_plays_the_line_it_reports(
        choices in proptest::collection::vec(0usize..1000, 0..120),
        nodes in 200u64..3000,
    ) {
        let pos = random_position(&choices);
        let limits = Limits { nodes: Some(nodes), ..Limits::default() };
        let (r, infos) = run(&pos, limits, 1);
        prop_assert!(!infos.is_empty(), "at least one info line");
        match pos.outcome() {
            Some(_) => {
                prop_assert!(r.best.is_none());
                prop_assert_eq!(infos[0].depth, 0);
            }
            None => {
                // "Mated now" is only for finished games, on any info line.
                for i in &infos {
                    prop_assert!(i.score != Score::Mate(0), "mate 0 in {}: {:?}", pos.to_fen(), i);
                }
                check_line(&pos, &r, &infos)?;
            }
        }
    }
}

/// What a GUI is shown agrees with what is played: the last reported line is a legal line
/// that starts with the best move, and the ponder move is its second move.
fn check_line(
    pos: &Chess,
    r: &search::SearchResult<Move>,
    infos: &[PvInfo<Move>],
) -> Result<(), TestCaseError> {
    let best = r.best.expect("a move");
    let pv = &infos.last().expect("an info line").pv;
    prop_assert_eq!(pv.first(), Some(&best), "in {}", pos.to_fen());
    prop_assert_eq!(pv.get(1), r.ponder.as_ref(), "in {}", pos.to_fen());
    let mut p = pos.clone();
    for &m in pv {
        prop_assert!(legal(&p).contains(&m), "PV move illegal in {}", p.to_fen());
        p.make_move(m);
    }
    Ok(())
}

/// Positions with one clear answer get it with helper threads too (a helper's deeper result
/// may replace the main thread's, so this is where a wrong adoption would show).
#[test]
fn two_threads_find_what_one_thread_finds() {
    for (fen, depth, best) in [
        ("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", 4, "e4d5"),
        ("6k1/6p1/8/7Q/8/8/qq6/7K w - - 0 1", 8, "h5e8"),
    ] {
        let pos = start().with_fen(fen).unwrap();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let (one, _) = run(&pos, limits.clone(), 1);
        let (two, infos) = run(&pos, limits, 2);
        assert_eq!(pos.move_to_string(two.best.unwrap(), Notation::Uci), best);
        assert_eq!(one.best, two.best, "{fen}");
        check_line(&pos, &two, &infos).unwrap();
    }
}

#[test]
fn a_won_queen_shows_from_the_side_to_move() {
    // White to move takes a hanging queen: positive for white...
    let pos = start()
        .with_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1")
        .unwrap();
    let (r, _) = run(
        &pos,
        Limits {
            depth: Some(4),
            ..Limits::default()
        },
        1,
    );
    assert_eq!(pos.move_to_string(r.best.unwrap(), Notation::Uci), "e4d5");
    // A pawn up after the capture, instead of a queen down.
    assert!(matches!(r.score, Score::Cp(s) if s > 50), "{:?}", r.score);
    // ...and negative for black to move a queen down.
    let pos = start().with_fen("4k3/8/8/8/3Q4/8/8/4K3 b - - 0 1").unwrap();
    let (r, _) = run(
        &pos,
        Limits {
            depth: Some(4),
            ..Limits::default()
        },
        1,
    );
    assert!(matches!(r.score, Score::Cp(s) if s < -500), "{:?}", r.score);
}

#[test]
fn perpetual_check_is_found_and_scored_as_a_draw() {
    // White is two queens down but checks forever: Qe8+ Kh7 Qh5+ Kg8 (checked with
    // Fairy-Stockfish: 0.00).
    let pos = start()
        .with_fen("6k1/6p1/8/7Q/8/8/qq6/7K w - - 0 1")
        .unwrap();
    let (r, _) = run(
        &pos,
        Limits {
            depth: Some(8),
            ..Limits::default()
        },
        1,
    );
    assert_eq!(r.score, Score::Cp(0));
    assert_eq!(pos.move_to_string(r.best.unwrap(), Notation::Uci), "h5e8");
}

#[test]
fn bench_signature_is_stable_across_runs() {
    let a = cannonade_core::engine::bench::run(&hosts::threads(), 4, |_| {}).unwrap();
    let b = cannonade_core::engine::bench::run(&hosts::single_thread(), 4, |_| {}).unwrap();
    assert_eq!(a.nodes, b.nodes);
}

/// A pass (null move, search only) is a wall for repetitions: the half-move clock counts on
/// through it, but the position before the pass is not one the game could have repeated.
/// Black's king walks a triangle while White's goes out and back, so after the pass and five
/// moves the board and side to move are those before the pass.
#[test]
fn repetition_walk_stops_at_a_null_move() {
    let fen = "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    let before = start().with_fen(fen).unwrap();
    let play = |pos: &mut Chess, moves: &[&str]| {
        for s in moves {
            let m = pos.parse_move(s, Notation::Uci).unwrap();
            pos.make_move(m);
        }
    };
    // Control: the same position reached by moves alone is a repetition.
    let mut plain = before.clone();
    play(&mut plain, &["e1e2", "e8e7", "e2e1", "e7e8"]);
    assert!(plain.is_repetition_within(100));

    let mut passed = before.clone();
    passed.make_null_move();
    play(&mut passed, &["e8e7", "e1e2", "e7d8", "e2e1", "d8e8"]);
    assert_eq!(passed.key(), before.key(), "same board, same side to move");
    assert!(!passed.is_repetition_within(100));
    assert_eq!(passed.repetition_outcome(100), None);
    assert_eq!(passed.rule_outcome(), None);
}

/// Every game's `moved_kind` stays below `PIECE_KINDS` (the history tables are sized by it).
#[test]
fn moved_kinds_fit_the_history_tables() {
    use cannonade_core::engine::registry::{GameVisitor, VariantInfo, VARIANTS};
    use cannonade_core::games::PIECE_KINDS;

    struct Check;
    impl GameVisitor for Check {
        type Output = ();
        fn visit<G: Game>(self, info: &'static VariantInfo) {
            check::<G>(info)
        }
    }
    fn check<G: Game>(info: &'static VariantInfo) {
        let variant = info.game.name;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _game in 0..20 {
            let mut pos = info.new_game::<G>().unwrap();
            for _ply in 0..80 {
                if pos.outcome().is_some() {
                    break;
                }
                let mut moves = G::Moves::default();
                pos.legal_moves(&mut moves);
                for &m in moves.iter() {
                    assert!(pos.moved_kind(m) < PIECE_KINDS, "{variant}: {m:?}");
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                pos.make_move(moves[(seed >> 33) as usize % moves.len()]);
            }
        }
    }
    for info in VARIANTS {
        info.visit(Check);
    }
}

#[test]
fn a_settled_mate_reports_the_depth_that_settled_it() {
    // Mate in one (Qb8#). Deeper iterations can only repeat it: the search stops deepening
    // soon after (twice the mate's plies, plus two), instead of reporting depth 127.
    let pos = start()
        .with_fen("6k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1")
        .unwrap();
    let (r, infos) = run(
        &pos,
        Limits {
            move_time: Some(std::time::Duration::from_millis(500)),
            ..Limits::default()
        },
        1,
    );
    assert_eq!(r.score, Score::Mate(1));
    assert!(r.depth <= 6, "depth {}", r.depth);
    assert!(infos.iter().all(|i| i.depth <= 6));
    // A depth limit is still searched to the end (bench signatures depend on it).
    let (r, _) = run(
        &pos,
        Limits {
            depth: Some(12),
            ..Limits::default()
        },
        1,
    );
    assert_eq!((r.score, r.depth), (Score::Mate(1), 12));
}

/// A score as a number that orders like the scores themselves (mates beyond every centipawn
/// score, shorter wins and longer losses better).
fn rank(s: Score) -> i64 {
    const FAR: i64 = 1 << 40;
    match s {
        Score::Cp(v) => i64::from(v),
        Score::Mate(n) if n > 0 => FAR - i64::from(n),
        Score::Mate(n) => -FAR - i64::from(n),
    }
}

/// Positions of every registered game: the start and a few reached by random legal moves.
fn positions_of_every_game(per_game: usize) -> Vec<Box<dyn cannonade_core::engine::Session>> {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut out = Vec::new();
    for v in cannonade_core::engine::VARIANTS {
        for i in 0..per_game {
            let mut s = v.new_session();
            let plies = if i == 0 { 0 } else { 2 + next(14) };
            for _ in 0..plies {
                let moves = s.legal_moves(Notation::Uci);
                if moves.is_empty() || s.outcome().is_some() {
                    break;
                }
                s.play(&moves[next(moves.len())], Notation::Uci).unwrap();
            }
            out.push(s);
        }
    }
    out
}

/// Searches `s` with `lines` MultiPV lines and returns the result and every info line, checking
/// that the result comes last.
fn analyse(
    s: &dyn cannonade_core::engine::Session,
    limits: &Limits,
    lines: usize,
) -> (search::SearchResult<String>, Vec<PvInfo<String>>) {
    let tt = Arc::new(TranspositionTable::new(1));
    let ctl = Arc::new(SearchControl::new(hosts::single_thread(), false));
    let opts = SearchOptions {
        multipv: lines,
        ..SearchOptions::default()
    };
    let mut infos = Vec::new();
    let mut done = None;
    let r = s.search(limits, &opts, &tt, &ctl, Notation::Uci, &mut |rep| {
        assert!(done.is_none(), "a report after the result");
        match rep {
            Report::Info(i) => infos.push(i),
            Report::Done(d) => done = Some(d),
        }
    });
    assert_eq!(done.as_ref(), Some(&r), "the result is reported");
    (r, infos)
}

/// What every search's reports keep: no line is reported twice in a row, and the last line 1
/// reported is the move played, exact.
fn check_reports(fen: &str, r: &search::SearchResult<String>, infos: &[PvInfo<String>]) {
    for w in infos.windows(2) {
        assert!(!w[0].same_line(&w[1]), "{fen}: reported twice: {:?}", w[1]);
    }
    let last1 = infos
        .iter()
        .rev()
        .find(|i| i.multipv == 1)
        .expect("a line 1");
    assert_eq!(last1.bound, None, "{fen}: {last1:?}");
    assert_eq!(last1.pv.first(), r.best.as_ref(), "{fen}: {infos:#?}");
    assert_eq!(last1.score, r.score, "{fen}");
    assert_eq!(last1.depth, r.depth, "{fen}");
}

/// MultiPV analysis that can be trusted, in every game: each finished depth reports its lines
/// once, as one block, best first by exact score, with distinct moves, and line 1 of the last
/// depth is the move played. Nothing is reported twice in a row.
#[test]
fn multipv_lines_come_best_first_and_once_in_every_game() {
    for s in positions_of_every_game(5) {
        let fen = s.fen();
        if s.outcome().is_some() {
            continue;
        }
        let lines = s.legal_moves(Notation::Uci).len().min(3);
        let depth = 4;
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let (r, infos) = analyse(&*s, &limits, 3);
        check_reports(&fen, &r, &infos);
        let exact: Vec<&PvInfo<String>> = infos.iter().filter(|i| i.bound.is_none()).collect();
        assert_eq!(exact.len(), depth as usize * lines, "{fen}: {infos:#?}");
        for (d, block) in exact.chunks(lines).enumerate() {
            for (k, i) in block.iter().enumerate() {
                assert_eq!(i.depth, d as u32 + 1, "{fen}: {infos:#?}");
                assert_eq!(i.multipv, k as u32 + 1, "{fen}: {infos:#?}");
            }
            for pair in block.windows(2) {
                assert!(
                    rank(pair[0].score) >= rank(pair[1].score),
                    "{fen}: depth {}: line {} scores below line {}: {block:#?}",
                    d + 1,
                    pair[0].multipv,
                    pair[1].multipv
                );
                assert_ne!(pair[0].pv.first(), pair[1].pv.first(), "{fen}");
            }
        }
        assert_eq!(exact.last().unwrap().depth, r.depth);
    }
}

/// Searches stopped anywhere (by a node limit), with one line or three: the last lines
/// reported are those of the result, exact, best first, and never a repeat of the line just
/// before.
#[test]
fn stopped_searches_end_with_the_lines_of_the_result() {
    for (n, s) in positions_of_every_game(3).into_iter().enumerate() {
        let fen = s.fen();
        if s.outcome().is_some() {
            continue;
        }
        for lines in [1, 3] {
            let nodes = [30, 700, 5000][n % 3];
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let (r, infos) = analyse(&*s, &limits, lines);
            check_reports(&fen, &r, &infos);
            // The last block: every line of the result's depth reported after the last line 1.
            let start = infos.iter().rposition(|i| i.multipv == 1).unwrap();
            let block = &infos[start..];
            for (k, i) in block.iter().enumerate() {
                assert_eq!(
                    (i.depth, i.multipv, i.bound),
                    (r.depth, k as u32 + 1, None),
                    "{fen}: {infos:#?}"
                );
            }
            for pair in block.windows(2) {
                assert!(
                    rank(pair[0].score) >= rank(pair[1].score),
                    "{fen}: {block:#?}"
                );
            }
        }
    }
}

/// A weakened search (`Skill`) in every game: its move is legal, the same seed repeats it, it
/// goes no deeper than its level, and over many positions the lowest level does not always
/// play the full engine's move (it chooses among its lines) while it never plays a move outside
/// them.
#[test]
fn a_weak_level_plays_legal_repeatable_moves_among_its_lines_in_every_game() {
    use cannonade_core::engine::VARIANTS;
    use cannonade_core::search::Skill;
    for info in VARIANTS {
        let name = info.game.name;
        let mut differs = 0;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for game in 0..12u64 {
            let mut s = info.new_session();
            for _ in 0..(4 + game % 6) {
                let moves = s.legal_moves(Notation::Uci);
                if moves.is_empty() || s.outcome().is_some() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = moves[(seed % moves.len() as u64) as usize].clone();
                s.play(&m, Notation::Uci).unwrap();
            }
            if s.outcome().is_some() {
                continue;
            }
            let search = |skill: Option<Skill>, multipv: usize, nodes: Option<u64>| {
                let opts = SearchOptions {
                    skill,
                    multipv,
                    ..SearchOptions::default()
                };
                let tt = Arc::new(TranspositionTable::new(1));
                let ctl = Arc::new(SearchControl::new(hosts::single_thread(), false));
                let limits = Limits {
                    depth: Some(6),
                    nodes,
                    ..Limits::default()
                };
                let mut infos = Vec::new();
                let r = s.search(&limits, &opts, &tt, &ctl, Notation::Uci, &mut |rep| {
                    if let Report::Info(i) = rep {
                        infos.push(i);
                    }
                });
                (r, infos)
            };
            let weak = Skill::new(0.0, 7 + game).unwrap();
            let (a, infos) = search(Some(weak), 1, None);
            let (b, _) = search(Some(weak), 1, None);
            let best = a.best.clone().expect("a move");
            assert!(
                s.legal_moves(Notation::Uci).contains(&best),
                "{name}: {best}"
            );
            assert_eq!(a.best, b.best, "{name}: the same seed, another move");
            // Level 0 searches its few nodes and shows only the lines asked for.
            assert!(infos.iter().all(|i| i.multipv == 1), "{name}");
            // Its budget: the level's nodes, but at least 24 a root move (to see them all).
            let budget = weak
                .nodes()
                .max(24 * s.legal_moves(Notation::Uci).len() as u64);
            assert!(
                a.nodes <= budget + 2048,
                "{name}: {} nodes at level 0",
                a.nodes
            );
            // Its move is one of the lines of the same search at full strength with four lines.
            let (_, full) = search(None, weak.lines(), Some(budget));
            let deepest = full.iter().map(|i| i.depth).max().unwrap_or(0);
            let top: Vec<&String> = full
                .iter()
                .filter(|i| i.depth == deepest)
                .filter_map(|i| i.pv.first())
                .collect();
            assert!(top.contains(&&best), "{name}: {best} not among {top:?}");
            if top.first() != Some(&&best) {
                differs += 1;
            }
        }
        assert!(differs > 0, "{name}: level 0 always played the best line");
    }
}
