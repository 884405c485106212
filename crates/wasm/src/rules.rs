//! The rules API's logic, in plain Rust: every answer is the core's (the [`Session`] facade and
//! the registry), turned into the JSON the page reads. Nothing here decides a rule; it only
//! names squares, moves and endings the way the page's JavaScript wants them. The wasm-bindgen
//! layer ([`crate::bindings`]) hands these answers to JavaScript; the tests run them natively.

use cannonade_core::board::Color;
use cannonade_core::engine::look::HandStyle;
use cannonade_core::engine::registry::{self, VariantInfo, VARIANTS};
use cannonade_core::engine::{Coord, MoveFacts, Session};
use cannonade_core::games::{EndReason, GameError, Notation, Outcome};
use serde::Serialize;

/// Why the rules API refused something: the native engine's words for the same input.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    #[error(transparent)]
    Game(#[from] GameError),
    /// A variant name the registry does not know (the native `--variant` wording).
    #[error("unknown variant '{0}' (see `cannonade variants`)")]
    UnknownVariant(String),
    /// Headers for `pgn` that are not a JSON object of strings.
    #[error("PGN headers: {0}")]
    Headers(String),
    /// A game of a PGN text that could not be read: its number in the text and its line.
    #[error("game {number} (line {line}): {reason}")]
    Pgn {
        number: usize,
        line: usize,
        reason: Box<RulesError>,
    },
    /// A review that cannot be made of what it was given.
    #[error("review: {0}")]
    Review(String),
}

/// One variant as the page sees it: what the registry says about it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct VariantJson {
    pub name: &'static str,
    pub full_name: &'static str,
    pub files: usize,
    pub ranks: usize,
    pub start_fen: &'static str,
    pub hand_kinds: HandKinds,
    pub xboard_name: &'static str,
    /// The game every chess program knows (orthodox chess): PGN files need no `Variant` tag.
    pub standard: bool,
    /// Fairy-Stockfish's board template (`fairy`, `shogi`).
    pub template: &'static str,
    pub rule_options: Vec<RuleOptionJson>,
}

/// The kinds of piece a hand (pocket) can hold, upper-case letters, for each side.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct HandKinds {
    pub white: Vec<String>,
    pub black: Vec<String>,
}

#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct RuleOptionJson {
    pub name: &'static str,
    pub default: bool,
    pub help: &'static str,
}

/// The letters of the pieces a game's hand can hold. The registry's look of the game says
/// which pictures its hand shows ([`cannonade_core::engine::look::BoardLook::hand_slots`]): for a
/// game whose hand is filled by captures or holds pieces to be placed, they are exactly the
/// pieces that can be in hand. For gating (Swedish Cannon Chess) the slots are XBoard's
/// holdings layout, wider than the hand: there the hand holds the pieces of the start
/// position's hand, and nothing else ever enters it.
fn hand_kinds(info: &'static VariantInfo) -> Vec<String> {
    let Some(look) = &info.look else {
        return Vec::new();
    };
    let letters: Vec<char> = match look.hand {
        HandStyle::None => Vec::new(),
        HandStyle::CapturesToHand | HandStyle::PlacedOnly => look
            .images
            .iter()
            .take(look.hand_slots)
            .map(|&(c, _)| c)
            .collect(),
        HandStyle::Gating => {
            let board = info.game.start_fen.split(' ').next().unwrap_or("");
            let hand = board
                .split_once('[')
                .map_or("", |(_, h)| h.trim_end_matches(']'));
            let mut v: Vec<char> = hand.chars().map(|c| c.to_ascii_uppercase()).collect();
            v.dedup();
            v
        }
    };
    letters.into_iter().map(String::from).collect()
}

/// Every variant of the build, in the registry's order.
pub fn variants() -> Vec<VariantJson> {
    VARIANTS
        .iter()
        .map(|v| {
            let kinds = hand_kinds(v);
            VariantJson {
                name: v.game.name,
                full_name: v.full_name,
                files: v.game.files,
                ranks: v.game.ranks,
                start_fen: v.game.start_fen,
                hand_kinds: HandKinds {
                    white: kinds.clone(),
                    black: kinds,
                },
                xboard_name: v.xboard_name,
                standard: v.standard,
                template: v.gui_template,
                rule_options: v
                    .game
                    .rule_options
                    .iter()
                    .map(|o| RuleOptionJson {
                        name: o.name,
                        default: o.default,
                        help: o.help,
                    })
                    .collect(),
            }
        })
        .collect()
}

/// One legal move as the page sees it (see [`MoveFacts`]), squares named in UCI notation.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MoveJson {
    pub uci: String,
    /// SAN where the game has it, else the UCI string (what PGN files write).
    pub san: String,
    pub xboard: String,
    pub from: Option<String>,
    pub to: String,
    pub legs: Vec<String>,
    pub promotion_choice: bool,
    pub drop: Option<String>,
    pub piece: Option<String>,
    pub capture: bool,
    pub to_occupied: bool,
    pub changed: Vec<String>,
    pub displaced: Option<String>,
}

/// How a finished game ended.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct OutcomeJson {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// `white`, `black`, or null for a draw.
    pub winner: Option<&'static str>,
    /// The typed reason, named in lower camel case (`checkmate`, `townTaken`).
    pub reason: &'static str,
    /// The words PGN comments and result claims use (`White mates`, `Draw by repetition`).
    pub text: String,
}

/// The name of a reason for JavaScript. Every reason is listed: a new one is a compile error
/// here until it is named.
pub fn reason_name(r: EndReason) -> &'static str {
    match r {
        EndReason::Checkmate => "checkmate",
        EndReason::Stalemate => "stalemate",
        EndReason::NoLegalMove => "noLegalMove",
        EndReason::TownTaken => "townTaken",
        EndReason::Repetition => "repetition",
        EndReason::PerpetualCheck => "perpetualCheck",
        EndReason::FiftyMoveRule => "fiftyMoveRule",
        EndReason::InsufficientMaterial => "insufficientMaterial",
    }
}

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A game the page plays through: a session of the core, its start and the moves played.
pub struct RulesGame {
    info: &'static VariantInfo,
    session: Box<dyn Session>,
    /// The FEN it started from, as the engine writes it (`None`: the variant's start
    /// position).
    start: Option<String>,
    /// The moves played since, in UCI notation as the engine writes them.
    moves: Vec<String>,
    /// The same moves in the game's PGN notation.
    sans: Vec<String>,
}

impl RulesGame {
    /// A new game of `variant` from its start position or from `fen`.
    pub fn new(variant: &str, fen: Option<&str>) -> Result<RulesGame, RulesError> {
        let info =
            registry::find(variant).ok_or_else(|| RulesError::UnknownVariant(variant.into()))?;
        let mut session = info.new_session();
        session.set_position(fen, &[], Notation::Uci)?;
        // As the engine writes it (a PGN's FEN tag, the start of an undo).
        let start = fen.map(|_| session.fen());
        Ok(RulesGame {
            info,
            session,
            start,
            moves: Vec::new(),
            sans: Vec::new(),
        })
    }

    pub fn variant(&self) -> &'static str {
        self.info.game.name
    }

    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    pub fn fen(&self) -> String {
        self.session.fen()
    }

    pub fn start_fen(&self) -> Option<&str> {
        self.start.as_deref()
    }

    pub fn side_to_move(&self) -> &'static str {
        color_name(self.session.side_to_move())
    }

    pub fn in_check(&self) -> bool {
        self.session.in_check()
    }

    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    fn square(&self, c: Coord) -> String {
        Notation::Uci.square_name(c, self.info.game.ranks)
    }

    fn move_json(&self, f: MoveFacts) -> MoveJson {
        MoveJson {
            from: f.from.map(|c| self.square(c)),
            to: self.square(f.to),
            legs: f.legs.iter().map(|&c| self.square(c)).collect(),
            promotion_choice: f.promotion_choice,
            drop: f.drop.map(String::from),
            piece: f.piece,
            capture: f.capture,
            to_occupied: f.to_occupied,
            changed: f.changed.iter().map(|&c| self.square(c)).collect(),
            displaced: f.displaced.map(|c| self.square(c)),
            uci: f.text.uci,
            san: f.text.pgn,
            xboard: f.text.xboard,
        }
    }

    /// Every legal move, in the engine's generation order.
    pub fn legal_moves(&self) -> Vec<MoveJson> {
        self.session
            .move_facts()
            .into_iter()
            .map(|f| self.move_json(f))
            .collect()
    }

    /// Plays a move given in UCI notation; returns its facts (as they were before it was
    /// played). An illegal move changes nothing.
    pub fn play(&mut self, mv: &str) -> Result<MoveJson, RulesError> {
        let facts = self.session.facts_of(mv, Notation::Uci)?;
        self.session.play(&facts.text.uci, Notation::Uci)?;
        self.moves.push(facts.text.uci.clone());
        self.sans.push(facts.text.pgn.clone());
        Ok(self.move_json(facts))
    }

    /// Takes back the last move played; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Result<Option<String>, RulesError> {
        let Some(last) = self.moves.last().cloned() else {
            return Ok(None);
        };
        let keep: Vec<&str> = self.moves[..self.moves.len() - 1]
            .iter()
            .map(String::as_str)
            .collect();
        // The same moves were legal when played, so replaying all but the last cannot fail;
        // if it did, the game stays as it was.
        self.session
            .set_position(self.start.as_deref(), &keep, Notation::Uci)?;
        self.moves.pop();
        self.sans.pop();
        Ok(Some(last))
    }

    /// The moves played, in the game's PGN notation.
    pub fn sans(&self) -> &[String] {
        &self.sans
    }

    pub fn info(&self) -> &'static VariantInfo {
        self.info
    }

    /// The game as PGN (see [`crate::pgn::write`]), with `headers` (a JSON object of strings)
    /// over the tags it writes itself.
    pub fn pgn(&self, headers: &serde_json::Value) -> Result<String, RulesError> {
        crate::pgn::write(self, &crate::pgn::Headers::from_json(headers)?)
    }

    pub fn outcome(&self) -> Option<OutcomeJson> {
        let o: Outcome = self.session.outcome()?;
        let side = self.session.side_to_move();
        Some(OutcomeJson {
            result: o.result_string(side),
            winner: o.winner(side).map(color_name),
            reason: reason_name(o.reason()),
            text: o.comment(side),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_follow_the_registry() {
        let vs = variants();
        assert_eq!(vs.len(), VARIANTS.len());
        let names: Vec<&str> = vs.iter().map(|v| v.name).collect();
        assert_eq!(names[0], "chess");
        let shogi = vs.iter().find(|v| v.name == "cannonshogi").unwrap();
        assert_eq!((shogi.files, shogi.ranks), (9, 9));
        assert_eq!(shogi.hand_kinds.white.len(), 11);
        assert!(shogi.hand_kinds.white.contains(&"P".to_string()));
        let swedish = vs.iter().find(|v| v.name == "swedishcannon").unwrap();
        assert_eq!(swedish.hand_kinds.white, vec!["C".to_string()]);
        let cannon = vs.iter().find(|v| v.name == "cannon").unwrap();
        assert_eq!(cannon.hand_kinds.black, vec!["T".to_string()]);
        assert!(vs
            .iter()
            .find(|v| v.name == "chess")
            .unwrap()
            .hand_kinds
            .white
            .is_empty());
        let json = serde_json::to_string(&vs).unwrap();
        assert!(json.contains("\"fullName\":\"Cannon Shogi\""), "{json}");
        assert!(json.contains("\"startFen\":"));
    }

    #[test]
    fn a_game_plays_undoes_and_ends() {
        let mut g = RulesGame::new("chess", None).unwrap();
        assert_eq!(g.legal_moves().len(), 20);
        let e4 = g.play("e2e4").unwrap();
        assert_eq!(
            (e4.from.as_deref(), e4.to.as_str(), e4.san.as_str()),
            (Some("e2"), "e4", "e4")
        );
        assert_eq!(g.side_to_move(), "black");
        for m in ["e7e5", "f1c4", "b8c6", "d1h5", "g8f6"] {
            g.play(m).unwrap();
        }
        assert!(g.outcome().is_none());
        let mate = g.play("h5f7").unwrap();
        assert!(mate.capture && mate.san.ends_with('#'), "{mate:?}");
        let o = g.outcome().unwrap();
        assert_eq!(
            (o.result, o.winner, o.reason, o.text.as_str()),
            ("1-0", Some("white"), "checkmate", "White mates")
        );
        assert!(g.in_check());
        let before = g.fen();
        let err = g.play("a7a6").unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("'a7a6' is not a legal move in {before}")
        );
        assert_eq!(g.fen(), before, "an illegal move changes nothing");
        assert_eq!(g.undo().unwrap().as_deref(), Some("h5f7"));
        assert!(g.outcome().is_none());
        assert_eq!(g.moves().len(), 6);
    }

    #[test]
    fn bad_input_is_the_native_refusal() {
        assert_eq!(
            RulesGame::new("nosuchgame", None)
                .err()
                .unwrap()
                .to_string(),
            "unknown variant 'nosuchgame' (see `cannonade variants`)"
        );
        let e = RulesGame::new("chess", Some("8/8/8 w - - 0 1"))
            .err()
            .unwrap();
        let native = registry::find("chess")
            .unwrap()
            .new_session()
            .set_position(Some("8/8/8 w - - 0 1"), &[], Notation::Uci)
            .unwrap_err();
        assert_eq!(e, RulesError::Game(native));
    }

    #[test]
    fn squares_are_named_in_uci_notation() {
        // Whitcher's Cannon: ten ranks, named 1 to 10 in UCI; a shot goes to its victim and
        // back.
        let g = RulesGame::new(
            "cannon",
            Some("4t5/10/10/10/4s5/10/4S5/4S5/4S5/4T5[] w - - 0 1"),
        )
        .unwrap();
        let shot = g
            .legal_moves()
            .into_iter()
            .find(|m| m.uci == "e4e6")
            .unwrap();
        assert_eq!(shot.legs, vec!["e6".to_string(), "e4".to_string()]);
        let top = g
            .legal_moves()
            .into_iter()
            .find(|m| m.to == "e10" || m.from.as_deref() == Some("e10"));
        assert!(top.is_none() || top.unwrap().uci.contains("10"));
        let town = RulesGame::new("cannon", None)
            .unwrap()
            .legal_moves()
            .into_iter()
            .find(|m| m.uci == "T@b1")
            .unwrap();
        assert_eq!(
            (town.from, town.drop.as_deref(), town.to.as_str()),
            (None, Some("T"), "b1")
        );
    }
}
