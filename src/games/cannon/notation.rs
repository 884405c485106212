//! Cannon move strings. UCI: `a2a3`, `T@b1`, a shot as one leg front-to-victim `e6e8`.
//! XBoard: ranks from 0 (the board has ten ranks), and a shot as two legs `e6e8,e8e6` (to the
//! victim and back, since the front soldier does not move). UCI input also takes a shot in two
//! legs; XBoard input takes it only in two, since XBoard reads `e3e5` as the soldier moving to
//! e5 and would show it there.
//! PGN: XBoard's square names (ranks from 0) in the long form XBoard writes and reads,
//! `Se1d2`, `Se4xe5`, a shot `Se3xe5-e3`, `T@b0`, so that `cannonade match` and XBoard
//! write the same game the same way (XBoard adds a `+`/`#` of its own: see docs/xboard.md).

use super::position::CannonPosition;
use crate::games::cannon::CannonMoves;
use crate::games::{Move, MoveKind, Notation};

impl CannonPosition {
    /// One leg: from and to (or `T@to` for a town placement).
    fn leg(&self, m: Move, zero_based: bool) -> String {
        let geo = &self.t.geo;
        if m.kind() == MoveKind::Drop {
            return format!("T@{}", geo.square_name(m.to(), zero_based));
        }
        let mut s = geo.square_name(m.from(), zero_based);
        s += &geo.square_name(m.to(), zero_based);
        s
    }

    pub fn move_string(&self, m: Move, notation: Notation) -> String {
        let zero = notation.ranks_from_zero(self.t.geo.ranks());
        let mut s = self.leg(m, zero);
        // XBoard writes a shot as two legs, to the victim and back.
        if notation == Notation::XBoard && m.kind() == MoveKind::Shot {
            let geo = &self.t.geo;
            s.push(',');
            s += &geo.square_name(m.to(), zero);
            s += &geo.square_name(m.from(), zero);
        }
        s
    }

    /// The move as PGN files write it (see the module comment).
    pub fn pgn_string(&self, m: Move) -> String {
        let geo = &self.t.geo;
        let from = geo.square_name(m.from(), true);
        let to = geo.square_name(m.to(), true);
        match m.kind() {
            MoveKind::Drop => format!("T@{to}"),
            MoveKind::Shot => format!("S{from}x{to}-{from}"),
            _ if self.is_capture(m) => format!("S{from}x{to}"),
            _ => format!("S{from}{to}"),
        }
    }

    /// Reads a move by matching the legal moves' strings. A shot comes as two legs (the second
    /// the first reversed) or, in UCI only, as one. In XBoard a one-leg `e3e5` is a soldier
    /// going to e5 (XBoard draws it there when a player enters it), so reading it as a shot
    /// would leave the GUI's board and the engine's apart: it is refused.
    pub fn parse(&self, s: &str, notation: Notation) -> Option<Move> {
        let zero = notation.ranks_from_zero(self.t.geo.ranks());
        let s = s.trim();
        let (first, second) = match s.split_once(',') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        };
        let mut moves = CannonMoves::new();
        self.generate(&mut moves, super::movegen::Gen::All);
        let m = moves.into_iter().find(|&m| self.leg(m, zero) == first)?;
        match second {
            None if m.kind() == MoveKind::Shot && notation == Notation::XBoard => None,
            None => Some(m),
            Some(back) if m.kind() == MoveKind::Shot => {
                let geo = &self.t.geo;
                let expected = geo.square_name(m.to(), zero) + &geo.square_name(m.from(), zero);
                (back == expected).then_some(m)
            }
            Some(_) => None,
        }
    }
}
