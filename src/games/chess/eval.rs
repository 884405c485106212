//! A small static evaluation for the chess family: material and piece-square terms computed
//! from the board's geometry (so it works on every board shape), tapered by game phase, plus
//! the positional terms of `eval_terms`.

use super::eval_terms::Tapered;
use super::piece::Role;
use super::position::ChessPosition;
use super::rules::ChessRules;
use crate::board::{BitWord, Color, Geometry, Square};

/// Middle-game and end-game values of each role, in centipawns.
///
/// The variant pieces follow their inventor's estimates (Winther): the Swedish cannon about a
/// bishop; the Cannonrider a rook's worth (5), more in the middle game for its tactics, less in
/// the end game where it cannot even mate a bare king; the Scorpion 1.5, rising in the end game.
/// Chesstonia's projectiles: Wazir and Ferz a pawn and a half (the shatranj estimates), the Stone
/// a little (a blocker that can never be removed). Chesstonia's cannon nothing: it is worth its
/// projectiles.
const VALUE_MG: [i32; Role::COUNT] = [82, 337, 365, 477, 1025, 0, 350, 540, 140, 120, 150, 60, 0];
const VALUE_EG: [i32; Role::COUNT] = [94, 281, 297, 512, 936, 0, 320, 400, 190, 140, 150, 30, 0];
/// Phase weight of each role; 24 is a full board of minor and major pieces.
const PHASE: [i32; Role::COUNT] = [0, 1, 1, 2, 4, 0, 1, 2, 0, 0, 0, 0, 0];
const FULL_PHASE: i32 = 24;

/// Plain material value (middle-game), used for move ordering.
pub fn role_value(r: Role) -> i32 {
    VALUE_MG[r.index()]
}

/// Middle-game and end-game values of a role.
pub(crate) fn role_values(r: Role) -> Tapered {
    Tapered::new(VALUE_MG[r.index()], VALUE_EG[r.index()])
}

/// What a piece of the role adds to the game phase.
pub(crate) fn phase_weight(r: Role) -> i32 {
    PHASE[r.index()]
}

/// What a piece of `role` and colour `color` on `sq` adds to the evaluation before the
/// positional terms, from white's point of view (negative for black): its material and where it
/// stands, middle and end game. Computed from the board's geometry, so it holds on every board
/// of the family; [`ChessTables`](super::tables::ChessTables) keeps it for every square.
pub(crate) fn piece_square<W: BitWord>(
    geo: &Geometry<W>,
    color: Color,
    role: Role,
    sq: Square,
) -> Tapered {
    let cf2 = geo.files() as i32 - 1; // twice the centre file
    let cr2 = geo.ranks() as i32 - 1;
    let f2 = 2 * geo.file_of(sq) as i32;
    let r2 = 2 * geo.rank_of(sq) as i32;
    // Distance from the centre in half-squares (0 at the middle).
    let centre = (f2 - cf2).abs().max((r2 - cr2).abs());
    let advance = geo.relative_rank(sq, color == Color::White) as i32;
    let (m, e) = match role {
        Role::Pawn | Role::Scorpion => {
            let central = if (f2 - cf2).abs() <= 2 { 4 } else { 0 };
            (3 * advance + central * advance.min(3), 8 * advance)
        }
        Role::Knight => (-4 * centre, -4 * centre),
        Role::Bishop => (-2 * centre, -2 * centre),
        Role::Rook => (
            if advance == geo.ranks() as i32 - 2 {
                20
            } else {
                0
            },
            0,
        ),
        Role::Queen => (-centre, -2 * centre),
        Role::Cannon | Role::Cannonrider => (-2 * centre, -centre),
        Role::Wazir | Role::Ferz => (-2 * centre, -2 * centre),
        Role::Stone | Role::TrackCannon => (0, 0),
        Role::King => {
            // Hide in the middle game, centralise in the end game.
            (-12 * advance - 2 * (8 - centre).max(0), -5 * centre)
        }
    };
    let sign = if color == Color::White { 1 } else { -1 };
    Tapered::new(
        sign * (VALUE_MG[role.index()] + m),
        sign * (VALUE_EG[role.index()] + e),
    )
}

impl<W: BitWord, R: ChessRules> ChessPosition<W, R> {
    /// Material from white's point of view at the middle-game values: pieces on the board,
    /// Swedish cannons in reserve and Chesstonia's projectiles still to be fired all count in
    /// full, whatever their square, the game phase or the screens around.
    pub fn material_white(&self) -> i32 {
        let mut v = 0;
        for sq in self.occupied() {
            let p = self.piece_at(sq).unwrap();
            let sign = if p.color() == Color::White { 1 } else { -1 };
            v += sign * VALUE_MG[p.role().index()];
        }
        v + R::material_extra(self)
    }

    /// The material and placement of the pieces on the board and their phase, summed from
    /// scratch (the position keeps both as it changes; tests compare the two).
    #[cfg(test)]
    pub(crate) fn placement_from_scratch(&self) -> (Tapered, i32) {
        let mut score = Tapered::default();
        let mut phase = 0;
        for sq in self.occupied() & self.t.geo.valid() {
            let p = self.piece_at(sq).unwrap();
            score += piece_square(&self.t.geo, p.color(), p.role(), sq);
            phase += PHASE[p.role().index()];
        }
        (score, phase)
    }

    /// Evaluation from white's point of view.
    pub fn evaluate_white(&self) -> i32 {
        // Pieces on the board here; what the variant keeps elsewhere, below.
        let (mut mg, mut eg) = (self.placement.mg, self.placement.eg);
        let mut phase = self.phase;
        let (extra, extra_phase) = R::evaluate_extra(self);
        mg += extra.mg;
        eg += extra.eg;
        phase += extra_phase;
        let positional = self.positional_white();
        mg += positional.mg;
        eg += positional.eg;
        let phase = phase.min(FULL_PHASE);
        (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE
    }
}
