//! Legal move generation: pseudo-legal targets per movement kind, then a legality filter.
//!
//! Cannons make pins and checks slippery: a piece can be pinned *as a screen*, a move can
//! create a check by adding a screen or by removing one, and a drop can block a cannon check by
//! becoming a second screen. Rather than special-casing each, the filter rests on one fact:
//! a move changes the occupancy of at most two squares, and occupancy only matters to line
//! pieces (sliders, lances, cannons) looking at the king along a ray. So we mark the "hot" rays
//! from our king, those holding an enemy line piece of that direction. A move that touches no
//! hot ray cannot change any line attack on the king; it is legal exactly when it leaves no
//! checker standing (it captures the only one, or there is none). Any other move is tested
//! directly: the enemy attackers of the king on the board as it would be after the move.

use super::piece::{Kind, Piece, Role, HAND_KINDS};
use super::position::ShogiPosition;
use super::tables::BB;
use crate::board::{Bitboard, Color, RayDir, Square};
use crate::games::shogi::ShogiMoves;
use crate::games::{Move, MoveKind};

impl ShogiPosition {
    /// Rays from `ksq` that hold an enemy piece able to attack along them.
    #[inline]
    fn hot_rays(&self, ksq: Square, them: Color) -> BB {
        let t = self.t;
        let kb = |k: Kind| self.by_kind[k.index()];
        let enemy = self.by_color[them.index()];
        let fly = kb(Kind::FlyingOrthogonal) | kb(Kind::FlyingDiagonal);
        // Lances are counted in every orthogonal direction: a few extra tests, no harm.
        let orth = (kb(Kind::Rook)
            | kb(Kind::Dragon)
            | kb(Kind::Lance)
            | kb(Kind::GoldCannon)
            | kb(Kind::SilverCannon)
            | fly)
            & enemy;
        let diag = (kb(Kind::Bishop)
            | kb(Kind::Horse)
            | kb(Kind::CopperCannon)
            | kb(Kind::IronCannon)
            | fly)
            & enemy;
        let mut hot = Bitboard::EMPTY;
        if (t.rook_line[ksq.index()] & orth).any() {
            for d in RayDir::ORTHOGONAL {
                let r = t.rays.ray(d, ksq);
                if (r & orth).any() {
                    hot |= r;
                }
            }
        }
        if (t.bishop_line[ksq.index()] & diag).any() {
            for d in RayDir::DIAGONAL {
                let r = t.rays.ray(d, ksq);
                if (r & diag).any() {
                    hot |= r;
                }
            }
        }
        hot
    }

    /// Empty squares after the first screen and the first piece beyond it, in `dirs`: the
    /// moves and captures of a Janggi-style cannon (before masking out own pieces).
    #[inline(always)]
    fn hop_lines(&self, dirs: &[RayDir], from: Square, occ: BB) -> BB {
        let mut b = Bitboard::EMPTY;
        for &d in dirs {
            b |= self.t.rays.hop_line(d, from, occ);
        }
        b
    }

    /// Landing squares of the short jumps (`pR2` / `pB2`): over an adjacent piece of either
    /// side onto the square right behind it.
    #[inline(always)]
    fn short_jumps(&self, diagonal: bool, from: Square, occ: BB) -> BB {
        let t = self.t;
        let list = if diagonal {
            &t.jumps_diag[from.index()]
        } else {
            &t.jumps_orth[from.index()]
        };
        let mut b = Bitboard::EMPTY;
        for j in list {
            if occ.contains(j.over) {
                b.set(j.to);
            }
        }
        b
    }

    /// Where a piece of movement `kind` and colour `us` on `from` may go: empty squares it
    /// can move to and enemy squares it can capture on.
    #[inline]
    pub(crate) fn targets(&self, kind: Kind, us: Color, from: Square, occ: BB) -> BB {
        let t = self.t;
        let rays = &t.rays;
        let own = self.by_color[us.index()];
        let enemy = self.by_color[(!us).index()];
        let empty = !occ & t.geo.valid();
        let i = us.index();
        match kind {
            Kind::King => t.king.get(from) & !own,
            Kind::Gold => t.gold[i].get(from) & !own,
            Kind::Silver => t.silver[i].get(from) & !own,
            Kind::Knight => t.knight[i].get(from) & !own,
            Kind::Soldier => t.soldier[i].get(from) & !own,
            Kind::Rook => rays.rook_attacks(from, occ) & !own,
            Kind::Bishop => rays.bishop_attacks(from, occ) & !own,
            Kind::Dragon => (rays.rook_attacks(from, occ) | t.ferz.get(from)) & !own,
            Kind::Horse => (rays.bishop_attacks(from, occ) | t.wazir.get(from)) & !own,
            Kind::Lance => {
                let fwd = match us {
                    Color::White => RayDir::ORTHOGONAL[0],
                    Color::Black => RayDir::ORTHOGONAL[2],
                };
                rays.line_attacks(fwd, from, occ) & !own
            }
            Kind::GoldCannon => {
                (rays.rook_attacks(from, occ) & empty)
                    | (rays.hopper_targets(&RayDir::ORTHOGONAL, from, occ) & enemy)
            }
            Kind::CopperCannon => {
                (rays.bishop_attacks(from, occ) & empty)
                    | (rays.hopper_targets(&RayDir::DIAGONAL, from, occ) & enemy)
            }
            Kind::SilverCannon => self.hop_lines(&RayDir::ORTHOGONAL, from, occ) & !own,
            Kind::IronCannon => self.hop_lines(&RayDir::DIAGONAL, from, occ) & !own,
            Kind::FlyingOrthogonal => {
                ((rays.rook_attacks(from, occ) | t.ferz.get(from)) & empty)
                    | ((self.hop_lines(&RayDir::ORTHOGONAL, from, occ)
                        | self.short_jumps(true, from, occ))
                        & !own)
            }
            Kind::FlyingDiagonal => {
                ((rays.bishop_attacks(from, occ) | t.wazir.get(from)) & empty)
                    | ((self.hop_lines(&RayDir::DIAGONAL, from, occ)
                        | self.short_jumps(false, from, occ))
                        & !own)
            }
        }
    }

    /// What a piece of movement `kind` and colour `us` on `from` attacks and where it may go:
    /// `(attacks, targets)`. `attacks` are the squares it could capture on if an enemy piece
    /// stood there (so they include the own pieces it defends, and for a cannon every square
    /// behind its screen up to the next piece); `targets` is [`Self::targets`]. For the
    /// evaluation, which needs both.
    #[inline]
    pub(crate) fn reach(&self, kind: Kind, us: Color, from: Square, occ: BB) -> (BB, BB) {
        let t = self.t;
        let rays = &t.rays;
        let own = self.by_color[us.index()];
        let enemy = self.by_color[(!us).index()];
        let empty = !occ & t.geo.valid();
        let i = us.index();
        // Pieces that capture as they move: the targets are the attacks off own pieces.
        let plain = |attacks: BB| (attacks, attacks & !own);
        match kind {
            Kind::King => plain(t.king.get(from)),
            Kind::Gold => plain(t.gold[i].get(from)),
            Kind::Silver => plain(t.silver[i].get(from)),
            Kind::Knight => plain(t.knight[i].get(from)),
            Kind::Soldier => plain(t.soldier[i].get(from)),
            Kind::Rook => plain(rays.rook_attacks(from, occ)),
            Kind::Bishop => plain(rays.bishop_attacks(from, occ)),
            Kind::Dragon => plain(rays.rook_attacks(from, occ) | t.ferz.get(from)),
            Kind::Horse => plain(rays.bishop_attacks(from, occ) | t.wazir.get(from)),
            Kind::Lance => {
                let fwd = match us {
                    Color::White => RayDir::ORTHOGONAL[0],
                    Color::Black => RayDir::ORTHOGONAL[2],
                };
                plain(rays.line_attacks(fwd, from, occ))
            }
            Kind::SilverCannon => plain(self.hop_lines(&RayDir::ORTHOGONAL, from, occ)),
            Kind::IronCannon => plain(self.hop_lines(&RayDir::DIAGONAL, from, occ)),
            // Xiangqi-style cannons slide to empty squares and capture over a screen.
            Kind::GoldCannon => {
                let hops = self.hop_lines(&RayDir::ORTHOGONAL, from, occ);
                (
                    hops,
                    (rays.rook_attacks(from, occ) & empty) | (hops & enemy),
                )
            }
            Kind::CopperCannon => {
                let hops = self.hop_lines(&RayDir::DIAGONAL, from, occ);
                (
                    hops,
                    (rays.bishop_attacks(from, occ) & empty) | (hops & enemy),
                )
            }
            Kind::FlyingOrthogonal => {
                let hops = self.hop_lines(&RayDir::ORTHOGONAL, from, occ)
                    | self.short_jumps(true, from, occ);
                let slides = (rays.rook_attacks(from, occ) | t.ferz.get(from)) & empty;
                (hops, slides | (hops & !own))
            }
            Kind::FlyingDiagonal => {
                let hops = self.hop_lines(&RayDir::DIAGONAL, from, occ)
                    | self.short_jumps(false, from, occ);
                let slides = (rays.bishop_attacks(from, occ) | t.wazir.get(from)) & empty;
                (hops, slides | (hops & !own))
            }
        }
    }

    /// Appends the move from `from` to `to` by `role`, with and without promotion as the
    /// rules allow.
    #[inline(always)]
    fn push_with_promotions(&self, role: Role, from: Square, to: Square, out: &mut ShogiMoves) {
        let t = self.t;
        let us = self.side.index();
        if role.can_promote() && (t.zone[us].contains(from) || t.zone[us].contains(to)) {
            out.push(Move::new(from, to, MoveKind::Promotion, role.index() as u8));
            // A lance or knight must promote where it could never move again.
            let forced = match role {
                Role::Lance => t.last_rank[us].contains(to),
                Role::Knight => t.last_two_ranks[us].contains(to),
                _ => false,
            };
            if !forced {
                out.push(Move::normal(from, to));
            }
        } else {
            out.push(Move::normal(from, to));
        }
    }

    /// Appends every legal move of the side to move.
    pub fn generate_legal(&self, out: &mut ShogiMoves) {
        self.generate(out, false)
    }

    /// Appends the legal captures and promotions (what quiescence search looks at), without
    /// generating the drops and quiet moves only to throw them away.
    pub fn generate_tactical(&self, out: &mut ShogiMoves) {
        self.generate(out, true)
    }

    fn generate(&self, out: &mut ShogiMoves, tactical_only: bool) {
        let t = self.t;
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let own = self.by_color[us.index()];
        let ksq = self.king_square(us);
        let checkers = self.checkers;
        let hot = self.hot_rays(ksq, them);
        let all = Bitboard(u128::MAX);

        // King steps: tested with the king lifted, so it cannot hide behind itself.
        let enemy = self.by_color[them.index()];
        let king_targets = if tactical_only { enemy } else { !own };
        let occ_no_king = occ ^ Bitboard::from_square(ksq);
        for to in t.king.get(ksq) & king_targets {
            let to_bb = Bitboard::from_square(to);
            if self
                .attackers(to, occ_no_king | to_bb, them, !to_bb)
                .is_empty()
            {
                out.push(Move::normal(ksq, to));
            }
        }

        // Board moves of the other pieces.
        let kings = self.by_kind[Kind::King.index()];
        for from in own & !kings {
            let role = Piece::from_code(self.board[from.index()]).role();
            let from_bb = Bitboard::from_square(from);
            let from_hot = hot.contains(from);
            let mut targets = self.targets(role.kind(), us, from, occ);
            if tactical_only {
                let promotes = role.can_promote() && t.zone[us.index()].contains(from);
                let zone = if role.can_promote() {
                    t.zone[us.index()]
                } else {
                    Bitboard::EMPTY
                };
                targets &= if promotes { !own } else { enemy | zone };
            }
            for to in targets {
                let to_bb = Bitboard::from_square(to);
                let legal = if !from_hot && !hot.contains(to) {
                    (checkers & !to_bb).is_empty()
                } else {
                    self.attackers(ksq, (occ & !from_bb) | to_bb, them, !to_bb)
                        .is_empty()
                };
                if legal {
                    if tactical_only && !enemy.contains(to) {
                        // A quiet move is tactical only as a promotion.
                        out.push(Move::new(from, to, MoveKind::Promotion, role.index() as u8));
                    } else {
                        self.push_with_promotions(role, from, to, out);
                    }
                }
            }
        }
        if tactical_only {
            return;
        }

        // Drops. In check, only a drop on a hot ray can help (as a block).
        let hand = &self.hands[us.index()];
        if hand.iter().all(|&n| n == 0) {
            return;
        }
        let mut empty = !occ & t.geo.valid();
        if checkers.any() {
            empty &= hot;
        }
        let last = t.last_rank[us.index()];
        let last_two = t.last_two_ranks[us.index()];
        let mut legal_drops = Bitboard::EMPTY;
        for to in empty {
            let to_bb = Bitboard::from_square(to);
            let legal = if !hot.contains(to) {
                checkers.is_empty()
            } else {
                self.attackers(ksq, occ | to_bb, them, all).is_empty()
            };
            if legal {
                legal_drops.set(to);
            }
        }
        for (kind, &n) in hand.iter().enumerate().take(HAND_KINDS) {
            if n == 0 {
                continue;
            }
            let squares = match Role::from_index(kind) {
                Role::Knight => legal_drops & !last_two,
                Role::Lance => legal_drops & !last,
                _ => legal_drops,
            };
            for to in squares {
                out.push(Move::new(to, to, MoveKind::Drop, kind as u8));
            }
        }
    }

    /// Whether `m` is a capture.
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        m.kind() != MoveKind::Drop && self.board[m.to().index()] != super::position::EMPTY
    }
}
