//! The chess-family position: board, bitboards, rights, key and history; make and unmake.

use super::eval_terms::Tapered;
use super::nnue_features::{piece_change, reserve_change};
use super::piece::{Piece, Role};
use super::rules::{ChessRules, Orthodox};
use super::tables::ChessTables;
use crate::board::{BitWord, Bitboard, Color, Square};
use crate::games::history;
use crate::games::{Move, MoveKind, Variant};
use crate::nnue::DirtyRecord;
use std::marker::PhantomData;

/// Board array entry for an empty square.
pub(crate) const EMPTY: u8 = 0xff;

/// Castling right bits: king side and queen side ("toward the higher / lower file") per colour.
pub(crate) const WHITE_HIGH: u8 = 1;
pub(crate) const WHITE_LOW: u8 = 2;
pub(crate) const BLACK_HIGH: u8 = 4;
pub(crate) const BLACK_LOW: u8 = 8;

/// What `unmake_move` needs to restore.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Undo<W: BitWord> {
    pub mv: Move,
    /// The piece that moved (a promotion puts it back: a pawn or a pawn-like piece).
    pub moved: u8,
    pub captured: u8,
    pub castling: u8,
    pub ep: Option<Square>,
    pub halfmove: u16,
    pub key: u64,
    pub checkers: Bitboard<W>,
}

/// A chess-family position on any geometry, generic over the bitboard word and the variant's
/// rules (orthodox chess by default).
#[derive(Clone)]
pub struct ChessPosition<W: BitWord, R: ChessRules = Orthodox> {
    pub(crate) t: &'static ChessTables<W>,
    pub(crate) variant: &'static Variant,
    pub(crate) board: [u8; 128],
    pub(crate) by_color: [Bitboard<W>; 2],
    pub(crate) by_role: [Bitboard<W>; Role::COUNT],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    /// The rook that each castling right castles with (indexed by the right's bit number).
    pub(crate) castle_rooks: [Square; 4],
    /// Rights lost when a move starts or ends on a square.
    pub(crate) rights_mask: [u8; 128],
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) key: u64,
    /// The enemy pieces giving check to the side to move, found once per move in `make`: the
    /// search asks two or three times per position whether it is in check.
    pub(crate) checkers: Bitboard<W>,
    /// The sums of the board's pieces' material and placement (white's view) and of their
    /// phase weights, kept by `put` and `remove` for the evaluation.
    pub(crate) placement: Tapered,
    pub(crate) phase: i32,
    pub(crate) history: Vec<Undo<W>>,
    /// Pieces in reserve per colour (Swedish cannons); always zero in other variants.
    pub(crate) reserve: [u8; 2],
    /// What the last move changed, for the NNUE's incremental update: filled by `put`,
    /// `remove` and `set_reserve`, through which every board and reserve change goes.
    pub(crate) dirty: DirtyRecord,
    pub(crate) rules: PhantomData<R>,
}

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
    /// An empty board with no rights, white to move.
    pub(crate) fn empty(t: &'static ChessTables<W>, variant: &'static Variant) -> Self {
        ChessPosition {
            t,
            variant,
            board: [EMPTY; 128],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; Role::COUNT],
            side: Color::White,
            castling: 0,
            castle_rooks: [Square::new(0); 4],
            rights_mask: [0xff; 128],
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            checkers: Bitboard::EMPTY,
            placement: Tapered::default(),
            phase: 0,
            history: Vec::with_capacity(256),
            reserve: [0; 2],
            dirty: DirtyRecord::default(),
            rules: PhantomData,
        }
    }

    #[inline(always)]
    pub fn tables(&self) -> &'static ChessTables<W> {
        self.t
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.index()];
        (c != EMPTY).then(|| Piece::from_code(c))
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard<W> {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub fn ours(&self, c: Color) -> Bitboard<W> {
        self.by_color[c.index()]
    }

    #[inline(always)]
    pub fn role_bb(&self, r: Role) -> Bitboard<W> {
        self.by_role[r.index()]
    }

    #[inline(always)]
    pub fn pieces(&self, c: Color, r: Role) -> Bitboard<W> {
        self.by_color[c.index()] & self.by_role[r.index()]
    }

    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.pieces(c, Role::King).lsb()
    }

    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    #[inline(always)]
    pub(crate) fn put(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = p.code();
        self.by_color[p.color().index()].set(sq);
        self.by_role[p.role().index()].set(sq);
        self.key ^= self.t.keys.piece(p.color(), p.role(), sq);
        let (value, phase) = self.t.piece_square(p.color(), p.role(), sq);
        self.placement += value;
        self.phase += phase;
        self.dirty.push(piece_change(true, p, sq));
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square) -> Piece {
        let p = Piece::from_code(self.board[sq.index()]);
        self.board[sq.index()] = EMPTY;
        self.by_color[p.color().index()].clear(sq);
        self.by_role[p.role().index()].clear(sq);
        self.key ^= self.t.keys.piece(p.color(), p.role(), sq);
        let (value, phase) = self.t.piece_square(p.color(), p.role(), sq);
        self.placement -= value;
        self.phase -= phase;
        self.dirty.push(piece_change(false, p, sq));
        p
    }

    /// Pieces of colour `c` in reserve.
    pub fn reserve(&self, c: Color) -> u8 {
        self.reserve[c.index()]
    }

    /// Sets a reserve count, keeping the key in step.
    pub(crate) fn set_reserve(&mut self, c: Color, n: u8) {
        let keys = &self.t.keys.reserve[c.index()];
        let old = self.reserve[c.index()];
        self.key ^= keys[old as usize] ^ keys[n as usize];
        self.reserve[c.index()] = n;
        // One more or one fewer: "at least n" appears, or "at least old" goes.
        if n == old + 1 {
            self.dirty.push(reserve_change(true, c, n));
        } else if n + 1 == old {
            self.dirty.push(reserve_change(false, c, old));
        } else if n != old {
            self.dirty.overflow();
        }
    }

    /// All pieces of `by` that attack `sq`, with the board occupied as `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard<W>, by: Color) -> Bitboard<W> {
        self.attackers_among(sq, occ, self.by_color[by.index()], by)
    }

    /// The pieces of `them` (pieces of colour `by`) that attack `sq` with the board occupied as
    /// `occ`. Taking the attacker set apart from the board lets a legality test remove a
    /// captured piece without making the move.
    #[inline(always)]
    pub(crate) fn attackers_among(
        &self,
        sq: Square,
        occ: Bitboard<W>,
        them: Bitboard<W>,
        by: Color,
    ) -> Bitboard<W> {
        let t = self.t;
        let rq = self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()];
        let bq = self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()];
        let att = (t.knight.get(sq) & self.by_role[Role::Knight.index()])
            | (t.king.get(sq) & self.by_role[Role::King.index()])
            | (t.pawn_attacks[(!by).index()].get(sq) & self.pawn_like())
            | (t.rays.rook_attacks(sq, occ) & rq)
            | (t.rays.bishop_attacks(sq, occ) & bq)
            | R::extra_attackers(self, sq, occ, them);
        att & them
    }

    /// Pawns and the pieces that move and capture like them, of both colours.
    #[inline(always)]
    pub(crate) fn pawn_like(&self) -> Bitboard<W> {
        R::pawn_like(self)
    }

    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, occ: Bitboard<W>, by: Color) -> bool {
        self.attackers_to(sq, occ, by).any()
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard<W> {
        self.checkers
    }

    /// The checkers worked out from the board (kept in `checkers` after every change).
    #[inline(always)]
    pub(crate) fn compute_checkers(&self) -> Bitboard<W> {
        self.attackers_to(self.king_square(self.side), self.occupied(), !self.side)
    }

    /// The first step of the `may_give_check` shortcuts: for a plain move or a promotion not
    /// made from one of the enemy king's lines, the role the piece lands as and that king's
    /// square; `None` when the move may check whatever it lands as (castling, en passant and
    /// entries move or remove a second piece; leaving a king line may uncover a check).
    #[inline(always)]
    pub(crate) fn lands_off_discovery(&self, m: Move) -> Option<(Role, Square)> {
        let from = m.from();
        let role = match m.kind() {
            MoveKind::Normal => Piece::from_code(self.board[from.index()]).role(),
            MoveKind::Promotion => Role::from_index(m.piece() as usize),
            _ => return None,
        };
        let ksq = self.king_square(!self.side);
        if self.t.rays.line(ksq, from).any() {
            return None;
        }
        Some((role, ksq))
    }

    /// Whether the legal move `m` may give check, where every piece attacks as an orthodox
    /// one: `false` only where it certainly does not. Before the move the opponent's king is
    /// not attacked (the position is legal), so a check after it comes from the moved piece on
    /// its new square, which is tested exactly, or from a line through the vacated square:
    /// any move from one of the king's lines counts, whatever stands behind it. Castling and
    /// en passant, which move or remove a second piece, always count.
    #[inline(always)]
    pub(crate) fn orthodox_may_check(&self, m: Move) -> bool {
        let t = self.t;
        let (from, to) = (m.from(), m.to());
        let Some((role, ksq)) = self.lands_off_discovery(m) else {
            return true;
        };
        let occ = (self.occupied() & !Bitboard::from_square(from)) | Bitboard::from_square(to);
        let reach = match role {
            Role::Pawn => t.pawn_attacks[self.side.index()].get(to),
            Role::Knight => t.knight.get(to),
            Role::Bishop => t.rays.bishop_attacks(to, occ),
            Role::Rook => t.rays.rook_attacks(to, occ),
            Role::Queen => t.rays.rook_attacks(to, occ) | t.rays.bishop_attacks(to, occ),
            Role::King => return false,
            _ => return true,
        };
        reach.contains(ksq)
    }

    /// Whether the legal move `m` may give check, in a variant whose pieces beyond the
    /// orthodox leapers (pawn, knight, king) attack only along the king's lines: sliders and
    /// hoppers such as the Swedish cannon. A hopper checks through a screen, so a piece moved
    /// onto one of the king's lines may make one; a move from or to such a line counts, and
    /// off the lines only a pawn or knight landing next to the king can check. Coarser than
    /// [`ChessPosition::orthodox_may_check`], but it lets `make` skip the checkers of every
    /// move that stays off the king's lines.
    #[inline(always)]
    pub(crate) fn line_piece_may_check(&self, m: Move) -> bool {
        let t = self.t;
        let to = m.to();
        let Some((role, ksq)) = self.lands_off_discovery(m) else {
            return true;
        };
        if t.rays.line(ksq, to).any() {
            return true;
        }
        match role {
            Role::Pawn => t.pawn_attacks[self.side.index()].get(to).contains(ksq),
            Role::Knight => t.knight.get(to).contains(ksq),
            // Off every line of the king: no slide or hop can reach it from `to`.
            Role::Bishop | Role::Rook | Role::Queen | Role::Cannon | Role::King => false,
            _ => true,
        }
    }

    /// Where the rook of a castling move starts and ends, given the king's move.
    #[inline]
    pub(crate) fn castle_rook_squares(
        &self,
        king_from: Square,
        king_to: Square,
    ) -> (Square, Square) {
        let high = king_to > king_from;
        let right = match (self.side, high) {
            (Color::White, true) => 0,
            (Color::White, false) => 1,
            (Color::Black, true) => 2,
            (Color::Black, false) => 3,
        };
        // The rook lands on the square the king passed over.
        let passed = Square::new(((king_from.index() + king_to.index()) / 2) as u8);
        (self.castle_rooks[right], passed)
    }

    /// The en-passant square is only recorded when a pawn of the side to move could take there,
    /// so that positions differing only in a useless ep square have the same key (as repetition
    /// rules require).
    pub(crate) fn ep_capturable(&self, ep: Square, by: Color) -> bool {
        (self.t.pawn_attacks[(!by).index()].get(ep) & self.pawn_like() & self.ours(by)).any()
    }

    /// After a pawn-like piece went from `from` to `to` (of the side to move): if that was a
    /// double step, the square it passed is the en-passant square, when the other side can use
    /// it.
    #[inline(always)]
    pub(crate) fn note_double_step(&mut self, from: Square, to: Square) {
        if to.index().abs_diff(from.index()) == 2 * self.t.geo.files() {
            let passed = Square::new(((from.index() + to.index()) / 2) as u8);
            if self.ep_capturable(passed, !self.side) {
                self.ep = Some(passed);
                self.key ^= self.t.keys.en_passant[self.t.geo.file_of(passed)];
            }
        }
    }

    /// The key after `m` for an ordinary move or a promotion, worked out before it is made;
    /// castling rights and a new en-passant square are left out (see
    /// [`crate::games::Game::key_after_hint`]).
    #[inline]
    pub(crate) fn key_after_hint(&self, m: Move) -> Option<u64> {
        if !matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion) {
            return None;
        }
        let (from, to) = (m.from(), m.to());
        let code = self.board[from.index()];
        if code == EMPTY {
            return None;
        }
        let keys = &self.t.keys;
        let p = Piece::from_code(code);
        let role = if m.kind() == MoveKind::Promotion {
            Role::from_index(m.piece() as usize)
        } else {
            p.role()
        };
        let mut key = self.key
            ^ keys.side
            ^ keys.piece(p.color(), p.role(), from)
            ^ keys.piece(p.color(), role, to);
        let victim = self.board[to.index()];
        if victim != EMPTY {
            let v = Piece::from_code(victim);
            key ^= keys.piece(v.color(), v.role(), to);
        }
        if let Some(ep) = self.ep {
            key ^= keys.en_passant[self.t.geo.file_of(ep)];
        }
        Some(key)
    }

    pub fn make(&mut self, m: Move) {
        let t = self.t;
        let us = self.side;
        let from = m.from();
        let to = m.to();
        // Asked before the board changes: the test reads the moving piece on `from`.
        let may_check = R::may_give_check(self, m);
        let mut undo = Undo {
            mv: m,
            moved: EMPTY,
            captured: EMPTY,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            key: self.key,
            checkers: self.checkers,
        };
        self.dirty.clear();
        if let Some(ep) = self.ep.take() {
            self.key ^= t.keys.en_passant[t.geo.file_of(ep)];
        }
        self.halfmove += 1;
        // The variant plays its own moves; the shared code plays the orthodox kinds.
        if !R::make_own(self, m) {
            match m.kind() {
                MoveKind::Castle => {
                    let (rf, rt) = self.castle_rook_squares(from, to);
                    let king = self.remove(from);
                    let rook = self.remove(rf);
                    self.put(king, to);
                    self.put(rook, rt);
                }
                MoveKind::EnPassant => {
                    let cap = Square::new(if us == Color::White {
                        to.index() - t.geo.files()
                    } else {
                        to.index() + t.geo.files()
                    } as u8);
                    undo.captured = self.remove(cap).code();
                    let p = self.remove(from);
                    self.put(p, to);
                    self.halfmove = 0;
                }
                _ => {
                    if self.board[to.index()] != EMPTY {
                        undo.captured = self.remove(to).code();
                        self.halfmove = 0;
                    }
                    let p = self.remove(from);
                    undo.moved = p.code();
                    if R::is_pawn_like(p.role()) {
                        self.halfmove = 0;
                        self.note_double_step(from, to);
                    }
                    if m.kind() == MoveKind::Promotion {
                        let role = Role::from_index(m.piece() as usize);
                        self.put(Piece::new(us, role), to);
                    } else {
                        self.put(p, to);
                    }
                }
            }
        }
        let rights = self.castling & self.rights_mask[from.index()] & self.rights_mask[to.index()];
        if rights != self.castling {
            self.key ^= t.keys.castling[self.castling as usize] ^ t.keys.castling[rights as usize];
            self.castling = rights;
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = !us;
        self.key ^= t.keys.side;
        self.checkers = if may_check {
            self.compute_checkers()
        } else {
            Bitboard::EMPTY
        };
        self.history.push(undo);
    }

    pub fn unmake(&mut self) {
        let undo = self.history.pop().expect("unmake without a move");
        let m = undo.mv;
        self.side = !self.side;
        let us = self.side;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        let from = m.from();
        let to = m.to();
        if !R::unmake_own(self, m) {
            match m.kind() {
                MoveKind::Castle => {
                    let (rf, rt) = self.castle_rook_squares(from, to);
                    let rook = self.remove(rt);
                    let king = self.remove(to);
                    self.put(king, from);
                    self.put(rook, rf);
                }
                MoveKind::EnPassant => {
                    let p = self.remove(to);
                    self.put(p, from);
                    let cap = Square::new(if us == Color::White {
                        to.index() - self.t.geo.files()
                    } else {
                        to.index() + self.t.geo.files()
                    } as u8);
                    self.put(Piece::from_code(undo.captured), cap);
                }
                _ => {
                    let p = self.remove(to);
                    let p = if m.kind() == MoveKind::Promotion {
                        Piece::from_code(undo.moved)
                    } else {
                        p
                    };
                    self.put(p, from);
                    if undo.captured != EMPTY {
                        self.put(Piece::from_code(undo.captured), to);
                    }
                }
            }
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        self.checkers = undo.checkers;
    }

    pub fn make_null(&mut self) {
        let t = self.t;
        self.dirty.clear();
        self.history.push(Undo {
            mv: Move::NONE,
            moved: EMPTY,
            captured: EMPTY,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            key: self.key,
            checkers: self.checkers,
        });
        if let Some(ep) = self.ep.take() {
            self.key ^= t.keys.en_passant[t.geo.file_of(ep)];
        }
        self.halfmove += 1;
        self.side = !self.side;
        self.key ^= t.keys.side;
        self.checkers = self.compute_checkers();
    }

    pub fn unmake_null(&mut self) {
        let undo = self.history.pop().expect("unmake without a move");
        self.side = !self.side;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        self.checkers = undo.checkers;
    }

    /// The key computed from the pieces and state alone.
    pub fn compute_key(&self) -> u64 {
        let t = self.t;
        let mut k = 0;
        for sq in self.occupied() {
            let p = Piece::from_code(self.board[sq.index()]);
            k ^= t.keys.piece(p.color(), p.role(), sq);
        }
        k ^= t.keys.castling[self.castling as usize];
        if let Some(ep) = self.ep {
            k ^= t.keys.en_passant[t.geo.file_of(ep)];
        }
        if self.side == Color::Black {
            k ^= t.keys.side;
        }
        for c in Color::BOTH {
            k ^= t.keys.reserve[c.index()][self.reserve[c.index()] as usize];
        }
        k
    }

    /// How many times the current position occurred before, looking back at most `limit`
    /// plies and never past an irreversible move.
    pub fn repetitions(&self, limit: usize) -> usize {
        let span = (self.halfmove as usize).min(limit);
        history::earlier_occurrences(&self.history, |u| (u.mv, u.key), self.key, span).count()
    }
}

impl<W: BitWord, R: ChessRules> std::fmt::Debug for ChessPosition<W, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ChessPosition({})", self.fen())
    }
}
