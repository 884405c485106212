//! `cannonade datagen`: its files are readable and hold legal, quiet positions of every game;
//! the same seed gives the same bytes whatever the threads; shards split the job exactly;
//! resuming a cut-off file gives what an uninterrupted run gives; the reader refuses what is not
//! its data. Node counts are tiny, so the games are poor but quick.

use cannonade_core::engine::registry::{self, VARIANTS};
use cannonade_core::games::Notation;
use cannonade_tools::datagen::{
    self, DataError, DataReader, DatagenSpec, GameResult, Record, SearchLimit, Shard, MIN_PLY,
    SCORE_MATE,
};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!(
        "cannonade-datagen-{}-{name}.bin",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&p);
    p
}

fn spec(variant: &str, positions: u64, nodes: u64) -> DatagenSpec {
    DatagenSpec {
        limit: SearchLimit::Nodes(nodes),
        ..DatagenSpec::new(variant, positions)
    }
}

fn generate(spec: &DatagenSpec, name: &str) -> (PathBuf, Vec<u8>) {
    let path = temp(name);
    datagen::run(spec, &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

fn records(bytes: &[u8], variant: &str) -> Vec<Record> {
    let mut reader = DataReader::new(bytes, Some(variant)).unwrap();
    let all: Vec<Record> = reader.by_ref().map(|r| r.unwrap()).collect();
    assert!(!reader.truncated());
    all
}

/// The ply of a FEN from its side to move and move number (the variant's start is ply 0).
fn ply(fen: &str) -> usize {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let moves: usize = f[f.len() - 1].parse().unwrap();
    2 * (moves - 1) + usize::from(f[1] == "b")
}

#[test]
fn every_game_writes_readable_legal_quiet_positions() {
    let (mut agree, mut disagree) = (0, 0);
    for v in VARIANTS {
        let name = v.game.name;
        // 60 positions a game: enough large edges (below) that a new net's games do not
        // leave the count at the edge of its bound (30 gave 19 with Cannon Shogi's round-4 net).
        let s = spec(name, 60, 300);
        let (path, bytes) = generate(&s, name);
        let all = records(&bytes, name);
        assert!(all.len() >= 60, "{name}: {} positions", all.len());
        let mut games: Vec<u32> = Vec::new();
        for (i, r) in all.iter().enumerate() {
            let mut session = v.new_session();
            session
                .set_position(Some(&r.fen), &[], Notation::Uci)
                .unwrap_or_else(|e| panic!("{name}: {}: {e}", r.fen));
            // Exact: the FEN the game writes for the position it reads back.
            assert_eq!(session.fen(), r.fen, "{name}");
            assert!(!session.in_check(), "{name}: in check: {}", r.fen);
            assert!(session.outcome().is_none(), "{name}: over: {}", r.fen);
            assert!(ply(&r.fen) >= MIN_PLY, "{name}: early: {}", r.fen);
            assert!(r.score.abs() <= SCORE_MATE);
            // Records come game by game, each game ending with a flagged record.
            let next_same = all.get(i + 1).is_some_and(|n| n.game == r.game);
            assert_eq!(r.game_end, !next_same, "{name}: record {i}");
            if games.last() != Some(&r.game) {
                assert!(games.last().is_none_or(|&g| g < r.game), "{name}");
                games.push(r.game);
            }
            // One result per game, seen from each side.
            let white = if session.side_to_move() == cannonade_core::board::Color::White {
                r.result
            } else {
                r.result.flip()
            };
            let first = all.iter().find(|o| o.game == r.game).unwrap();
            let mut s0 = v.new_session();
            s0.set_position(Some(&first.fen), &[], Notation::Uci)
                .unwrap();
            let white0 = if s0.side_to_move() == cannonade_core::board::Color::White {
                first.result
            } else {
                first.result.flip()
            };
            assert_eq!(white, white0, "{name}: game {}", r.game);
            // The score is the side to move's: a large static edge has the same sign.
            let eval = session.evaluate();
            if eval.abs() >= 800 && r.score.abs() >= 100 {
                if (eval > 0) == (r.score > 0) {
                    agree += 1;
                } else {
                    disagree += 1;
                }
            }
        }
        std::fs::remove_file(path).unwrap();
    }
    // Scores written from a fixed side's view would disagree about half the time.
    assert!(agree >= 20, "{agree} large edges seen");
    assert!(disagree * 10 <= agree, "{agree} agree, {disagree} disagree");
}

#[test]
fn the_same_seed_gives_the_same_bytes_with_any_number_of_threads() {
    let one = generate(&spec("chess", 150, 300), "threads1");
    let two = generate(
        &DatagenSpec {
            threads: 2,
            ..spec("chess", 150, 300)
        },
        "threads2",
    );
    let three = generate(
        &DatagenSpec {
            threads: 3,
            ..spec("chess", 150, 300)
        },
        "threads3",
    );
    assert!(one.1 == two.1 && one.1 == three.1);
    let other = generate(
        &DatagenSpec {
            seed: 2,
            ..spec("chess", 150, 300)
        },
        "seed2",
    );
    assert!(records(&other.1, "chess")[0].fen != records(&one.1, "chess")[0].fen);
    for p in [one.0, two.0, three.0, other.0] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn shards_are_disjoint_and_together_play_the_unsharded_games() {
    let variant = "swedishcannon";
    let (whole_path, whole) = generate(&spec(variant, 120, 250), "whole");
    let whole = records(&whole, variant);
    let last = whole.last().unwrap().game;
    let mut union: Vec<Record> = Vec::new();
    let mut joined: Vec<u8> = Vec::new();
    let mut seen = BTreeSet::new();
    for i in 1..=3 {
        let shard = Shard { index: i, count: 3 };
        let (path, bytes) = generate(
            &DatagenSpec {
                shard,
                threads: 2,
                ..spec(variant, 120, 250)
            },
            &format!("shard{i}"),
        );
        let part = records(&bytes, variant);
        // Each shard reaches past the unsharded run's last game, so the comparison covers it.
        assert!(part.last().unwrap().game >= last, "shard {i}");
        let games: BTreeSet<u32> = part.iter().map(|r| r.game).collect();
        assert!(games.iter().all(|&g| shard.contains(u64::from(g))));
        assert!(seen.is_disjoint(&games), "shard {i} repeats a game");
        seen.extend(games);
        union.extend(part.into_iter().filter(|r| r.game <= last));
        joined.extend_from_slice(&bytes);
        std::fs::remove_file(path).unwrap();
    }
    union.sort_by_key(|r| r.game); // stable: each game keeps its order
    assert_eq!(union, whole);
    // `cat` of the shard files reads as one file with three headers.
    let mut reader = DataReader::new(&joined[..], Some(variant)).unwrap();
    let n = reader.by_ref().inspect(|r| assert!(r.is_ok())).count();
    assert_eq!(reader.headers().len(), 3);
    assert!(n >= 360);
    std::fs::remove_file(whole_path).unwrap();
}

#[test]
fn resuming_a_cut_off_file_gives_the_uninterrupted_bytes() {
    let variant = "cannon";
    let s = spec(variant, 100, 200);
    let (path, full) = generate(&s, "resume-full");
    let all = records(&full, variant);
    // Where records start and games end, to cut there and in between.
    let mut starts = Vec::new();
    let mut at = full.len() - all.iter().map(Record::encoded_len).sum::<usize>();
    let header_len = at;
    for r in &all {
        starts.push(at);
        at += r.encoded_len();
    }
    let second_game = starts[all.iter().position(|r| r.game != all[0].game).unwrap()];
    let cuts = [
        0,
        5,
        header_len,
        header_len + 3,
        second_game,
        second_game + 1,
        starts[starts.len() / 2] + 7,
        full.len() - 1,
        full.len(),
    ];
    let cut_path = temp("resume-cut");
    for cut in cuts {
        std::fs::write(&cut_path, &full[..cut]).unwrap();
        let summary = datagen::run(&s, &cut_path).unwrap();
        assert_eq!(std::fs::read(&cut_path).unwrap(), full, "cut at {cut}");
        assert_eq!(summary.positions, all.len() as u64);
    }
    // Asking for more later extends a file as if it had been asked for at once.
    let (more_path, more) = generate(&spec(variant, 180, 200), "resume-more");
    datagen::run(&spec(variant, 180, 200), &path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), more);
    // Another job's settings are refused, and its file is left alone.
    let other = DatagenSpec {
        seed: 9,
        ..spec(variant, 300, 200)
    };
    let e = datagen::run(&other, &path).unwrap_err();
    assert!(e.contains("other settings"), "{e}");
    assert_eq!(std::fs::read(&path).unwrap(), more);
    for p in [path, cut_path, more_path] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn the_reader_refuses_other_data_and_stops_at_a_cut() {
    let (path, bytes) = generate(&spec("chess", 20, 200), "reader");
    let n = records(&bytes, "chess").len();
    assert!(matches!(
        DataReader::open(&path, Some("cannonshogi")),
        Err(DataError::WrongVariant { .. })
    ));
    let mut bad = bytes.clone();
    bad[1] = b'X';
    assert!(matches!(
        DataReader::new(&bad[..], None),
        Err(DataError::BadMagic)
    ));
    bad = bytes.clone();
    bad[8] = 7;
    assert!(matches!(
        DataReader::new(&bad[..], None),
        Err(DataError::BadVersion(7))
    ));
    assert!(matches!(
        DataReader::new(&b"r1bqkbnr/pppp"[..], None),
        Err(DataError::BadMagic)
    ));
    // A cut-off last record: the others are read, then the reader stops and says so.
    let mut reader = DataReader::new(&bytes[..bytes.len() - 3], Some("chess")).unwrap();
    assert_eq!(reader.by_ref().filter(|r| r.is_ok()).count(), n - 1);
    assert!(reader.truncated());
    // Joined to another game's file: an error at the second header.
    let (other_path, other) = generate(&spec("cannonshogi", 20, 200), "reader-other");
    let joined = [bytes.clone(), other].concat();
    let results: Vec<_> = DataReader::new(&joined[..], Some("chess"))
        .unwrap()
        .collect();
    assert_eq!(results.len(), n + 1);
    assert!(matches!(
        results[n],
        Err(DataError::WrongVariant { ref found, .. }) if found == "cannonshogi"
    ));
    // The results seen from each side: a win for one is a loss for the other.
    assert_eq!(GameResult::Win.flip(), GameResult::Loss);
    for p in [path, other_path] {
        std::fs::remove_file(p).unwrap();
    }
}

fn cannonade(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cannonade"))
        .args(args)
        .output()
        .expect("binary runs")
}

#[test]
fn the_command_line_generates_resumes_after_a_kill_and_refuses_bad_arguments() {
    let whole = temp("cli-whole");
    let w = whole.to_str().unwrap();
    let args = [
        "--variant",
        "chess",
        "--positions",
        "400",
        "--nodes",
        "300",
        "--threads",
        "2",
        "--option",
        "Hash=4",
    ];
    let o = cannonade(&[&["datagen", "--out", w][..], &args].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&format!("positions in {w}")), "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("datagen: chess into"), "{err}");
    let full = std::fs::read(&whole).unwrap();

    // Killed while it writes, then run again: the same file.
    let cut = temp("cli-killed");
    let c = cut.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cannonade"))
        .args([&["datagen", "--out", c][..], &args].concat())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while std::fs::metadata(&cut).map_or(0, |m| m.len()) < full.len() as u64 / 3
        && t.elapsed() < Duration::from_secs(20)
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let o = cannonade(&[&["datagen", "--out", c][..], &args].concat());
    assert!(o.status.success());
    assert_eq!(std::fs::read(&cut).unwrap(), full);

    for (bad, says) in [
        (vec!["--shard", "0/2"], "shard '0/2'"),
        (vec!["--shard", "3/2"], "shard '3/2'"),
        (vec!["--option", "Hash=none"], "option Hash"),
        (
            vec!["--option", "Nonsense=true"],
            "unknown option 'Nonsense'",
        ),
        (vec!["--depth", "3"], "cannot be used with"),
        (vec!["--seed", "5"], "other settings"),
    ] {
        let o = cannonade(&[&["datagen", "--out", w][..], &args, &bad].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(says), "{bad:?}: {err}");
    }
    let o = cannonade(&[
        "datagen",
        "--variant",
        "nochess",
        "--positions",
        "5",
        "--out",
        w,
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown variant 'nochess'"));
    // None of the refusals touched the file.
    assert_eq!(std::fs::read(&whole).unwrap(), full);
    for p in [whole, cut] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn registry_names_are_what_the_header_stores() {
    let (path, bytes) = generate(&spec("CannonShogi", 5, 100), "names");
    let reader = DataReader::new(&bytes[..], None).unwrap();
    assert_eq!(
        reader.header().variant,
        registry::find("cannonshogi").unwrap().game.name
    );
    assert!(reader
        .header()
        .settings
        .contains("nodes 100 per move; seed 1; shard 1/1"));
    std::fs::remove_file(path).unwrap();
}
