//! The static evaluation of Cannon Shogi: material on the board and in hand, where the pieces
//! stand and how far they reach, cannon screens, king safety (guards, enemies near the king,
//! the enemy's hand, attacks on the squares around the king) and threats. Every term is a
//! parameter of `eval_params.rs`, weighed by `eval_weights.rs`, which `cannonade tune` fits to
//! self-play positions; the terms are blended between a middle-game and an end-game weight by
//! the number of pieces still on the board (captured pieces go to hand, where they threaten
//! drops).

use super::eval_params::{Negated, Param, Sum, Terms, Trace, COUNT};
use super::piece::{Kind, Piece, Role, HAND_KINDS};
use super::position::ShogiPosition;
use super::tables::BB;
use crate::board::Color;

/// The value of each role on the board for exchanges (static exchange evaluation, move
/// ordering, the material count), in centipawns. Fixed: the evaluation's own values are
/// parameters (`Value…`) and may drift from these as they are tuned.
const EXCHANGE_VALUE: [i32; Role::COUNT] = [
    900,  // rook
    750,  // bishop
    450,  // silver
    330,  // knight
    300,  // lance
    120,  // soldier
    600,  // gold cannon (Xiangqi, orthogonal)
    500,  // silver cannon (Janggi, orthogonal)
    500,  // copper cannon (Xiangqi, diagonal)
    400,  // iron cannon (Janggi, diagonal)
    500,  // gold
    0,    // king
    1150, // dragon
    950,  // horse
    520,  // promoted silver
    520,  // promoted knight
    520,  // promoted lance
    520,  // promoted soldier (tokin)
    950,  // flying gold cannon
    950,  // flying silver cannon
    850,  // flying copper cannon
    850,  // flying iron cannon
];

/// A piece in hand is worth this many percent of its board value more, for exchanges.
const HAND_BONUS_PERCENT: i32 = 12;

/// Pieces on the board at the start, kings included: the phase is all middle game there and
/// moves toward the end game as pieces go to hand.
const FULL_BOARD: i32 = 40;

/// King danger: the squared attack count is capped here and weighed in 16ths by `KingDanger`.
const MAX_DANGER: i32 = 400;

/// Plain material value of a role on the board, for exchanges and move ordering.
pub fn role_value(r: Role) -> i32 {
    EXCHANGE_VALUE[r.index()]
}

/// Value of an unpromoted role held in hand, for exchanges.
pub fn hand_value(r: Role) -> i32 {
    EXCHANGE_VALUE[r.index()] * (100 + HAND_BONUS_PERCENT) / 100
}

/// What one side's pieces do, gathered while their own terms are counted and used for the
/// terms that need both sides (king attack, threats).
#[derive(Default)]
struct Reach {
    /// Every square a piece of the side can move to or capture on.
    all: BB,
    /// Every square a piece of the side could capture on, own pieces included (defended).
    attacks: BB,
    /// Pieces (the king aside) that reach a square next to the enemy king.
    king_attackers: i32,
    /// Enemy pieces that a less valuable piece of the side can capture (counted per pair).
    by_lower: i32,
}

impl ShogiPosition {
    /// Material from white's point of view: board pieces at their value (promoted ones at the
    /// promoted value) and pieces in hand at their board value, with no bonus for being in hand.
    pub fn material_white(&self) -> i32 {
        let mut score = [0i32; 2];
        for sq in self.occupied() {
            let p = Piece::from_code(self.board[sq.index()]);
            score[p.color().index()] += EXCHANGE_VALUE[p.role().index()];
        }
        for c in Color::BOTH {
            for kind in 0..HAND_KINDS {
                score[c.index()] += self.hands[c.index()][kind] as i32
                    * EXCHANGE_VALUE[Role::from_index(kind).index()];
            }
        }
        score[0] - score[1]
    }

    /// How much of the middle game is left, of `FULL_BOARD`.
    fn phase(&self) -> i32 {
        (self.occupied().count() as i32).min(FULL_BOARD)
    }

    /// Evaluation from white's point of view.
    pub fn evaluate_white(&self) -> i32 {
        let mut sum = Sum::default();
        self.terms(&mut sum);
        let phase = self.phase();
        (sum.0.mg * phase + sum.0.eg * (FULL_BOARD - phase)) / FULL_BOARD
    }

    /// The evaluation taken apart into its parameters' counts (for the tuner): with the
    /// engine's weights, `trace.evaluate` gives `evaluate_white` up to rounding.
    pub fn eval_trace(&self) -> Trace {
        let mut trace = Trace::new(COUNT);
        self.terms(&mut trace);
        trace.phase = self.phase() as f32 / FULL_BOARD as f32;
        trace
    }

    /// Every term of the evaluation, White's counted up and Black's down.
    fn terms<S: Terms>(&self, s: &mut S) {
        let white = self.side_terms(Color::White, s);
        let black = self.side_terms(Color::Black, &mut Negated(s));
        self.pressure_terms(Color::White, &white, &black, s);
        self.pressure_terms(Color::Black, &black, &white, &mut Negated(s));
        s.add(Param::Tempo as usize, self.side.sign());
    }

    /// The terms of `us`'s own pieces and king; returns what the pieces reach.
    fn side_terms<S: Terms>(&self, us: Color, s: &mut S) -> Reach {
        let t = self.t;
        let geo = &t.geo;
        let occ = self.occupied();
        let on_board = occ.count() as i32;
        let enemy = self.by_color[(!us).index()];
        let near_enemy_king = t.king.get(self.king_square(!us));
        let mut reach = Reach::default();
        for sq in self.by_color[us.index()] {
            let role = Piece::from_code(self.board[sq.index()]).role();
            s.add(Param::ValueRook.of(role), 1);
            s.add(
                Param::AdvanceRook.of(role),
                geo.relative_rank(sq, us == Color::White) as i32,
            );
            let file = geo.file_of(sq) as i32;
            s.add(Param::CentreRook.of(role), 4 - (file - 4).abs());
            let (attacks, targets) = self.reach(role.kind(), us, sq, occ);
            s.add(Param::MobilityRook.of(role), targets.count() as i32);
            reach.all |= targets;
            reach.attacks |= attacks;
            if role == Role::King {
                continue;
            }
            if (targets & near_enemy_king).any() {
                reach.king_attackers += 1;
            }
            let value = EXCHANGE_VALUE[role.index()];
            for victim in targets & enemy {
                let victim = Piece::from_code(self.board[victim.index()]).role();
                if EXCHANGE_VALUE[victim.index()] > value {
                    reach.by_lower += 1;
                }
            }
            let lines = match role.kind() {
                Kind::GoldCannon | Kind::SilverCannon | Kind::FlyingOrthogonal => {
                    t.rook_line[sq.index()]
                }
                Kind::CopperCannon | Kind::IronCannon | Kind::FlyingDiagonal => {
                    t.bishop_line[sq.index()]
                }
                _ => continue,
            };
            match (lines & occ).count() as i32 {
                0 if matches!(role, Role::SilverCannon | Role::IronCannon) => {
                    s.add(Param::CannonBareJanggi as usize, 1)
                }
                0 => s.add(Param::CannonBare as usize, 1),
                n => s.add(Param::CannonScreens as usize, n.min(4)),
            }
            s.add(Param::CannonFade as usize, on_board - 24);
        }
        for kind in 0..HAND_KINDS {
            s.add(
                Param::HandRook as usize + kind,
                self.hands[us.index()][kind] as i32,
            );
        }
        // The own king: its guards, the enemies close to it, and the enemy's hand to drop.
        let ksq = self.king_square(us);
        let guards_bb = self.by_kind[Kind::Gold.index()] | self.by_kind[Kind::Silver.index()];
        let guards = (t.king.get(ksq) & self.by_color[us.index()] & guards_bb)
            .count()
            .min(3) as i32;
        s.add(Param::KingGuards as usize, guards);
        s.add(
            Param::KingIntruders as usize,
            (t.king_zone[ksq.index()] & enemy).count() as i32,
        );
        if geo.relative_rank(ksq, us == Color::White) <= 1 {
            s.add(Param::KingHome as usize, 1);
        }
        let enemy_hand = self.hand_size(!us) as i32;
        s.add(Param::EnemyHand as usize, enemy_hand);
        s.add(
            Param::EnemyHandUnguarded as usize,
            enemy_hand * (3 - guards),
        );
        reach
    }

    /// What `us` presses on the enemy with: attacks around the enemy king (with the pieces
    /// `us` holds to drop there), and enemy pieces it threatens to win.
    fn pressure_terms<S: Terms>(&self, us: Color, ours: &Reach, theirs: &Reach, s: &mut S) {
        let t = self.t;
        let them = !us;
        let near = t.king.get(self.king_square(them));
        let attacked_near = (near & ours.all).count() as i32;
        s.add(Param::KingNeighboursAttacked as usize, attacked_near);
        let units = 2 * ours.king_attackers + attacked_near + (self.hand_size(us) as i32).min(8);
        s.add_scaled(
            Param::KingDanger as usize,
            (units * units).min(MAX_DANGER),
            16,
        );
        let to_move = self.side == us;
        s.add(
            if to_move {
                Param::ThreatByLowerToMove
            } else {
                Param::ThreatByLowerWaiting
            } as usize,
            ours.by_lower,
        );
        // Enemy pieces (the king aside) that `us` attacks and no enemy piece defends.
        let hanging = (ours.all
            & self.by_color[them.index()]
            & !self.by_kind[Kind::King.index()]
            & !theirs.attacks)
            .count() as i32;
        s.add(
            if to_move {
                Param::HangingToMove
            } else {
                Param::HangingWaiting
            } as usize,
            hanging,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::tables::BB;
    use super::*;
    use crate::games::Game;

    fn position(fen: &str) -> ShogiPosition {
        ShogiPosition::from_fen(fen).unwrap()
    }

    /// The count of one parameter in a position (White's minus Black's).
    fn count(fen: &str, p: Param) -> f32 {
        position(fen).eval_trace().counts[p as usize]
    }

    #[test]
    fn start_position_is_balanced() {
        let start = position(
            crate::engine::registry::find("cannonshogi")
                .unwrap()
                .game
                .start_fen,
        );
        // Symmetric but for the side to move: only the tempo counts.
        let trace = start.eval_trace();
        for (i, &c) in trace.counts.iter().enumerate() {
            if i != Param::Tempo as usize {
                assert_eq!(c, 0.0, "{}", super::super::eval_params::NAMES[i]);
            }
        }
        assert_eq!(trace.phase, 1.0);
    }

    #[test]
    fn pieces_in_hand_and_on_the_board_count_as_their_own_parameters() {
        let hand = "4k4/9/9/9/9/9/9/9/4K4[R] w - - 0 1";
        let board = "4k4/9/9/9/9/9/9/9/R3K4[] w - - 0 1";
        assert_eq!(count(hand, Param::HandRook), 1.0);
        assert_eq!(count(hand, Param::ValueRook), 0.0);
        assert_eq!(count(board, Param::ValueRook), 1.0);
        assert_eq!(count(board, Param::HandRook), 0.0);
        // The rook on a1 reaches the whole first rank to the king and the whole file: 3 + 8.
        assert_eq!(count(board, Param::MobilityRook), 11.0);
        // A rook in hand is a drop threat against Black's king.
        assert_eq!(count(hand, Param::EnemyHand), -1.0);
    }

    #[test]
    fn a_cannon_needs_screens() {
        // The gold cannon on e5 has the soldier on e3 on its file; on a3 the soldier is off its
        // lines.
        let screened = "k8/9/9/9/4U4/9/4P4/9/3K5[] w - - 0 1";
        let bare = "k8/9/9/9/4U4/9/P8/9/3K5[] w - - 0 1";
        assert_eq!(count(screened, Param::CannonScreens), 1.0);
        assert_eq!(count(screened, Param::CannonBare), 0.0);
        assert_eq!(count(bare, Param::CannonBare), 1.0);
        assert_eq!(count(bare, Param::CannonScreens), 0.0);
    }

    #[test]
    fn threats_are_counted_for_the_side_that_can_take() {
        // White's soldier on e5 attacks Black's rook on e6, which nothing defends: a threat by
        // a lower piece and a hanging piece, for the side to move (White) or waiting (Black to
        // move).
        let white_to_move = "k8/9/9/4r4/4P4/9/9/9/3K5[] w - - 0 1";
        let black_to_move = "k8/9/9/4r4/4P4/9/9/9/3K5[] b - - 0 1";
        assert_eq!(count(white_to_move, Param::ThreatByLowerToMove), 1.0);
        assert_eq!(count(white_to_move, Param::HangingToMove), 1.0);
        assert_eq!(count(black_to_move, Param::ThreatByLowerWaiting), 1.0);
        assert_eq!(count(black_to_move, Param::HangingWaiting), 1.0);
        // Defended by Black's soldier on d6 (a Janggi soldier also steps sideways): still
        // attacked by a lower piece, but not hanging.
        let defended = "k8/9/9/3pr4/4P4/9/9/9/3K5[] w - - 0 1";
        assert_eq!(count(defended, Param::ThreatByLowerToMove), 1.0);
        assert_eq!(count(defended, Param::HangingToMove), 0.0);
    }

    /// Calls `visit` on every position of `games` random games of at most `plies` plies from
    /// the start, the same games for the same seed.
    fn along_random_games(
        seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&ShogiPosition),
    ) {
        let start: ShogiPosition = crate::engine::registry::new_game("cannonshogi").unwrap();
        let mut rng = crate::board::zobrist::SplitMix64::new(seed);
        for _ in 0..games {
            let mut p = start.clone();
            for _ in 0..plies {
                visit(&p);
                let mut moves = arrayvec::ArrayVec::<_, { super::super::SHOGI_MOVES }>::new();
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                p.make_move(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn the_trace_gives_the_evaluation_along_random_games() {
        let weights = super::super::eval_params::TABLE.current();
        along_random_games(5, 10, 150, |p| {
            let traced = p.eval_trace().evaluate(&weights);
            let evaluated = p.evaluate_white() as f32;
            // Rounding: the king danger's 16ths and the phase blend.
            assert!((traced - evaluated).abs() <= 2.0, "{traced} {evaluated}");
        });
    }

    /// `reach` agrees with the move generator's targets and, summed over a side's pieces, with
    /// the attack detection the rules use (`attackers`), on every square, along random games.
    #[test]
    fn reach_agrees_with_targets_and_attackers() {
        let all = crate::board::Bitboard(u128::MAX);
        along_random_games(9, 6, 120, |p| {
            let occ = p.occupied();
            for c in Color::BOTH {
                let mut attacked = BB::EMPTY;
                for sq in p.by_color[c.index()] {
                    let kind = p.piece_at(sq).unwrap().role().kind();
                    let (attacks, targets) = p.reach(kind, c, sq, occ);
                    assert_eq!(targets, p.targets(kind, c, sq, occ), "{kind:?}");
                    attacked |= attacks;
                }
                for sq in p.t.geo.valid() {
                    assert_eq!(
                        attacked.contains(sq),
                        p.attackers(sq, occ, c, all).any(),
                        "{c:?} on {sq:?} in {}",
                        p.to_fen()
                    );
                }
            }
        });
    }

    #[test]
    fn material_counts_hand_and_board_alike() {
        let hand = position("4k4/9/9/9/9/9/9/9/4K4[R] w - - 0 1");
        let board = position("4k4/9/9/9/9/9/9/9/R3K4[] w - - 0 1");
        assert_eq!(hand.material_white(), role_value(Role::Rook));
        assert_eq!(board.material_white(), role_value(Role::Rook));
        // A promoted rook (dragon) is worth its promoted value; black's pieces count against.
        let dragon = position("4k4/9/9/9/9/9/9/9/+R3K3p[p] w - - 0 1");
        assert_eq!(
            dragon.material_white(),
            role_value(Role::Dragon) - 2 * role_value(Role::Pawn)
        );
    }
}
