//! The variant registry: every game the build knows, by name, with what GUIs need to draw it.
//! Nothing outside this file matches on variant names.

use crate::games::cannon::{CannonPosition, CANNON_START};
use crate::games::chess::{CannonriderChess, Chess, ChesstoniaChess, SwedishCannonChess};
use crate::protocol::engine::{GameSession, Session};

/// What the protocols and tools need to know about one variant.
pub struct VariantInfo {
    /// The name used by `UCI_Variant`, `--variant` and (unless `xboard_name` differs) XBoard.
    pub name: &'static str,
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
        xboard_name: "normal",
        files: 8,
        ranks: 8,
        pocket: 0,
        start_fen: crate::games::chess::CHESS_START,
        new_session: || session::<Chess>("chess"),
    },
    VariantInfo {
        name: "cannon",
        xboard_name: "cannon",
        files: 10,
        ranks: 10,
        pocket: 1,
        start_fen: CANNON_START,
        new_session: || session::<CannonPosition>("cannon"),
    },
    VariantInfo {
        name: "cannonrider",
        xboard_name: "cannonrider",
        files: 10,
        ranks: 8,
        pocket: 0,
        start_fen: crate::games::chess::CANNONRIDER_START,
        new_session: || session::<CannonriderChess>("cannonrider"),
    },
    VariantInfo {
        name: "cannonriderscorpion",
        xboard_name: "cannonriderscorpion",
        files: 10,
        ranks: 8,
        pocket: 0,
        start_fen: crate::games::chess::CANNONRIDER_SCORPION_START,
        new_session: || session::<CannonriderChess>("cannonriderscorpion"),
    },
    VariantInfo {
        name: "swedishcannon",
        xboard_name: "swedishcannon",
        files: 8,
        ranks: 8,
        pocket: 1,
        start_fen: crate::games::chess::SWEDISH_CANNON_START,
        new_session: || session::<SwedishCannonChess>("swedishcannon"),
    },
    VariantInfo {
        name: "swedishcannon1",
        xboard_name: "swedishcannon1",
        files: 8,
        ranks: 8,
        pocket: 1,
        start_fen: crate::games::chess::SWEDISH_CANNON1_START,
        new_session: || session::<SwedishCannonChess>("swedishcannon1"),
    },
    VariantInfo {
        name: "chesstonia",
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
