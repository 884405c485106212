//! Attack generation for any geometry: leapers by table, and every kind of line piece (slider,
//! hopper/cannon, nightrider) by precomputed rays whose first blocker is found with lsb/msb.
//!
//! A ray starts next to its square and runs in one direction until the edge or a hole, so a
//! hole ends a line and can never be a screen. Because indices grow monotonically along a ray
//! whose step is "positive" (`df + dr * files > 0`), the nearest blocker is the lowest set bit of
//! `ray & occupied` for positive steps and the highest for negative ones.

use super::bitboard::Bitboard;
use super::geometry::{Geometry, Offset, DIAGONAL, KNIGHT_LEAPS, ORTHOGONAL};
use super::square::Square;
use super::word::BitWord;

/// Ray directions known to [`Rays`]: the four orthogonal, the four diagonal and the eight
/// knight steps (for nightriders).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct RayDir(u8);

impl RayDir {
    pub const ORTHOGONAL: [RayDir; 4] = [RayDir(0), RayDir(1), RayDir(2), RayDir(3)];
    pub const DIAGONAL: [RayDir; 4] = [RayDir(4), RayDir(5), RayDir(6), RayDir(7)];
    pub const KNIGHT: [RayDir; 8] = [
        RayDir(8),
        RayDir(9),
        RayDir(10),
        RayDir(11),
        RayDir(12),
        RayDir(13),
        RayDir(14),
        RayDir(15),
    ];
    const COUNT: usize = 16;

    fn offset(self) -> Offset {
        match self.0 {
            0..=3 => ORTHOGONAL[self.0 as usize],
            4..=7 => DIAGONAL[self.0 as usize - 4],
            _ => KNIGHT_LEAPS[self.0 as usize - 8],
        }
    }
}

/// Precomputed rays, between-sets and lines for one geometry.
#[derive(Clone, Debug)]
pub struct Rays<W: BitWord> {
    size: usize,
    rays: Vec<Bitboard<W>>,
    positive: [bool; RayDir::COUNT],
    /// Squares strictly between two squares on a common orthogonal or diagonal line.
    between: Vec<Bitboard<W>>,
    /// The whole orthogonal or diagonal line through two squares (empty if not aligned).
    line: Vec<Bitboard<W>>,
}

impl<W: BitWord> Rays<W> {
    pub fn new(geo: &Geometry<W>) -> Self {
        let size = geo.size();
        let mut rays = vec![Bitboard::EMPTY; RayDir::COUNT * size];
        let mut positive = [false; RayDir::COUNT];
        for d in 0..RayDir::COUNT {
            let off = RayDir(d as u8).offset();
            positive[d] = off.df as i32 + off.dr as i32 * geo.files() as i32 > 0;
            for sq in geo.valid() {
                let mut ray = Bitboard::EMPTY;
                let mut cur = sq;
                while let Some(next) = geo.step(cur, off) {
                    ray.set(next);
                    cur = next;
                }
                rays[d * size + sq.index()] = ray;
            }
        }
        let mut between = vec![Bitboard::EMPTY; size * size];
        let mut line = vec![Bitboard::EMPTY; size * size];
        for a in geo.valid() {
            for dirs in [RayDir::ORTHOGONAL, RayDir::DIAGONAL] {
                for (i, &d) in dirs.iter().enumerate() {
                    let opposite = dirs[(i + 2) % 4];
                    let ray = rays[d.0 as usize * size + a.index()];
                    let full = ray
                        | rays[opposite.0 as usize * size + a.index()]
                        | Bitboard::from_square(a);
                    for b in ray {
                        between[a.index() * size + b.index()] = ray
                            & !rays[d.0 as usize * size + b.index()]
                            & !Bitboard::from_square(b);
                        line[a.index() * size + b.index()] = full;
                    }
                }
            }
        }
        Rays {
            size,
            rays,
            positive,
            between,
            line,
        }
    }

    /// The whole ray from `sq` (exclusive) in direction `d`, ignoring pieces.
    #[inline(always)]
    pub fn ray(&self, d: RayDir, sq: Square) -> Bitboard<W> {
        // SAFETY-free: indices are checked in debug builds by Vec.
        self.rays[d.0 as usize * self.size + sq.index()]
    }

    /// The nearest occupied square from `sq` in direction `d`.
    #[inline(always)]
    pub fn first_blocker(&self, d: RayDir, sq: Square, occ: Bitboard<W>) -> Option<Square> {
        let hits = self.ray(d, sq) & occ;
        if hits.is_empty() {
            None
        } else if self.positive[d.0 as usize] {
            Some(hits.lsb())
        } else {
            Some(hits.msb())
        }
    }

    /// Slider attacks in one direction: the empty squares up to and including the first
    /// blocker.
    #[inline(always)]
    pub fn line_attacks(&self, d: RayDir, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let ray = self.ray(d, sq);
        match self.first_blocker(d, sq, occ) {
            None => ray,
            Some(b) => ray & !self.ray(d, b),
        }
    }

    /// Slider attacks along several directions.
    #[inline(always)]
    pub fn slider_attacks(&self, dirs: &[RayDir], sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let mut att = Bitboard::EMPTY;
        for &d in dirs {
            att |= self.line_attacks(d, sq, occ);
        }
        att
    }

    #[inline(always)]
    pub fn rook_attacks(&self, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        self.slider_attacks(&RayDir::ORTHOGONAL, sq, occ)
    }

    #[inline(always)]
    pub fn bishop_attacks(&self, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        self.slider_attacks(&RayDir::DIAGONAL, sq, occ)
    }

    /// Nightrider moves: repeated knight leaps in one direction while the landing squares are
    /// empty; the first occupied landing square is included (a capture if it is an enemy).
    #[inline(always)]
    pub fn nightrider_attacks(&self, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        self.slider_attacks(&RayDir::KNIGHT, sq, occ)
    }

    /// Hopper (cannon) targets in one direction: the first occupied square after the first
    /// blocker (the screen). That square is what a cannon captures or attacks.
    #[inline(always)]
    pub fn hop_target(&self, d: RayDir, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        match self.first_blocker(d, sq, occ) {
            None => Bitboard::EMPTY,
            Some(screen) => match self.first_blocker(d, screen, occ) {
                None => Bitboard::EMPTY,
                Some(t) => Bitboard::from_square(t),
            },
        }
    }

    /// The empty squares after the screen and before the next piece (Janggi/Swedish cannon
    /// moves), plus that next piece if any.
    #[inline(always)]
    pub fn hop_line(&self, d: RayDir, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        match self.first_blocker(d, sq, occ) {
            None => Bitboard::EMPTY,
            Some(screen) => self.line_attacks(d, screen, occ),
        }
    }

    /// Cannon capture targets along several directions.
    #[inline(always)]
    pub fn hopper_targets(&self, dirs: &[RayDir], sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let mut t = Bitboard::EMPTY;
        for &d in dirs {
            t |= self.hop_target(d, sq, occ);
        }
        t
    }

    /// Squares strictly between `a` and `b` when they share a rank, file or diagonal.
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> Bitboard<W> {
        self.between[a.index() * self.size + b.index()]
    }

    /// The full orthogonal or diagonal line through `a` and `b`, or empty if not aligned.
    #[inline(always)]
    pub fn line(&self, a: Square, b: Square) -> Bitboard<W> {
        self.line[a.index() * self.size + b.index()]
    }
}

/// A leaper's targets from every square: one table entry per square.
#[derive(Clone, Debug)]
pub struct LeaperTable<W: BitWord>(Vec<Bitboard<W>>);

impl<W: BitWord> LeaperTable<W> {
    /// Leaps jump over anything, holes included, but never land on a hole or off the board.
    pub fn new(geo: &Geometry<W>, leaps: &[Offset]) -> Self {
        let mut t = vec![Bitboard::EMPTY; geo.size()];
        for sq in geo.valid() {
            for &l in leaps {
                if let Some(to) = geo.step(sq, l) {
                    t[sq.index()].set(to);
                }
            }
        }
        LeaperTable(t)
    }

    #[inline(always)]
    pub fn get(&self, sq: Square) -> Bitboard<W> {
        self.0[sq.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::KING_STEPS;

    fn gustavian() -> Geometry<u128> {
        let holes: Vec<_> = (1..7).flat_map(|r| [(0, r), (9, r)]).collect();
        Geometry::new(10, 8, &holes)
    }

    /// The square of a name, holes included (parse_square refuses holes).
    fn sq<W: BitWord>(g: &Geometry<W>, name: &str) -> Square {
        let b = name.as_bytes();
        let rank: i32 = name[1..].parse().unwrap();
        g.square((b[0] - b'a') as i32, rank - 1).unwrap()
    }

    fn set<W: BitWord>(g: &Geometry<W>, names: &[&str]) -> Bitboard<W> {
        names.iter().map(|n| sq(g, n)).collect()
    }

    #[test]
    fn rook_rays_stop_at_holes_and_edges() {
        let g = gustavian();
        let r = Rays::new(&g);
        // From a1 the file is a hole at once: only the first rank is open.
        let att = r.rook_attacks(sq(&g, "a1"), Bitboard::EMPTY);
        assert_eq!(
            att,
            set(&g, &["b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1"])
        );
        // From b4 west is a hole: nothing that way; east runs to i4.
        let att = r.rook_attacks(sq(&g, "b4"), Bitboard::EMPTY);
        assert!(!att.contains(sq(&g, "a4")));
        assert!(att.contains(sq(&g, "i4")) && !att.contains(sq(&g, "j4")));
        assert_eq!(att.count(), 7 + 7);
    }

    #[test]
    fn slider_includes_first_blocker_and_nothing_beyond() {
        let g = Geometry::<u64>::new(8, 8, &[]);
        let r = Rays::new(&g);
        let occ = set(&g, &["d6", "f4", "b2"]);
        let att = r.rook_attacks(sq(&g, "d4"), occ);
        assert!(att.contains(sq(&g, "d6")) && !att.contains(sq(&g, "d7")));
        assert!(att.contains(sq(&g, "f4")) && !att.contains(sq(&g, "g4")));
        assert!(att.contains(sq(&g, "a4")) && att.contains(sq(&g, "d1")));
        let diag = r.bishop_attacks(sq(&g, "d4"), occ);
        assert!(diag.contains(sq(&g, "b2")) && !diag.contains(sq(&g, "a1")));
        assert!(diag.contains(sq(&g, "h8")) && diag.contains(sq(&g, "a7")));
    }

    #[test]
    fn diagonal_line_ends_at_a_hole() {
        let g = gustavian();
        let r = Rays::new(&g);
        // The north-west ray from c5 reaches b6; a7 is a hole, so the ray ends at b6.
        let att = r.bishop_attacks(sq(&g, "c5"), Bitboard::EMPTY);
        assert!(att.contains(sq(&g, "b6")));
        assert!(!att.contains(sq(&g, "a7")));
        // i2 -> j1 exists (an extra square reached diagonally).
        assert!(r
            .bishop_attacks(sq(&g, "i2"), Bitboard::EMPTY)
            .contains(sq(&g, "j1")));
    }

    #[test]
    fn leapers_jump_holes_but_never_land_on_them() {
        let g = gustavian();
        let n = LeaperTable::new(&g, &KNIGHT_LEAPS);
        // b3's knight leaps: a1 (exists), a5 (hole), c1, c5, d2, d4.
        assert_eq!(
            n.get(sq(&g, "b3")),
            set(&g, &["a1", "c1", "c5", "d2", "d4"])
        );
        // a1's knight leaps: b3, c2 (a1 -> over the a2 hole to b3 is fine).
        assert_eq!(n.get(sq(&g, "a1")), set(&g, &["b3", "c2"]));
        let k = LeaperTable::new(&g, &KING_STEPS);
        assert_eq!(k.get(sq(&g, "a1")), set(&g, &["b1", "b2"]));
    }

    #[test]
    fn hopper_needs_exactly_one_screen_and_a_hole_is_no_screen() {
        let g = gustavian();
        let r = Rays::new(&g);
        let cannon = sq(&g, "b4");
        // Screen on d4, target on g4: the cannon hits g4, not beyond.
        let occ = set(&g, &["b4", "d4", "g4", "h4"]);
        assert_eq!(
            r.hopper_targets(&RayDir::ORTHOGONAL, cannon, occ),
            set(&g, &["g4"])
        );
        // The Janggi-style line after the screen: e4, f4 and the target g4.
        let e = RayDir::ORTHOGONAL[1];
        assert_eq!(r.hop_line(e, cannon, occ), set(&g, &["e4", "f4", "g4"]));
        // No screen: no target. The hole on a4 never acts as a screen.
        let occ = set(&g, &["b4", "e1"]);
        assert!(r
            .hopper_targets(&RayDir::ORTHOGONAL, cannon, occ)
            .is_empty());
        // Vertical: screen b6, target b8.
        let occ = set(&g, &["b4", "b6", "b8"]);
        assert_eq!(
            r.hopper_targets(&RayDir::ORTHOGONAL, cannon, occ),
            set(&g, &["b8"])
        );
    }

    #[test]
    fn nightrider_lines_stop_at_pieces_and_holes() {
        let g = gustavian();
        let r = Rays::new(&g);
        // From b1: (+1,+2) gives c3, d5, e7; the (+2,+1) line gives d2, f3, h4, j5 -> hole, so
        // it ends at h4.
        let att = r.nightrider_attacks(sq(&g, "b1"), Bitboard::EMPTY);
        for s in ["c3", "d5", "e7", "d2", "f3", "h4"] {
            assert!(att.contains(sq(&g, s)), "{s}");
        }
        assert!(!att.contains(sq(&g, "j5")));
        // A piece on d5 stops the first line there (included), e7 is not reached.
        let att = r.nightrider_attacks(sq(&g, "b1"), set(&g, &["d5"]));
        assert!(att.contains(sq(&g, "d5")) && !att.contains(sq(&g, "e7")));
    }

    #[test]
    fn between_and_line() {
        let g = Geometry::<u64>::new(8, 8, &[]);
        let r = Rays::new(&g);
        assert_eq!(
            r.between(sq(&g, "a1"), sq(&g, "d4")),
            set(&g, &["b2", "c3"])
        );
        assert_eq!(
            r.between(sq(&g, "d4"), sq(&g, "a1")),
            set(&g, &["b2", "c3"])
        );
        assert!(r.between(sq(&g, "a1"), sq(&g, "b3")).is_empty());
        assert_eq!(r.line(sq(&g, "c3"), sq(&g, "e5")).count(), 8);
        assert!(r.line(sq(&g, "a1"), sq(&g, "b3")).is_empty());
    }
}
