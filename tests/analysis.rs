//! Analysis output as a GUI reads it, through the real binary: after `stop` (UCI) or `exit`
//! (XBoard) the last lines come from one completed iteration, XBoard's `stat01` tells the
//! iteration in progress, and XBoard offers MultiPV.

mod protocol_support;

use std::thread;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// The shared engine driver (tests/protocol_support), with every failure a test failure.
struct Engine(protocol_support::Engine);

impl Engine {
    fn start() -> Engine {
        Engine(protocol_support::Engine::start())
    }

    fn send(&mut self, cmd: &str) {
        self.0.send(cmd).expect("engine reads input");
    }

    /// Lines up to and including the first that satisfies `last`.
    fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        self.0.until(WAIT, last).expect("engine answers")
    }
}

/// The value after `key` in a UCI info line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut w = line.split_whitespace();
    w.find(|x| *x == key)?;
    w.next()
}

fn pv_first(line: &str) -> &str {
    field(line, "pv").unwrap_or("")
}

#[test]
fn uci_lines_after_stop_come_from_the_last_completed_iteration() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name MultiPV value 3");
    // Stops at several moments, so that some fall inside an iteration.
    for delay in [120, 260, 410, 570, 730, 900] {
        e.send("ucinewgame");
        e.send("position startpos moves e2e4 e7e5");
        e.send("go infinite");
        thread::sleep(Duration::from_millis(delay));
        e.send("stop");
        let lines = e.until(|l| l.starts_with("bestmove"));
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth") && !l.contains("bound "))
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
                assert_eq!(same_line, same_move, "{delay} ms:\n{a}\n{b}\n{lines:#?}");
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

/// XBoard thinking lines: depth, score, time, nodes, pv.
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

#[test]
fn xboard_exit_shows_no_partial_line_and_stat01_tells_the_current_iteration() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.until(|l| l.contains("done=1"));
    assert!(
        features
            .iter()
            .any(|l| l.contains("feature option=\"MultiPV -spin 1 1 256\"")),
        "{features:#?}"
    );
    let mut ahead = false;
    for (round, delay) in [150, 330, 520, 700, 880].into_iter().enumerate() {
        e.send("new");
        e.send("force");
        e.send("e2e4");
        e.send("post");
        e.send("analyze");
        // stat01 every 40 ms: the depth it names is the iteration being searched, deeper than
        // the last line shown before it (at least once: an iteration may just have started).
        let mut waited = 0;
        while waited < delay {
            thread::sleep(Duration::from_millis(40));
            waited += 40;
            e.send(".");
        }
        e.send("exit");
        e.send(&format!("ping {round}"));
        let lines = e.until(|l| l == format!("pong {round}"));
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
        assert!(!t.is_empty(), "{lines:#?}");
    }
    assert!(ahead, "stat01 never named the iteration in progress");
}

#[test]
fn xboard_multipv_shows_several_distinct_lines() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e.send("option MultiPV=3");
    e.send("new");
    e.send("force");
    e.send("post");
    e.send("analyze");
    thread::sleep(Duration::from_millis(400));
    e.send("exit");
    e.send("ping 1");
    let lines = e.until(|l| l == "pong 1");
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
    e.send("option MultiPV=0");
    e.send("ping 2");
    let lines = e.until(|l| l == "pong 2");
    assert!(lines[0].starts_with("Error"), "{lines:#?}");
}
