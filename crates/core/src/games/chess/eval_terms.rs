//! The positional terms of the chess-family evaluation beyond material and piece squares: pawn
//! structure, mobility, king safety and a few piece bonuses. They read only the board's
//! geometry and the attack tables, so they hold on every board of the family: holes end lines
//! and files, Chesstonia's machinery off the board is skipped, and the variant pieces get a
//! mobility of their own kind (a Swedish cannon's jumps need screens, so its mobility is what
//! makes it worth more in a crowded position than in an empty one).

use super::eval::role_value;
use super::eval_params::{Negated, Param, Terms};
use super::piece::Role;
use super::position::ChessPosition;
use super::rules::ChessRules;
use crate::board::{BitWord, Bitboard, Color, Offset, Square};

pub use crate::games::tuning::Tapered;

/// Passed pawns are counted by how far they have come on a scale of 0 (own back rank) to 7 (the
/// last rank); other board lengths are mapped onto this scale (`Passed0..7`, and
/// `PassedBlocked0..7` for a passer whose square in front is occupied).
///
/// King danger: the squared attack units, capped here, weighed in 64ths by `KingDanger`.
const MAX_KING_UNITS_SQUARED: i32 = 2000;
/// A piece worth at least this much (middle game) counts as a major piece for the threats.
const MAJOR_VALUE: i32 = 450;

/// Mobility: the number of squares a piece of that kind typically reaches, so that the material
/// values keep meaning an average piece (the weight per square is `Mobility…`); `None` for the
/// pieces without a mobility term.
fn mobility_typical(role: Role) -> Option<i32> {
    Some(match role {
        Role::Knight => 4,
        Role::Bishop => 6,
        Role::Rook => 6,
        Role::Queen => 12,
        Role::Cannon => 5,
        Role::Cannonrider => 8,
        Role::Wazir | Role::Ferz => 2,
        Role::Pawn | Role::Scorpion | Role::King | Role::Stone | Role::TrackCannon => return None,
    })
}

/// How much a piece attacking a square next to the enemy king weighs in the king-danger sum.
fn king_attack_units(role: Role) -> i32 {
    match role {
        Role::Queen => 5,
        Role::Rook | Role::Cannonrider => 3,
        Role::Knight | Role::Bishop | Role::Cannon => 2,
        _ => 1,
    }
}

/// What one side's pieces (not its pawns or king) reach: all of them, and its minor pieces.
#[derive(Copy, Clone, Default)]
struct Reach<W: BitWord> {
    all: Bitboard<W>,
    by_minor: Bitboard<W>,
}

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
    /// The positional terms for white minus those for black.
    pub(super) fn positional_white<S: Terms>(&self, s: &mut S) {
        let white = self.activity(Color::White, s);
        let black = self.activity(Color::Black, &mut Negated(s));
        self.pawn_structure(Color::White, s);
        self.pawn_structure(Color::Black, &mut Negated(s));
        self.threats(Color::White, &white, &black, s);
        self.threats(Color::Black, &black, &white, &mut Negated(s));
    }

    /// The squares a side's pawns attack.
    pub(super) fn pawn_attacks(&self, us: Color) -> Bitboard<W> {
        let geo = &self.t.geo;
        let pawns = self.pawn_like() & self.ours(us) & geo.valid();
        let ahead = us.sign() as i8;
        geo.shift(pawns, Offset::new(-1, ahead)) | geo.shift(pawns, Offset::new(1, ahead))
    }

    /// Enemy pieces attacked by our pawns, enemy major pieces attacked by our minor pieces,
    /// and enemy pieces we attack that nothing of theirs defends.
    fn threats<S: Terms>(&self, us: Color, ours: &Reach<W>, theirs: &Reach<W>, s: &mut S) {
        let them = !us;
        let geo = &self.t.geo;
        let pawn_like = self.pawn_like();
        let pieces = self.ours(them) & geo.valid() & !pawn_like & !self.role_bb(Role::King);
        let our_pawn_attacks = self.pawn_attacks(us);
        s.add(
            Param::ThreatByPawn as usize,
            (our_pawn_attacks & pieces).count() as i32,
        );
        if (ours.by_minor & pieces).any() {
            let majors = (ours.by_minor & pieces)
                .into_iter()
                .filter(|&sq| role_value(self.piece_at(sq).unwrap().role()) >= MAJOR_VALUE)
                .count();
            s.add(Param::ThreatByMinor as usize, majors as i32);
        }
        let their_king = self.pieces(them, Role::King) & geo.valid();
        let mut defended = theirs.all | self.pawn_attacks(them);
        if their_king.any() {
            defended |= self.t.king.get(their_king.lsb());
        }
        let attacked = ours.all | our_pawn_attacks;
        s.add(
            Param::Hanging as usize,
            (attacked & pieces & !defended).count() as i32,
        );
    }

    /// Passed, isolated and doubled pawns (Scorpions count as pawns: they move and take like
    /// them).
    fn pawn_structure<S: Terms>(&self, us: Color, s: &mut S) {
        let t = self.t;
        let geo = &t.geo;
        let pawns = self.pawn_like() & geo.valid();
        let own = pawns & self.ours(us);
        let theirs = pawns & self.ours(!us);
        let occ = self.occupied();
        let last = geo.ranks() as i32 - 1;
        for sq in own {
            let file = geo.file_mask(geo.file_of(sq));
            let ahead = t.ranks_ahead[us.index()][geo.rank_of(sq)];
            if (own & t.adjacent_files[geo.file_of(sq)]).is_empty() {
                s.add(Param::Isolated as usize, 1);
            }
            if (own & file & ahead).any() {
                s.add(Param::Doubled as usize, 1);
            } else if t.is_passed(us, sq, own, theirs) {
                let rank = (geo.relative_rank(sq, us == Color::White) as i32 * 7 / last) as usize;
                // A blocked passer is worth much less in the end game.
                let front = geo.step(sq, t.forward(us));
                if front.is_some_and(|f| occ.contains(f)) {
                    s.add(Param::PassedBlocked0 as usize + rank, 1);
                } else {
                    s.add(Param::Passed0 as usize + rank, 1);
                }
            }
        }
    }

    /// Mobility of the pieces, the pressure they put on the enemy king's surroundings, the
    /// shelter of our own king, the bishop pair and rooks on open files; and what the pieces
    /// reach, for the threats.
    fn activity<S: Terms>(&self, us: Color, s: &mut S) -> Reach<W> {
        let t = self.t;
        let geo = &t.geo;
        let them = !us;
        let occ = self.occupied();
        let pawns = self.pawn_like() & geo.valid();
        let their_pawns = pawns & self.ours(them);
        let back = -us.sign() as i8;
        let pawn_guarded = geo.shift(their_pawns, Offset::new(-1, back))
            | geo.shift(their_pawns, Offset::new(1, back));
        let safe = geo.valid() & !self.ours(us) & !pawn_guarded;
        let their_king = self.pieces(them, Role::King) & geo.valid();
        let zone = if their_king.any() {
            let k = their_king.lsb();
            t.king.get(k) | Bitboard::from_square(k)
        } else {
            Bitboard::EMPTY
        };

        let mut reached = Reach::default();
        let mut attackers = 0;
        let mut units = 0;
        // Only the pieces that have a mobility term (not the pawns, the king or the pieces
        // that never move on the board by themselves): looking at the others costs as much.
        let still = [
            Role::Pawn,
            Role::Scorpion,
            Role::King,
            Role::Stone,
            Role::TrackCannon,
        ]
        .into_iter()
        .fold(Bitboard::EMPTY, |bb, r| bb | self.role_bb(r));
        for sq in self.ours(us) & geo.valid() & !still {
            let role = self.piece_at(sq).unwrap().role();
            let Some(typical) = mobility_typical(role) else {
                continue;
            };
            let reach = self.reach(role, sq, occ, self.ours(us));
            reached.all |= reach;
            if matches!(role, Role::Knight | Role::Bishop) {
                reached.by_minor |= reach;
            }
            s.add(
                Param::MobilityPawn.of(role),
                (reach & safe).count() as i32 - typical,
            );
            let near_king = (reach & zone).count() as i32;
            if near_king > 0 {
                attackers += 1;
                units += king_attack_units(role) * near_king;
            }
        }
        // One piece near the king is no attack; two or more are, growing with their weight.
        if attackers >= 2 {
            let danger = (units * units).min(MAX_KING_UNITS_SQUARED);
            s.add_scaled(Param::KingDanger as usize, danger, 64);
        }

        s.add(Param::Shelter as usize, self.shelter(us));
        if self.pieces(us, Role::Bishop).more_than_one() {
            s.add(Param::BishopPair as usize, 1);
        }
        let own_pawns = pawns & self.ours(us);
        for sq in self.pieces(us, Role::Rook) & geo.valid() {
            let file = geo.file_mask(geo.file_of(sq));
            if (file & pawns).is_empty() {
                s.add(Param::RookOpenFile as usize, 1);
            } else if (file & own_pawns).is_empty() {
                s.add(Param::RookHalfOpenFile as usize, 1);
            }
        }
        reached
    }

    /// The squares a piece moves to or attacks, as far as the evaluation cares (`own`: the
    /// pieces of its side). The variant's own pieces answer through their rules, with the
    /// move generator's functions.
    pub(super) fn reach(
        &self,
        role: Role,
        sq: Square,
        occ: Bitboard<W>,
        own: Bitboard<W>,
    ) -> Bitboard<W> {
        let t = self.t;
        match role {
            Role::Knight => t.knight.get(sq),
            Role::Bishop => t.rays.bishop_attacks(sq, occ),
            Role::Rook => t.rays.rook_attacks(sq, occ),
            Role::Queen => t.rays.rook_attacks(sq, occ) | t.rays.bishop_attacks(sq, occ),
            Role::Pawn | Role::King => Bitboard::EMPTY,
            _ => R::piece_reach(self, role, sq, occ, own),
        }
    }

    /// How many pawns (up to three) stand on the two ranks in front of a king that stays on its first two ranks (middle
    /// game only: in the end game the king walks out).
    fn shelter(&self, us: Color) -> i32 {
        let t = self.t;
        let geo = &t.geo;
        let king = self.pieces(us, Role::King) & geo.valid();
        if king.is_empty() {
            return 0;
        }
        let k = king.lsb();
        if geo.relative_rank(k, us == Color::White) > 1 {
            return 0;
        }
        let files = geo.file_mask(geo.file_of(k)) | t.adjacent_files[geo.file_of(k)];
        let rank = geo.rank_of(k) as i32;
        let mut front = Bitboard::EMPTY;
        for step in 1..=2 {
            let r = rank + step * us.sign();
            if (0..geo.ranks() as i32).contains(&r) {
                front |= geo.rank_mask(r as usize);
            }
        }
        let shield = front & files & self.pieces(us, Role::Pawn);
        shield.count().min(3) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::eval_params::Sum;
    use crate::games::chess::{Chess, SwedishCannonChess};
    use crate::games::Game;

    fn pawn_structure<W: BitWord, R: ChessRules>(p: &ChessPosition<W, R>, c: Color) -> Tapered {
        let mut sum = Sum::default();
        p.pawn_structure(c, &mut sum);
        sum.0
    }

    fn chess(fen: &str) -> Chess {
        crate::engine::registry::new_game::<Chess>("chess")
            .unwrap()
            .with_fen(fen)
            .unwrap()
    }

    #[test]
    fn a_passed_pawn_is_worth_more_the_further_it_has_come() {
        let on =
            |rows: &str| pawn_structure(&chess(&format!("4k3/{rows}/4K3 w - - 0 1")), Color::White);
        let e3 = on("8/8/8/8/4P3/8");
        let e5 = on("8/8/4P3/8/8/8");
        let e7 = on("4P3/8/8/8/8/8");
        assert!(e3.eg < e5.eg && e5.eg < e7.eg, "{e3:?} {e5:?} {e7:?}");
        // An enemy pawn in front on a neighbouring file takes the bonus away.
        let stopped = pawn_structure(&chess("4k3/3p4/8/4P3/8/8/8/4K3 w - - 0 1"), Color::White);
        assert!(stopped.eg < e5.eg, "{stopped:?} {e5:?}");
    }

    #[test]
    fn doubled_and_isolated_pawns_cost() {
        let healthy = pawn_structure(&chess("4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1"), Color::White);
        let doubled = pawn_structure(&chess("4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1"), Color::White);
        let split = pawn_structure(&chess("4k3/8/8/8/8/8/2P1P3/4K3 w - - 0 1"), Color::White);
        assert!(doubled.eg < healthy.eg && doubled.mg < healthy.mg);
        assert!(split.mg < healthy.mg && split.eg < healthy.eg);
    }

    #[test]
    fn the_king_likes_pawns_in_front_and_fears_two_attackers() {
        let sheltered = chess("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1");
        let bare = chess("6k1/8/8/8/5PPP/8/8/6K1 w - - 0 1");
        assert!(sheltered.shelter(Color::White) > 0);
        assert!(sheltered.shelter(Color::White) > bare.shelter(Color::White));
        // Queen and knight both reach the squares around the black king; a queen alone does not
        // count as an attack. Asked of the king-danger count itself (White's minus Black's), so
        // that the test holds whatever weights the tuner gives the term and mobility.
        let danger = |fen: &str| chess(fen).eval_trace().counts[Param::KingDanger as usize];
        assert!(danger("6k1/5ppp/8/3Q2N1/8/8/8/6K1 w - - 0 1") > 0.0);
        assert_eq!(danger("6k1/5ppp/8/3Q4/8/2N5/8/6K1 w - - 0 1"), 0.0);
        // With the weights in use, the attack is worth something to the attacker.
        assert!(super::super::eval_params::WEIGHTS[Param::KingDanger as usize].mg > 0);
    }

    #[test]
    fn pieces_attacked_by_pawns_or_left_undefended_are_threats() {
        // The threat counts, White's minus Black's (no position below has a black threat).
        let threats = |fen: &str| {
            let t = chess(fen).eval_trace();
            [Param::ThreatByPawn, Param::ThreatByMinor, Param::Hanging]
                .map(|p| t.counts[p as usize])
        };
        // The pawn on e4 attacks the knight on d5, which the pawn on e6 defends.
        assert_eq!(
            threats("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1"),
            [1.0, 0.0, 0.0]
        );
        assert_eq!(
            threats("4k3/8/4p3/3n4/8/4P3/8/4K3 w - - 0 1"),
            [0.0, 0.0, 0.0]
        );
        // A rook attacked by a knight, and nothing defends it: a minor threat and a hanging piece.
        assert_eq!(
            threats("4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1"),
            [0.0, 1.0, 1.0]
        );
        // The same rook defended by its king: only the minor threat.
        assert_eq!(
            threats("8/8/4k3/3r4/8/4N3/8/4K3 w - - 0 1"),
            [0.0, 1.0, 0.0]
        );
    }

    #[test]
    fn a_swedish_cannon_reaches_past_screens_and_slides_only_without_them() {
        let p = crate::engine::registry::new_game::<SwedishCannonChess>("swedishcannon")
            .unwrap()
            .with_fen("4k3/8/8/8/3P4/8/8/3CK3[] w - - 0 1")
            .unwrap();
        let geo = &p.t.geo;
        let sq = |s: &str| geo.parse_square(s, false).unwrap().0;
        let occ = p.occupied();
        // d1: screens d4 (up) and e1 (right): jumps d5..d8 (the king on e8 is not in line), f1..h1.
        let white = p.ours(Color::White);
        let reach = p.reach(Role::Cannon, sq("d1"), occ, white);
        let expected: Bitboard<u64> = ["d5", "d6", "d7", "d8", "f1", "g1", "h1"]
            .iter()
            .map(|s| sq(s))
            .collect();
        assert_eq!(reach, expected);
        // Without a screen in any direction (alone on a1's lines) it slides, up to the edge.
        let q = p.with_fen("4k3/8/8/8/8/2K5/8/C7[] w - - 0 1").unwrap();
        let slide = q.reach(Role::Cannon, sq("a1"), q.occupied(), q.ours(Color::White));
        assert_eq!(slide.count(), 14);
        // One piece on its file gives a jump, and the slide is gone.
        let r = p.with_fen("4k3/8/8/8/8/2K5/P7/C7[] w - - 0 1").unwrap();
        let jumps = r.reach(Role::Cannon, sq("a1"), r.occupied(), r.ours(Color::White));
        assert_eq!(jumps.count(), 6);
        // A jump onto its own piece is no jump: the cannon slides (a2 and a3 hold its pawns).
        let s = p.with_fen("4k3/8/8/8/8/P1K5/P7/C7[] w - - 0 1").unwrap();
        let slide = s.reach(Role::Cannon, sq("a1"), s.occupied(), s.ours(Color::White));
        assert_eq!(slide.count(), 7, "b1..h1");
    }
}
