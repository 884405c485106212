//! The Cannon Shogi position: board, bitboards by colour and by movement kind, hands, key and
//! history; attack detection; make and unmake.

use super::nnue_features::{hand_change, piece_change};
use super::piece::{Kind, Piece, Role, HAND_KINDS};
use super::tables::{ShogiTables, BB, SQUARES};
use crate::board::{Bitboard, Color, RayDir, Square};
use crate::games::history;
use crate::games::{Move, MoveKind};
use crate::nnue::DirtyRecord;

/// Board array entry for an empty square.
pub(crate) const EMPTY: u8 = 0xff;

/// What `unmake_move` needs to restore, and what the repetition rules look back at: the key
/// and the checkers of the position *before* the move.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo {
    pub mv: Move,
    pub captured: u8,
    pub key: u64,
    pub checkers: BB,
    pub halfmove: u16,
}

/// A Cannon Shogi position.
#[derive(Clone)]
pub struct ShogiPosition {
    pub(crate) t: &'static ShogiTables,
    pub(crate) board: [u8; SQUARES],
    pub(crate) by_color: [BB; 2],
    pub(crate) by_kind: [BB; Kind::COUNT],
    /// Pieces in hand, by colour and unpromoted role index.
    pub(crate) hands: [[u8; HAND_KINDS]; 2],
    pub(crate) side: Color,
    /// Enemy pieces attacking the king of the side to move.
    pub(crate) checkers: BB,
    /// Plies since the last capture, drop or promotion (Fairy-Stockfish's counter; no rule
    /// uses it in this game, it is kept so that FENs agree).
    pub(crate) halfmove: u16,
    /// Plies since the start of the game (0 = white's first move).
    pub(crate) game_ply: u32,
    pub(crate) key: u64,
    pub(crate) history: Vec<Undo>,
    /// What the last move changed, for the NNUE's incremental update: filled by `put`,
    /// `remove` and `set_hand`, through which every board and hand change goes.
    pub(crate) dirty: DirtyRecord,
}

impl ShogiPosition {
    /// An empty board, empty hands, white to move.
    pub(crate) fn empty() -> Self {
        ShogiPosition {
            t: ShogiTables::get(),
            board: [EMPTY; SQUARES],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; Kind::COUNT],
            hands: [[0; HAND_KINDS]; 2],
            side: Color::White,
            checkers: Bitboard::EMPTY,
            halfmove: 0,
            game_ply: 0,
            key: 0,
            history: Vec::with_capacity(256),
            dirty: DirtyRecord::default(),
        }
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.index()];
        (c != EMPTY).then(|| Piece::from_code(c))
    }

    #[inline(always)]
    pub fn occupied(&self) -> BB {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn ours(&self, c: Color) -> BB {
        self.by_color[c.index()]
    }

    #[inline(always)]
    pub fn kind_bb(&self, k: Kind) -> BB {
        self.by_kind[k.index()]
    }

    /// How many pieces of the unpromoted role `role` `c` holds in hand.
    #[inline(always)]
    pub fn hand_count(&self, c: Color, role: Role) -> u8 {
        self.hands[c.index()][role.index()]
    }

    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        (self.by_kind[Kind::King.index()] & self.by_color[c.index()]).lsb()
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn checkers(&self) -> BB {
        self.checkers
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = p.code();
        self.by_color[p.color().index()].set(sq);
        self.by_kind[p.role().kind().index()].set(sq);
        self.key ^= self.t.keys.piece(p.color(), p.role(), sq);
        self.dirty.push(piece_change(true, p, sq));
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square) -> Piece {
        let p = Piece::from_code(self.board[sq.index()]);
        self.board[sq.index()] = EMPTY;
        self.by_color[p.color().index()].clear(sq);
        self.by_kind[p.role().kind().index()].clear(sq);
        self.key ^= self.t.keys.piece(p.color(), p.role(), sq);
        self.dirty.push(piece_change(false, p, sq));
        p
    }

    /// Sets a hand count, keeping the key in step.
    #[inline(always)]
    pub(crate) fn set_hand(&mut self, c: Color, kind: usize, count: u8) {
        let keys = &self.t.keys;
        let old = self.hands[c.index()][kind];
        self.key ^= keys.hand(c, kind, old as usize) ^ keys.hand(c, kind, count as usize);
        self.hands[c.index()][kind] = count;
        // One more or one fewer: "at least count" appears, or "at least old" goes.
        if count == old + 1 {
            self.dirty.push(hand_change(true, c, kind, count));
        } else if count + 1 == old {
            self.dirty.push(hand_change(false, c, kind, old));
        } else if count != old {
            self.dirty.overflow();
        }
    }

    /// The pieces of `by` (restricted to `mask`) that attack `sq` when the board is occupied
    /// as `occ`. `occ` and `mask` let the legality test ask "what if" without making the move.
    ///
    /// Every attack relation here is read backwards from the target: steppers by the table of
    /// the other colour, sliders and cannons by rays from `sq` (a cannon hop is symmetric: the
    /// cannon sees the target over one screen exactly when the target sees the cannon over it).
    #[inline]
    pub(crate) fn attackers(&self, sq: Square, occ: BB, by: Color, mask: BB) -> BB {
        let t = self.t;
        let k = &self.by_kind;
        let kb = |kind: Kind| k[kind.index()];
        let them = self.by_color[by.index()] & mask;
        let rev = (!by).index();
        let mut a = (t.king.get(sq) & (kb(Kind::King) | kb(Kind::Dragon) | kb(Kind::Horse)))
            | (t.gold[rev].get(sq) & kb(Kind::Gold))
            | (t.silver[rev].get(sq) & kb(Kind::Silver))
            | (t.knight[rev].get(sq) & kb(Kind::Knight))
            | (t.soldier[rev].get(sq) & kb(Kind::Soldier));
        let rook_line = t.rook_line[sq.index()];
        let bishop_line = t.bishop_line[sq.index()];

        let rook_like = (kb(Kind::Rook) | kb(Kind::Dragon)) & them;
        let lances = kb(Kind::Lance) & them;
        if (rook_line & (rook_like | lances)).any() {
            let r = t.rays.rook_attacks(sq, occ);
            // A lance attacks forward only, so it must stand behind `sq` from its side.
            let behind = match by {
                Color::White => RayDir::ORTHOGONAL[2],
                Color::Black => RayDir::ORTHOGONAL[0],
            };
            a |= (r & rook_like) | (r & t.rays.ray(behind, sq) & lances);
        }
        let bishop_like = (kb(Kind::Bishop) | kb(Kind::Horse)) & them;
        if (bishop_line & bishop_like).any() {
            a |= t.rays.bishop_attacks(sq, occ) & bishop_like;
        }
        let fly_o = kb(Kind::FlyingOrthogonal) & them;
        let fly_d = kb(Kind::FlyingDiagonal) & them;
        let orth_hoppers = (kb(Kind::GoldCannon) | kb(Kind::SilverCannon) | fly_o) & them;
        if (rook_line & (orth_hoppers | fly_d)).any() {
            let h = t.rays.hopper_targets(&RayDir::ORTHOGONAL, sq, occ);
            // The flying diagonal cannon's orthogonal hop reaches two squares only (pR2).
            a |= (h & orth_hoppers) | (h & t.ring2_orth[sq.index()] & fly_d);
        }
        let diag_hoppers = (kb(Kind::CopperCannon) | kb(Kind::IronCannon) | fly_d) & them;
        if (bishop_line & (diag_hoppers | fly_o)).any() {
            let h = t.rays.hopper_targets(&RayDir::DIAGONAL, sq, occ);
            a |= (h & diag_hoppers) | (h & t.ring2_diag[sq.index()] & fly_o);
        }
        a & them
    }

    /// Whether a move of the side to move from `from` to `to` (the same square for a drop) can
    /// leave the enemy king attacked. It cannot when neither square could matter: before the
    /// move that king stands unattacked (legal play never leaves the side not to move in check,
    /// and a FEN that does is refused), and a move changes the board on its two squares only.
    /// So a new attack comes from the piece on `to` (within two steps of the king or on one of
    /// its lines, see `check_reach`) or along a line through `from` that the move opened.
    /// A cheap test in front of the full attack computation, never a different answer.
    #[inline]
    pub(crate) fn may_check(&self, from: Square, to: Square) -> bool {
        let ksq = self.king_square(!self.side).index();
        self.t.check_reach[ksq].contains(to) || self.t.king_lines[ksq].contains(from)
    }

    /// Enemy pieces attacking `c`'s king on the current board.
    #[inline]
    pub(crate) fn king_attackers(&self, c: Color) -> BB {
        self.attackers(
            self.king_square(c),
            self.occupied(),
            !c,
            Bitboard(u128::MAX),
        )
    }

    pub fn make(&mut self, m: Move) {
        let us = self.side;
        let to = m.to();
        let mut undo = Undo {
            mv: m,
            captured: EMPTY,
            key: self.key,
            checkers: self.checkers,
            halfmove: self.halfmove,
        };
        self.dirty.clear();
        self.halfmove += 1;
        match m.kind() {
            MoveKind::Drop => {
                let role = m.piece() as usize;
                let n = self.hands[us.index()][role];
                self.set_hand(us, role, n - 1);
                self.put(Piece::new(us, Role::from_index(role)), to);
                self.halfmove = 0;
            }
            kind => {
                if self.board[to.index()] != EMPTY {
                    let cap = self.remove(to);
                    undo.captured = cap.code();
                    let r = cap.role().unpromoted().index();
                    let n = self.hands[us.index()][r];
                    self.set_hand(us, r, n + 1);
                    self.halfmove = 0;
                }
                let p = self.remove(m.from());
                if kind == MoveKind::Promotion {
                    self.put(Piece::new(us, p.role().promoted()), to);
                    self.halfmove = 0;
                } else {
                    self.put(p, to);
                }
            }
        }
        // Asked before the side changes: `may_check` looks at the mover's opponent.
        let may_check = self.may_check(m.from(), to);
        self.side = !us;
        self.key ^= self.t.keys.side;
        self.game_ply += 1;
        self.checkers = if may_check {
            self.king_attackers(self.side)
        } else {
            Bitboard::EMPTY
        };
        self.history.push(undo);
    }

    pub fn unmake(&mut self) {
        let undo = self.history.pop().expect("unmake without a move");
        let m = undo.mv;
        self.side = !self.side;
        self.game_ply -= 1;
        let us = self.side;
        let to = m.to();
        match m.kind() {
            MoveKind::Drop => {
                let role = m.piece() as usize;
                self.remove(to);
                let n = self.hands[us.index()][role];
                self.set_hand(us, role, n + 1);
            }
            kind => {
                let p = self.remove(to);
                let p = if kind == MoveKind::Promotion {
                    Piece::new(us, p.role().unpromoted())
                } else {
                    p
                };
                self.put(p, m.from());
                if undo.captured != EMPTY {
                    let cap = Piece::from_code(undo.captured);
                    let r = cap.role().unpromoted().index();
                    let n = self.hands[us.index()][r];
                    self.set_hand(us, r, n - 1);
                    self.put(cap, to);
                }
            }
        }
        self.checkers = undo.checkers;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    pub fn make_null(&mut self) {
        self.dirty.clear();
        self.history.push(Undo {
            mv: Move::NONE,
            captured: EMPTY,
            key: self.key,
            checkers: self.checkers,
            halfmove: self.halfmove,
        });
        self.halfmove += 1;
        self.side = !self.side;
        self.key ^= self.t.keys.side;
        self.game_ply += 1;
        self.checkers = self.king_attackers(self.side);
    }

    pub fn unmake_null(&mut self) {
        let undo = self.history.pop().expect("unmake without a move");
        self.side = !self.side;
        self.game_ply -= 1;
        self.checkers = undo.checkers;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// The key computed from the pieces, hands and side alone.
    pub fn compute_key(&self) -> u64 {
        let keys = &self.t.keys;
        let mut k = 0;
        for sq in self.occupied() {
            let p = Piece::from_code(self.board[sq.index()]);
            k ^= keys.piece(p.color(), p.role(), sq);
        }
        for c in Color::BOTH {
            for kind in 0..HAND_KINDS {
                k ^= keys.hand(c, kind, self.hands[c.index()][kind] as usize);
            }
        }
        if self.side == Color::Black {
            k ^= keys.side;
        }
        k
    }

    /// Key and "side to move is in check" of position `i` of the game (`history.len()` is the
    /// current position).
    fn state(&self, i: usize) -> (u64, bool) {
        if i == self.history.len() {
            (self.key, self.checkers.any())
        } else {
            let u = &self.history[i];
            (u.key, u.checkers.any())
        }
    }

    /// Indices of earlier occurrences of the current position, most recent first, at most
    /// `limit` plies back and never past a null move.
    fn earlier_occurrences(&self, limit: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.history.len();
        history::earlier_occurrences(&self.history, |u| (u.mv, u.key), self.key, limit)
            .map(move |back| n - back)
    }

    /// Whether the current position occurred before within `plies` plies.
    pub fn repeated_within(&self, plies: usize) -> bool {
        self.earlier_occurrences(plies).next().is_some()
    }

    /// The fourfold-repetition verdict, if the current position is the fourth occurrence:
    /// `Some(Some(c))` when colour `c` gave check with every move during the repetition (and
    /// the other side did not), `Some(None)` for a plain draw.
    pub(crate) fn fourfold(&self) -> Option<Option<Color>> {
        let first = self.earlier_occurrences(usize::MAX).nth(2)?;
        Some(self.perpetual_checker(first))
    }

    /// The verdict on a repetition within `plies` plies (the search's view of a cycle: the
    /// side that keeps repeating it will make it fourfold): `Some(Some(c))` when colour `c`
    /// gave check with every move since the earlier occurrence, `Some(None)` for a plain
    /// repetition, `None` when the position has not occurred within `plies`.
    pub(crate) fn repetition_verdict(&self, plies: usize) -> Option<Option<Color>> {
        let first = self.earlier_occurrences(plies).next()?;
        Some(self.perpetual_checker(first))
    }

    /// The colour that gave check with every one of its moves since position `first` (an
    /// earlier occurrence of the current position) while the other side did not, if any.
    fn perpetual_checker(&self, first: usize) -> Option<Color> {
        let n = self.history.len();
        // Positions first+1, first+3, ... were reached by moves of the side to move now;
        // first+2, ..., n by the other side's moves. "Gave check" = the position reached has
        // its side to move in check.
        let all_checks = |start: usize| (start..=n).step_by(2).all(|i| self.state(i).1);
        let by_them = all_checks(first + 2);
        let by_us = all_checks(first + 1);
        match (by_them, by_us) {
            (true, false) => Some(!self.side),
            (false, true) => Some(self.side),
            _ => None,
        }
    }
}
