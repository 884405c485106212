//! Cannon Shogi's NNUE input features: one per (colour relative to the perspective, role,
//! square), promoted roles counted as roles of their own, plus "at least k of this kind in
//! hand" per colour. Black sees the board turned half a circle (square `80 - s`), shogi's own
//! symmetry between the players: each side sees its own pieces as "mine" moving up.
//!
//! Index = `relative_colour * 22 * 81 + role * 81 + square` for pieces on the board (3,564),
//! then `3,564 + relative_colour * 38 + HAND_OFFSET[kind] + (k - 1)` for hands: a kind has as
//! many count features as the game has pieces of it ([`PIECES_IN_GAME`], 38 in all), which is
//! the most a hand can hold (a FEN with more is refused). 3,640 features.
//!
//! The incremental update reads the [`DirtyRecord`] that `put`, `remove` and `set_hand` fill
//! during a move (`position.rs`): a change is [`ADDED`] or not, then either a piece
//! (`code << 8 | square`) or, with [`HAND`], a hand count (`colour << 12 | kind << 8 | k`).

use super::piece::{Kind, Piece, Role, HAND_KINDS, PIECES_IN_GAME};
use super::position::ShogiPosition;
use super::tables::{FILES, RANKS, SQUARES};
use crate::board::{Color, Square};
use crate::nnue::{change_color, FeatureList, KingSquare, NnueFeatures, ADDED};

/// Features of pieces on the board: 2 colours x 22 roles x 81 squares.
const BOARD_FEATURES: usize = 2 * Role::COUNT * SQUARES;

/// Where each hand kind's count features start within a colour's hand features.
const HAND_OFFSET: [usize; HAND_KINDS] = {
    let mut out = [0; HAND_KINDS];
    let mut i = 1;
    while i < HAND_KINDS {
        out[i] = out[i - 1] + PIECES_IN_GAME[i - 1] as usize;
        i += 1;
    }
    out
};

/// Count features of one colour's hand.
const HAND_FEATURES: usize = HAND_OFFSET[HAND_KINDS - 1] + PIECES_IN_GAME[HAND_KINDS - 1] as usize;

/// How many features Cannon Shogi has.
pub const SHOGI_FEATURES: usize = BOARD_FEATURES + 2 * HAND_FEATURES;

/// The flag of a hand change in the dirty record (a piece change has it clear).
const HAND: u32 = 1 << 30;

#[inline(always)]
fn relative(perspective: Color, color: Color) -> usize {
    usize::from(color != perspective)
}

/// Square `sq` as `perspective` sees the board: Black's view is turned half a circle.
#[inline(always)]
fn view(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::White => sq.index(),
        Color::Black => SQUARES - 1 - sq.index(),
    }
}

/// The feature of piece `p` on `sq`, seen from `perspective`.
#[inline(always)]
fn piece_feature(perspective: Color, p: Piece, sq: Square) -> u32 {
    let square = view(perspective, sq);
    ((relative(perspective, p.color()) * Role::COUNT + p.role().index()) * SQUARES + square) as u32
}

/// The feature "`color` holds at least `k` (from 1) of hand kind `kind`", seen from
/// `perspective`.
#[inline(always)]
fn hand_feature(perspective: Color, color: Color, kind: usize, k: usize) -> u32 {
    (BOARD_FEATURES + relative(perspective, color) * HAND_FEATURES + HAND_OFFSET[kind] + k - 1)
        as u32
}

/// The dirty record's entry for piece `p` put on (`added`) or taken off `sq`.
#[inline(always)]
pub(crate) fn piece_change(added: bool, p: Piece, sq: Square) -> u32 {
    (if added { ADDED } else { 0 }) | u32::from(p.code()) << 8 | sq.index() as u32
}

/// The dirty record's entry for "`color` holds at least `k` of `kind`" becoming true
/// (`added`) or false.
#[inline(always)]
pub(crate) fn hand_change(added: bool, color: Color, kind: usize, k: u8) -> u32 {
    (if added { ADDED } else { 0 })
        | HAND
        | (color.index() as u32) << 12
        | (kind as u32) << 8
        | u32::from(k)
}

impl NnueFeatures for ShogiPosition {
    fn feature_count(&self) -> usize {
        SHOGI_FEATURES
    }

    fn nnue_men(&self) -> u32 {
        self.occupied().count()
    }

    fn active_features(&self, perspective: Color, out: &mut Vec<u32>) {
        for sq in self.occupied() {
            out.push(piece_feature(
                perspective,
                Piece::from_code(self.board[sq.index()]),
                sq,
            ));
        }
        for color in Color::BOTH {
            let hand = &self.hands[color.index()];
            for (kind, (&n, &most)) in hand.iter().zip(&PIECES_IN_GAME).enumerate() {
                for k in 1..=n.min(most) as usize {
                    out.push(hand_feature(perspective, color, kind, k));
                }
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
            if c & HAND != 0 {
                hand_feature(
                    perspective,
                    change_color(c, 12),
                    ((c >> 8) & 0xf) as usize,
                    (c & 0xff) as usize,
                )
            } else {
                piece_feature(
                    perspective,
                    Piece::from_code((c >> 8) as u8),
                    Square::new(c as u8),
                )
            }
        })
    }

    fn has_king_buckets(&self) -> bool {
        true
    }

    fn mirror_feature(&self, feature: u32) -> u32 {
        let f = feature as usize;
        if f >= BOARD_FEATURES {
            return feature; // a count in hand
        }
        let file = f % SQUARES % FILES;
        (f - file + (FILES - 1 - file)) as u32
    }

    fn nnue_king(&self, perspective: Color) -> Option<KingSquare> {
        // In the features' own view, so that each side's castles (to its left or right, low
        // on its own side) fall in the same buckets for both players.
        let kings = self.kind_bb(Kind::King) & self.ours(perspective);
        if !kings.any() {
            return None;
        }
        let v = view(perspective, kings.lsb());
        Some(KingSquare {
            file: (v % FILES) as u8,
            rank: (v / FILES) as u8,
            files: FILES as u8,
            ranks: RANKS as u8,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry::new_game;
    use crate::games::Game;

    fn features(fen: &str, perspective: Color) -> Vec<u32> {
        let pos = new_game::<ShogiPosition>("cannonshogi")
            .unwrap()
            .with_fen(fen)
            .unwrap();
        let mut out = Vec::new();
        pos.active_features(perspective, &mut out);
        out.sort_unstable();
        out
    }

    #[test]
    fn the_count_is_pieces_and_hands() {
        assert_eq!(HAND_FEATURES, 38);
        assert_eq!(SHOGI_FEATURES, 3640);
    }

    #[test]
    fn the_start_position_looks_the_same_to_both_sides() {
        let pos: ShogiPosition = new_game("cannonshogi").unwrap();
        let fen = pos.to_fen();
        let white = features(&fen, Color::White);
        assert_eq!(white.len(), 40);
        // The start position is symmetric under the half turn with colours exchanged.
        assert_eq!(white, features(&fen, Color::Black));
    }

    #[test]
    fn each_side_sees_its_king_from_its_own_side() {
        let at = |fen: &str, c: Color| {
            let pos = new_game::<ShogiPosition>("cannonshogi")
                .unwrap()
                .with_fen(fen)
                .unwrap();
            let k = pos.nnue_king(c).unwrap();
            assert_eq!((k.files, k.ranks), (9, 9));
            (k.file, k.rank)
        };
        // The start: both kings on the middle file of their own back rank.
        let start = new_game::<ShogiPosition>("cannonshogi").unwrap().to_fen();
        assert_eq!(at(&start, Color::White), (4, 0));
        assert_eq!(at(&start, Color::Black), (4, 0));
        // White's king on a1 (its own left corner), Black's on b9: Black's own back rank,
        // second file from Black's right (the board turned half a circle).
        let fen = "1k7/9/9/9/9/9/9/9/K8[] w - - 0 1";
        assert_eq!(at(fen, Color::White), (0, 0));
        assert_eq!(at(fen, Color::Black), (7, 0));
        // Kings that walked up: White's to e4 (rank 3 counted from 0), Black's to d2, its own
        // eighth rank, sixth file from its left.
        let fen = "9/9/9/9/9/4K4/9/3k5/9[] w - - 0 1";
        assert_eq!(at(fen, Color::White), (4, 3));
        assert_eq!(at(fen, Color::Black), (5, 7));
        // The layouts on these: Black's b9 king is in its right half, at home.
        let b9 = new_game::<ShogiPosition>("cannonshogi")
            .unwrap()
            .with_fen("1k7/9/9/9/9/9/9/9/K8[] w - - 0 1")
            .unwrap()
            .nnue_king(Color::Black)
            .unwrap();
        assert_eq!(crate::nnue::KingBuckets::Halves.bucket(b9), 1);
        assert_eq!(crate::nnue::KingBuckets::Zones4.bucket(b9), 1);
    }

    #[test]
    fn hand_counts_are_at_least_features() {
        // White holds two soldiers (hand kind 5) and one rook (kind 0); Black one gold.
        let fen = "4k4/9/9/9/9/9/9/9/4K4[PPRg] w - - 0 1";
        let white = features(fen, Color::White);
        let hand: Vec<u32> = white
            .iter()
            .copied()
            .filter(|&f| f as usize >= BOARD_FEATURES)
            .collect();
        let b = BOARD_FEATURES as u32;
        let ours = [b, b + HAND_OFFSET[5] as u32, b + HAND_OFFSET[5] as u32 + 1];
        let theirs = b + HAND_FEATURES as u32 + HAND_OFFSET[10] as u32;
        let mut expected = ours.to_vec();
        expected.push(theirs);
        expected.sort_unstable();
        assert_eq!(hand, expected);
    }
}
