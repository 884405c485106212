//! Cannons of Chesstonia (G. K. Gifford, 2006): orthodox chess plus a cannon per side beside
//! the board that launches four projectiles onto it (a Pawn, a Wazir, a Ferz and a Stone).
//!
//! The 12x8 word holds the chess board on files c..j; for chess pieces files a, b, k and l are
//! holes (the geometry), so no line or leap ever enters them. The machinery stands on squares of
//! those files listed in `ChessTables::extra`: each side's cannon (`Role::TrackCannon`) on its
//! track, its stored projectiles on their home squares and the loaded one on the load square.
//! These pieces are ordinary board entries (in the board array, the bitboards and the key), so
//! unmake, FEN and repetition need nothing new; the moves that start there are generated and
//! made here.

use super::eval::role_values;
use super::eval_terms::Tapered;
use super::piece::{Piece, Role};
use super::position::ChessPosition;
use super::rules::ChessRules;
use super::see::SeeStart;
use crate::board::{BitWord, Bitboard, Color, Square};
use crate::games::chess::ChessMoves;
use crate::games::{FenError, Move};

/// Cannons of Chesstonia.
#[derive(Copy, Clone, Debug, Default)]
pub struct Chesstonia;

/// What a loaded projectile is worth beyond a stored one.
const LOADED_BONUS: i32 = 10;

impl ChessRules for Chesstonia {
    const ROLES: &'static [Role] = &[
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::TrackCannon,
        Role::Wazir,
        Role::Ferz,
        Role::Stone,
    ];
    const PROMOTIONS: &'static [Role] = &Role::PROMOTIONS;
    /// Each side's machinery stands on the other edge of the board (White's on the right):
    /// the half turn maps one side's machinery onto the other's, the flip does not.
    const NNUE_ROTATE: bool = true;

    /// Stones can never be captured.
    #[inline(always)]
    fn uncapturable<W: BitWord>(pos: &ChessPosition<W, Self>) -> Bitboard<W> {
        pos.role_bb(Role::Stone)
    }

    /// Launched Wazirs and Ferzes attack one step around them (the stored ones stand off the
    /// board, where the tables are empty; the cannon attacks nothing).
    #[inline(always)]
    fn extra_attackers<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        sq: Square,
        _occ: Bitboard<W>,
        _them: Bitboard<W>,
    ) -> Bitboard<W> {
        let t = pos.t;
        (t.wazir.get(sq) & pos.role_bb(Role::Wazir)) | (t.ferz.get(sq) & pos.role_bb(Role::Ferz))
    }

    /// Launched Wazirs and Ferzes: one-step leapers, which a pin still lets step along the pin
    /// line.
    #[inline(always)]
    fn generate_pieces<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        out: &mut ChessMoves,
        target: Bitboard<W>,
        pinned: Bitboard<W>,
        ksq: Square,
    ) {
        let t = pos.t;
        for (role, table) in [(Role::Wazir, &t.wazir), (Role::Ferz, &t.ferz)] {
            for from in pos.pieces(pos.side, role) {
                for to in pos.pin_limited(pinned, ksq, from, table.get(from) & target) {
                    out.push(Move::normal(from, to));
                }
            }
        }
    }

    #[inline(always)]
    fn generate_more<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        out: &mut ChessMoves,
        target: Bitboard<W>,
        in_check: bool,
    ) {
        pos.generate_cannon_actions(out, target, in_check);
    }

    /// The cannon actions start off the chess board: a cannon move, a load or an unload (which
    /// leave the fifty-move count running), or a firing (which resets it). Unmake takes them
    /// back as plain moves.
    #[inline(always)]
    fn make_own<W: BitWord>(pos: &mut ChessPosition<W, Self>, m: Move) -> bool {
        let geo = &pos.t.geo;
        if geo.is_valid(m.from()) {
            return false;
        }
        let p = pos.remove(m.from());
        pos.put(p, m.to());
        if geo.is_valid(m.to()) {
            pos.halfmove = 0;
        }
        true
    }

    /// A side with a projectile left can always move its cannon, a move that changes nothing
    /// on the board: it is never in zugzwang, and a null move stands for that move.
    fn has_free_tempo<W: BitWord>(pos: &ChessPosition<W, Self>) -> bool {
        pos.has_projectiles(pos.side)
    }

    /// Moving the cannon, loading and unloading change nothing on the board; firing places
    /// the loaded projectile on an empty square, where it may be taken (a Stone never can be).
    #[inline(always)]
    fn see_start_own<W: BitWord>(pos: &ChessPosition<W, Self>, m: Move) -> Option<SeeStart<W>> {
        let geo = &pos.t.geo;
        let (from, to) = (m.from(), m.to());
        if geo.is_valid(from) {
            return None;
        }
        let role = Piece::from_code(pos.board[from.index()]).role();
        Some(if !geo.is_valid(to) || role == Role::Stone {
            SeeStart::Done(0)
        } else {
            SeeStart::Exchange {
                gain: 0,
                stake: super::see::see_value(role),
                occ: (pos.occupied() & !Bitboard::from_square(from)) | Bitboard::from_square(to),
            }
        })
    }

    /// The projectiles as they move on the board (a Stone never moves); the cannon does all
    /// that the machinery does: a move to another square of its track, a load or an unload
    /// (at most one per projectile), a shot onto a square of its flight.
    fn most_moves_own<W: BitWord>(pos: &ChessPosition<W, Self>, role: Role) -> usize {
        let t = pos.t;
        let m = machine(Color::White);
        match role {
            Role::Wazir => t.most_squares(|sq| t.wazir.get(sq)),
            Role::Ferz => t.most_squares(|sq| t.ferz.get(sq)),
            Role::TrackCannon => m.track.len() - 1 + m.homes.len() + m.flight.len(),
            _ => 0,
        }
    }

    fn validate_off_board<W: BitWord>(pos: &ChessPosition<W, Self>) -> Result<(), FenError> {
        pos.validate_machinery()
    }

    #[inline(always)]
    fn piece_reach<W: BitWord>(
        pos: &ChessPosition<W, Self>,
        role: Role,
        sq: Square,
        _occ: Bitboard<W>,
        _own: Bitboard<W>,
    ) -> Bitboard<W> {
        match role {
            Role::Wazir => pos.t.wazir.get(sq),
            Role::Ferz => pos.t.ferz.get(sq),
            _ => Bitboard::EMPTY,
        }
    }

    /// The machinery: a projectile still to be fired is worth most of what it will be on the
    /// board (it lands where its side chooses), a loaded one a little more; the cannon itself
    /// is counted through its projectiles. (Material counts them in full: see `role_value`.)
    fn evaluate_extra<W: BitWord>(pos: &ChessPosition<W, Self>) -> (Tapered, i32) {
        let t = pos.t;
        let mut score = Tapered::default();
        for sq in pos.occupied() & !t.geo.valid() {
            let p = pos.piece_at(sq).unwrap();
            if p.role() == Role::TrackCannon {
                continue;
            }
            let sign = if p.color() == Color::White { 1 } else { -1 };
            let loaded = if t.load_squares.contains(sq) {
                LOADED_BONUS
            } else {
                0
            };
            let v = role_values(p.role());
            score += Tapered::new(v.mg * 3 / 4 + loaded, v.eg * 3 / 4 + loaded) * sign;
        }
        (score, 0)
    }
}

const FILES: usize = 12;

/// The projectiles in the order of their home squares, and what may be fired.
pub(crate) const PROJECTILES: [Role; 4] = [Role::Pawn, Role::Wazir, Role::Ferz, Role::Stone];

const fn sq(file: usize, rank: usize) -> Square {
    Square::new((rank * FILES + file) as u8)
}

/// One side's machinery.
pub(crate) struct Machine {
    /// The cannon's track, bottom to top.
    pub track: [Square; 4],
    /// Home squares of `PROJECTILES`.
    pub homes: [Square; 4],
    pub load: Square,
    /// The files a fired projectile flies over, from the cannon toward the far side.
    pub flight: [usize; 8],
}

const WHITE: Machine = Machine {
    track: [sq(10, 2), sq(10, 3), sq(10, 4), sq(10, 5)],
    homes: [sq(11, 2), sq(11, 3), sq(11, 4), sq(11, 5)],
    load: sq(11, 0),
    flight: [9, 8, 7, 6, 5, 4, 3, 2],
};

const BLACK: Machine = Machine {
    track: [sq(1, 2), sq(1, 3), sq(1, 4), sq(1, 5)],
    homes: [sq(0, 5), sq(0, 4), sq(0, 3), sq(0, 2)],
    load: sq(0, 7),
    flight: [2, 3, 4, 5, 6, 7, 8, 9],
};

pub(crate) fn machine(c: Color) -> &'static Machine {
    match c {
        Color::White => &WHITE,
        Color::Black => &BLACK,
    }
}

/// Every machinery square, and the load squares among them.
pub(crate) fn machine_squares<W: BitWord>() -> (Bitboard<W>, Bitboard<W>) {
    let mut all = Bitboard::EMPTY;
    let mut loads = Bitboard::EMPTY;
    for m in [&WHITE, &BLACK] {
        for s in m.track.iter().chain(&m.homes) {
            all.set(*s);
        }
        all.set(m.load);
        loads.set(m.load);
    }
    (all, loads)
}

impl<W: BitWord> ChessPosition<W, Chesstonia> {
    /// Whether side `c` still has a projectile in storage or loaded (its cannon may move).
    pub fn has_projectiles(&self, c: Color) -> bool {
        let m = machine(c);
        m.homes
            .iter()
            .chain(std::iter::once(&m.load))
            .any(|&s| self.piece_at(s).is_some())
    }

    /// Appends the legal cannon actions of the side to move. `target` is the check mask (the
    /// squares a move must reach to parry a single check, or every free square). A cannon move,
    /// load or unload changes nothing on the board, so it is legal exactly when not in check;
    /// a fired projectile only adds a piece, so it is legal when it lands in `target`.
    pub(crate) fn generate_cannon_actions(
        &self,
        out: &mut ChessMoves,
        target: Bitboard<W>,
        in_check: bool,
    ) {
        let us = self.side;
        let m = machine(us);
        let Some(&cannon) = m.track.iter().find(|&&s| self.piece_at(s).is_some()) else {
            return;
        };
        let loaded = self.piece_at(m.load);
        if !in_check {
            if loaded.is_some() || m.homes.iter().any(|&s| self.piece_at(s).is_some()) {
                for &to in m.track.iter().filter(|&&s| s != cannon) {
                    out.push(Move::normal(cannon, to));
                }
            }
            match loaded {
                None => {
                    for &home in m.homes.iter().filter(|&&s| self.piece_at(s).is_some()) {
                        out.push(Move::normal(home, m.load));
                    }
                }
                Some(p) => out.push(Move::normal(m.load, home_of(m, p.role()))),
            }
        }
        if loaded.is_some() {
            // Fire: over exactly one piece (the screen), onto any empty square before the next.
            let rank = self.t.geo.rank_of(cannon);
            let occ = self.occupied();
            let mut screen = false;
            for &file in &m.flight {
                let s = sq(file, rank);
                if occ.contains(s) {
                    if screen {
                        break;
                    }
                    screen = true;
                } else if screen && target.contains(s) {
                    out.push(Move::normal(m.load, s));
                }
            }
        }
    }

    /// The rules file's conditions on the machinery: one cannon per side on its own track,
    /// storage squares holding their own projectile, load squares one of their side's
    /// projectiles, at most one of each kind off the board, and no cannon on the board.
    pub(crate) fn validate_machinery(&self) -> Result<(), FenError> {
        if (self.role_bb(Role::TrackCannon) & self.t.geo.valid()).any() {
            return Err(FenError::position(
                "a cannon stands on the board; cannons stay on their tracks",
            ));
        }
        for c in Color::BOTH {
            let m = machine(c);
            let cannons = m
                .track
                .iter()
                .filter(|&&s| self.piece_at(s).is_some())
                .count();
            for &s in &m.track {
                if let Some(p) = self.piece_at(s) {
                    if p != Piece::new(c, Role::TrackCannon) {
                        return Err(FenError::position(format!(
                            "'{}' on a cannon track",
                            p.letter()
                        )));
                    }
                }
            }
            if cannons != 1 {
                return Err(FenError::position(format!(
                    "{} has {cannons} cannons on its track, needs exactly one",
                    c.name()
                )));
            }
            for (&home, &role) in m.homes.iter().zip(&PROJECTILES) {
                if let Some(p) = self.piece_at(home) {
                    if p != Piece::new(c, role) {
                        return Err(FenError::position(format!(
                            "'{}' on a storage square that holds only {}'s '{}'",
                            p.letter(),
                            c.name(),
                            Piece::new(c, role).letter()
                        )));
                    }
                }
            }
            if let Some(p) = self.piece_at(m.load) {
                if p.color() != c || !PROJECTILES.contains(&p.role()) {
                    return Err(FenError::position(format!(
                        "'{}' on {}'s load square, which holds only its own projectiles",
                        p.letter(),
                        c.name()
                    )));
                }
                if self.piece_at(home_of(m, p.role())).is_some() {
                    return Err(FenError::position(format!(
                        "{} has two '{}' off the board (loaded and stored)",
                        c.name(),
                        p.letter()
                    )));
                }
            }
        }
        Ok(())
    }
}

/// The storage square a projectile returns to when unloaded.
fn home_of(m: &Machine, role: Role) -> Square {
    let i = PROJECTILES.iter().position(|&r| r == role).unwrap_or(0);
    m.homes[i]
}
