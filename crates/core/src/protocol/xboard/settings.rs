//! Options: announced from the engine's option table (`feature option`), set by `option`, and
//! by XBoard's own commands for some of them (`memory`, `cores`, `hard`, `easy`).

use super::{clip, clip_message, XBoard};
use crate::engine::options::{
    self, Changed, EngineOption, OptionError, OptionType, OptionValue, EVAL_FILE, HASH, PONDER,
    THREADS, UCI_VARIANT,
};
use crate::engine::registry::VARIANTS;
use crate::engine::state::EvaluatorNote;

/// The options XBoard sets with commands of its own rather than `option NAME=VALUE`: they are
/// announced by their features (`memory=1`, `smp=1`, `variants`), not as `feature option`s.
pub const NATIVE_OPTIONS: &[(&str, &str)] = &[
    ("memory", HASH),
    ("cores", THREADS),
    ("hard", PONDER),
    ("easy", PONDER),
    ("variant", UCI_VARIANT),
];
/// The `feature option` line for one entry of the option table.
pub fn feature_option(o: &EngineOption) -> String {
    let name = o.name;
    let control = match &o.kind {
        OptionType::Check { default } => format!("-check {}", u8::from(*default)),
        OptionType::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
        OptionType::Combo { default, choices } => {
            // The default first, marked as XBoard marks the current choice.
            let list: Vec<String> = choices
                .iter()
                .map(|c| {
                    if c == default {
                        format!("*{c}")
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            format!("-combo {}", list.join(" /// "))
        }
        OptionType::Text { default } => format!("-string {default}"),
        OptionType::File => "-file ".to_string(),
        OptionType::Button => "-button".to_string(),
    };
    format!("feature option=\"{name} {control}\"")
}

/// An option refused, in XBoard's error form: `Error (reason): command`.
pub(super) fn option_error(e: &OptionError, command: &str) -> String {
    format!(
        "Error ({}): {}",
        clip_message(&e.to_string()),
        clip(command)
    )
}

impl XBoard {
    /// Applies the `memory` and rule `option`s held back while the engine thought.
    pub(super) fn apply_pending(&mut self) {
        if self.thinking() {
            return;
        }
        for (name, value, command) in std::mem::take(&mut self.pending) {
            self.set_option(name, &value, &command);
        }
    }

    pub(super) fn cmd_option(&mut self, arg: &str) {
        let (name, value) = match arg.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (arg.trim(), ""),
        };
        if name.is_empty() {
            return self.say(&format!(
                "Error (option needs a name: 'option NAME=VALUE', names as in the feature \
                 option lines): {}",
                clip(format!("option {arg}").trim_end())
            ));
        }
        let Some(opt) = options::find(name) else {
            return self.say(&format!("Error (unknown option): {}", clip(name)));
        };
        self.option_command(opt.name, value, &format!("option {arg}"));
    }

    /// Sets a table option from an XBoard command (`option`, `memory`, `cores`, `hard`...).
    /// While the engine thinks about its move the option waits until the move is made: any
    /// change of the engine's settings stops its search. A value that would be refused is
    /// refused at once.
    pub(super) fn option_command(&mut self, name: &'static str, value: &str, command: &str) {
        if !self.thinking() {
            return self.set_option(name, value, command);
        }
        if let Some(Err(e)) = options::find(name).map(|o| options::parse_value(o, Some(value))) {
            return self.say(&option_error(&e, command));
        }
        self.pending
            .push((name, value.to_string(), command.to_string()));
    }

    /// Sets an option now, stopping the running analysis or ponder search for it and starting
    /// it again after, and does what the change asks of the adapter.
    pub(super) fn set_option(&mut self, name: &'static str, value: &str, command: &str) {
        // A value that would be refused changes nothing, not even a running search; nor does
        // the table's own size again (`memory` is sent before every game).
        match options::find(name).map(|o| options::parse_value(o, Some(value))) {
            Some(Err(e)) => return self.say(&option_error(&e, command)),
            Some(Ok(OptionValue::Spin(mb)))
                if name == HASH && usize::try_from(mb) == Ok(self.state().hash_mb()) =>
            {
                return
            }
            _ => {}
        }
        let was = self.running.map(|r| r.purpose);
        self.stop_search();
        match self.engine.set_option(name, Some(value)) {
            Err(e) => self.say(&option_error(&e, command)),
            Ok((_, Changed::Evaluator)) => self.tell_evaluator(),
            Ok((_, Changed::Net(net))) => {
                self.say(&format!("# {EVAL_FILE}: {net}"));
                self.tell_evaluator();
            }
            Ok((_, Changed::Rules)) => self.replay_under_new_rules(name, value),
            // Nothing more: an analysis stopped for it starts again below, with the new lines.
            Ok(_) => {}
        }
        self.resume(was);
    }

    /// After a rule switch of the game being played: the game so far is set up again under it.
    pub(super) fn replay_under_new_rules(&mut self, name: &str, value: &str) {
        let moves: Vec<&str> = self.history.iter().map(String::as_str).collect();
        if let Err(e) = self.engine.set_position(self.setup_fen.as_deref(), &moves) {
            self.say(&format!(
                "tellusererror The game so far is not legal with {name}={}: {}",
                clip(value),
                clip_message(&e.to_string())
            ));
        }
    }

    pub(super) fn cmd_protover(&self) {
        self.say("feature done=0");
        let variants: Vec<&str> = VARIANTS.iter().map(|v| v.xboard_name).collect();
        self.say(&format!(
            "feature ping=1 setboard=1 playother=1 usermove=1 draw=1 time=1 reuse=1 analyze=1 \
             exclude=1 highlight=1 memory=1 smp=1 nps=1 colors=0 sigint=0 sigterm=0 san=0 \
             pause=0 debug=1 myname=\"Cannonade {}\" variants=\"{}\"",
            env!("CARGO_PKG_VERSION"),
            variants.join(",")
        ));
        for o in options::announced() {
            if !NATIVE_OPTIONS.iter().any(|(_, n)| *n == o.name) {
                self.say(&feature_option(o));
            }
        }
        self.say("feature done=1");
    }

    /// After a change of the evaluation options: which evaluation the search will use (a
    /// comment line; a popup when the net asked for is missing).
    pub(super) fn tell_evaluator(&self) {
        match self.state().evaluator_note() {
            note @ EvaluatorNote::Missing(_) => self.say(&format!("telluser {note}")),
            note => self.say(&format!("# {note}")),
        }
    }
}
