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
use crate::games::notation::{leg_ends, write_legs};
use crate::games::{Move, MoveKind, Notation};

impl CannonPosition {
    /// The move with square names as `notation` writes them: `T@b1` for a town placement,
    /// otherwise its legs (all of them, or only the first, as UCI writes a shot).
    fn written(&self, m: Move, notation: Notation, every_leg: bool) -> String {
        let geo = &self.t.geo;
        let zero = notation.ranks_from_zero(geo.ranks());
        let name = |sq| geo.square_name(sq, zero);
        if m.kind() == MoveKind::Drop {
            return format!("T@{}", name(m.to()));
        }
        let ends = leg_ends(m);
        let legs = if every_leg { &ends[..] } else { &ends[..1] };
        write_legs(m.from(), legs, name)
    }

    /// The move string: XBoard writes a shot in two legs, to the victim and back; UCI writes
    /// its first leg.
    pub fn move_string(&self, m: Move, notation: Notation) -> String {
        self.written(m, notation, notation == Notation::XBoard)
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
        let s = s.trim();
        let mut moves = CannonMoves::new();
        self.generate(&mut moves, super::movegen::Gen::All);
        moves.into_iter().find(|&m| {
            self.move_string(m, notation) == s
                || (notation == Notation::Uci && self.written(m, notation, true) == s)
        })
    }
}
