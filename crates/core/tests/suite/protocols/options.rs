//! The option table against both protocols: every entry is announced by UCI and by XBoard (as
//! a `feature option` or by the feature of XBoard's own command for it), a good value is taken
//! without a word of error, and a bad value of every typed entry is refused in each protocol's
//! own form, changing nothing.

use super::support::Engine;
use cannonade_core::engine::options::{self, OptionType};
use cannonade_core::protocol::uci::option_line;
use cannonade_core::protocol::xboard::{feature_option, NATIVE_OPTIONS};

fn uci() -> (Engine, Vec<String>) {
    let mut e = Engine::uci_bare();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    (e, lines)
}

fn xboard() -> (Engine, Vec<String>) {
    Engine::xboard_features()
}

/// The feature that announces XBoard's own command for an option.
fn native_feature(command: &str) -> &'static str {
    match command {
        "memory" => "memory=1",
        "cores" => "smp=1",
        "variant" => "variants=\"",
        // `hard` and `easy` are in every XBoard engine's vocabulary; no feature names them.
        _ => "",
    }
}

#[test]
fn both_protocols_announce_every_entry_of_the_table() {
    let (_, uci_lines) = uci();
    let (_, xb_lines) = xboard();
    let table: Vec<_> = options::announced().collect();
    assert!(table.len() >= 11, "{} options", table.len());
    for &o in &table {
        let line = option_line(o);
        assert!(
            uci_lines.contains(&line),
            "uci does not announce {}: {uci_lines:?}",
            o.name
        );
        assert!(line.starts_with(&format!("option name {} type ", o.name)));
        let natives: Vec<&str> = NATIVE_OPTIONS
            .iter()
            .filter(|(_, n)| *n == o.name)
            .map(|(c, _)| *c)
            .collect();
        if natives.is_empty() {
            let feature = feature_option(o);
            assert!(
                xb_lines.iter().any(|l| l == &feature),
                "xboard does not announce {}: {xb_lines:?}",
                o.name
            );
        } else {
            for c in natives {
                let f = native_feature(c);
                assert!(
                    xb_lines.iter().any(|l| l.contains(f)),
                    "xboard does not announce the command {c} for {}",
                    o.name
                );
            }
        }
    }
    // Nothing is announced that the table does not hold.
    let announced = uci_lines
        .iter()
        .filter(|l| l.starts_with("option name "))
        .count();
    assert_eq!(announced, table.len());
    let features = xb_lines
        .iter()
        .filter(|l| l.starts_with("feature option="))
        .count();
    let natives = table
        .iter()
        .filter(|o| NATIVE_OPTIONS.iter().any(|(_, n)| *n == o.name))
        .count();
    assert_eq!(features, table.len() - natives);
}

#[test]
fn the_search_parameters_are_hidden_from_guis_but_settable() {
    let tuning: Vec<_> = options::table().iter().filter(|o| o.tuning).collect();
    assert!(tuning.len() >= 20, "{} tuning options", tuning.len());
    let (mut u, uci_lines) = uci();
    let (mut x, xb_lines) = xboard();
    for o in &tuning {
        let word = format!(" {} ", o.name);
        let in_uci = uci_lines.iter().any(|l| l.contains(&word));
        let in_xb = xb_lines
            .iter()
            .any(|l| l.contains(&format!("option=\"{} ", o.name)));
        assert!(!in_uci && !in_xb, "{} is announced", o.name);
        let OptionType::Spin { default, max, .. } = o.kind else {
            panic!("{} is not a spin", o.name)
        };
        // Any value in range, in both protocols' forms, is taken without a word.
        for value in [max, default] {
            u.send(&format!("setoption name {} value {value}", o.name));
            let out = u.sync();
            assert!(out.is_empty(), "{} = {value}: {out:?}", o.name);
            x.send(&format!("option {}={value}", o.name));
            let out = x.sync();
            assert!(out.is_empty(), "{} = {value}: {out:?}", o.name);
        }
    }
}

/// A value of the wrong kind for each typed option, and one out of range for each spin.
fn bad_values(kind: &OptionType) -> Vec<String> {
    match kind {
        OptionType::Check { .. } => vec!["maybe".into()],
        OptionType::Spin { min, max, .. } => vec![
            "lots".into(),
            (max.saturating_add(1)).to_string(),
            (min - 1).to_string(),
        ],
        OptionType::Combo { .. } => vec!["tiddlywinks".into()],
        _ => vec![],
    }
}

#[test]
fn a_bad_value_is_refused_in_each_protocols_form_and_changes_nothing() {
    let (mut u, _) = uci();
    let mut x = Engine::xboard();
    for o in options::table() {
        for bad in bad_values(&o.kind) {
            u.send(&format!("setoption name {} value {bad}", o.name));
            let out = u.sync();
            assert_eq!(out.len(), 1, "{} = {bad}: {out:?}", o.name);
            assert!(
                out[0].starts_with(&format!("info string error: option {}: ", o.name))
                    && out[0].contains(&bad),
                "{} = {bad}: {out:?}",
                o.name
            );
            let native = NATIVE_OPTIONS.iter().find(|(_, n)| *n == o.name);
            let command = match native {
                // `hard`/`easy` take no value, `variant` answers with its own error.
                Some((c, _)) if *c == "memory" || *c == "cores" => format!("{c} {bad}"),
                Some(_) => continue,
                None => format!("option {}={bad}", o.name),
            };
            x.send(&command);
            let out = x.sync();
            assert_eq!(out.len(), 1, "{command}: {out:?}");
            assert!(
                out[0].starts_with(&format!("Error (option {}: ", o.name))
                    && out[0].contains(&bad)
                    && out[0].ends_with(&format!("): {command}")),
                "{command}: {out:?}"
            );
        }
    }
    // Nothing changed: the start position, one thread, one line, the default table.
    u.send("go depth 3");
    let lines = u.until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.contains("multipv 2")), "{lines:?}");
    x.send("sd 2");
    x.send("usermove e2e4");
    x.until(|l| l.starts_with("move "));
}

#[test]
fn good_values_are_taken_silently_in_both_forms_of_a_check() {
    let (mut u, _) = uci();
    let (mut x, _) = xboard();
    for o in options::table() {
        let OptionType::Check { default } = o.kind else {
            continue;
        };
        // Use NNUE tells which evaluation is used; every other check answers nothing.
        let talks = o.name == options::USE_NNUE;
        for value in [!default, default] {
            u.send(&format!("setoption name {} value {value}", o.name));
            let out = u.sync();
            assert!(
                out.iter().all(|l| !l.contains("error")) && (talks || out.is_empty()),
                "{}: {out:?}",
                o.name
            );
            if NATIVE_OPTIONS.iter().any(|(_, n)| *n == o.name) {
                continue;
            }
            x.send(&format!("option {}={}", o.name, u8::from(value)));
            let out = x.sync();
            assert!(
                out.iter().all(|l| !l.starts_with("Error")) && (talks || out.is_empty()),
                "{}: {out:?}",
                o.name
            );
        }
    }
}
