//! The variant registry: every game the build knows, by name, with what GUIs need to draw it.
//! Nothing outside this file matches on variant names.

use crate::games::cannon::{CannonPosition, CANNON_START};
use crate::games::chess::{CannonriderChess, Chess, ChesstoniaChess, SwedishCannonChess};
use crate::games::shogi::CannonShogi;
use crate::protocol::engine::{GameSession, Session};

/// What the protocols and tools need to know about one variant.
pub struct VariantInfo {
    /// The name used by `UCI_Variant`, `--variant` and (unless `xboard_name` differs) XBoard.
    pub name: &'static str,
    /// The game's real name, as players and rule books call it (`Whitcher's Cannon`).
    pub full_name: &'static str,
    /// XBoard's name for the game (`normal` for orthodox chess).
    pub xboard_name: &'static str,
    pub files: usize,
    pub ranks: usize,
    /// How many kinds of piece can be in hand (0 for games without a hand).
    pub pocket: usize,
    pub start_fen: &'static str,
    /// A new session of this variant at its start position.
    pub new_session: fn() -> Box<dyn Session>,
}

fn session<G: crate::games::Game>(name: &'static str) -> Box<dyn Session> {
    Box::new(GameSession::<G>::new(name).expect("registered variant must start"))
}

/// Every variant of this build.
pub static VARIANTS: &[VariantInfo] = &[
    VariantInfo {
        name: "chess",
        full_name: "Orthodox chess",
        xboard_name: "normal",
        files: 8,
        ranks: 8,
        pocket: 0,
        start_fen: crate::games::chess::CHESS_START,
        new_session: || session::<Chess>("chess"),
    },
    VariantInfo {
        name: "cannon",
        full_name: "Whitcher's Cannon",
        xboard_name: "cannon",
        files: 10,
        ranks: 10,
        pocket: 1,
        start_fen: CANNON_START,
        new_session: || session::<CannonPosition>("cannon"),
    },
    VariantInfo {
        name: "cannonrider",
        full_name: "Gustavian Cannonrider Chess",
        xboard_name: "cannonrider",
        files: 10,
        ranks: 8,
        pocket: 0,
        start_fen: crate::games::chess::CANNONRIDER_START,
        new_session: || session::<CannonriderChess>("cannonrider"),
    },
    VariantInfo {
        name: "cannonriderscorpion",
        full_name: "Gustavian Cannonrider Chess, Scorpion version",
        xboard_name: "cannonriderscorpion",
        files: 10,
        ranks: 8,
        pocket: 0,
        start_fen: crate::games::chess::CANNONRIDER_SCORPION_START,
        new_session: || session::<CannonriderChess>("cannonriderscorpion"),
    },
    VariantInfo {
        name: "swedishcannon",
        full_name: "Swedish Cannon Chess (two cannons)",
        xboard_name: "swedishcannon",
        files: 8,
        ranks: 8,
        pocket: 1,
        start_fen: crate::games::chess::SWEDISH_CANNON_START,
        new_session: || session::<SwedishCannonChess>("swedishcannon"),
    },
    VariantInfo {
        name: "swedishcannon1",
        full_name: "Swedish Cannon Chess (one cannon)",
        xboard_name: "swedishcannon1",
        files: 8,
        ranks: 8,
        pocket: 1,
        start_fen: crate::games::chess::SWEDISH_CANNON1_START,
        new_session: || session::<SwedishCannonChess>("swedishcannon1"),
    },
    VariantInfo {
        name: "cannonshogi",
        full_name: "Cannon Shogi",
        xboard_name: "cannonshogi",
        files: 9,
        ranks: 9,
        pocket: crate::games::shogi::HAND_KINDS,
        start_fen: crate::games::shogi::START_FEN,
        new_session: || session::<CannonShogi>("cannonshogi"),
    },
    VariantInfo {
        name: "chesstonia",
        full_name: "Cannons of Chesstonia",
        xboard_name: "chesstonia",
        files: 12,
        ranks: 8,
        pocket: 0,
        start_fen: crate::games::chess::CHESSTONIA_START,
        new_session: || session::<ChesstoniaChess>("chesstonia"),
    },
];

impl VariantInfo {
    /// The board template a GUI should draw, as Fairy-Stockfish names it in its
    /// `info string variant ... template T` line: `shogi` for the shogi family (hands and
    /// shogi-style promotion), `fairy` for everything else.
    pub fn gui_template(&self) -> &'static str {
        if self.name.ends_with("shogi") {
            "shogi"
        } else {
            "fairy"
        }
    }
}

/// XBoard's piece slots (its internal piece order, which fixes the image it draws and the
/// order of the holdings). A game maps its letters onto some of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum XBoardSlot {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    Ferz = 5,
    Alfil = 6,
    Archbishop = 7,
    Chancellor = 8,
    Wazir = 9,
    Man = 10,
    Cannon = 11,
    Nightrider = 12,
    Cardinal = 13,
    Dragon = 14,
    Grasshopper = 15,
    Silver = 16,
    Falcon = 17,
    /// XBoard moves a lance like a pawn (double step, en passant, promotion) but, unlike a
    /// pawn, lets it "gate" a piece from the holdings onto the square it leaves.
    Lance = 18,
    Cobra = 19,
    Unicorn = 20,
    /// Slots past the first 21, for their images: XBoard draws the Sword slot as a sword,
    /// Duck as a duck, Flying as a winged dragon, Horse as a pegasus, Copper and Iron as two
    /// helmets, Axe as an axe, Wheel as a round disc, Butterfly as a butterfly.
    Sword = 22,
    Duck = 28,
    Flying = 30,
    Horse = 34,
    Copper = 36,
    Iron = 37,
    Axe = 40,
    Wheel = 44,
    Butterfly = 45,
    /// The last slot of each colour; the letter given here always goes there.
    King = 255,
}

/// How XBoard is told about a game it does not know: the CECP `setup` command (board size,
/// holdings, parent variant, letters, start position) and `piece` commands.
pub struct XBoardSetup {
    /// Our upper-case letters and the XBoard slot (image) each one uses.
    pub slots: &'static [(char, XBoardSlot)],
    /// Promoted pieces (shogi's `+X`): the letter of the unpromoted piece and the slot (image)
    /// of its promoted form. XBoard pairs the two for promotion and for demotion on capture.
    pub promoted: &'static [(char, XBoardSlot)],
    /// How many holdings slots XBoard shows (0: no holdings). A piece in hand needs a slot
    /// index below this; the index counts the game's pieces that come before it in slot order.
    pub holdings: usize,
    /// XBoard's parent variant: `fairy` for plain boards; `bughouse` or `seirawan` for games
    /// with a hand whose captures must not go to the captor's holdings (as XBoard does in
    /// crazyhouse). With `seirawan`, a drop onto an occupied square that moves the piece there
    /// is written as gating (see `XBoard` in the protocol module).
    pub parent: &'static str,
    /// Moves in XBoard's Betza dialect for the pieces it can describe exactly (standard chess
    /// pieces need none: the parent variant knows them).
    pub pieces: &'static [(char, &'static str)],
    /// Whether XBoard can test move legality itself. False when a piece or move is beyond its
    /// Betza dialect (shots, colour-dependent pieces, drops that move a pawn...): the engine
    /// then is the arbiter and XBoard must run with legality testing off.
    pub legality_testing: bool,
}

const CHESS_SLOTS: [(char, XBoardSlot); 6] = [
    ('P', XBoardSlot::Pawn),
    ('N', XBoardSlot::Knight),
    ('B', XBoardSlot::Bishop),
    ('R', XBoardSlot::Rook),
    ('Q', XBoardSlot::Queen),
    ('K', XBoardSlot::King),
];

impl VariantInfo {
    /// What XBoard needs to draw this game; `None` for the games XBoard knows (orthodox chess).
    pub fn xboard_setup(&self) -> Option<XBoardSetup> {
        use XBoardSlot::*;
        const WITH_CANNON: [(char, XBoardSlot); 7] = [
            CHESS_SLOTS[0],
            CHESS_SLOTS[1],
            CHESS_SLOTS[2],
            CHESS_SLOTS[3],
            CHESS_SLOTS[4],
            ('C', Cannon),
            CHESS_SLOTS[5],
        ];
        match self.name {
            "chess" => None,
            // Soldiers are not put in the pawn slot: XBoard would treat their diagonal steps
            // as en-passant captures. The town uses the rook's (tower) image.
            "cannon" => Some(XBoardSetup {
                slots: &[('T', Rook), ('S', Man), ('K', King)],
                promoted: &[],
                holdings: 1,
                parent: "bughouse",
                pieces: &[],
                legality_testing: false,
            }),
            "cannonrider" => Some(XBoardSetup {
                slots: &WITH_CANNON,
                promoted: &[],
                holdings: 0,
                parent: "fairy",
                pieces: &[],
                legality_testing: false,
            }),
            // The Scorpion is a pawn (promotion, en passant) with an extra non-capturing leap.
            "cannonriderscorpion" => Some(XBoardSetup {
                slots: &[
                    ('S', Pawn),
                    CHESS_SLOTS[1],
                    CHESS_SLOTS[2],
                    CHESS_SLOTS[3],
                    CHESS_SLOTS[4],
                    ('C', Cannon),
                    CHESS_SLOTS[5],
                ],
                promoted: &[],
                holdings: 0,
                parent: "fairy",
                pieces: &[('S', "fmWfceFifmnDfsmN")],
                legality_testing: false,
            }),
            // XBoard cannot drop onto an occupied square, so the cannon's entry (`C@e2`, the
            // pawn going to e4) is shown as Seirawan-style gating, `e2e4c`: the pawn moves and
            // the cannon appears where it stood. XBoard gates only for non-pawns, hence the
            // pawns sit on the lance slot (which it moves like pawns, en passant included).
            // The cannon's holdings index is 4 (after N B R Q).
            "swedishcannon" | "swedishcannon1" => Some(XBoardSetup {
                slots: &[
                    CHESS_SLOTS[1],
                    CHESS_SLOTS[2],
                    CHESS_SLOTS[3],
                    CHESS_SLOTS[4],
                    ('C', Cannon),
                    ('P', Lance),
                    CHESS_SLOTS[5],
                ],
                promoted: &[],
                holdings: 5,
                parent: "seirawan",
                pieces: &[],
                legality_testing: false,
            }),
            // Parent `shogi`: captures go to the captor's hand, unpromoted; eleven kinds in
            // hand. The shogi pieces sit where XBoard's own shogi puts them (it draws the queen
            // slot as a lance, and the promoted ones as golden or crowned pieces). XBoard has no
            // cannon image in shogi (it draws the cannon slot as a promoted pawn), so the four
            // cannons get images that look like nothing else in the game: an axe, a sword and
            // the copper and iron helmets (named after the copper and iron generals of large
            // shogi); their flying forms winged ones. The king's look-alike (the falcon slot,
            // which XBoard's shogi draws as a king) is not used.
            "cannonshogi" => Some(XBoardSetup {
                slots: &[
                    ('P', Pawn),
                    ('N', Knight),
                    ('B', Bishop),
                    ('R', Rook),
                    ('L', Queen),
                    ('S', Ferz),
                    ('G', Wazir),
                    ('A', Sword),
                    ('C', Copper),
                    ('I', Iron),
                    ('U', Axe),
                    ('K', King),
                ],
                promoted: &[
                    ('P', Cannon),
                    ('N', Nightrider),
                    ('B', Cardinal),
                    ('R', Dragon),
                    ('L', Grasshopper),
                    ('S', Silver),
                    ('A', Horse),
                    ('U', Flying),
                    ('C', Butterfly),
                    ('I', Duck),
                ],
                holdings: 11,
                parent: "shogi",
                pieces: &[],
                legality_testing: false,
            }),
            // The Cannons of Chesstonia: the cannon on XBoard's cannon slot, the projectiles
            // wazir and ferz on theirs, the Go stone (which never moves) as a round disc.
            "chesstonia" => Some(XBoardSetup {
                slots: &[
                    CHESS_SLOTS[0],
                    CHESS_SLOTS[1],
                    CHESS_SLOTS[2],
                    CHESS_SLOTS[3],
                    CHESS_SLOTS[4],
                    ('F', Ferz),
                    ('W', Wazir),
                    ('C', Cannon),
                    ('S', Wheel),
                    CHESS_SLOTS[5],
                ],
                promoted: &[],
                holdings: 0,
                parent: "fairy",
                pieces: &[],
                legality_testing: false,
            }),
            // A game registered without a description gets a plain board with every letter
            // of its start position on the fairy slots, in order.
            _ => Some(XBoardSetup {
                slots: &[],
                promoted: &[],
                holdings: self.pocket,
                parent: "fairy",
                pieces: &[],
                legality_testing: false,
            }),
        }
    }
}

/// Looks a variant up by its UCI or XBoard name (case-insensitive).
pub fn find(name: &str) -> Option<&'static VariantInfo> {
    VARIANTS
        .iter()
        .find(|v| v.name.eq_ignore_ascii_case(name) || v.xboard_name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_starts_at_its_registered_fen() {
        for v in VARIANTS {
            let s = (v.new_session)();
            assert_eq!(s.fen(), v.start_fen, "{}", v.name);
            assert_eq!(s.variant(), v.name);
        }
        assert!(find("normal").is_some());
        assert!(find("nosuchgame").is_none());
    }
}
