//! Attack generation for any geometry: leapers by table, and every kind of line piece (slider,
//! hopper/cannon, nightrider) by precomputed rays whose first blocker is found with lsb/msb.
//!
//! A ray starts next to its square and runs in one direction until the edge or a hole, so a
//! hole ends a line and can never be a screen. Because indices grow monotonically along a ray
//! whose step is "positive" (`df + dr * files > 0`), the nearest blocker is the lowest set bit of
//! `ray & occupied` for positive steps and the highest for negative ones.
//!
//! Rook, bishop and nightrider attacks take both directions of a line at once by the obstruction
//! difference ([`Rays::line_pair_attacks`]): no branch, one count of leading zeros (two 64-bit ones
//! in a 128-bit word) and one subtraction per line. The single-direction lookups (`line_attacks`,
//! `hop_line`, `hop_target`) look "no blocker" up as a blocker on a sentinel index whose ray is
//! empty (index 0 for negative directions, `W::BITS - 1` for positive ones), so only the hoppers
//! keep a branch, an early exit when there is no screen. Counted by callgrind (`go nodes 150000`,
//! 16 MB hash, search node for node the same; see docs/performance.md), this took 9.9% of the
//! instructions off a chess middle-game search, 16.1% off Cannonrider's (128-bit) start position
//! and 2.5% off Cannon Shogi's; every lookup is compared with a step-by-step walk on six geometries
//! in the tests.

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

    const fn offset(self) -> Offset {
        match self.0 {
            0..=3 => ORTHOGONAL[self.0 as usize],
            4..=7 => DIAGONAL[self.0 as usize - 4],
            _ => KNIGHT_LEAPS[self.0 as usize - 8],
        }
    }

    /// Whether square indices grow along the direction. Indices are `rank * files + file`, so
    /// a step `(df, dr)` adds `df + dr * files`: positive when it goes up a rank (`|df|` is
    /// smaller than `files` whenever the step lands on the board at all), or along the rank to
    /// the east. A constant, so that it folds away when the direction is known at compile time
    /// (`Rays::new` checks it against every step of its geometry).
    #[inline(always)]
    const fn positive(self) -> bool {
        let o = self.offset();
        o.dr > 0 || (o.dr == 0 && o.df > 0)
    }
}

/// The two directions of each whole line through a square, positive one first, for the
/// obstruction-difference lookup ([`Rays::line_pair_attacks`]).
const ROOK_LINES: [(usize, usize); 2] = [(0, 2), (1, 3)];
const BISHOP_LINES: [(usize, usize); 2] = [(4, 6), (5, 7)];
const NIGHTRIDER_LINES: [(usize, usize); 4] = [(8, 14), (9, 15), (10, 12), (11, 13)];

/// Precomputed rays, between-sets and lines for one geometry.
#[derive(Clone, Debug)]
pub struct Rays<W: BitWord> {
    size: usize,
    /// `rays[sq][d]`: the ray from `sq` (exclusive) in direction `d`, for every index the word
    /// can hold. Indices that are holes, or beyond the board, have empty rays; so do index 0 in
    /// every negative direction and index `W::BITS - 1` in every positive one (no index lies
    /// beyond them). Those two serve as sentinels: "no blocker" is looked up as a blocker there,
    /// so that the single-direction lookups need no branch.
    rays: Vec<[Bitboard<W>; RayDir::COUNT]>,
    /// Squares strictly between two squares on a common orthogonal or diagonal line.
    between: Vec<Bitboard<W>>,
    /// The whole orthogonal or diagonal line through two squares (empty if not aligned).
    line: Vec<Bitboard<W>>,
}

impl<W: BitWord> Rays<W> {
    pub fn new(geo: &Geometry<W>) -> Self {
        let size = geo.size();
        let mut rays = vec![[Bitboard::EMPTY; RayDir::COUNT]; W::BITS as usize];
        for sq in geo.valid() {
            for (d, slot) in rays[sq.index()].iter_mut().enumerate() {
                let dir = RayDir(d as u8);
                let mut cur = sq;
                while let Some(next) = geo.step(cur, dir.offset()) {
                    assert_eq!(
                        next.index() > cur.index(),
                        dir.positive(),
                        "ray indices must grow along positive directions only"
                    );
                    slot.set(next);
                    cur = next;
                }
            }
        }
        let mut between = vec![Bitboard::EMPTY; size * size];
        let mut line = vec![Bitboard::EMPTY; size * size];
        for a in geo.valid() {
            for dirs in [RayDir::ORTHOGONAL, RayDir::DIAGONAL] {
                for (i, &d) in dirs.iter().enumerate() {
                    let opposite = dirs[(i + 2) % 4];
                    let ray = rays[a.index()][d.0 as usize];
                    let full =
                        ray | rays[a.index()][opposite.0 as usize] | Bitboard::from_square(a);
                    for b in ray {
                        between[a.index() * size + b.index()] =
                            ray & !rays[b.index()][d.0 as usize] & !Bitboard::from_square(b);
                        line[a.index() * size + b.index()] = full;
                    }
                }
            }
        }
        Rays {
            size,
            rays,
            between,
            line,
        }
    }

    /// The ray in direction `d` from the square with index `index` (a sentinel included).
    #[inline(always)]
    fn ray_at(&self, d: RayDir, index: u32) -> Bitboard<W> {
        self.rays[index as usize][d.0 as usize]
    }

    /// The whole ray from `sq` (exclusive) in direction `d`, ignoring pieces.
    #[inline(always)]
    pub fn ray(&self, d: RayDir, sq: Square) -> Bitboard<W> {
        self.ray_at(d, sq.index() as u32)
    }

    /// The index of the nearest square of `hits` (a subset of one ray in direction `d`), or
    /// the sentinel whose ray in direction `d` is empty when `hits` is empty.
    #[inline(always)]
    fn nearest_or_sentinel(d: RayDir, hits: Bitboard<W>) -> u32 {
        if d.positive() {
            (hits.0 | (W::ONE << (W::BITS - 1))).trailing_zeros()
        } else {
            W::BITS - 1 - (hits.0 | W::ONE).leading_zeros()
        }
    }

    /// The nearest occupied square from `sq` in direction `d`.
    #[inline(always)]
    pub fn first_blocker(&self, d: RayDir, sq: Square, occ: Bitboard<W>) -> Option<Square> {
        let hits = self.ray(d, sq) & occ;
        if hits.is_empty() {
            None
        } else if d.positive() {
            Some(hits.lsb())
        } else {
            Some(hits.msb())
        }
    }

    /// Slider attacks in one direction from an index (a sentinel gives nothing).
    #[inline(always)]
    fn line_attacks_at(&self, d: RayDir, index: u32, occ: Bitboard<W>) -> Bitboard<W> {
        let ray = self.ray_at(d, index);
        let blocker = Self::nearest_or_sentinel(d, ray & occ);
        ray & !self.ray_at(d, blocker)
    }

    /// Slider attacks in one direction: the empty squares up to and including the first
    /// blocker.
    #[inline(always)]
    pub fn line_attacks(&self, d: RayDir, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        self.line_attacks_at(d, sq.index() as u32, occ)
    }

    /// Slider attacks along both directions of one line through `sq`, by the obstruction
    /// difference (Chess Programming Wiki): with `lower` the pieces on the negative ray and
    /// `upper` those on the positive one, every index of `lower` is below `sq` and every index
    /// of `upper` above it. The highest bit of `lower | 1` is the negative blocker (or bit 0,
    /// at or below every square of the negative ray, when there is none); subtracting it from
    /// `upper` borrows through every bit from it up to the lowest bit of `upper` (the positive
    /// blocker), or through all the bits above it when `upper` is empty, and the exclusive or
    /// keeps exactly those bits. Both rays end at the edge or a hole, so the line mask leaves
    /// nothing beyond them, and it never holds `sq` itself.
    #[inline(always)]
    fn line_pair_attacks(
        &self,
        (pos, neg): (usize, usize),
        sq: Square,
        occ: Bitboard<W>,
    ) -> Bitboard<W> {
        let rays = &self.rays[sq.index()];
        let (pos, neg) = (rays[pos].0, rays[neg].0);
        let lower = occ.0 & neg;
        let upper = occ.0 & pos;
        let ms1b = (lower | W::ONE).highest_bit();
        let odiff = upper ^ upper.wrapping_sub(ms1b);
        Bitboard((pos | neg) & odiff)
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
        self.line_pair_attacks(ROOK_LINES[0], sq, occ)
            | self.line_pair_attacks(ROOK_LINES[1], sq, occ)
    }

    #[inline(always)]
    pub fn bishop_attacks(&self, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        self.line_pair_attacks(BISHOP_LINES[0], sq, occ)
            | self.line_pair_attacks(BISHOP_LINES[1], sq, occ)
    }

    /// Nightrider moves: repeated knight leaps in one direction while the landing squares are
    /// empty; the first occupied landing square is included (a capture if it is an enemy).
    #[inline(always)]
    pub fn nightrider_attacks(&self, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let mut att = Bitboard::EMPTY;
        for pair in NIGHTRIDER_LINES {
            att |= self.line_pair_attacks(pair, sq, occ);
        }
        att
    }

    /// Hopper (cannon) targets in one direction: the first occupied square after the first
    /// blocker (the screen). That square is what a cannon captures or attacks.
    #[inline(always)]
    pub fn hop_target(&self, d: RayDir, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let hits = self.ray(d, sq) & occ;
        // No screen is common: leaving early there took 1.1% fewer instructions (callgrind) in
        // a Cannon Shogi search than going on from the sentinel, which gives the same empty set.
        if hits.is_empty() {
            return Bitboard::EMPTY;
        }
        let screen = Self::nearest_or_sentinel(d, hits);
        let hits = self.ray_at(d, screen) & occ;
        // The nearest piece beyond the screen alone (empty when there is none): the lowest bit,
        // or for a negative direction the highest, found as the hits less the ray beyond it.
        if d.positive() {
            Bitboard(hits.0.lowest_bit())
        } else {
            hits & !self.ray_at(d, Self::nearest_or_sentinel(d, hits))
        }
    }

    /// The empty squares after the screen and before the next piece (Janggi/Swedish cannon
    /// moves), plus that next piece if any.
    #[inline(always)]
    pub fn hop_line(&self, d: RayDir, sq: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let hits = self.ray(d, sq) & occ;
        if hits.is_empty() {
            return Bitboard::EMPTY;
        }
        self.line_attacks_at(d, Self::nearest_or_sentinel(d, hits), occ)
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

    /// The squares from `sq` in direction `d` one step at a time, up to and including the first
    /// occupied one: the slow reference for every lookup.
    fn walk<W: BitWord>(g: &Geometry<W>, d: RayDir, sq: Square, occ: Bitboard<W>) -> Vec<Square> {
        let mut out = Vec::new();
        let mut cur = sq;
        while let Some(next) = g.step(cur, d.offset()) {
            out.push(next);
            if occ.contains(next) {
                break;
            }
            cur = next;
        }
        out
    }

    fn reference_line<W: BitWord>(
        g: &Geometry<W>,
        d: RayDir,
        sq: Square,
        occ: Bitboard<W>,
    ) -> Bitboard<W> {
        walk(g, d, sq, occ).into_iter().collect()
    }

    fn reference_blocker<W: BitWord>(
        g: &Geometry<W>,
        d: RayDir,
        sq: Square,
        occ: Bitboard<W>,
    ) -> Option<Square> {
        walk(g, d, sq, occ).pop().filter(|&s| occ.contains(s))
    }

    fn reference_hop_line<W: BitWord>(
        g: &Geometry<W>,
        d: RayDir,
        sq: Square,
        occ: Bitboard<W>,
    ) -> Bitboard<W> {
        match reference_blocker(g, d, sq, occ) {
            None => Bitboard::EMPTY,
            Some(screen) => reference_line(g, d, screen, occ),
        }
    }

    fn reference_hop_target<W: BitWord>(
        g: &Geometry<W>,
        d: RayDir,
        sq: Square,
        occ: Bitboard<W>,
    ) -> Bitboard<W> {
        reference_blocker(g, d, sq, occ)
            .and_then(|screen| reference_blocker(g, d, screen, occ))
            .map_or(Bitboard::EMPTY, Bitboard::from_square)
    }

    fn reference_slider<W: BitWord>(
        g: &Geometry<W>,
        dirs: &[RayDir],
        sq: Square,
        occ: Bitboard<W>,
    ) -> Bitboard<W> {
        let mut att = Bitboard::EMPTY;
        for &d in dirs {
            att |= reference_line(g, d, sq, occ);
        }
        att
    }

    /// A small xorshift generator, so that the test needs no crate and repeats itself.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Random occupancies, sparse to dense; bits on holes and beyond the board are set too
    /// (no lookup may look at them).
    fn occupancies<W: BitWord>(rng: &mut XorShift, n: usize) -> Vec<Bitboard<W>> {
        let mut word = || {
            let mut w = W::ZERO;
            for i in 0..W::BITS {
                if rng.next() & 1 == 1 {
                    w |= W::ONE << i;
                }
            }
            w
        };
        let mut out = vec![Bitboard::EMPTY, Bitboard(!W::ZERO)];
        for i in 0..n {
            let w = match i % 4 {
                0 => word() & word() & word(),
                1 => word() & word(),
                2 => word(),
                _ => word() | word(),
            };
            out.push(Bitboard(w));
        }
        out
    }

    fn check_against_reference<W: BitWord>(g: &Geometry<W>, seed: u64) {
        let r = Rays::new(g);
        let mut rng = XorShift(seed);
        let all: Vec<RayDir> = (0..RayDir::COUNT as u8).map(RayDir).collect();
        for occ in occupancies::<W>(&mut rng, 200) {
            for sq in g.valid() {
                // The slider's own square may be occupied or not: it must not matter.
                for occ in [occ, occ ^ Bitboard::from_square(sq)] {
                    let ctx = || format!("sq {sq:?} occ {occ:?}");
                    assert_eq!(
                        r.rook_attacks(sq, occ),
                        reference_slider(g, &RayDir::ORTHOGONAL, sq, occ),
                        "rook {}",
                        ctx()
                    );
                    assert_eq!(
                        r.bishop_attacks(sq, occ),
                        reference_slider(g, &RayDir::DIAGONAL, sq, occ),
                        "bishop {}",
                        ctx()
                    );
                    assert_eq!(
                        r.nightrider_attacks(sq, occ),
                        reference_slider(g, &RayDir::KNIGHT, sq, occ),
                        "nightrider {}",
                        ctx()
                    );
                    for &d in &all {
                        assert_eq!(
                            r.line_attacks(d, sq, occ),
                            reference_line(g, d, sq, occ),
                            "line {d:?} {}",
                            ctx()
                        );
                        assert_eq!(
                            r.first_blocker(d, sq, occ),
                            reference_blocker(g, d, sq, occ),
                            "blocker {d:?} {}",
                            ctx()
                        );
                        assert_eq!(
                            r.hop_target(d, sq, occ),
                            reference_hop_target(g, d, sq, occ),
                            "hop target {d:?} {}",
                            ctx()
                        );
                        assert_eq!(
                            r.hop_line(d, sq, occ),
                            reference_hop_line(g, d, sq, occ),
                            "hop line {d:?} {}",
                            ctx()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn lookups_match_a_step_by_step_walk_on_every_geometry() {
        // Orthodox 8x8 (the word is full: square 63 is real and is also the sentinel).
        check_against_reference(&Geometry::<u64>::new(8, 8, &[]), 0x9E37_79B9_7F4A_7C15);
        // Gustavian 10x8 with holes, in a 128-bit word.
        check_against_reference(&gustavian(), 0xD1B5_4A32_D192_ED03);
        // Cannon Shogi's 9x9 and Whitcher's 10x10.
        check_against_reference(&Geometry::<u128>::new(9, 9, &[]), 0x8CB9_2BA7_2F3D_8DD7);
        check_against_reference(&Geometry::<u128>::new(10, 10, &[]), 0x2545_F491_4F6C_DD1D);
        // Chesstonia's 12x8 with its corner holes; a hole on square 0 as well.
        let holes = [
            (0, 0),
            (1, 0),
            (10, 0),
            (11, 0),
            (0, 1),
            (1, 1),
            (10, 1),
            (11, 1),
            (0, 6),
            (1, 6),
            (10, 6),
            (11, 6),
            (0, 7),
            (10, 7),
            (11, 7),
        ];
        check_against_reference(&Geometry::<u128>::new(12, 8, &holes), 0x94D0_49BB_1331_11EB);
        // Holes in the middle of lines.
        let holes = [(4, 4), (3, 3), (5, 2), (2, 5)];
        check_against_reference(&Geometry::<u64>::new(8, 8, &holes), 0xBF58_476D_1CE4_E5B9);
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
