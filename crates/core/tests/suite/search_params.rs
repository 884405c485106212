//! The search's tuning parameters (`search/params.rs`) through the option table, as the tools
//! and the protocols set them: a parameter set as an option changes what the search does, its
//! default given explicitly changes nothing, and a value out of range is refused.

use crate::hosts;
use cannonade_core::engine::registry;
use cannonade_core::engine::EngineState;
use cannonade_core::games::Notation;
use cannonade_core::search::params::{index_of, PARAMS};
use cannonade_core::search::{Limits, SearchControl};

/// A chess middle game with pieces on, where pruning and reductions have work to do.
const MIDDLE_GAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8";

/// Nodes of a depth-10 search of the middle game from an empty table, with these options.
fn nodes_with(options: &[&str]) -> u64 {
    let chess = registry::find("chess").unwrap();
    let settings: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    // The hand-written evaluation: the test must not hang on which net is embedded.
    let mut all = vec!["Use NNUE=false".to_string(), "Hash=4".to_string()];
    all.extend(settings);
    let state = EngineState::for_tool(chess, &all).unwrap();
    let mut session = state.session().clone_session();
    session
        .set_position(Some(MIDDLE_GAME), &[], Notation::Uci)
        .unwrap();
    let tt = state.table();
    tt.clear();
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let ctl = std::sync::Arc::new(SearchControl::new(hosts::single_thread(), false));
    let r = session.search(
        &limits,
        state.options(),
        &tt,
        &ctl,
        Notation::Uci,
        &mut |_| {},
    );
    r.nodes
}

#[test]
fn a_parameter_set_as_an_option_changes_the_search() {
    let plain = nodes_with(&[]);
    assert_eq!(nodes_with(&[]), plain, "the search is deterministic");
    // Every value the game searches with, given explicitly, is the engine as it is: the
    // defaults of `params.rs` where chess has no tuned value of its own, its own elsewhere.
    let own = registry::find("chess").unwrap().search_params();
    let explicit = |value: &dyn Fn(usize) -> i32| -> u64 {
        let set: Vec<String> = PARAMS
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{}={}", p.name, value(i)))
            .collect();
        nodes_with(&set.iter().map(String::as_str).collect::<Vec<_>>())
    };
    assert_eq!(explicit(&|i| own.get(i)), plain);
    // The defaults of `params.rs` given explicitly undo chess's list, which changes the
    // search exactly when chess has one.
    let tuned = PARAMS
        .iter()
        .enumerate()
        .any(|(i, p)| own.get(i) != p.default);
    assert_eq!(explicit(&|i| PARAMS[i].default) != plain, tuned);
    // The boldest reductions the ranges allow search clearly fewer nodes at the same depth
    // (24,045 against 36,716 with chess's margins of December 6, about two thirds; at depth 8
    // those margins leave the reductions too little room, 13,211 against 13,451); reverse
    // futility that never prunes searches more.
    let bold = nodes_with(&["LmrBase=150", "LmrDivisor=100"]);
    assert!(bold < plain * 4 / 5, "bold reductions {bold} vs {plain}");
    let no_rfp = nodes_with(&["RfpMargin=250", "RfpDepth=1"]);
    assert_ne!(no_rfp, plain, "reverse futility margin");
}

#[test]
fn a_value_out_of_range_is_refused_and_leaves_the_value() {
    let chess = registry::find("chess").unwrap();
    let p = &PARAMS[index_of("RfpMargin").unwrap()];
    let e = EngineState::for_tool(chess, &[format!("RfpMargin={}", p.max + 1)])
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        format!(
            "option RfpMargin: {} is out of range {}..{}; value unchanged",
            p.max + 1,
            p.min,
            p.max
        )
    );
    let mut s = EngineState::for_tool(chess, &["rfpmargin=95".into()]).unwrap();
    assert_eq!(
        s.options().params.rfp_margin,
        95,
        "names are case-insensitive"
    );
    assert!(s.set_option("RfpMargin", Some("-5")).is_err());
    assert!(s.set_option("RfpMargin", Some("ninety")).is_err());
    assert_eq!(s.options().params.rfp_margin, 95);
}

#[test]
fn the_docs_list_every_parameter_as_declared() {
    let doc = include_str!("../../../../docs/search.md");
    let rows: Vec<&str> = doc.lines().filter(|l| l.starts_with("| `")).collect();
    for p in PARAMS {
        let want = format!(
            "| `{}` | {} | {}..{} | {} | {} |",
            p.name, p.default, p.min, p.max, p.c_end, p.help
        );
        assert!(rows.contains(&want.as_str()), "docs/search.md lacks {want}");
    }
}
