//! The engine's options, each declared once, as Stockfish's `OptionsMap` declares them: name,
//! type, default, range or choices, and what setting it does. Both protocols announce their
//! option lines from [`table`] and hand every `setoption` / `option` to
//! [`EngineState::set_option`]; the command-line tools take `--option NAME=VALUE` the same way
//! ([`EngineState::for_tool`]). One parser ([`parse_value`]) reads a value however a GUI or a
//! shell writes it, and a bad value gets one [`OptionError`], which each protocol words in its
//! own form. Adding an option is one entry in [`table`].

use crate::engine::registry::{self, VARIANTS};
use crate::engine::state::EngineState;
use crate::engine::text::clip;
use crate::games::RuleOption;
use crate::search::{params, skill, DEFAULT_MOVE_OVERHEAD_MS};
use std::sync::LazyLock;
use std::time::Duration;
use thiserror::Error;

pub const HASH: &str = "Hash";
pub const CLEAR_HASH: &str = "Clear Hash";
pub const THREADS: &str = "Threads";
pub const MULTI_PV: &str = "MultiPV";
pub const PONDER: &str = "Ponder";
pub const MOVE_OVERHEAD: &str = "Move Overhead";
pub const UCI_VARIANT: &str = "UCI_Variant";
/// Evaluation by material alone: the baseline each game's evaluation is measured against in
/// matches (see `SearchOptions::material_only`).
pub const EVAL_MATERIAL_ONLY: &str = "EvalMaterialOnly";
/// The learned evaluation on or off.
pub const USE_NNUE: &str = "Use NNUE";
/// A net file to evaluate the current variant with.
pub const EVAL_FILE: &str = "EvalFile";
/// Strength levels: Stockfish's names, so that GUIs that offer levels find them.
pub const SKILL_LEVEL: &str = "Skill Level";
pub const UCI_LIMIT_STRENGTH: &str = "UCI_LimitStrength";
pub const UCI_ELO: &str = "UCI_Elo";
/// Win chances (`wdl W D L`) on every UCI score line, as Stockfish's option of that name.
pub const UCI_SHOW_WDL: &str = "UCI_ShowWDL";
/// The `UCI_Elo` a new engine starts with (used once `UCI_LimitStrength` is on).
pub const DEFAULT_ELO: i64 = 1500;

/// The table size a new engine starts with, in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest table either protocol accepts, in MB (1 TB).
pub const MAX_HASH_MB: usize = 1 << 20;
/// The most search threads either protocol accepts.
pub const MAX_THREADS: usize = 256;
/// The most lines (MultiPV) either protocol accepts.
pub const MAX_MULTIPV: usize = 256;
/// The most time kept back from a move, in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;
/// `Use NNUE` is on by default: a variant evaluates with its net where one is embedded (one
/// becomes embedded only when it beats the hand-written evaluation in games, docs/nnue.md)
/// and with the hand-written evaluation where none is.
pub const USE_NNUE_DEFAULT: bool = true;

/// What kind of value an option takes, with its default (the UCI option types).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionType {
    Check {
        default: bool,
    },
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Combo {
        default: &'static str,
        choices: Vec<&'static str>,
    },
    /// Free text.
    Text {
        default: &'static str,
    },
    /// A file's path (XBoard offers a file chooser); empty by default.
    File,
    /// An action without a value.
    Button,
}

/// A value read by [`parse_value`], of the option's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Check(bool),
    Spin(i64),
    /// A combo's choice (as the table spells it), a text or a path (empty: none).
    Text(String),
    Press,
}

/// What the adapter still has to do after an option was set (the state has done the rest).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Changed {
    Nothing,
    /// The evaluation the search uses may have changed: tell the user which
    /// ([`EngineState::evaluator_note`]).
    Evaluator,
    /// A net file was loaded (its description), and the evaluation may have changed.
    Net(String),
    /// A new game of another variant started at its start position, with an empty table.
    Variant,
    /// A rule switch of the game being played: the game so far is set up again under it.
    Rules,
    /// What a search reports changed (lines, win chances): a running analysis restarts.
    Analysis,
}

/// Why an option was not set. The option keeps its value.
#[derive(Error, Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("option '{0}' is not NAME=VALUE")]
    NotNameValue(String),
    #[error("option {0}: a value is required")]
    MissingValue(&'static str),
    #[error("option {name}: '{value}' is not true or false")]
    NotBool { name: &'static str, value: String },
    #[error("option {name}: '{value}' is not a whole number")]
    NotNumber { name: &'static str, value: String },
    #[error("option {name}: {value} is out of range {min}..{max}; value unchanged")]
    OutOfRange {
        name: &'static str,
        value: String,
        min: i64,
        max: i64,
    },
    #[error("option {name}: '{value}' is not one of {}", choices.join(", "))]
    NotAChoice {
        name: &'static str,
        value: String,
        choices: Vec<&'static str>,
    },
    /// The value is well formed but cannot be had (a table the machine cannot give, a net
    /// file that does not load, a rule switch of another game where one game is played).
    #[error("option {name}: {reason}")]
    Refused { name: &'static str, reason: String },
}

/// Sets a parsed value on the state; what the adapter still has to do.
type Apply = fn(&mut EngineState, &'static str, OptionValue) -> Result<Changed, OptionError>;

/// One engine option.
#[derive(Debug)]
pub struct EngineOption {
    pub name: &'static str,
    pub kind: OptionType,
    /// What it is for, in one line (`--help`-style text for docs and tools).
    pub help: &'static str,
    /// Setting it replaces the table or the game: a search for a move in progress would be
    /// thrown away (XBoard holds such options until the move is made; UCI GUIs stop first).
    pub needs_idle: bool,
    /// One of the search's margins (`search/params.rs`), there for tuners (`cannonade spsa`,
    /// `cannonade match`'s `option.NAME=VALUE`): settable like any option but not announced
    /// to GUIs, whose users have no use for twenty-odd margins.
    pub tuning: bool,
    apply: Apply,
}

impl EngineOption {
    /// Reads `raw` as this option's value and sets it.
    pub(crate) fn set(
        &'static self,
        state: &mut EngineState,
        raw: Option<&str>,
    ) -> Result<Changed, OptionError> {
        let value = parse_value(self, raw)?;
        (self.apply)(state, self.name, value)
    }
}

/// Reads a value for `opt` as any front end sends it: a check takes `true`/`false`, `1`/`0`,
/// `on`/`off` or `yes`/`no` in any case (UCI sends the first, XBoard the second, people the
/// others); a spin a whole number with an optional sign (one too long for any range is out of
/// range, not "not a number"); a combo one of its choices in any case; a text anything, with
/// `<empty>` (how UCI GUIs send an empty string) for none; a button nothing.
pub fn parse_value(opt: &EngineOption, raw: Option<&str>) -> Result<OptionValue, OptionError> {
    let name = opt.name;
    let raw = raw.map(str::trim);
    let given = || {
        raw.filter(|v| !v.is_empty())
            .ok_or(OptionError::MissingValue(name))
    };
    match &opt.kind {
        OptionType::Button => Ok(OptionValue::Press),
        OptionType::Text { .. } | OptionType::File => {
            let v = raw.unwrap_or("");
            Ok(OptionValue::Text(
                if v == "<empty>" { "" } else { v }.to_string(),
            ))
        }
        OptionType::Check { .. } => {
            let v = given()?;
            match v.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" => Ok(OptionValue::Check(true)),
                "false" | "0" | "off" | "no" => Ok(OptionValue::Check(false)),
                _ => Err(OptionError::NotBool {
                    name,
                    value: clip(v),
                }),
            }
        }
        &OptionType::Spin { min, max, .. } => {
            let v = given()?;
            let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(OptionError::NotNumber {
                    name,
                    value: clip(v),
                });
            }
            match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(OptionValue::Spin(n)),
                _ => Err(OptionError::OutOfRange {
                    name,
                    value: clip(v),
                    min,
                    max,
                }),
            }
        }
        OptionType::Combo { choices, .. } => {
            let v = given()?;
            choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(v))
                .map(|c| OptionValue::Text(c.to_string()))
                .ok_or_else(|| OptionError::NotAChoice {
                    name,
                    value: clip(v),
                    choices: choices.clone(),
                })
        }
    }
}

/// The options the protocols announce to GUIs: all but the search's tuning parameters.
pub fn announced() -> impl Iterator<Item = &'static EngineOption> {
    table().iter().filter(|o| !o.tuning)
}

/// The option called `name` (case-insensitive, as UCI asks).
pub fn find(name: &str) -> Option<&'static EngineOption> {
    table().iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// Every engine option, in the order the protocols announce them: the engine's own, then the
/// rule switches of every game (each once; a switch of another game is kept for that game),
/// then the search's tuning parameters (not announced, see [`announced`]).
pub fn table() -> &'static [EngineOption] {
    static TABLE: LazyLock<Vec<EngineOption>> = LazyLock::new(build);
    &TABLE
}

fn spin(default: usize, min: usize, max: usize) -> OptionType {
    OptionType::Spin {
        default: default as i64,
        min: min as i64,
        max: max as i64,
    }
}

fn build() -> Vec<EngineOption> {
    let mut table = vec![
        EngineOption {
            name: HASH,
            kind: spin(DEFAULT_HASH_MB, 1, MAX_HASH_MB),
            help: "transposition table size in MB",
            needs_idle: true,
            tuning: false,
            apply: |s, name, v| {
                s.resize_table(as_usize(&v))
                    .map_err(|e| OptionError::Refused {
                        name,
                        reason: format!("{e}; the table stays at {} MB", s.hash_mb()),
                    })?;
                Ok(Changed::Nothing)
            },
        },
        EngineOption {
            name: CLEAR_HASH,
            kind: OptionType::Button,
            help: "empty the transposition table",
            needs_idle: true,
            tuning: false,
            apply: |s, _, _| {
                s.clear_table();
                Ok(Changed::Nothing)
            },
        },
        EngineOption {
            name: THREADS,
            kind: spin(1, 1, MAX_THREADS),
            help: "search threads",
            needs_idle: false,
            tuning: false,
            apply: |s, _, v| {
                s.search_options_mut().threads = as_usize(&v);
                Ok(Changed::Nothing)
            },
        },
        EngineOption {
            name: MULTI_PV,
            kind: spin(1, 1, MAX_MULTIPV),
            help: "lines reported, best first",
            needs_idle: false,
            tuning: false,
            apply: |s, _, v| {
                s.search_options_mut().multipv = as_usize(&v);
                Ok(Changed::Analysis)
            },
        },
        EngineOption {
            name: PONDER,
            kind: OptionType::Check { default: false },
            help: "the GUI may send ponder searches (the engine always names its expected reply)",
            needs_idle: false,
            tuning: false,
            apply: |s, _, v| {
                s.set_ponder(as_bool(&v));
                Ok(Changed::Nothing)
            },
        },
        EngineOption {
            name: MOVE_OVERHEAD,
            kind: spin(
                DEFAULT_MOVE_OVERHEAD_MS as usize,
                0,
                MAX_MOVE_OVERHEAD_MS as usize,
            ),
            help: "milliseconds kept back from every move for communication delays",
            needs_idle: false,
            tuning: false,
            apply: |s, _, v| {
                s.search_options_mut().move_overhead = Duration::from_millis(as_usize(&v) as u64);
                Ok(Changed::Nothing)
            },
        },
        EngineOption {
            name: UCI_VARIANT,
            kind: OptionType::Combo {
                default: registry::DEFAULT_VARIANT,
                choices: VARIANTS.iter().map(|v| v.game.name).collect(),
            },
            help: "the game played (a new game at its start position, with an empty table)",
            needs_idle: true,
            tuning: false,
            apply: |s, name, v| {
                let OptionValue::Text(chosen) = v else {
                    unreachable!("a combo's value is text")
                };
                let info = registry::find(&chosen).expect("a choice is a registered variant");
                s.select_variant(info).map_err(|e| OptionError::Refused {
                    name,
                    reason: e.to_string(),
                })?;
                s.clear_table();
                Ok(Changed::Variant)
            },
        },
        EngineOption {
            name: EVAL_MATERIAL_ONLY,
            kind: OptionType::Check { default: false },
            help: "evaluate by material alone (the baseline of evaluation matches)",
            needs_idle: false,
            tuning: false,
            apply: |s, _, v| {
                s.search_options_mut().material_only = as_bool(&v);
                Ok(Changed::Nothing)
            },
        },
        EngineOption {
            name: USE_NNUE,
            kind: OptionType::Check {
                default: USE_NNUE_DEFAULT,
            },
            help: "evaluate with the game's net (off: the hand-written evaluation)",
            needs_idle: false,
            tuning: false,
            apply: |s, _, v| {
                s.set_use_nnue(as_bool(&v));
                Ok(Changed::Evaluator)
            },
        },
        EngineOption {
            name: EVAL_FILE,
            kind: OptionType::File,
            help: "a net file for the game it was trained for (empty: the embedded net)",
            needs_idle: false,
            tuning: false,
            apply: |s, name, v| {
                let OptionValue::Text(path) = v else {
                    unreachable!("a file option's value is text")
                };
                s.load_eval_file(&path)
                    .map(Changed::Net)
                    .map_err(|e| OptionError::Refused {
                        name,
                        reason: e.to_string(),
                    })
            },
        },
        EngineOption {
            name: SKILL_LEVEL,
            kind: OptionType::Spin {
                default: 20,
                min: 0,
                max: 20,
            },
            help: "strength from 0 (weakest) to 20 (full); UCI_LimitStrength overrides it",
            needs_idle: false,
            tuning: false,
            apply: |s, _, v| {
                let OptionValue::Spin(level) = v else {
                    unreachable!("a spin's value is a number")
                };
                s.set_skill_level(level);
                Ok(Changed::Nothing)
            },
        },
        EngineOption {
            name: UCI_LIMIT_STRENGTH,
            kind: OptionType::Check { default: false },
            help: "play at the strength UCI_Elo names",
            needs_idle: false,
            tuning: false,
            apply: |s, _, v| {
                s.set_limit_strength(as_bool(&v));
                Ok(Changed::Nothing)
            },
        },
        EngineOption {
            name: UCI_ELO,
            kind: OptionType::Spin {
                default: DEFAULT_ELO,
                min: skill::MIN_ELO,
                max: skill::MAX_ELO,
            },
            help: "the strength UCI_LimitStrength plays at, on chess's rating scale (CCRL)",
            needs_idle: false,
            tuning: false,
            apply: |s, _, v| {
                let OptionValue::Spin(elo) = v else {
                    unreachable!("a spin's value is a number")
                };
                s.set_elo(elo);
                Ok(Changed::Nothing)
            },
        },
        EngineOption {
            name: UCI_SHOW_WDL,
            kind: OptionType::Check { default: false },
            help: "report the win, draw and loss chances (per mille) of every score",
            needs_idle: false,
            tuning: false,
            apply: |s, _, v| {
                s.set_show_wdl(as_bool(&v));
                // Only UCI lines carry the chances (XBoard's thinking output has no field for
                // them), and a UCI GUI stops its search before setting options.
                Ok(Changed::Nothing)
            },
        },
    ];
    for rule in all_rule_options() {
        table.push(EngineOption {
            name: rule.name,
            kind: OptionType::Check {
                default: rule.default,
            },
            help: rule.help,
            needs_idle: true,
            tuning: false,
            apply: |s, name, v| s.set_rule_option(name, as_bool(&v)),
        });
    }
    for p in params::PARAMS {
        table.push(EngineOption {
            name: p.name,
            kind: OptionType::Spin {
                default: p.default.into(),
                min: p.min.into(),
                max: p.max.into(),
            },
            help: p.help,
            needs_idle: false,
            tuning: true,
            apply: |s, name, v| {
                let i = params::index_of(name).expect("a tuning option is a search parameter");
                let OptionValue::Spin(n) = v else {
                    unreachable!("a spin's value is a number")
                };
                // The option's range is the parameter's, which fits an i32.
                s.set_search_param(i, n as i32);
                Ok(Changed::Nothing)
            },
        });
    }
    table
}

/// Every rule switch of every variant, once each (the first variant's default wins).
fn all_rule_options() -> Vec<RuleOption> {
    let mut out: Vec<RuleOption> = Vec::new();
    for v in VARIANTS {
        for o in v.game.rule_options {
            if !out.iter().any(|p| p.name.eq_ignore_ascii_case(o.name)) {
                out.push(*o);
            }
        }
    }
    out
}

/// Whether `name` is one of the games' rule switches rather than an engine setting.
pub fn is_rule_switch(name: &str) -> bool {
    VARIANTS
        .iter()
        .flat_map(|v| v.game.rule_options)
        .any(|o| o.name.eq_ignore_ascii_case(name))
}

fn as_bool(v: &OptionValue) -> bool {
    matches!(v, OptionValue::Check(true))
}

/// A spin's value, which its range keeps non-negative for every option read with this.
fn as_usize(v: &OptionValue) -> usize {
    match v {
        OptionValue::Spin(n) => usize::try_from(*n).unwrap_or(0),
        _ => 0,
    }
}

/// Splits a command line's `NAME=VALUE` (spaces around either part are dropped).
pub fn split_name_value(arg: &str) -> Result<(&str, &str), OptionError> {
    arg.split_once('=')
        .map(|(n, v)| (n.trim(), v.trim()))
        .ok_or_else(|| OptionError::NotNameValue(clip(arg)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_fit_their_types() {
        let t = table();
        for (i, o) in t.iter().enumerate() {
            assert!(
                t[..i].iter().all(|p| !p.name.eq_ignore_ascii_case(o.name)),
                "{} declared twice",
                o.name
            );
            match &o.kind {
                OptionType::Spin { default, min, max } => {
                    assert!(min <= default && default <= max, "{}", o.name)
                }
                OptionType::Combo { default, choices } => {
                    assert!(choices.contains(default), "{}", o.name)
                }
                _ => {}
            }
            assert!(!o.help.is_empty(), "{} has no help", o.name);
        }
        for v in VARIANTS {
            for r in v.game.rule_options {
                assert!(find(r.name).is_some(), "rule switch {} missing", r.name);
            }
        }
    }

    #[test]
    fn one_parser_reads_every_front_end() {
        let check = find(USE_NNUE).unwrap();
        for (raw, want) in [
            ("true", true),
            ("FALSE", false),
            ("1", true),
            ("0", false),
            ("on", true),
            ("No", false),
        ] {
            assert_eq!(
                parse_value(check, Some(raw)),
                Ok(OptionValue::Check(want)),
                "{raw}"
            );
        }
        assert_eq!(
            parse_value(check, Some("maybe")),
            Err(OptionError::NotBool {
                name: USE_NNUE,
                value: "maybe".into()
            })
        );
        assert_eq!(
            parse_value(check, None),
            Err(OptionError::MissingValue(USE_NNUE))
        );
        let threads = find("threads").unwrap();
        assert_eq!(parse_value(threads, Some("+4")), Ok(OptionValue::Spin(4)));
        for (raw, out_of_range) in [
            ("0", true),
            ("-3", true),
            ("257", true),
            ("99999999999999999999999", true),
            ("lots", false),
            ("4.5", false),
            ("-", false),
        ] {
            let e = parse_value(threads, Some(raw)).unwrap_err();
            assert_eq!(
                matches!(e, OptionError::OutOfRange { .. }),
                out_of_range,
                "{raw}: {e}"
            );
        }
        assert_eq!(
            parse_value(threads, Some("0")).unwrap_err().to_string(),
            "option Threads: 0 is out of range 1..256; value unchanged"
        );
        let variant = find("uci_variant").unwrap();
        assert_eq!(
            parse_value(variant, Some("CannonShogi")),
            Ok(OptionValue::Text("cannonshogi".into()))
        );
        let e = parse_value(variant, Some("nosuchgame")).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("option UCI_Variant: 'nosuchgame' is not one of chess, cannon"),
            "{e}"
        );
        let file = find(EVAL_FILE).unwrap();
        assert_eq!(
            parse_value(file, Some("<empty>")),
            Ok(OptionValue::Text(String::new()))
        );
        assert_eq!(
            parse_value(find(CLEAR_HASH).unwrap(), None),
            Ok(OptionValue::Press)
        );
    }

    #[test]
    fn name_value_pairs_split_once() {
        assert_eq!(
            split_name_value("Use NNUE = false"),
            Ok(("Use NNUE", "false"))
        );
        assert_eq!(split_name_value("EvalFile=a=b"), Ok(("EvalFile", "a=b")));
        assert_eq!(
            split_name_value("Hash").unwrap_err().to_string(),
            "option 'Hash' is not NAME=VALUE"
        );
    }
}
