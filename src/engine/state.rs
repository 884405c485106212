//! What an engine keeps between commands, whichever protocol drives it: the current variant
//! and game, the rule switches the user chose, the transposition table and the search options.
//!
//! Both adapters own one [`EngineState`] and change it only through the methods here, so the
//! rules about these settings (a refused change leaves the last good state; rule switches follow
//! the user to every variant that knows them; a table size the machine cannot give keeps the
//! old size) are written once. Each adapter keeps only its protocol's wording of the answers
//! and its own protocol state (XBoard's clocks, force mode, move history; UCI's `Ponder`).

use crate::engine::registry::{self, VariantInfo, VARIANTS};
use crate::engine::Session;
use crate::games::RuleOption;
use crate::nnue::Network;
use crate::search::{SearchOptions, TranspositionTable};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The table size a new engine starts with, in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// The most search threads either protocol accepts.
pub const MAX_THREADS: usize = 256;
/// The most lines (MultiPV) either protocol accepts.
pub const MAX_MULTIPV: usize = 256;

/// The engine option that switches evaluation to material alone: the baseline each game's
/// evaluation is measured against in matches (see `SearchOptions::material_only`).
pub const EVAL_MATERIAL_ONLY: &str = "EvalMaterialOnly";

/// The engine option that turns the learned evaluation on (UCI `Use NNUE`, the same XBoard
/// option).
pub const USE_NNUE: &str = "Use NNUE";

/// `Use NNUE` is on by default: a variant evaluates with its net where one is embedded (one
/// becomes embedded only when it beats the hand-written evaluation in games, docs/nnue.md)
/// and with the hand-written evaluation where none is.
pub const USE_NNUE_DEFAULT: bool = true;

/// The engine option naming a net file to evaluate the current variant with (UCI `EvalFile`,
/// the same XBoard option).
pub const EVAL_FILE: &str = "EvalFile";

/// A net and where it came from, for the messages that name it.
#[derive(Clone)]
struct LoadedNet {
    net: Arc<Network>,
    /// `embedded` or the file's path.
    source: String,
}

/// A value outside the range an option accepts; the option keeps its value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    pub min: usize,
    pub max: usize,
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
    /// The `Use NNUE` option.
    use_nnue: bool,
    /// The user turned `Use NNUE` on (rather than leaving the default): only then is a
    /// variant without a net worth a message.
    nnue_asked: bool,
    /// The net of the current variant: the user's (`EvalFile`) or the embedded one.
    net: Option<LoadedNet>,
    /// Nets the user loaded, by the variant name they carry ([`VariantInfo::net_name`]): a
    /// variant chosen (again) gets its net.
    user_nets: Vec<(&'static str, LoadedNet)>,
}

impl Default for EngineState {
    fn default() -> Self {
        Self::new()
    }
}

impl EngineState {
    /// The default variant at its start, default options and a table of [`DEFAULT_HASH_MB`].
    pub fn new() -> Self {
        let variant = registry::default_variant();
        let mut state = EngineState {
            variant,
            session: variant.new_session(),
            rule_values: Vec::new(),
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            hash_mb: DEFAULT_HASH_MB,
            opts: SearchOptions::default(),
            use_nnue: USE_NNUE_DEFAULT,
            nnue_asked: false,
            net: None,
            user_nets: Vec::new(),
        };
        state.choose_net();
        state
    }

    pub fn variant(&self) -> &'static VariantInfo {
        self.variant
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
    pub fn resize_table(&mut self, mb: usize) -> Result<(), String> {
        if mb == self.hash_mb {
            return Ok(());
        }
        self.renew_table(mb)
    }

    /// A fresh, empty table of `mb` MB. Callers stop the search first: while a search still
    /// holds the table (which only tests do) the new one is taken before the old one is let go,
    /// and on an error the old one is kept as it is.
    fn renew_table(&mut self, mb: usize) -> Result<(), String> {
        let Some(tt) = Arc::get_mut(&mut self.tt) else {
            self.tt = Arc::new(TranspositionTable::try_new(mb).map_err(|e| e.to_string())?);
            self.hash_mb = mb;
            return Ok(());
        };
        let kept = tt.bytes();
        let result = tt.resize(mb).map_err(|e| e.to_string());
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

    pub fn set_threads(&mut self, n: usize) -> Result<(), OutOfRange> {
        self.opts.threads = in_range(n, 1, MAX_THREADS)?;
        Ok(())
    }

    pub fn set_multipv(&mut self, n: usize) -> Result<(), OutOfRange> {
        self.opts.multipv = in_range(n, 1, MAX_MULTIPV)?;
        Ok(())
    }

    /// Time kept back from every move; the protocol that offers it bounds it.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.opts.move_overhead = overhead;
    }

    pub fn set_material_only(&mut self, on: bool) {
        self.opts.material_only = on;
    }

    /// Turns the learned evaluation on or off. On, it is used only where the current variant
    /// has a net; see [`EngineState::nnue_missing`].
    pub fn set_use_nnue(&mut self, on: bool) {
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
    pub fn load_eval_file(&mut self, path: &str) -> Result<String, String> {
        let mine = self.variant.net_name();
        if path.trim().is_empty() {
            self.user_nets.retain(|(v, _)| *v != mine);
            self.choose_net();
            return Ok(self.net_description());
        }
        let refuse = |e: String| {
            format!(
                "{EVAL_FILE} {path}: {e}; keeping {}",
                self.net_description()
            )
        };
        let net = Network::load(Path::new(path)).map_err(|e| refuse(e.to_string()))?;
        let owner = match registry::find(net.variant()) {
            Some(v) if v.game.name == net.variant() && v.net_name() == v.game.name => v,
            Some(v) if v.game.name == net.variant() => {
                return Err(refuse(format!(
                    "the net was trained for variant '{}', which uses the nets of '{}'",
                    v.game.name,
                    v.net_name()
                )))
            }
            _ => {
                return Err(refuse(format!(
                    "the net was trained for variant '{}', which this build does not play",
                    net.variant()
                )))
            }
        };
        let features = if owner.net_name() == mine {
            self.session.nnue_feature_count()
        } else {
            owner.new_session().nnue_feature_count()
        };
        net.check_for(owner.net_name(), features)
            .map_err(|e| refuse(e.to_string()))?;
        let described = format!(
            "net {path} for {} ({} features, {} hidden)",
            owner.game.name,
            net.feature_count(),
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
                "net {} for {name} ({} features, {} hidden)",
                l.source,
                l.net.feature_count(),
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

    /// Every rule switch of every variant, once each (the first variant's default wins): the
    /// options both protocols announce, whatever variant is played.
    pub fn all_rule_options() -> Vec<RuleOption> {
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

    /// The rule switch of some variant called `name` (case-insensitive).
    pub fn find_rule_option(name: &str) -> Option<RuleOption> {
        Self::all_rule_options()
            .into_iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }

    /// Whether the current game has the rule switch `name` (canonical spelling).
    pub fn plays_rule_option(&self, name: &str) -> bool {
        self.session.rule_options().iter().any(|o| o.name == name)
    }

    /// Sets a rule switch (canonical name, from [`Self::find_rule_option`]): on the current
    /// game if it has it, and on every game chosen later that has it. The current game takes
    /// it from the next position set up. Refused, it changes nothing.
    pub fn set_rule_option(&mut self, name: &'static str, value: bool) -> Result<(), String> {
        if self.plays_rule_option(name) {
            self.session
                .set_rule_option(name, value)
                .map_err(|e| format!("option {name}: {e}"))?;
        }
        self.rule_values.retain(|(n, _)| *n != name);
        self.rule_values.push((name, value));
        Ok(())
    }

    /// A fresh game of `info` at its start, with the user's rule switches.
    fn new_session(&self, info: &'static VariantInfo) -> Result<Box<dyn Session>, String> {
        let mut session = info.new_session();
        for (name, value) in &self.rule_values {
            if session.rule_options().iter().any(|o| o.name == *name) {
                session
                    .set_rule_option(name, *value)
                    .map_err(|e| format!("option {name}: {e}"))?;
            }
        }
        Ok(session)
    }

    /// Switches to a new game of `info` at its start position, with the user's rule switches;
    /// the table is left alone (whether a new game empties it is the protocol's choice). On an
    /// error the current game goes on.
    pub fn select_variant(&mut self, info: &'static VariantInfo) -> Result<(), String> {
        self.session = self.new_session(info)?;
        self.variant = info;
        self.choose_net();
        Ok(())
    }
}

fn in_range(n: usize, min: usize, max: usize) -> Result<usize, OutOfRange> {
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(OutOfRange { min, max })
    }
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
        let mut s = EngineState::new();
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
        let mut s = EngineState::new();
        let opt = EngineState::find_rule_option("cannonclearshot").unwrap();
        assert!(!s.plays_rule_option(opt.name));
        // Chosen while another game is played: remembered, not refused.
        s.set_rule_option(opt.name, clear).unwrap();
        let cannon = VARIANTS
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
            .perft_divide(2, 1, Notation::Uci)
            .iter()
            .map(|(_, n)| n)
            .sum()
    }

    #[test]
    fn rule_switches_follow_the_user_to_the_variants_that_have_them() {
        assert_eq!(cannon_middle_game_perft_2(false), 1505);
        assert_eq!(cannon_middle_game_perft_2(true), 1504);
    }

    #[test]
    fn refused_settings_change_nothing() {
        let mut s = EngineState::new();
        assert_eq!(
            s.set_threads(0),
            Err(OutOfRange {
                min: 1,
                max: MAX_THREADS
            })
        );
        assert_eq!(s.set_multipv(MAX_MULTIPV + 1).unwrap_err().max, MAX_MULTIPV);
        assert_eq!(s.options().threads, 1);
        assert_eq!(s.options().multipv, 1);
        // A size no machine can give keeps the old table.
        let before = s.table();
        assert!(s.resize_table(usize::MAX / (1 << 21)).is_err());
        assert_eq!(s.hash_mb(), DEFAULT_HASH_MB);
        assert!(Arc::ptr_eq(&before, &s.table()));
        // The same size again keeps the table (and what it holds).
        s.resize_table(DEFAULT_HASH_MB).unwrap();
        assert!(Arc::ptr_eq(&before, &s.table()));
        // With no search holding the table, its memory goes back first; a refused size
        // leaves a table of the old size.
        drop(before);
        assert!(s.resize_table(usize::MAX / (1 << 21)).is_err());
        assert_eq!(s.hash_mb(), DEFAULT_HASH_MB);
        assert_eq!(s.table().bytes(), DEFAULT_HASH_MB << 20);
        s.resize_table(3).unwrap();
        assert_eq!((s.hash_mb(), s.table().bytes()), (3, 3 << 20));
        s.clear_table();
        assert_eq!((s.hash_mb(), s.table().bytes()), (3, 3 << 20));
    }
}
