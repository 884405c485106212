//! Cannons of Chesstonia: the cannon machinery beside the board.
//!
//! The 12x8 word holds the chess board on files c..j; for chess pieces files a, b, k and l are
//! holes (the geometry), so no line or leap ever enters them. The machinery stands on squares of
//! those files listed in `ChessTables::extra`: each side's cannon on its track, its stored
//! projectiles on their home squares and the loaded one on the load square. These pieces are
//! ordinary board entries (in the board array, the bitboards and the key), so make, unmake, FEN
//! and repetition need nothing new; only the moves that start there are generated here.

use super::piece::{Piece, Role};
use super::position::ChessPosition;
use super::rules::ChessRules;
use crate::board::{BitWord, Bitboard, Color, Square};
use crate::games::{err, GameError, Move, MoveList};

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

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
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
        out: &mut MoveList,
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
    pub(crate) fn validate_machinery(&self) -> Result<(), GameError> {
        if (self.role_bb(Role::Cannon) & self.t.geo.valid()).any() {
            return err("a cannon stands on the board; cannons stay on their tracks");
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
                    if p != Piece::new(c, Role::Cannon) {
                        return err(format!("'{}' on a cannon track", p.letter()));
                    }
                }
            }
            if cannons != 1 {
                return err(format!(
                    "{} has {cannons} cannons on its track, needs exactly one",
                    c.name()
                ));
            }
            for (&home, &role) in m.homes.iter().zip(&PROJECTILES) {
                if let Some(p) = self.piece_at(home) {
                    if p != Piece::new(c, role) {
                        return err(format!(
                            "'{}' on a storage square that holds only {}'s '{}'",
                            p.letter(),
                            c.name(),
                            Piece::new(c, role).letter()
                        ));
                    }
                }
            }
            if let Some(p) = self.piece_at(m.load) {
                if p.color() != c || !PROJECTILES.contains(&p.role()) {
                    return err(format!(
                        "'{}' on {}'s load square, which holds only its own projectiles",
                        p.letter(),
                        c.name()
                    ));
                }
                if self.piece_at(home_of(m, p.role())).is_some() {
                    return err(format!(
                        "{} has two '{}' off the board (loaded and stored)",
                        c.name(),
                        p.letter()
                    ));
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
