//! A small static evaluation for the chess family: material and piece-square terms computed
//! from the board's geometry (so it works on every board shape), tapered by game phase, plus
//! the positional terms of `eval_terms`.

use super::eval_params::{Negated, Param, Sum, Terms, Trace, COUNT, WEIGHTS};
use super::eval_terms::Tapered;
use super::piece::Role;
use super::position::ChessPosition;
use super::rules::ChessRules;
use crate::board::{BitWord, Color, Geometry, Square};

/// The value of each role for exchanges (static exchange evaluation, move ordering, the
/// material count of `EvalMaterialOnly`): the middle-game material weights the evaluation
/// started from, kept fixed so that tuning the evaluation does not move the search's thresholds.
///
/// The variant pieces follow their inventor's estimates (Winther): the Swedish cannon about a
/// bishop; the Cannonrider a rook's worth (5), more in the middle game for its tactics, less in
/// the end game where it cannot even mate a bare king; the Scorpion 1.5, rising in the end game.
/// Chesstonia's projectiles: Wazir and Ferz a pawn and a half (the shatranj estimates), the Stone
/// a little (a blocker that can never be removed). Chesstonia's cannon nothing: it is worth its
/// projectiles. (The evaluation's own values are the `Value…` weights in `eval_weights.rs`.)
const EXCHANGE_VALUE: [i32; Role::COUNT] =
    [82, 337, 365, 477, 1025, 0, 350, 540, 140, 120, 150, 60, 0];
/// Phase weight of each role; 24 is a full board of minor and major pieces.
const PHASE: [i32; Role::COUNT] = [0, 1, 1, 2, 4, 0, 1, 2, 0, 0, 0, 0, 0];
pub(crate) const FULL_PHASE: i32 = 24;

/// Plain material value, used for move ordering and exchanges.
pub fn role_value(r: Role) -> i32 {
    EXCHANGE_VALUE[r.index()]
}

/// The evaluation's middle-game and end-game values of a role.
pub(crate) fn role_values(r: Role) -> Tapered {
    WEIGHTS[Param::ValuePawn.of(r)]
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
    let mut sum = Sum::default();
    if color == Color::White {
        piece_square_terms(geo, color, role, sq, &mut sum);
    } else {
        piece_square_terms(geo, color, role, sq, &mut Negated(&mut sum));
    }
    sum.0
}

/// The terms of [`piece_square`], for the piece's own side.
pub(crate) fn piece_square_terms<W: BitWord, S: Terms>(
    geo: &Geometry<W>,
    color: Color,
    role: Role,
    sq: Square,
    s: &mut S,
) {
    let cf2 = geo.files() as i32 - 1; // twice the centre file
    let cr2 = geo.ranks() as i32 - 1;
    let f2 = 2 * geo.file_of(sq) as i32;
    let r2 = 2 * geo.rank_of(sq) as i32;
    // Distance from the centre in half-squares (0 at the middle).
    let centre = (f2 - cf2).abs().max((r2 - cr2).abs());
    let advance = geo.relative_rank(sq, color == Color::White) as i32;
    s.add(Param::ValuePawn.of(role), 1);
    s.add(Param::AdvancePawn.of(role), advance);
    s.add(Param::CentrePawn.of(role), centre);
    match role {
        // Pawns on the central files gain most from their first steps.
        Role::Pawn | Role::Scorpion if (f2 - cf2).abs() <= 2 => {
            s.add(Param::PawnCentralAdvance as usize, advance.min(3));
        }
        Role::Rook if advance == geo.ranks() as i32 - 2 => s.add(Param::RookSeventh as usize, 1),
        // Hide in the middle game (the end game's centralisation is `CentreKing`).
        Role::King => s.add(Param::KingNearCentre as usize, (8 - centre).max(0)),
        _ => {}
    }
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
            v += sign * EXCHANGE_VALUE[p.role().index()];
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
        // Pieces on the board (kept as the position changes), then what the variant keeps
        // elsewhere, then the positional terms.
        let mut sum = Sum(self.placement);
        let (extra, extra_phase) = R::evaluate_extra(self);
        sum.0 += extra;
        self.positional_white(&mut sum);
        let phase = (self.phase + extra_phase).min(FULL_PHASE);
        let blend = |t: Tapered| (t.mg * phase + t.eg * (FULL_PHASE - phase)) / FULL_PHASE;
        let tempo = blend(WEIGHTS[Param::Tempo as usize]);
        blend(sum.0) + self.side.sign() * tempo
    }

    /// The evaluation taken apart into its parameters' counts (for the tuner): with the
    /// engine's weights, `trace.evaluate` gives `evaluate_white` up to rounding.
    pub fn eval_trace(&self) -> Trace {
        let mut trace = Trace::new(COUNT);
        for sq in self.occupied() & self.t.geo.valid() {
            let p = self.piece_at(sq).unwrap();
            if p.color() == Color::White {
                piece_square_terms(&self.t.geo, p.color(), p.role(), sq, &mut trace);
            } else {
                let mut black = Negated(&mut trace);
                piece_square_terms(&self.t.geo, p.color(), p.role(), sq, &mut black);
            }
        }
        let (extra, extra_phase) = R::evaluate_extra(self);
        trace.offset = extra;
        self.positional_white(&mut trace);
        trace.phase = (self.phase + extra_phase).min(FULL_PHASE) as f32 / FULL_PHASE as f32;
        trace.add(Param::Tempo as usize, self.side.sign());
        trace
    }
}
