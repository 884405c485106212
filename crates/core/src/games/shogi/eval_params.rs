//! The weights of the Cannon Shogi evaluation as numbered parameters (`eval_weights.rs`, which
//! `cannonade tune` rewrites), spent by the evaluation through [`Terms`]: summed into a score
//! by the engine, counted per parameter for the tuner (`games::tuning`).
//!
//! What each parameter counts (always White's minus Black's, in centipawns per unit):
//! - `Value…`: pieces of the role on the board; `Hand…`: pieces of the role in hand.
//! - `Advance…`: the rank a piece of the role stands on, counted from its own side (0 to 8);
//!   `Centre…`: how near the centre file it stands (0 on the edge files, 4 on the centre).
//! - `Mobility…`: the squares a piece of the role can move to or capture on.
//! - Cannons: `CannonBare` / `CannonBareJanggi` a cannon (Xiangqi-style / Janggi-style) with no
//!   piece on its lines; `CannonScreens` the pieces on its lines (at most 4); `CannonFade` the
//!   pieces on the board beyond 24 (negative below), per cannon.
//! - King: `KingGuards` golds and silvers next to the own king (at most 3); `KingIntruders`
//!   enemy pieces within two king steps of it; `KingHome` the king on its first two ranks;
//!   `EnemyHand` pieces in the enemy's hand, and `EnemyHandUnguarded` the same times the
//!   missing guards (3 − guards); `KingNeighboursAttacked` squares next to the king that enemy
//!   pieces reach; `KingDanger` a quadratic count of the attack (see `eval.rs`), in 16ths.
//! - Threats: `ThreatByLower…` enemy pieces a less valuable piece can capture, and `Hanging…`
//!   enemy pieces attacked and not defended, counted separately for the side to move (`…ToMove`,
//!   which can take now) and the other side (`…Waiting`, whose threat the opponent can meet).
//! - `Tempo`: the side to move.

use super::piece::Role;
use crate::games::tuning::{params, ParamTable};
pub(crate) use crate::games::tuning::{Negated, Terms, Trace};

include!("eval_weights.rs");

/// How many parameters the evaluation has.
pub const COUNT: usize = NAMES.len();

impl Param {
    /// The parameter `role` positions after `self`: the per-role parameters (`Value…`,
    /// `Hand…`, `Advance…`, `Centre…`, `Mobility…`) are listed in `Role` order.
    #[inline(always)]
    pub(crate) fn of(self, role: Role) -> usize {
        self as usize + role.index()
    }
}

/// Cannon Shogi's weights table, for the tuner.
pub static TABLE: ParamTable = ParamTable {
    names: NAMES,
    weights: &WEIGHTS,
    // Both kings are always on the board: their value cancels out.
    fixed: &[Param::ValueKing as usize],
    path: "crates/core/src/games/shogi/eval_weights.rs",
    header: "// The weights of the Cannon Shogi evaluation: one line per parameter, middle game then end game,\n\
             // in centipawns (see `eval_params.rs` for what each counts). `cannonade tune` rewrites this file;\n\
             // the order of the lines is the parameters' numbering, so keep it when editing by hand.\n",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_role_parameters_follow_the_role_order() {
        for role in Role::ALL {
            let name = format!("{role:?}");
            for (first, prefix) in [
                (Param::ValueRook, "Value"),
                (Param::AdvanceRook, "Advance"),
                (Param::CentreRook, "Centre"),
                (Param::MobilityRook, "Mobility"),
            ] {
                assert_eq!(NAMES[first.of(role)], format!("{prefix}{name}"));
            }
            if role.index() < super::super::HAND_KINDS {
                assert_eq!(NAMES[Param::HandRook.of(role)], format!("Hand{name}"));
            }
        }
    }

    #[test]
    fn the_weights_file_reads_back_as_the_same_weights() {
        crate::games::tuning::assert_file_matches(&TABLE);
    }
}
