//! The weights of the chess-family evaluation as numbered parameters, and the two ways the
//! evaluation spends them: summed into a score (`Sum`, the engine's evaluation), or counted per
//! parameter (`Trace`, what `cannonade tune` fits the weights with). The evaluation code is
//! written once, generic over [`Terms`], so the tuner sees exactly the terms the engine plays with.

use super::piece::Role;
use crate::games::tuning::{params, ParamTable};
pub(crate) use crate::games::tuning::{Negated, Terms, Trace};

include!("eval_weights.rs");

/// How many parameters the evaluation has.
pub const COUNT: usize = NAMES.len();

impl Param {
    /// The parameter `role` positions after `self`: the per-role parameters (`Value…`,
    /// `Advance…`, `Centre…`, `Mobility…`) are listed in `Role` order.
    #[inline(always)]
    pub(crate) fn of(self, role: Role) -> usize {
        self as usize + role.index()
    }
}

/// The chess family's weights table, for the tuner.
pub static TABLE: ParamTable = ParamTable {
    names: NAMES,
    weights: &WEIGHTS,
    // The king is on the board for both sides in every position: its value cancels out.
    fixed: &[Param::ValueKing as usize],
    path: "crates/core/src/games/chess/eval_weights.rs",
    header: "// The weights of the chess-family evaluation: one line per parameter, middle game then end game,\n\
             // in centipawns (see `eval_params.rs` for what each counts). `cannonade tune` rewrites this file;\n\
             // the order of the lines is the parameters' numbering, so keep it when editing by hand.\n",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_role_parameters_follow_the_role_order() {
        for r in 0..Role::COUNT {
            let role = Role::from_index(r);
            let name = format!("{role:?}");
            for (first, prefix) in [
                (Param::ValuePawn, "Value"),
                (Param::AdvancePawn, "Advance"),
                (Param::CentrePawn, "Centre"),
                (Param::MobilityPawn, "Mobility"),
            ] {
                assert_eq!(NAMES[first.of(role)], format!("{prefix}{name}"));
            }
        }
    }

    #[test]
    fn the_weights_file_reads_back_as_the_same_weights() {
        crate::games::tuning::assert_file_matches(&TABLE);
    }
}
