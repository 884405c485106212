//! What an engine keeps between commands, whichever protocol drives it: the current variant
//! and game, the rule switches the user chose, the transposition table and the search options.
//!
//! Both adapters own one [`EngineState`] and change it only through the methods here, so the
//! rules about these settings (a refused change leaves the last good state; rule switches follow
//! the user to every variant that knows them; a table size the machine cannot give keeps the
//! old size) are written once. Each adapter keeps only its protocol's wording of the answers
//! and its own protocol state (XBoard's clocks, force mode, move history; UCI's `Ponder`).

use crate::engine::options::{
    self, Changed, OptionError, DEFAULT_HASH_MB, EVAL_FILE, USE_NNUE, USE_NNUE_DEFAULT,
};
use crate::engine::registry::{self, VariantInfo};
use crate::engine::Session;
use crate::games::GameError;
use crate::nnue::{NetError, Network};
use crate::search::params::PARAMS;
use crate::search::skill::{self, Skill};
use crate::search::{SearchOptions, TableError, TranspositionTable};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::engine::text::clip;

/// A net and where it came from, for the messages that name it.
#[derive(Clone)]
struct LoadedNet {
    net: Arc<Network>,
    /// `embedded` or the file's path.
    source: String,
}

/// Why a net file was not taken (`EvalFile`); the current net stays.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
#[error("{}; keeping {keeping}", self.what())]
pub struct EvalFileError {
    pub path: String,
    pub reason: NetRefusal,
    /// The net that stays, described.
    pub keeping: String,
}

impl EvalFileError {
    /// The reason, naming the file once (a file that cannot be read is named by its error).
    fn what(&self) -> String {
        match &self.reason {
            NetRefusal::Net(NetError::Io { .. }) => self.reason.to_string(),
            r => format!("{}: {r}", self.path),
        }
    }
}

/// What is wrong with a net file.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum NetRefusal {
    /// It does not load, or does not fit its game (see [`NetError`]).
    #[error(transparent)]
    Net(#[from] NetError),
    #[error("the net was trained for variant '{variant}', which uses the nets of '{owner}'")]
    SharedVariant {
        variant: &'static str,
        owner: &'static str,
    },
    #[error("the net was trained for variant '{0}', which this build does not play")]
    UnknownVariant(String),
}

/// Which evaluation the search will use, as the adapters tell the user after a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvaluatorNote {
    /// The user turned `Use NNUE` on and the current game has no net (the text says so and
    /// what to do); the hand-written evaluation is used.
    Missing(String),
    /// The net used, described.
    Nnue(String),
    /// `Use NNUE` is off.
    HandWritten,
}

impl fmt::Display for EvaluatorNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvaluatorNote::Missing(note) => f.write_str(note),
            EvaluatorNote::Nnue(net) => write!(f, "NNUE evaluation with {net}"),
            EvaluatorNote::HandWritten => f.write_str("hand-written evaluation (Use NNUE is off)"),
        }
    }
}

/// The settings and game both protocol adapters keep (see the module documentation).
pub struct EngineState {
    variant: &'static VariantInfo,
    session: Box<dyn Session>,
    /// Rule switches the user set, by canonical name, applied to every new session that knows
    /// them (a switch of another variant waits for that variant to be chosen).
    rule_values: Vec<(&'static str, bool)>,
    /// Shared with the running search (its threads hold references while they run); the
    /// adapters stop the search before the table is replaced, so its memory goes back first.
    tt: Arc<TranspositionTable>,
    hash_mb: usize,
    opts: SearchOptions,
    /// The `Ponder` option: only tells that the GUI may send ponder searches.
    ponder: bool,
    /// `Skill Level` (0-20), `UCI_LimitStrength` and `UCI_Elo`; the search options' skill
    /// follows them.
    skill_level: i64,
    limit_strength: bool,
    elo: i64,
    /// Where a weakened search's choices start from: drawn when the engine starts and for each
    /// new game, so that games differ; the same seed repeats them.
    skill_seed: u64,
    /// The `Use NNUE` option.
    use_nnue: bool,
    /// The user turned `Use NNUE` on (rather than leaving the default): only then is a
    /// variant without a net worth a message.
    nnue_asked: bool,
    /// The net of the current variant: the user's (`EvalFile`) or the embedded one.
    net: Option<LoadedNet>,
    /// `UCI_ShowWDL`: search reports carry the win chances of their score.
    show_wdl: bool,
    /// Nets the user loaded, by the variant name they carry ([`VariantInfo::net_name`]): a
    /// variant chosen (again) gets its net.
    user_nets: Vec<(&'static str, LoadedNet)>,
    /// The search parameters a user (or a tuner) set by option, by index into
    /// [`PARAMS`](crate::search::params::PARAMS): they hold whatever game is chosen, where the
    /// others follow each game's tuned values ([`VariantInfo::search_params`]).
    param_overrides: [Option<i32>; PARAMS.len()],
}

/// The seed of the engines the command-line tools run ([`EngineState::for_tool`]): a tool's
/// run repeats itself, a weakened search's choices included.
pub const TOOL_SEED: u64 = 0x5eed;

impl EngineState {
    /// The default variant at its start, default options and a table of [`DEFAULT_HASH_MB`].
    /// A weakened search's choices start from `seed`: the embedding program draws it (the
    /// native one from the clock and the process id) so that runs differ, or fixes it to
    /// repeat one.
    pub fn new(seed: u64) -> Self {
        let variant = registry::default_variant();
        let mut state = EngineState {
            variant,
            session: variant.new_session(),
            rule_values: Vec::new(),
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            hash_mb: DEFAULT_HASH_MB,
            opts: SearchOptions::default(),
            ponder: false,
            skill_level: 20,
            limit_strength: false,
            elo: options::DEFAULT_ELO,
            skill_seed: seed,
            use_nnue: USE_NNUE_DEFAULT,
            nnue_asked: false,
            net: None,
            show_wdl: false,
            user_nets: Vec::new(),
            param_overrides: [None; PARAMS.len()],
        };
        state.opts.params = variant.search_params();
        state.choose_net();
        state
    }

    pub fn variant(&self) -> &'static VariantInfo {
        self.variant
    }

    /// Whether search reports carry win chances (`UCI_ShowWDL`).
    pub fn show_wdl(&self) -> bool {
        self.show_wdl
    }

    pub fn set_show_wdl(&mut self, on: bool) {
        self.show_wdl = on;
    }

    /// The evaluation the search would use at the root (the net's where it evaluates, the
    /// hand-written one otherwise) and its win chances, in the words of the `eval` commands.
    pub fn eval_chances_text(&self) -> String {
        let net_cp = self
            .opts
            .nnue
            .as_deref()
            .and_then(|net| self.session.evaluate_nnue(net));
        let (cp, which) = match net_cp {
            Some(cp) => (cp, "NNUE"),
            None => (self.session.evaluate(), "static"),
        };
        let w = self.chances(crate::search::Score::Cp(cp));
        format!(
            "Win chances of the {which} evaluation ({cp} cp): win {:.1}%, draw {:.1}%, \
             loss {:.1}% (side to move; wdl {w})",
            f64::from(w.win) / 10.0,
            f64::from(w.draw) / 10.0,
            f64::from(w.loss) / 10.0
        )
    }

    /// The win chances of `score` in the current game at its current move number (side to
    /// move's view).
    pub fn chances(&self, score: crate::search::Score) -> crate::engine::wdl::Wdl {
        (self.chances_here())(score)
    }

    /// What a search from the current position reports as win chances, when `UCI_ShowWDL` is
    /// on: every line scores this position, so its game and move number hold for all of them.
    /// A function the search thread can take along.
    pub fn search_chances(
        &self,
    ) -> Option<impl Fn(crate::search::Score) -> crate::engine::wdl::Wdl + Send + 'static> {
        self.show_wdl.then(|| self.chances_here())
    }

    fn chances_here(
        &self,
    ) -> impl Fn(crate::search::Score) -> crate::engine::wdl::Wdl + Send + 'static {
        let variant = self.variant.game.name;
        let move_number = crate::engine::wdl::move_number_of(&self.session.fen());
        move |score| crate::engine::wdl::chances_of_score(variant, score, move_number)
    }

    /// The game in progress.
    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    /// The game in progress, to set a position or play a move on (the session itself leaves
    /// the position unchanged when it refuses one).
    pub fn session_mut(&mut self) -> &mut dyn Session {
        self.session.as_mut()
    }

    /// The table, for a search thread to share.
    pub fn table(&self) -> Arc<TranspositionTable> {
        Arc::clone(&self.tt)
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Empties the table by giving its memory back and taking fresh zeroed memory of the same
    /// size: ready at once, where writing zeros over a large table takes seconds, and never
    /// two tables held at once (see [`EngineState::resize_table`]).
    pub fn clear_table(&mut self) {
        let shared = Arc::get_mut(&mut self.tt).is_none();
        if self.renew_table(self.hash_mb).is_err() && shared {
            // Still the old table, with what it held: empty it in place.
            self.tt.clear();
        }
    }

    /// A table of `mb` MB in place of the current one; the same size again changes nothing.
    /// The old table's memory is given back before the new one is taken, so the two are never
    /// held together (twice the memory, and a size refused that would fit alone). A size the
    /// machine cannot give is refused: the table keeps its size, emptied. The range each
    /// protocol allows is its own.
    pub fn resize_table(&mut self, mb: usize) -> Result<(), TableError> {
        if mb == self.hash_mb {
            return Ok(());
        }
        self.renew_table(mb)
    }

    /// A fresh, empty table of `mb` MB. Callers stop the search first: while a search still
    /// holds the table (which only tests do) the new one is taken before the old one is let go,
    /// and on an error the old one is kept as it is.
    fn renew_table(&mut self, mb: usize) -> Result<(), TableError> {
        let Some(tt) = Arc::get_mut(&mut self.tt) else {
            self.tt = Arc::new(TranspositionTable::try_new(mb)?);
            self.hash_mb = mb;
            return Ok(());
        };
        let kept = tt.bytes();
        let result = tt.resize(mb);
        self.hash_mb = match result {
            Ok(()) => mb,
            // The old size again (or, should even that not be had, what could be).
            Err(_) if tt.bytes() == kept => self.hash_mb,
            Err(_) => (tt.bytes() >> 20).max(1),
        };
        result
    }

    /// The options a search is started with.
    pub fn options(&self) -> &SearchOptions {
        &self.opts
    }

    /// The search options, for the option table's actions.
    pub(crate) fn search_options_mut(&mut self) -> &mut SearchOptions {
        &mut self.opts
    }

    pub fn ponder(&self) -> bool {
        self.ponder
    }

    pub(crate) fn set_ponder(&mut self, on: bool) {
        self.ponder = on;
    }

    pub(crate) fn set_skill_level(&mut self, level: i64) {
        self.skill_level = level;
        self.sync_skill();
    }

    pub(crate) fn set_limit_strength(&mut self, on: bool) {
        self.limit_strength = on;
        self.sync_skill();
    }

    pub(crate) fn set_elo(&mut self, elo: i64) {
        self.elo = elo;
        self.sync_skill();
    }

    /// The level the engine plays at: from `UCI_Elo` when `UCI_LimitStrength` is on (as
    /// Stockfish does), else `Skill Level`; 20 is full strength.
    pub fn skill_level(&self) -> f64 {
        if self.limit_strength {
            skill::level_for_elo(self.elo)
        } else {
            self.skill_level as f64
        }
    }

    /// A new seed for a weakened search's choices (a new game); `Some` seed repeats a game,
    /// `None` moves on from the last seed (so games differ, and a run started from the same
    /// seed repeats all of them).
    pub fn reseed(&mut self, seed: Option<u64>) {
        self.skill_seed = seed.unwrap_or_else(|| next_seed(self.skill_seed));
        self.sync_skill();
    }

    fn sync_skill(&mut self) {
        self.opts.skill = Skill::new(self.skill_level(), self.skill_seed);
    }

    /// Sets the option `name` (any case) from its text, as a GUI or a command line sends it
    /// (see [`options::parse_value`]). Returns the option and what the adapter still has to do;
    /// refused, it changes nothing.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(&'static options::EngineOption, Changed), OptionError> {
        let opt = options::find(name).ok_or_else(|| OptionError::Unknown(clip(name)))?;
        let changed = opt.set(self, value)?;
        Ok((opt, changed))
    }

    /// The engine a command-line tool runs for one game: `variant` at its start, with the
    /// `NAME=VALUE` options given (`--option`), each set through the option table, and the seed
    /// [`TOOL_SEED`]. A rule switch of another game is refused here (only one game is played).
    pub fn for_tool(
        variant: &'static VariantInfo,
        settings: &[String],
    ) -> Result<EngineState, OptionError> {
        let mut state = EngineState::new(TOOL_SEED);
        state
            .select_variant(variant)
            .map_err(|e| OptionError::Refused {
                name: options::UCI_VARIANT,
                reason: e.to_string(),
            })?;
        for arg in settings {
            let (name, value) = options::split_name_value(arg)?;
            let opt = options::find(name).ok_or_else(|| OptionError::Unknown(clip(name)))?;
            if options::is_rule_switch(opt.name) && !state.plays_rule_option(opt.name) {
                return Err(OptionError::Refused {
                    name: opt.name,
                    reason: format!("not a rule of {}", variant.game.name),
                });
            }
            opt.set(&mut state, Some(value))?;
        }
        Ok(state)
    }

    /// Turns the learned evaluation on or off. On, it is used only where the current variant
    /// has a net; see [`EngineState::nnue_missing`].
    pub(crate) fn set_use_nnue(&mut self, on: bool) {
        self.use_nnue = on;
        self.nnue_asked = on;
        self.sync_nnue();
    }

    pub fn use_nnue(&self) -> bool {
        self.use_nnue
    }

    /// Loads the net file at `path` and returns how it is described. A net names the variant
    /// it was trained for: a net of the current variant (or of the one it shares nets with) is
    /// used at once; a net of another game this build plays is kept for that game and used when
    /// it is chosen (GUIs and `cannonade match` send their options before they choose the
    /// variant), and the current net stays. A file that cannot be read, is damaged, was made
    /// for a variant this build does not play or for another feature count is refused with the
    /// reason, and the current net stays. An empty path goes back to the net embedded for the
    /// current variant (if any).
    pub(crate) fn load_eval_file(&mut self, path: &str) -> Result<String, EvalFileError> {
        let mine = self.variant.net_name();
        if path.trim().is_empty() {
            self.user_nets.retain(|(v, _)| *v != mine);
            self.choose_net();
            return Ok(self.net_description());
        }
        let refuse = |reason: NetRefusal| EvalFileError {
            path: path.to_string(),
            reason,
            keeping: self.net_description(),
        };
        let net = Network::load(Path::new(path)).map_err(|e| refuse(NetRefusal::Net(e)))?;
        let owner = match registry::find(net.variant()) {
            Some(v) if v.game.name == net.variant() && v.net_name() == v.game.name => v,
            Some(v) if v.game.name == net.variant() => {
                return Err(refuse(NetRefusal::SharedVariant {
                    variant: v.game.name,
                    owner: v.net_name(),
                }))
            }
            _ => {
                return Err(refuse(NetRefusal::UnknownVariant(
                    net.variant().to_string(),
                )))
            }
        };
        let (features, king_buckets) = if owner.net_name() == mine {
            (
                self.session.nnue_feature_count(),
                self.session.nnue_has_king_buckets(),
            )
        } else {
            let session = owner.new_session();
            (
                session.nnue_feature_count(),
                session.nnue_has_king_buckets(),
            )
        };
        net.check_for(owner.net_name(), features)
            .and_then(|()| net.check_king_buckets(king_buckets))
            .map_err(|e| refuse(NetRefusal::Net(e)))?;
        let described = format!(
            "net {path} for {} ({}, {} hidden)",
            owner.game.name,
            net.inputs_in_words(),
            net.hidden()
        );
        let loaded = LoadedNet {
            net: Arc::new(net),
            source: path.to_string(),
        };
        self.user_nets.retain(|(v, _)| *v != owner.game.name);
        self.user_nets.push((owner.game.name, loaded.clone()));
        if owner.game.name != mine {
            return Ok(format!(
                "{described}, kept for when {} is played; {} stays",
                owner.game.name,
                self.net_description()
            ));
        }
        self.net = Some(loaded);
        self.sync_nnue();
        Ok(self.net_description())
    }

    /// Whether the current variant's net is the one loaded from `path` (a net of another game
    /// is kept for that game, not used now).
    pub fn uses_net_from(&self, path: &str) -> bool {
        self.net.as_ref().is_some_and(|l| l.source == path)
    }

    /// The game a net the user loaded from `path` is kept for, if one was.
    pub fn game_of_net_from(&self, path: &str) -> Option<&'static str> {
        self.user_nets
            .iter()
            .find(|(_, l)| l.source == path)
            .map(|(game, _)| *game)
    }

    /// The net of the current variant, if it has one (whether or not `Use NNUE` is on).
    pub fn net(&self) -> Option<&Network> {
        self.net.as_ref().map(|l| l.net.as_ref())
    }

    /// The current variant's net in words: `net FILE for chess (768 features, 256 hidden)`,
    /// or `no net for chess`.
    pub fn net_description(&self) -> String {
        let name = self.variant.game.name;
        match &self.net {
            Some(l) => format!(
                "net {} for {name} ({}, {} hidden)",
                l.source,
                l.net.inputs_in_words(),
                l.net.hidden()
            ),
            None => format!("no net for {name}"),
        }
    }

    /// What to tell the user who turned `Use NNUE` on when the current variant has no net
    /// (the hand-written evaluation is used then); `None` otherwise, and `None` when the
    /// option is on only by default: a game without a net (a new game, until a net of its own
    /// wins) would bring a popup on each choice of it, telling a player nothing they asked
    /// about.
    pub fn nnue_missing(&self) -> Option<String> {
        (self.use_nnue && self.nnue_asked && self.net.is_none()).then(|| {
            format!(
                "{USE_NNUE}: variant {} has no net (none is embedded in this build; set \
                 {EVAL_FILE} to a net trained for it); the hand-written evaluation is used",
                self.variant.game.name
            )
        })
    }

    /// Which evaluation the search will use, for the message after a change of the
    /// evaluation options.
    pub fn evaluator_note(&self) -> EvaluatorNote {
        if let Some(note) = self.nnue_missing() {
            EvaluatorNote::Missing(note)
        } else if self.use_nnue {
            EvaluatorNote::Nnue(self.net_description())
        } else {
            EvaluatorNote::HandWritten
        }
    }

    /// The current variant's net: the one the user loaded for it, else the embedded one.
    fn choose_net(&mut self) {
        let name = self.variant.net_name();
        self.net = match self.user_nets.iter().find(|(v, _)| *v == name) {
            Some((_, l)) => Some(l.clone()),
            None => self
                .variant
                .embedded_net(self.session.nnue_feature_count())
                .map(|net| LoadedNet {
                    net: Arc::new(net),
                    source: "embedded".to_string(),
                }),
        };
        self.sync_nnue();
    }

    /// The search options follow `Use NNUE` and the current net.
    fn sync_nnue(&mut self) {
        self.opts.nnue = if self.use_nnue {
            self.net.as_ref().map(|l| Arc::clone(&l.net))
        } else {
            None
        };
    }

    /// Whether the current game has the rule switch `name` (canonical spelling).
    pub fn plays_rule_option(&self, name: &str) -> bool {
        self.session.rule_options().iter().any(|o| o.name == name)
    }

    /// Sets a rule switch (canonical name, from the option table): on the current game if it
    /// has it, and on every game chosen later that has it. The current game takes it from the
    /// next position set up ([`Changed::Rules`]: the adapter sets the game up again). Refused,
    /// it changes nothing.
    pub(crate) fn set_rule_option(
        &mut self,
        name: &'static str,
        value: bool,
    ) -> Result<Changed, OptionError> {
        let plays = self.plays_rule_option(name);
        if plays {
            self.session
                .set_rule_option(name, value)
                .map_err(|e| OptionError::Refused {
                    name,
                    reason: e.to_string(),
                })?;
        }
        self.rule_values.retain(|(n, _)| *n != name);
        self.rule_values.push((name, value));
        Ok(if plays {
            Changed::Rules
        } else {
            Changed::Nothing
        })
    }

    /// Every rule switch of the current game with its value (the user's, or the default).
    pub fn rule_values(&self) -> Vec<(&'static str, bool)> {
        self.session
            .rule_options()
            .iter()
            .map(|o| {
                let set = self.rule_values.iter().find(|(n, _)| *n == o.name);
                (o.name, set.map_or(o.default, |(_, v)| *v))
            })
            .collect()
    }

    /// A fresh game of `info` at its start, with the user's rule switches.
    fn new_session(&self, info: &'static VariantInfo) -> Result<Box<dyn Session>, GameError> {
        let mut session = info.new_session();
        for (name, value) in &self.rule_values {
            if session.rule_options().iter().any(|o| o.name == *name) {
                session.set_rule_option(name, *value)?;
            }
        }
        Ok(session)
    }

    /// Switches to a new game of `info` at its start position, with the user's rule switches;
    /// the table is left alone (whether a new game empties it is the protocol's choice). On an
    /// error the current game goes on.
    pub fn select_variant(&mut self, info: &'static VariantInfo) -> Result<(), GameError> {
        self.session = self.new_session(info)?;
        self.variant = info;
        self.choose_net();
        self.apply_search_params();
        Ok(())
    }

    /// Sets search parameter `i` (an index into [`PARAMS`]) by option: it holds from now on,
    /// whatever game is chosen. The caller keeps it in the parameter's range.
    pub(crate) fn set_search_param(&mut self, i: usize, value: i32) {
        self.param_overrides[i] = Some(value);
        self.apply_search_params();
    }

    /// The search's parameters: the current game's, with those set by option in their place.
    fn apply_search_params(&mut self) {
        let mut params = self.variant.search_params();
        for (i, value) in self.param_overrides.iter().enumerate() {
            if let Some(v) = value {
                params.set(i, *v);
            }
        }
        self.opts.params = params;
    }
}

/// The seed after `seed` (one step of SplitMix64): every seed leads to another, far from it.
fn next_seed(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Notation;

    /// A game without a net plays with the hand-written evaluation whatever `Use NNUE` says,
    /// and says so only to a user who turned the option on: again when such a game is chosen
    /// later, never for a game with a net, never once the option is off.
    #[test]
    fn a_game_without_a_net_is_hand_written_and_told_only_to_who_asked() {
        let mut s = EngineState::new(1);
        assert!(
            s.options().nnue.is_some(),
            "chess is searched with its net by default"
        );
        let bare = registry::find("cannonshogi").unwrap().without_net();
        s.select_variant(bare).unwrap();
        assert!(s.net().is_none() && s.options().nnue.is_none());
        assert_eq!(s.net_description(), "no net for cannonshogi");
        assert_eq!(s.nnue_missing(), None, "on by default: nothing to tell");
        s.set_use_nnue(true);
        assert!(s.options().nnue.is_none());
        let told = s.nnue_missing().expect("the user asked for a net");
        assert!(
            told.starts_with("Use NNUE: variant cannonshogi has no net")
                && told.ends_with("the hand-written evaluation is used"),
            "{told}"
        );
        let with_net = registry::find("cannon").unwrap();
        s.select_variant(with_net).unwrap();
        assert!(s.options().nnue.is_some() && s.nnue_missing().is_none());
        s.select_variant(bare).unwrap();
        assert!(s.nnue_missing().is_some(), "chosen again, told again");
        s.set_use_nnue(false);
        assert!(s.nnue_missing().is_none() && s.options().nnue.is_none());
    }

    /// Perft 2 of a crowded Cannon middle game under a state whose user chose
    /// `CannonClearShot=clear` before choosing the game (docs/rules/cannon.md counts 1505
    /// leaves without the switch, 1504 with it).
    fn cannon_middle_game_perft_2(clear: bool) -> u64 {
        let mut s = EngineState::new(1);
        let opt = options::find("cannonclearshot").unwrap();
        assert!(!s.plays_rule_option(opt.name));
        // Chosen while another game is played: remembered, not refused.
        let (_, changed) = s
            .set_option("cannonclearshot", Some(if clear { "1" } else { "false" }))
            .unwrap();
        assert_eq!(changed, Changed::Nothing, "not this game's rule");
        let cannon = registry::VARIANTS
            .iter()
            .find(|v| v.game.rule_options.iter().any(|o| o.name == opt.name))
            .unwrap();
        s.select_variant(cannon).unwrap();
        assert!(std::ptr::eq(s.variant(), cannon));
        let fen =
            "3t6/1s1s3s1s/1s1s1s4/3s1S1s2/2S1s1S3/s2S2S3/S3S1S1S1/S1S3S3/S1S1s5/6T3[] w - - 0 12";
        s.session_mut()
            .set_position(Some(fen), &[], Notation::Uci)
            .unwrap();
        s.session()
            .perft_divide(&crate::host::SingleThread::manual(), 2, 1, Notation::Uci)
            .total
    }

    #[test]
    fn rule_switches_follow_the_user_to_the_variants_that_have_them() {
        assert_eq!(cannon_middle_game_perft_2(false), 1505);
        assert_eq!(cannon_middle_game_perft_2(true), 1504);
    }

    /// Each game is searched with its own tuned margins, and a margin set by option holds
    /// through every change of game, whichever came first.
    #[test]
    fn each_game_has_its_margins_and_an_option_outlasts_them() {
        let chess = registry::find("chess").unwrap();
        let shogi = registry::find("cannonshogi").unwrap().with_tuned_search(&[
            ("RazorBase", 96),
            ("RazorMargin", 345),
            ("LmrDivisor", 172),
        ]);
        assert_eq!(shogi.search_params().razor_base, 96);
        assert_eq!(shogi.search_params().lmr_divisor, 172);
        // What the list does not name keeps the default of `search/params.rs`.
        let rfp = crate::search::params::index_of("RfpMargin").unwrap();
        assert_eq!(shogi.search_params().get(rfp), PARAMS[rfp].default);
        let mut s = EngineState::new(1);
        assert_eq!(s.options().params, chess.search_params());
        s.select_variant(shogi).unwrap();
        assert_eq!(s.options().params, shogi.search_params());
        s.select_variant(chess).unwrap();
        assert_eq!(s.options().params, chess.search_params());

        let (name, tuned) = shogi.tuned_search[0];
        let i = crate::search::params::index_of(name).unwrap();
        let mine = PARAMS[i].min;
        assert!(mine != tuned && mine != PARAMS[i].default);
        s.set_option(name, Some(&mine.to_string())).unwrap();
        for v in [shogi, chess, shogi] {
            s.select_variant(v).unwrap();
            let mut want = v.search_params();
            want.set(i, mine);
            assert_eq!(s.options().params, want, "{}", v.game.name);
        }
        // A refused value changes nothing.
        assert!(s.set_option(name, Some("100000")).is_err());
        assert_eq!(s.options().params.get(i), mine);
    }

    #[test]
    fn a_tool_takes_its_options_through_the_table() {
        let cannon = registry::find("cannon").unwrap();
        let s = EngineState::for_tool(cannon, &["Hash=2".into(), "cannonclearshot = on".into()])
            .unwrap();
        assert_eq!(s.hash_mb(), 2);
        assert!(s.rule_values().contains(&("CannonClearShot", true)));
        for (bad, says) in [
            ("NoSuchRule=1", "unknown option 'NoSuchRule'"),
            ("Hash", "option 'Hash' is not NAME=VALUE"),
            (
                "Hash=0",
                "option Hash: 0 is out of range 1..1048576; value unchanged",
            ),
            (
                "CannonClearShot=maybe",
                "option CannonClearShot: 'maybe' is not true or false",
            ),
        ] {
            let e = EngineState::for_tool(cannon, &[bad.into()]).err().unwrap();
            assert_eq!(e.to_string(), says, "{bad}");
        }
        // One game is played: a switch of another game is refused, not kept for later.
        let chess = registry::find("chess").unwrap();
        let e = EngineState::for_tool(chess, &["CannonClearShot=true".into()])
            .err()
            .unwrap();
        assert_eq!(e.to_string(), "option CannonClearShot: not a rule of chess");
    }

    #[test]
    fn refused_settings_change_nothing() {
        let mut s = EngineState::new(1);
        let threads = s.set_option("threads", Some("0")).unwrap_err();
        assert!(matches!(threads, OptionError::OutOfRange { max: 256, .. }));
        let multipv = s.set_option("MultiPV", Some("257")).unwrap_err();
        assert!(matches!(multipv, OptionError::OutOfRange { max: 256, .. }));
        assert!(s.set_option("Use NNUE", Some("maybe")).is_err());
        assert!(s.set_option("No Such Option", Some("1")).is_err());
        assert_eq!(s.options().threads, 1);
        assert_eq!(s.options().multipv, 1);
        assert!(s.options().nnue.is_some());
        assert_eq!(
            s.set_option("threads", Some("3")).unwrap().0.name,
            options::THREADS
        );
        assert_eq!(s.options().threads, 3);
        // A size no machine can give keeps the old table.
        let before = s.table();
        assert!(s.resize_table(usize::MAX >> 20).is_err());
        assert_eq!(s.hash_mb(), DEFAULT_HASH_MB);
        assert!(Arc::ptr_eq(&before, &s.table()));
        // The same size again keeps the table (and what it holds).
        s.resize_table(DEFAULT_HASH_MB).unwrap();
        assert!(Arc::ptr_eq(&before, &s.table()));
        // With no search holding the table, its memory goes back first; a refused size
        // leaves a table of the old size.
        drop(before);
        assert!(s.resize_table(usize::MAX >> 20).is_err());
        assert_eq!(s.hash_mb(), DEFAULT_HASH_MB);
        assert_eq!(s.table().bytes(), DEFAULT_HASH_MB << 20);
        s.resize_table(3).unwrap();
        assert_eq!((s.hash_mb(), s.table().bytes()), (3, 3 << 20));
        s.clear_table();
        assert_eq!((s.hash_mb(), s.table().bytes()), (3, 3 << 20));
    }
}
