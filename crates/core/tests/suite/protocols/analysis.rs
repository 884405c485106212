//! Analysis output as a GUI reads it: after `stop` (UCI) or `exit` (XBoard) the last lines come
//! from one completed iteration, XBoard's `stat01` tells the iteration in progress, and XBoard
//! offers MultiPV. Searches are stopped after so many lines rather than after so long, so the
//! stops fall at different points of the iterations on any machine.

use super::support::{field, Engine};

fn pv_first(line: &str) -> &str {
    field(line, "pv").unwrap_or("")
}

fn is_info(l: &str) -> bool {
    l.starts_with("info depth")
}

#[test]
fn uci_lines_after_stop_come_from_the_last_completed_iteration() {
    let mut e = Engine::uci();
    e.send("setoption name MultiPV value 3");
    // Stops after more and more lines, so that some fall inside an iteration.
    for shown in [3, 8, 14, 21, 29, 38] {
        e.send("ucinewgame");
        e.send("position startpos moves e2e4 e7e5");
        e.send("go infinite");
        let mut lines = Vec::new();
        for _ in 0..shown {
            lines.extend(e.until(is_info));
        }
        e.send("stop");
        lines.extend(e.lines_now());
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| is_info(l) && !l.contains("bound "))
            .collect();
        let last_depth = field(infos.last().unwrap(), "depth").unwrap();
        let at_last: Vec<&String> = infos
            .iter()
            .copied()
            .filter(|l| field(l, "depth") == Some(last_depth))
            .collect();
        // Every line at the final depth: one move per line number, one line number per move.
        for a in &at_last {
            for b in &at_last {
                let same_line = field(a, "multipv") == field(b, "multipv");
                let same_move = pv_first(a) == pv_first(b);
                assert_eq!(same_line, same_move, "{shown} lines:\n{a}\n{b}\n{lines:#?}");
            }
        }
        // The final depth's lines come as one block, best first, with no line repeated after
        // it: line 1 is the last line 1 shown, and its move is played.
        let last = infos.last().unwrap();
        assert_eq!(field(last, "multipv"), Some("3"), "{lines:#?}");
        let line1 = at_last
            .iter()
            .rev()
            .find(|l| field(l, "multipv") == Some("1"))
            .unwrap_or_else(|| panic!("no line 1 at the last depth: {lines:#?}"));
        assert_eq!(pv_first(line1), best, "{lines:#?}");
        let score = |l: &str| -> i64 { field(l, "cp").map_or(0, |v| v.parse().unwrap()) };
        let block = &infos[infos.len() - 3..];
        for (k, l) in block.iter().enumerate() {
            assert_eq!(field(l, "depth"), Some(last_depth), "{lines:#?}");
            assert_eq!(
                field(l, "multipv"),
                Some(&*(k + 1).to_string()),
                "{lines:#?}"
            );
        }
        if block.iter().all(|l| field(l, "cp").is_some()) {
            assert!(
                score(block[0]) >= score(block[1]) && score(block[1]) >= score(block[2]),
                "{lines:#?}"
            );
        }
    }
}

/// XBoard thinking lines: depth and moves.
fn thinking(lines: &[String]) -> Vec<(u32, Vec<String>)> {
    lines
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let depth = w.first()?.parse::<u32>().ok()?;
            (w.len() >= 5 && w[1..4].iter().all(|x| x.parse::<i64>().is_ok()))
                .then(|| (depth, w.iter().skip(4).map(|s| s.to_string()).collect()))
        })
        .collect()
}

fn is_thinking(l: &str) -> bool {
    !thinking(&[l.to_string()]).is_empty()
}

#[test]
fn xboard_exit_shows_no_partial_line_and_stat01_tells_the_current_iteration() {
    let (mut e, features) = Engine::xboard_features();
    assert!(
        features
            .iter()
            .any(|l| l.contains("feature option=\"MultiPV -spin 1 1 256\"")),
        "{features:#?}"
    );
    let mut ahead = false;
    for rounds in [3, 5, 7, 9, 11] {
        e.send("new");
        e.send("force");
        e.send("e2e4");
        e.send("post");
        e.send("analyze");
        // stat01 after each line shown: the depth it names is the iteration being searched,
        // at least that of the last line shown, and deeper (at least once: an iteration may
        // not have started yet).
        let mut lines = Vec::new();
        for _ in 0..rounds {
            lines.extend(e.until(is_thinking));
            e.send(".");
        }
        e.send("exit");
        lines.extend(e.sync());
        let mut shown_depth = 0;
        for l in &lines {
            if let Some(stat) = l.strip_prefix("stat01: ") {
                let depth: u32 = stat.split_whitespace().nth(2).unwrap().parse().unwrap();
                assert!(depth >= shown_depth, "{lines:#?}");
                ahead |= depth > shown_depth && shown_depth > 0;
            } else if let Some((d, _)) = thinking(std::slice::from_ref(l)).first() {
                shown_depth = *d;
            }
        }
        // With one line per iteration, no depth is shown twice (a finished depth paired with
        // a partial score and line would be).
        let t = thinking(&lines);
        for (i, a) in t.iter().enumerate() {
            assert!(
                t[i + 1..].iter().all(|b| b.0 != a.0),
                "depth {} twice:\n{lines:#?}",
                a.0
            );
        }
        assert!(t.len() >= rounds, "{lines:#?}");
    }
    assert!(ahead, "stat01 never named the iteration in progress");
}

#[test]
fn xboard_multipv_shows_several_distinct_lines() {
    let mut e = Engine::xboard();
    e.send("option MultiPV=3");
    e.send("new");
    e.send("force");
    e.send("post");
    e.send("analyze");
    let mut lines = e.until(|l| thinking(&[l.to_string()]).first().is_some_and(|t| t.0 >= 5));
    e.send("exit");
    lines.extend(e.sync());
    let t = thinking(&lines);
    let deepest = t.iter().map(|x| x.0).max().unwrap();
    for d in 1..=deepest {
        let firsts: Vec<&String> = t.iter().filter(|x| x.0 == d).map(|x| &x.1[0]).collect();
        assert_eq!(firsts.len(), 3, "depth {d}: {lines:#?}");
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "{lines:#?}"
        );
    }
    let out = e.run(&["option MultiPV=0"]);
    assert!(out[0].starts_with("Error"), "{out:#?}");
}
