//! The learned evaluation in the engine: `EvalFile` and `Use NNUE` over UCI and XBoard (bad
//! files refused with their reason, the current net kept), `eval` against a net evaluated here
//! from scratch, and searches with a net for every variant.
//!
//! Chess has an embedded net (`nets/chess.nnue`) and `Use NNUE` is on by default; the nets the
//! tests load are random ones of the right shape, written to a scratch directory, so that
//! what the engine evaluates with can be told apart.

use super::support::Engine;
use cannonade_core::engine::registry::{self, VARIANTS};
use cannonade_core::games::chess::Chess;
use cannonade_core::games::{Game, Notation};
use cannonade_core::nnue::{
    Accumulator, FloatNetwork, Network, NnueFeatures, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE,
};
use cannonade_core::search::{Limits, Report, SearchControl, SearchOptions, TranspositionTable};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cannonade-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A random quantised net for `variant` (its feature count taken from the engine), hidden
/// size `hidden`, weights from `seed`.
fn random_net(variant: &str, hidden: usize, seed: u64) -> Network {
    let features = registry::find(variant)
        .unwrap()
        .new_session()
        .nnue_feature_count();
    let mut float = FloatNetwork::new_random(features, hidden, seed);
    // Trained-size weights, so that evaluations are tens or hundreds of centipawns.
    for w in &mut float.ft_weights {
        *w *= 0.3 * (features as f32).sqrt();
    }
    for w in &mut float.out_weights {
        *w *= 0.5 * ((2 * hidden) as f32).sqrt();
    }
    float
        .quantise(variant, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
        .unwrap()
        .0
}

/// The bad files of the refusal tests, with a word each message must contain.
fn bad_files(dir: &Path, good: &Path) -> Vec<(PathBuf, &'static str)> {
    let bytes = std::fs::read(good).unwrap();
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let corrupt = dir.join("corrupt.nnue");
    let mut c = bytes.clone();
    c[100] ^= 0x40;
    std::fs::write(&corrupt, c).unwrap();
    // A net named for a game this build does not play, and one for Cannon Shogi with the
    // wrong number of inputs.
    let alien = dir.join("alien.nnue");
    let quantise = |name: &str, features: usize| {
        FloatNetwork::new_random(features, 16, 3)
            .quantise(name, DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE)
            .unwrap()
            .0
    };
    quantise("nosuchgame", 768).save(&alien).unwrap();
    let misshapen = dir.join("misshapen.nnue");
    quantise("cannonshogi", 768).save(&misshapen).unwrap();
    vec![
        (dir.join("no-such-file.nnue"), "net file"),
        (truncated, "truncated"),
        (corrupt, "corrupted"),
        (alien, "'nosuchgame', which this build does not play"),
        (misshapen, "768 input features"),
    ]
}

/// The net's evaluation of a chess position computed here: both perspectives refreshed from
/// the position's features.
fn evaluate_from_scratch(net: &Network, pos: &Chess) -> i32 {
    let side = pos.side_to_move();
    let acc = |perspective| {
        let mut f = Vec::new();
        pos.active_features(perspective, &mut f);
        let mut a = Accumulator::new(net);
        a.refresh(net, &f);
        a
    };
    // `eval` shows the value as the search sees it: scaled by the game's own rule (orthodox
    // chess shrinks it with the material on the board; that rule has its own unit test).
    pos.scale_net_value(net.evaluate(
        &acc(side),
        &acc(!side),
        pos.output_bucket(net.output_buckets()),
    ))
}

/// The number in an `eval` line `... NNUE evaluation: N cp ...`.
fn nnue_value(lines: &[String]) -> Option<i32> {
    lines.iter().find_map(|l| {
        let rest = l.split("NNUE evaluation: ").nth(1)?;
        rest.split(' ').next()?.parse().ok()
    })
}

#[test]
fn uci_eval_file_loads_a_net_and_refuses_bad_files_keeping_it() {
    let dir = scratch("nnue-uci");
    let good = dir.join("chess.nnue");
    let net = random_net("chess", 32, 1);
    net.save(&good).unwrap();
    let mut e = Engine::uci_bare();
    e.send("uci");
    let options = e.until(|l| l == "uciok");
    assert!(options.contains(&"option name Use NNUE type check default true".to_string()));
    assert!(options.contains(&"option name EvalFile type string default <empty>".to_string()));

    // By default chess evaluates with its embedded net: `eval` gives both evaluations, the
    // net's being the embedded net's value computed here.
    e.send("eval");
    let lines = e.sync();
    assert!(lines[0].starts_with("Static evaluation: "), "{lines:?}");
    let start: Chess = registry::new_game("chess").unwrap();
    let embedded = registry::find("chess")
        .unwrap()
        .embedded_net(start.feature_count())
        .expect("chess embeds a net");
    assert_eq!(
        nnue_value(&lines),
        Some(evaluate_from_scratch(&embedded, &start)),
        "{lines:?}"
    );
    assert!(lines.contains(&"Search evaluation: NNUE".to_string()));
    assert!(lines.iter().any(|l| l.contains("net embedded for chess")));
    e.send("setoption name Use NNUE value false");
    let lines = e.sync();
    assert_eq!(
        lines,
        ["info string hand-written evaluation (Use NNUE is off)"]
    );

    e.send(&format!("setoption name EvalFile value {}", good.display()));
    let lines = e.sync();
    let described = format!("net {} for chess (768 features, 32 hidden)", good.display());
    assert!(lines[0].contains(&described), "{lines:?}");
    e.send("position startpos moves e2e4 c7c5 g1f3");
    e.send("eval");
    let lines = e.sync();
    let pos = start
        .with_fen("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
        .unwrap();
    let expected = evaluate_from_scratch(&net, &pos);
    assert_eq!(nnue_value(&lines), Some(expected), "{lines:?}");
    // `Use NNUE` is still off.
    assert!(lines.contains(&"Search evaluation: hand-written".to_string()));

    for (path, why) in bad_files(&dir, &good) {
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("info string error: option EvalFile: ")
                && lines[0].contains(why)
                && lines[0].contains(&format!("keeping {described}")),
            "{}: {lines:?}",
            path.display()
        );
        e.send("eval");
        let lines = e.sync();
        assert_eq!(nnue_value(&lines), Some(expected), "{lines:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_net_loaded_before_its_variant_is_chosen_waits_for_it_and_shared_nets_serve_both() {
    // GUIs (and `cannonade match`) send EvalFile before they choose the variant: a net of
    // another game is kept for that game, and the current one stays. Swedish Cannon Chess with
    // one cannon shares the nets of the two-cannon game (`shares_net_of` in the registry).
    let dir = scratch("nnue-shared");
    let shared = dir.join("swedishcannon.nnue");
    random_net("swedishcannon", 32, 3).save(&shared).unwrap();
    let mut e = Engine::uci();
    e.send(&format!(
        "setoption name EvalFile value {}",
        shared.display()
    ));
    let lines = e.sync();
    assert!(
        lines[0].starts_with("info string EvalFile: net")
            && lines[0].contains("swedishcannon.nnue for swedishcannon (912 features, 32 hidden)")
            && lines[0].contains("kept for when swedishcannon is played")
            && lines[0].contains("net embedded for chess"),
        "{lines:?}"
    );
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.contains("net embedded for chess")),
        "{lines:?}"
    );
    for variant in ["swedishcannon1", "swedishcannon"] {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.sync();
        e.send("eval");
        let lines = e.sync();
        let used = format!("swedishcannon.nnue for {variant} (912 features, 32 hidden)");
        assert!(
            lines.iter().any(|l| l.contains(&used)),
            "{variant}: {lines:?}"
        );
    }
    // Back in chess, its own net again.
    e.send("setoption name UCI_Variant value chess");
    e.sync();
    e.send("eval");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.contains("net embedded for chess")),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every game has an embedded net (a game without one is tested in the engine state's unit
/// tests): `Use NNUE` names the net it turns on and the evaluation it falls back to, and a
/// variant chosen while it is off is searched by hand until it is turned on again.
#[test]
fn uci_use_nnue_names_the_net_it_turns_on_and_the_fallback_it_turns_off() {
    let mut e = Engine::uci();
    for variant in ["cannonshogi", "cannon"] {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        // Left at its default the option brings no note: a net is there and used.
        let lines = e.sync();
        assert!(!lines.iter().any(|l| l.contains("Use NNUE")), "{lines:?}");
        e.send("eval");
        let lines = e.sync();
        assert!(
            lines.contains(&"Search evaluation: NNUE".to_string())
                && lines.iter().any(|l| l.starts_with("NNUE evaluation: ")
                    && l.contains(&format!("net embedded for {variant} ("))),
            "{lines:?}"
        );
    }
    e.send("setoption name Use NNUE value false");
    let lines = e.sync();
    assert_eq!(
        lines,
        ["info string hand-written evaluation (Use NNUE is off)"]
    );
    e.send("setoption name UCI_Variant value cannonshogi");
    e.sync();
    e.send("eval");
    let lines = e.sync();
    assert!(lines.contains(&"Search evaluation: hand-written".to_string()));
    e.send("setoption name Use NNUE value true");
    let lines = e.sync();
    assert!(
        lines.len() == 1
            && lines[0]
                .starts_with("info string NNUE evaluation with net embedded for cannonshogi"),
        "{lines:?}"
    );
}

#[test]
fn xboard_eval_file_refuses_bad_files_keeping_the_net() {
    let dir = scratch("nnue-xboard");
    let good = dir.join("chess.nnue");
    let net = random_net("chess", 32, 2);
    net.save(&good).unwrap();
    let (mut e, features) = Engine::xboard_features();
    assert!(features.contains(&"feature option=\"Use NNUE -check 1\"".to_string()));
    assert!(features.contains(&"feature option=\"EvalFile -file \"".to_string()));
    e.send(&format!("option EvalFile={}", good.display()));
    let lines = e.sync();
    let described = format!("net {} for chess (768 features, 32 hidden)", good.display());
    assert!(lines[0].contains(&described), "{lines:?}");
    let start: Chess = registry::new_game("chess").unwrap();
    let expected = evaluate_from_scratch(&net, &start);
    for (path, why) in bad_files(&dir, &good) {
        e.send(&format!("option EvalFile={}", path.display()));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("Error (option EvalFile: ")
                && lines[0].contains(why)
                && lines[0].contains(&format!("keeping {described}")),
            "{}: {lines:?}",
            path.display()
        );
        e.send("eval");
        let lines = e.sync();
        assert_eq!(nnue_value(&lines), Some(expected), "{lines:?}");
    }
    // Another game: its own embedded net, named in a comment line (no popup); the net loaded
    // for chess stays chess's.
    e.send("variant cannonshogi");
    let lines = e.sync();
    assert!(
        !lines.iter().any(|l| l.starts_with("telluser")),
        "{lines:?}"
    );
    e.send("option Use NNUE=1");
    let lines = e.sync();
    assert!(
        lines.len() == 1
            && lines[0].starts_with("# NNUE evaluation with net embedded for cannonshogi ("),
        "{lines:?}"
    );
    // Back to chess: the net loaded for it is still there, and now used.
    e.send("new");
    e.send("option Use NNUE=1");
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&format!("NNUE evaluation with {described}"))),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Searches the session's position to `depth` with `net` (or the hand-written evaluation),
/// returning the best move and the last reported score.
fn search(
    session: &dyn cannonade_core::engine::Session,
    net: Option<Arc<Network>>,
    depth: u32,
) -> (String, cannonade_core::search::Score) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let opts = SearchOptions {
        nnue: net,
        ..SearchOptions::default()
    };
    let tt = Arc::new(TranspositionTable::new(4));
    let ctl = Arc::new(SearchControl::new(super::support::host(), false));
    let r = session.search(
        &limits,
        &opts,
        &tt,
        &ctl,
        Notation::Uci,
        &mut |_: Report<String>| {},
    );
    (r.best.expect("a move"), r.score)
}

#[test]
fn a_search_with_a_net_plays_a_legal_move_in_every_variant() {
    for v in VARIANTS {
        let name = v.game.name;
        let session = v.new_session();
        let net = Arc::new(random_net(name, 32, 5));
        let (best, _) = search(session.as_ref(), Some(net), 4);
        assert!(
            session.legal_moves(Notation::Uci).contains(&best),
            "{name}: {best}"
        );
    }
}

#[test]
fn the_search_scores_depth_one_with_the_net_evaluation_of_each_reply() {
    // After any first move of chess the reply has no capture, so a depth-1 search scores each
    // root move by the net's evaluation of the position it reaches (quiescence stands pat):
    // the best of them, seen from the side to move, must be the search's score. The search
    // updates its accumulators incrementally; here each child is evaluated from scratch.
    let chess = registry::find("chess").unwrap();
    let session = chess.new_session();
    let net = Arc::new(random_net("chess", 32, 9));
    let best_child = session
        .legal_moves(Notation::Uci)
        .iter()
        .map(|m| {
            let mut child = session.clone_session();
            child.play(m, Notation::Uci).unwrap();
            -child.evaluate_nnue(&net).unwrap()
        })
        .max()
        .unwrap();
    let (_, score) = search(session.as_ref(), Some(Arc::clone(&net)), 1);
    assert_eq!(score, cannonade_core::search::Score::Cp(best_child));
    // The hand-written evaluation scores it otherwise (the net is what was used).
    let (_, hand) = search(session.as_ref(), None, 1);
    assert_ne!(hand, score);
    // A net of another game is not used on this one.
    let shogi = Arc::new(random_net("cannonshogi", 32, 9));
    assert_eq!(search(session.as_ref(), Some(shogi), 1).1, hand);
}
