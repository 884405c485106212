//! Whitcher's Cannon's NNUE input features: one per (colour relative to the perspective,
//! soldier or town, square), and "my town is in hand" and "their town is in hand". Black sees
//! the board turned half a circle (square `99 - s`): the start position, soldiers on
//! alternate files, is symmetric that way and not under a flip.
//!
//! Index = `(relative_colour * 2 + kind) * 100 + square` (kind 0 soldier, 1 town), then
//! `400 + relative_colour` for a town in hand: 402 features.
//!
//! The incremental update reads the [`DirtyRecord`] that the put and remove functions of
//! soldiers and towns and `set_in_hand` fill during a move (`position.rs`): a change is
//! [`ADDED`] or not, then `what << 12 | colour << 8 | square` (what: 0 soldier, 1 town, 2 the
//! town in hand, whose square is unused).

use super::position::CannonPosition;
use crate::board::{Color, Square};
use crate::nnue::{change_color, FeatureList, NnueFeatures, ADDED};

const SQUARES: usize = 100;

/// How many features Whitcher's Cannon has.
pub const CANNON_FEATURES: usize = 4 * SQUARES + 2;

/// What a change in the dirty record is about.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Piece {
    Soldier = 0,
    Town = 1,
    TownInHand = 2,
}

#[inline(always)]
fn feature(perspective: Color, color: Color, what: Piece, sq: Square) -> u32 {
    let relative = usize::from(color != perspective);
    if what == Piece::TownInHand {
        return (4 * SQUARES + relative) as u32;
    }
    let square = match perspective {
        Color::White => sq.index(),
        Color::Black => SQUARES - 1 - sq.index(),
    };
    ((relative * 2 + what as usize) * SQUARES + square) as u32
}

/// The dirty record's entry for `what` of `color` appearing (`added`) or going on `sq`.
#[inline(always)]
pub(crate) fn change(added: bool, color: Color, what: Piece, sq: Square) -> u32 {
    (if added { ADDED } else { 0 })
        | (what as u32) << 12
        | (color.index() as u32) << 8
        | sq.index() as u32
}

impl NnueFeatures for CannonPosition {
    fn feature_count(&self) -> usize {
        CANNON_FEATURES
    }

    fn nnue_men(&self) -> u32 {
        self.occupied().count()
    }

    fn active_features(&self, perspective: Color, out: &mut Vec<u32>) {
        for color in Color::BOTH {
            for sq in self.soldiers(color) {
                out.push(feature(perspective, color, Piece::Soldier, sq));
            }
            if let Some(sq) = self.town(color) {
                out.push(feature(perspective, color, Piece::Town, sq));
            }
            if self.town_in_hand(color) {
                out.push(feature(
                    perspective,
                    color,
                    Piece::TownInHand,
                    Square::new(0),
                ));
            }
        }
    }

    fn last_move_delta(
        &self,
        perspective: Color,
        added: &mut FeatureList,
        removed: &mut FeatureList,
    ) -> bool {
        self.dirty.sort_into(added, removed, |c| {
            let what = match (c >> 12) & 3 {
                0 => Piece::Soldier,
                1 => Piece::Town,
                _ => Piece::TownInHand,
            };
            feature(perspective, change_color(c, 8), what, Square::new(c as u8))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry::new_game;

    #[test]
    fn the_start_position_looks_the_same_to_both_sides() {
        let pos: CannonPosition = new_game("cannon").unwrap();
        let mut white = Vec::new();
        let mut black = Vec::new();
        pos.active_features(Color::White, &mut white);
        pos.active_features(Color::Black, &mut black);
        white.sort_unstable();
        black.sort_unstable();
        // 15 soldiers a side and both towns in hand.
        assert_eq!(white.len(), 32);
        assert_eq!(white, black);
        assert!(white.contains(&400) && white.contains(&401));
    }
}
