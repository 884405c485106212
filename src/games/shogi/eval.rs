//! A first static evaluation for Cannon Shogi: material on the board and in hand (a piece in
//! hand is worth more than on the board, because it can appear anywhere), promoted pieces,
//! king safety (guards next to the king, enemies close to it, the enemy's hand as a threat),
//! and cannon terms (a cannon is only as good as the screens it can use).

use super::piece::{Kind, Piece, Role, HAND_KINDS};
use super::position::ShogiPosition;
use crate::board::Color;

/// Value of each role on the board, in centipawns.
const VALUE: [i32; Role::COUNT] = [
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

/// A piece in hand is worth this many percent of its board value more.
const HAND_BONUS_PERCENT: i32 = 12;

/// Plain material value of a role on the board, for move ordering.
pub fn role_value(r: Role) -> i32 {
    VALUE[r.index()]
}

/// Value of an unpromoted role held in hand.
pub fn hand_value(r: Role) -> i32 {
    VALUE[r.index()] * (100 + HAND_BONUS_PERCENT) / 100
}

impl ShogiPosition {
    /// Material from white's point of view: board pieces at their value (promoted ones at the
    /// promoted value) and pieces in hand at their board value, with no bonus for being in hand.
    pub fn material_white(&self) -> i32 {
        let mut score = [0i32; 2];
        for sq in self.occupied() {
            let p = Piece::from_code(self.board[sq.index()]);
            score[p.color().index()] += VALUE[p.role().index()];
        }
        for c in Color::BOTH {
            for kind in 0..HAND_KINDS {
                score[c.index()] +=
                    self.hands[c.index()][kind] as i32 * VALUE[Role::from_index(kind).index()];
            }
        }
        score[0] - score[1]
    }

    /// Evaluation from white's point of view.
    pub fn evaluate_white(&self) -> i32 {
        let t = self.t;
        let geo = &t.geo;
        let occ = self.occupied();
        let on_board = occ.count() as i32;
        let mut score = [0i32; 2];

        for sq in occ {
            let p = Piece::from_code(self.board[sq.index()]);
            let role = p.role();
            let c = p.color().index();
            let mut v = VALUE[role.index()];
            let advance = geo.relative_rank(sq, p.color() == Color::White) as i32;
            match role.kind() {
                Kind::Soldier => v += 6 * advance,
                Kind::GoldCannon | Kind::SilverCannon | Kind::FlyingOrthogonal => {
                    v += cannon_terms(
                        (t.rook_line[sq.index()] & occ).count() as i32,
                        role,
                        on_board,
                    )
                }
                Kind::CopperCannon | Kind::IronCannon | Kind::FlyingDiagonal => {
                    v += cannon_terms(
                        (t.bishop_line[sq.index()] & occ).count() as i32,
                        role,
                        on_board,
                    )
                }
                _ => {}
            }
            score[c] += v;
        }
        for c in Color::BOTH {
            for kind in 0..HAND_KINDS {
                score[c.index()] +=
                    self.hands[c.index()][kind] as i32 * hand_value(Role::from_index(kind));
            }
            score[c.index()] += self.king_safety(c);
        }
        score[0] - score[1]
    }

    /// Safety of `c`'s king: guards around it, enemies near it, and how much the enemy holds
    /// in hand to drop there.
    fn king_safety(&self, c: Color) -> i32 {
        let t = self.t;
        let ksq = self.king_square(c);
        let own = self.by_color[c.index()];
        let enemy = self.by_color[(!c).index()];
        let near = t.king.get(ksq);
        let guards_bb = self.by_kind[Kind::Gold.index()] | self.by_kind[Kind::Silver.index()];
        let guards = (near & own & guards_bb).count().min(3) as i32;
        let intruders = (t.king_zone[ksq.index()] & enemy).count() as i32;
        let enemy_hand = self.hand_size(!c) as i32;
        let home = if t.geo.relative_rank(ksq, c == Color::White) <= 1 {
            20
        } else {
            0
        };
        18 * guards - 22 * intruders - enemy_hand * (4 + 4 * (3 - guards)) + home
    }
}

/// Cannon adjustments: a cannon with no piece on its lines cannot capture (a Janggi-style one
/// cannot even move), and cannons fade as the board empties.
fn cannon_terms(pieces_on_lines: i32, role: Role, on_board: i32) -> i32 {
    let janggi = matches!(role, Role::SilverCannon | Role::IronCannon);
    let screens = if pieces_on_lines == 0 {
        if janggi {
            -60
        } else {
            -30
        }
    } else {
        6 * pieces_on_lines.min(4)
    };
    screens + 3 * (on_board - 24)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_hand_pieces_count_more() {
        let start = ShogiPosition::from_fen(
            crate::engine::registry::find("cannonshogi")
                .unwrap()
                .game
                .start_fen,
        )
        .unwrap();
        assert_eq!(start.evaluate_white(), 0);
        // The same extra rook: in hand it is worth more than on the board.
        let hand = ShogiPosition::from_fen("4k4/9/9/9/9/9/9/9/4K4[R] w - - 0 1").unwrap();
        let board = ShogiPosition::from_fen("4k4/9/9/9/9/9/9/9/R3K4[] w - - 0 1").unwrap();
        assert!(hand.evaluate_white() > board.evaluate_white());
        assert!(board.evaluate_white() > 0);
        // A cannon with screens beats one on an empty line.
        let screened = ShogiPosition::from_fen("k8/9/9/9/4U4/9/4P4/9/3K5[] w - - 0 1").unwrap();
        let bare = ShogiPosition::from_fen("k8/9/9/9/4U4/9/P8/9/3K5[] w - - 0 1").unwrap();
        assert!(screened.evaluate_white() > bare.evaluate_white());
    }

    #[test]
    fn material_counts_hand_and_board_alike() {
        let hand = ShogiPosition::from_fen("4k4/9/9/9/9/9/9/9/4K4[R] w - - 0 1").unwrap();
        let board = ShogiPosition::from_fen("4k4/9/9/9/9/9/9/9/R3K4[] w - - 0 1").unwrap();
        assert_eq!(hand.material_white(), role_value(Role::Rook));
        assert_eq!(board.material_white(), role_value(Role::Rook));
        // A promoted rook (dragon) is worth its promoted value; black's pieces count against.
        let dragon = ShogiPosition::from_fen("4k4/9/9/9/9/9/9/9/+R3K3p[p] w - - 0 1").unwrap();
        assert_eq!(
            dragon.material_white(),
            role_value(Role::Dragon) - 2 * role_value(Role::Pawn)
        );
    }
}
