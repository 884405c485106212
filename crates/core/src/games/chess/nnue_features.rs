//! The chess family's NNUE input features, orthodox chess's being the reference
//! implementation of [`NnueFeatures`]: one feature per (colour relative to the perspective,
//! piece kind of the variant, square), plus, for a variant with a reserve, "at least k pieces in
//! reserve" per colour. The board is turned for Black's perspective so that each side sees its
//! own pieces as "mine" moving up the board.
//!
//! Index = `relative_colour * kinds * squares + slot * squares + square`, where
//! `relative_colour` is 0 for the perspective's own pieces and 1 for the opponent's, `slot` is
//! the piece kind's place in the variant's role list (`ChessRules::ROLES`: pawn, knight,
//! bishop, rook, queen, king, then the variant's own pieces), and `square` is the word's square
//! index (`rank * files + file`, holes included) seen from the perspective. Reserve features
//! follow: `2 * kinds * squares + relative_colour * NNUE_RESERVE + (k - 1)`.
//!
//! Orthodox chess: 6 kinds x 64 squares x 2 = 768 features. Swedish Cannon Chess adds the
//! cannon (896) and 2 x 8 reserve counts (912). Gustavian Cannonrider Chess: 8 kinds (the
//! Cannonrider and the Scorpion) on the 80-square word, 1,280. Cannons of Chesstonia: 10 kinds
//! (the track cannon and the projectiles) on the 96-square word, 1,920; its machinery stands on
//! board entries beside the chess board, so a stored, loaded or launched projectile and the
//! cannon's place on its track are features like any piece.
//!
//! The incremental update reads the [`DirtyRecord`] that `put`, `remove` and `set_reserve`
//! fill during a move (`position.rs`): a change is [`ADDED`] or not, then either a piece
//! (`code << 8 | square`) or, with [`RESERVE`], a reserve count (`colour << 8 | k`).

use super::piece::{Piece, Role};
use super::position::ChessPosition;
use super::rules::ChessRules;
use crate::board::{BitWord, Color, Square};
use crate::nnue::{change_color, FeatureList, FeatureMeaning, KingSquare, NnueFeatures, ADDED};

/// How many features orthodox chess has: 2 colours x 6 kinds x 64 squares.
pub const CHESS_FEATURES: usize = 2 * 6 * 64;

/// The flag of a reserve change in the dirty record (a piece change has it clear).
pub(crate) const RESERVE: u32 = 1 << 30;

/// The feature of a `color` `role` on `sq` in orthodox chess, seen from `perspective`.
#[inline(always)]
pub fn chess_feature(perspective: Color, color: Color, role: Role, sq: Square) -> u32 {
    let relative = usize::from(color != perspective);
    let square = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    (relative * 384 + role.index() * 64 + square) as u32
}

/// Each role's place in a variant's role list (`u8::MAX` for roles it does not have).
const fn role_slots(roles: &[Role]) -> [u8; Role::COUNT] {
    let mut slots = [u8::MAX; Role::COUNT];
    let mut i = 0;
    while i < roles.len() {
        slots[roles[i] as usize] = i as u8;
        i += 1;
    }
    slots
}

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
    const NNUE_SLOTS: [u8; Role::COUNT] = role_slots(R::ROLES);

    /// Squares of the word (holes included: they are never occupied, their features never
    /// active, and counting them keeps a square's index the word's own).
    #[inline(always)]
    fn nnue_squares(&self) -> usize {
        self.t.geo.files() * self.t.geo.ranks()
    }

    /// `sq` seen from `perspective`: Black's view is flipped top to bottom, or turned half a
    /// circle where the variant says its two sides mirror that way (`ChessRules::NNUE_ROTATE`).
    #[inline(always)]
    fn nnue_square(&self, perspective: Color, sq: Square) -> usize {
        let i = sq.index();
        match perspective {
            Color::White => i,
            Color::Black if R::NNUE_ROTATE => self.nnue_squares() - 1 - i,
            Color::Black => {
                let files = self.t.geo.files();
                (self.t.geo.ranks() - 1 - i / files) * files + i % files
            }
        }
    }

    /// The feature of piece `p` on `sq`, seen from `perspective`.
    #[inline(always)]
    pub(crate) fn piece_feature(&self, perspective: Color, p: Piece, sq: Square) -> u32 {
        let n = self.nnue_squares();
        let relative = usize::from(p.color() != perspective);
        let slot = usize::from(Self::NNUE_SLOTS[p.role().index()]);
        debug_assert!(
            slot < R::ROLES.len(),
            "{:?} is not a piece of the variant",
            p
        );
        ((relative * R::ROLES.len() + slot) * n + self.nnue_square(perspective, sq)) as u32
    }

    /// The playing board inside the word: its first file, its files, its first rank and its
    /// ranks (the files and ranks holding a square of the board; Chesstonia's machinery stands
    /// beside it, outside the board's squares).
    fn nnue_board(&self) -> (usize, usize, usize, usize) {
        let geo = &self.t.geo;
        // The first and one past the last of the lines (files or ranks) holding a square.
        let span = |n: usize, holds: &dyn Fn(usize) -> bool| {
            let first = (0..n).find(|&i| holds(i)).unwrap_or(0);
            let end = (0..n).rev().find(|&i| holds(i)).map_or(n, |i| i + 1);
            (first, end.max(first + 1) - first)
        };
        let (first_file, files) = span(geo.files(), &|i| geo.file_mask(i).any());
        let (first_rank, ranks) = span(geo.ranks(), &|i| geo.rank_mask(i).any());
        (first_file, files, first_rank, ranks)
    }

    /// The feature "`color` has at least `k` pieces in reserve" (`k` from 1), seen from
    /// `perspective`.
    #[inline(always)]
    fn reserve_feature(&self, perspective: Color, color: Color, k: usize) -> u32 {
        let relative = usize::from(color != perspective);
        (2 * R::ROLES.len() * self.nnue_squares() + relative * R::NNUE_RESERVE + k - 1) as u32
    }
}

impl<W: BitWord, R: ChessRules> NnueFeatures for ChessPosition<W, R> {
    fn feature_count(&self) -> usize {
        2 * R::ROLES.len() * self.nnue_squares() + 2 * R::NNUE_RESERVE
    }

    fn nnue_men(&self) -> u32 {
        self.occupied().count()
    }

    fn active_features(&self, perspective: Color, out: &mut Vec<u32>) {
        for sq in self.occupied() {
            let p = Piece::from_code(self.board[sq.index()]);
            out.push(self.piece_feature(perspective, p, sq));
        }
        for color in Color::BOTH {
            for k in 1..=usize::from(self.reserve[color.index()]).min(R::NNUE_RESERVE) {
                out.push(self.reserve_feature(perspective, color, k));
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
            if c & RESERVE != 0 {
                self.reserve_feature(perspective, change_color(c, 8), (c & 0xff) as usize)
            } else {
                let p = Piece::from_code((c >> 8) as u8);
                self.piece_feature(perspective, p, Square::new(c as u8))
            }
        })
    }

    fn has_king_buckets(&self) -> bool {
        true
    }

    fn nnue_king(&self, perspective: Color) -> Option<KingSquare> {
        let kings = self.pieces(perspective, Role::King);
        if !kings.any() {
            return None;
        }
        // The king's square in the perspective's view, counted from the board's own edges
        // (as `feature_meaning` counts them).
        let view = self.nnue_square(perspective, kings.lsb());
        let (first_file, files, first_rank, ranks) = self.nnue_board();
        let geo = &self.t.geo;
        let file = (view % geo.files())
            .saturating_sub(first_file)
            .min(files - 1);
        let rank = (view / geo.files())
            .saturating_sub(first_rank)
            .min(ranks - 1);
        Some(KingSquare {
            file: file as u8,
            rank: rank as u8,
            files: files as u8,
            ranks: ranks as u8,
        })
    }

    fn mirror_feature(&self, feature: u32) -> u32 {
        // The word mirrored file for file: the boards stand in the middle of their words
        // (Chesstonia's c..j of twelve files), so that is the board mirrored, its machinery's
        // squares swapping sides with it. Reserve counts have no square.
        let n = self.nnue_squares();
        let f = feature as usize;
        if f >= 2 * R::ROLES.len() * n {
            return feature;
        }
        let files = self.t.geo.files();
        let file = f % n % files;
        (f - file + (files - 1 - file)) as u32
    }

    fn feature_meaning(&self, feature: u32) -> Option<FeatureMeaning> {
        // The inverse of `piece_feature`: the square index is already the perspective's view.
        let (n, kinds) = (self.nnue_squares(), R::ROLES.len());
        let f = feature as usize;
        if f >= 2 * kinds * n {
            return None;
        }
        let geo = &self.t.geo;
        let square = f % n;
        // Files and ranks count from the board's own edges, which are not the word's where
        // the word holds more than the board (Chesstonia's board is files c..j of a 12-file
        // word, its machinery beside it): a chess net's e1 king is Chesstonia's king on its
        // board's e1. Squares that are no square of the board (the machinery's, holes) mean
        // nothing another game has.
        let sq = Square::new(square as u8);
        if !geo.is_valid(sq) {
            return None;
        }
        let first_file = (0..geo.files()).find(|&i| geo.file_mask(i).any());
        let first_rank = (0..geo.ranks()).find(|&i| geo.rank_mask(i).any());
        Some(FeatureMeaning {
            theirs: f >= kinds * n,
            piece: R::ROLES[(f / n) % kinds].letter(),
            file: (geo.file_of(sq) - first_file.unwrap_or(0)) as u8,
            rank: (geo.rank_of(sq) - first_rank.unwrap_or(0)) as u8,
        })
    }
}

/// The dirty record's entry for piece `p` put on (`added`) or taken off `sq`.
#[inline(always)]
pub(crate) fn piece_change(added: bool, p: Piece, sq: Square) -> u32 {
    (if added { ADDED } else { 0 }) | u32::from(p.code()) << 8 | sq.index() as u32
}

/// The dirty record's entry for "`color` has at least `k` in reserve" becoming true
/// (`added`) or false.
#[inline(always)]
pub(crate) fn reserve_change(added: bool, color: Color, k: u8) -> u32 {
    (if added { ADDED } else { 0 }) | RESERVE | (color.index() as u32) << 8 | u32::from(k)
}

#[cfg(test)]
mod tests {
    use super::super::Chess;
    use super::*;
    use crate::engine::registry::new_game;
    use crate::games::Game;

    fn features(fen: &str, perspective: Color) -> Vec<u32> {
        let pos = new_game::<Chess>("chess").unwrap().with_fen(fen).unwrap();
        let mut out = Vec::new();
        pos.active_features(perspective, &mut out);
        out.sort_unstable();
        out
    }

    #[test]
    fn the_start_position_has_32_features_the_same_for_both_sides() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let white = features(start, Color::White);
        assert_eq!(white.len(), 32);
        assert_eq!(white, features(start, Color::Black));
        // White's e1 king is "my king on e1": 0 * 384 + 5 * 64 + 4.
        assert!(white.contains(&(5 * 64 + 4)));
        // Black's e8 king is "their king on e8" for White: 384 + 5 * 64 + 60.
        assert!(white.contains(&(384 + 5 * 64 + 60)));
    }

    #[test]
    fn the_generic_numbering_is_the_reference_one_for_orthodox_chess() {
        let pos: Chess = new_game("chess").unwrap();
        assert_eq!(pos.feature_count(), CHESS_FEATURES);
        for sq in pos.occupied() {
            let p = pos.piece_at(sq).unwrap();
            for side in Color::BOTH {
                assert_eq!(
                    pos.piece_feature(side, p, sq),
                    chess_feature(side, p.color(), p.role(), sq)
                );
            }
        }
    }

    #[test]
    fn a_feature_means_the_piece_and_square_it_stands_for() {
        // In chess and in Swedish Cannon Chess (another role list, reserve counts after the
        // board): each piece's feature means that piece, of the perspective's side or not, on
        // its square as the perspective sees it; the reserve counts mean no piece.
        use crate::games::chess::SwedishCannonChess;
        let chess: Chess = new_game("chess").unwrap();
        // White's e1 king, for White; Black's e8 king, for Black (its own back rank).
        for side in Color::BOTH {
            let king = Piece::new(side, Role::King);
            let sq = chess.king_square(side);
            let m = chess.feature_meaning(chess.piece_feature(side, king, sq));
            let mine = FeatureMeaning {
                theirs: false,
                piece: 'K',
                file: 4,
                rank: 0,
            };
            assert_eq!(m, Some(mine), "{side:?}");
            let m = chess.feature_meaning(chess.piece_feature(!side, king, sq));
            let theirs = FeatureMeaning {
                theirs: true,
                piece: 'K',
                file: 4,
                rank: 7,
            };
            assert_eq!(m, Some(theirs), "{side:?}");
        }
        let swedish = new_game::<SwedishCannonChess>("swedishcannon")
            .unwrap()
            .with_fen("4k3/8/8/3c4/8/8/8/4K3[Cc] w - - 0 1")
            .unwrap();
        let mut active = Vec::new();
        swedish.active_features(Color::White, &mut active);
        let meanings: Vec<_> = active.iter().map(|&f| swedish.feature_meaning(f)).collect();
        let cannon = FeatureMeaning {
            theirs: true,
            piece: 'C',
            file: 3,
            rank: 4,
        };
        assert!(meanings.contains(&Some(cannon)), "{meanings:?}");
        // Two kings and a cannon on the board, and one "at least one in reserve" per side.
        assert_eq!(meanings.iter().filter(|m| m.is_some()).count(), 3);
        assert_eq!(meanings.len(), 5);
        assert_eq!(
            swedish.feature_meaning(swedish.feature_count() as u32),
            None
        );
    }

    #[test]
    fn chesstonia_features_mean_squares_of_its_board_not_of_the_word() {
        use crate::games::chess::ChesstoniaChess;
        // Chesstonia's board is files c..j of its 12-file word: for White, its kings on the
        // board's e1 and e8 mean what chess's kings there mean. Black sees Chesstonia's board
        // turned half a circle (the machinery mirrors that way), chess's flipped top to bottom,
        // so for Black the same king stands on the mirrored file: d instead of e.
        let chess: Chess = new_game("chess").unwrap();
        let tonia: ChesstoniaChess = new_game("chesstonia").unwrap();
        for side in Color::BOTH {
            for owner in Color::BOTH {
                let king = Piece::new(owner, Role::King);
                let sq = chess.king_square(owner);
                let mut expected = chess.feature_meaning(chess.piece_feature(side, king, sq));
                if side == Color::Black {
                    expected = expected.map(|m| FeatureMeaning {
                        file: 7 - m.file,
                        ..m
                    });
                }
                let sq = tonia.king_square(owner);
                let in_tonia = tonia.feature_meaning(tonia.piece_feature(side, king, sq));
                assert!(expected.is_some());
                assert_eq!(in_tonia, expected, "{owner:?} king for {side:?}");
            }
        }
        let mut active = Vec::new();
        tonia.active_features(Color::White, &mut active);
        let board_pieces = active
            .iter()
            .filter(|&&f| tonia.feature_meaning(f).is_some())
            .count();
        // The 32 chess pieces; the cannons and projectiles stand beside the board.
        assert_eq!(board_pieces, 32);
        assert!(active.len() > 32);
    }

    #[test]
    fn each_side_sees_its_king_on_its_own_board() {
        use crate::games::chess::{CannonriderChess, ChesstoniaChess};
        use crate::nnue::KingBuckets;
        let king = |file, rank, files, ranks| {
            Some(KingSquare {
                file,
                rank,
                files,
                ranks,
            })
        };
        // Chess: White's g1 king is on its g1; Black's c8 king (castled long) is on its c1
        // (the board flipped top to bottom keeps the files).
        let pos = new_game::<Chess>("chess")
            .unwrap()
            .with_fen("2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1 w - - 0 1")
            .unwrap();
        assert!(pos.has_king_buckets());
        assert_eq!(pos.nnue_king(Color::White), king(6, 0, 8, 8));
        assert_eq!(pos.nnue_king(Color::Black), king(2, 0, 8, 8));
        assert_eq!(pos.king_bucket(KingBuckets::Halves, Color::White), 1);
        assert_eq!(pos.king_bucket(KingBuckets::Halves, Color::Black), 0);
        assert_eq!(pos.king_bucket(KingBuckets::None, Color::White), 0);
        // An advanced king: White's on d5 (rank 4), Black's on f3, its own f6 (rank 5).
        let pos = pos.with_fen("8/8/8/3K4/8/5k2/8/8 w - - 0 1").unwrap();
        assert_eq!(pos.nnue_king(Color::White), king(3, 4, 8, 8));
        assert_eq!(pos.nnue_king(Color::Black), king(5, 5, 8, 8));
        assert_eq!(pos.king_bucket(KingBuckets::Zones4, Color::White), 2);
        assert_eq!(pos.king_bucket(KingBuckets::Zones4, Color::Black), 3);
        // The bucketed features are the plain ones moved to the bucket's rows.
        let (mut plain, mut bucketed) = (Vec::new(), Vec::new());
        pos.active_features(Color::Black, &mut plain);
        pos.bucketed_features(KingBuckets::Zones4, Color::Black, &mut bucketed);
        let moved: Vec<u32> = plain.iter().map(|&f| f + 3 * 768).collect();
        assert_eq!(bucketed, moved);
        // Mirror: Black's king on c8, its own c1 (the left half), sees the board mirrored: its
        // king on its f1 (king slot 5: 5 * 64 + 5), White's e1 king, its e8, on its d8
        // (384 + 5 * 64 + 59). White's e1 king is on the right half: e1 (5 * 64 + 4) and the
        // c8 king (384 + 5 * 64 + 58), unmirrored.
        let pos = pos.with_fen("2k5/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let mirror = |c| {
            let mut f = Vec::new();
            pos.bucketed_features(KingBuckets::Mirror, c, &mut f);
            f.sort_unstable();
            f
        };
        assert_eq!(mirror(Color::Black), [325, 763]);
        assert_eq!(mirror(Color::White), [324, 762]);
        // Chesstonia: the king's square on the 8 x 8 board, not on the 12-file word; Black sees
        // the board turned half a circle, so its e8 king is on its own d1.
        let tonia: ChesstoniaChess = new_game("chesstonia").unwrap();
        assert_eq!(tonia.nnue_king(Color::White), king(4, 0, 8, 8));
        assert_eq!(tonia.nnue_king(Color::Black), king(3, 0, 8, 8));
        // Cannonrider: ten files, White's king starts on e1 (file 4, the left half of ten
        // files); Black's on e8, which the half turn makes its own f1 (the right half).
        let rider: CannonriderChess = new_game("cannonrider").unwrap();
        assert_eq!(rider.nnue_king(Color::White), king(4, 0, 10, 8));
        assert_eq!(rider.nnue_king(Color::Black), king(5, 0, 10, 8));
        assert_eq!(rider.king_bucket(KingBuckets::Halves, Color::White), 0);
        assert_eq!(rider.king_bucket(KingBuckets::Halves, Color::Black), 1);
    }

    #[test]
    fn the_two_perspectives_differ_in_a_lopsided_position() {
        // The colour-exchange property over random games is in crates/core/tests/suite/chess_properties.rs.
        let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1";
        assert_ne!(features(fen, Color::White), features(fen, Color::Black));
    }

    #[test]
    fn every_feature_is_in_range_and_distinct() {
        let fen = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
        for side in Color::BOTH {
            let f = features(fen, side);
            assert!(f.iter().all(|&x| (x as usize) < CHESS_FEATURES));
            let mut d = f.clone();
            d.dedup();
            assert_eq!(d.len(), f.len());
        }
    }
}
