//! The `Game` trait that every game implements, the shared move type, and perft.

pub mod cannon;
pub mod chess;
pub mod error;
mod history;
pub mod moves;
pub mod notation;
pub mod perft;
#[cfg(test)]
pub(crate) mod see_oracle;
pub mod shogi;
mod swap;
pub mod tuning;

pub use error::{FenError, FenField, GameError, MoveError};
pub use moves::{Move, MoveKind, MoveList, StackList};
pub use notation::Notation;

use crate::board::{Color, Square};
use crate::nnue::NnueFeatures;

/// The tactical moves as the legal moves that `is_tactical` accepts: `Game::tactical_moves`'s
/// default, also the fallback of a game that has a faster generator for some of its variants.
#[inline]
pub(crate) fn tactical_by_filter<G: Game>(pos: &G, out: &mut G::Moves) {
    // Generate in place and compact, so no second list is copied around.
    let start = out.len();
    pos.legal_moves(out);
    let mut kept = start;
    for i in start..out.len() {
        let m = out[i];
        if pos.is_tactical(m) {
            out[kept] = m;
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// A score from white's point of view turned to `side`'s.
pub(crate) fn from_white(side: crate::board::Color, white_view: i32) -> i32 {
    if side == crate::board::Color::White {
        white_view
    } else {
        -white_view
    }
}

/// Why a game ended. The words for it are written once, in [`Outcome::describe`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EndReason {
    Checkmate,
    /// No legal move and not in check: a draw in chess, a loss in shogi.
    Stalemate,
    /// No legal move, in a game without check (Cannon): the side without one loses.
    NoLegalMove,
    /// Cannon: the town of the side that loses was taken.
    TownTaken,
    Repetition,
    /// A repetition in which one side gave check with every move: that side loses.
    PerpetualCheck,
    FiftyMoveRule,
    InsufficientMaterial,
}

/// How a finished game ended, from the point of view of the side to move.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move has lost (checkmated, town taken, no moves where that loses...).
    Loss(EndReason),
    /// The side to move has won (e.g. the opponent's perpetual check in Cannon Shogi).
    Win(EndReason),
    Draw(EndReason),
}

impl Outcome {
    pub fn reason(self) -> EndReason {
        match self {
            Outcome::Loss(r) | Outcome::Win(r) | Outcome::Draw(r) => r,
        }
    }

    /// The side that won, if one did, given who is to move.
    pub fn winner(self, side_to_move: Color) -> Option<Color> {
        match self {
            Outcome::Loss(_) => Some(!side_to_move),
            Outcome::Win(_) => Some(side_to_move),
            Outcome::Draw(_) => None,
        }
    }

    /// The PGN result string, given who is to move.
    pub fn result_string(self, side_to_move: Color) -> &'static str {
        match self.winner(side_to_move) {
            None => "1/2-1/2",
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
        }
    }

    /// How the game ended, in words: `checkmate`, `Draw by repetition`, `Black's town is
    /// taken`. The one wording of every reason, used by result claims, PGN files, match logs
    /// and the `legal` tool.
    pub fn describe(self, side_to_move: Color) -> String {
        let loser = match self.winner(side_to_move) {
            Some(w) => !w,
            None => side_to_move,
        };
        let phrase = match self.reason() {
            EndReason::Checkmate => "checkmate".to_string(),
            EndReason::Stalemate => "stalemate".to_string(),
            EndReason::NoLegalMove => format!("{} has no legal move", loser.name()),
            EndReason::TownTaken => format!("{}'s town is taken", loser.name()),
            EndReason::Repetition => "repetition".to_string(),
            EndReason::PerpetualCheck => "perpetual check".to_string(),
            EndReason::FiftyMoveRule => "fifty-move rule".to_string(),
            EndReason::InsufficientMaterial => "insufficient material".to_string(),
        };
        match self {
            Outcome::Draw(_) => format!("Draw by {phrase}"),
            _ => phrase,
        }
    }

    /// The comment that goes with the result of a claim or a finished game record: who mates
    /// for a mate (`White mates`), otherwise [`Outcome::describe`].
    pub fn comment(self, side_to_move: Color) -> String {
        match (self.reason(), self.winner(side_to_move)) {
            (EndReason::Checkmate, Some(w)) => format!("{} mates", w.name()),
            _ => self.describe(side_to_move),
        }
    }
}

/// One variant as its registry entry (`crate::engine::registry`) describes it to the game type
/// that plays it: the data a game needs to start, so that no game module looks a variant up by
/// name. Several variants may share one game type (two Swedish Cannon games, say); what tells
/// them apart is here.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The name used by `UCI_Variant`, `--variant` and (unless the registry says otherwise)
    /// XBoard.
    pub name: &'static str,
    pub files: usize,
    pub ranks: usize,
    /// How many kinds of piece can be in hand (0 for games without a hand).
    pub hand: usize,
    pub start_fen: &'static str,
    /// The rule switches this variant offers (its game type reads them in
    /// [`Game::set_rule_option`]).
    pub rule_options: &'static [RuleOption],
}

/// A game rule that the user can switch (a UCI `check` option / XBoard `option`).
#[derive(Copy, Clone, Debug)]
pub struct RuleOption {
    pub name: &'static str,
    pub default: bool,
    pub help: &'static str,
}

/// Reads the halfmove clock and the fullmove number that end a FEN (0 and 1 when absent; a
/// fullmove number below 1 counts as 1).
pub(crate) fn read_fen_clocks<'a>(
    fields: &mut impl Iterator<Item = &'a str>,
) -> Result<(u16, u16), FenError> {
    let halfmove = match fields.next() {
        None => 0,
        Some(s) => s.parse().map_err(|_| {
            FenError::new(FenField::HalfmoveClock, format!("bad halfmove clock '{s}'"))
        })?,
    };
    let fullmove = match fields.next() {
        None => 1,
        Some(s) => s
            .parse::<u16>()
            .map_err(|_| {
                FenError::new(
                    FenField::FullmoveNumber,
                    format!("bad fullmove number '{s}'"),
                )
            })?
            .max(1),
    };
    Ok((halfmove, fullmove))
}

/// One game's rules over one position type. The search and the protocols are generic over
/// this trait and monomorphised per game, so nothing here is dynamic in the hot loop.
///
/// A position carries its own history (for unmake and repetition), so `make_move` /
/// `unmake_move` are a stack.
///
/// Every game also describes its positions to the NNUE ([`NnueFeatures`], in its own module),
/// so that the search can evaluate any game with a net.
pub trait Game: NnueFeatures + Clone + Send + Sync + 'static {
    /// The game's move list: `ArrayVec<Move, N>` with room for the most legal moves a
    /// position of this game can have, so that a search node keeps no more on its stack than
    /// the game needs. Each family says in its module why its `N` is enough.
    type Moves: MoveList;

    /// The start position of `variant`, a registry entry for this type: its start FEN, board
    /// and whatever else the type needs to know about it (an error if it does not fit).
    fn new_game(variant: &'static Variant) -> Result<Self, GameError>;

    /// Sets a rule switch (one of the variant's `rule_options`). Called before positions are
    /// set up.
    fn set_rule_option(&mut self, name: &str, _value: bool) -> Result<(), GameError> {
        Err(GameError::UnknownRuleOption {
            name: name.to_string(),
            hint: None,
        })
    }

    /// A new position of the same variant and rule switches, read from a FEN. `self` is not
    /// changed, so a bad FEN can never leave a half-set position behind.
    fn with_fen(&self, fen: &str) -> Result<Self, FenError>;

    fn to_fen(&self) -> String;

    fn side_to_move(&self) -> Color;

    /// Appends every legal move.
    fn legal_moves(&self, out: &mut Self::Moves);

    /// Appends the legal moves that quiescence search should look at (captures, promotions and
    /// whatever the game counts as tactical).
    fn tactical_moves(&self, out: &mut Self::Moves) {
        tactical_by_filter(self, out)
    }

    /// True for captures, promotions and the game's other forcing moves.
    fn is_tactical(&self, m: Move) -> bool;

    /// Plays a legal move.
    fn make_move(&mut self, m: Move);

    /// Takes back the last move made with `make_move`.
    fn unmake_move(&mut self);

    /// Passes the turn (for null-move pruning). Only called when `null_move_ok` says so.
    fn make_null_move(&mut self);
    fn unmake_null_move(&mut self);

    /// Whether passing the turn is a sound pruning assumption here (not in check, and the game
    /// is not one where a free tempo distorts the search).
    fn null_move_ok(&self) -> bool;

    /// The incrementally updated Zobrist key of the position (board, hands, side, rights).
    fn key(&self) -> u64;

    /// The same key computed from scratch; for tests of the incremental update.
    fn compute_key(&self) -> u64;

    /// A guess at [`Game::key`] after `m`, made before `m` is played, so that the search can
    /// ask for the child's table bucket while the move is being made (Stockfish's
    /// `key_after`). Only a prefetch hint: it may leave out what is costly to foresee
    /// (castling rights, an en-passant square, a variant's own moves). `None` where the game
    /// gives none.
    #[inline]
    fn key_after_hint(&self, m: Move) -> Option<u64> {
        let _ = m;
        None
    }

    /// A key of the position's slow-changing skeleton (the pawns of each side, in the games
    /// that have them), which the search uses to correct its static evaluation by what earlier
    /// searches found in positions with the same skeleton: an evaluation that misjudges a pawn
    /// structure misjudges it in every position that has it. `None` (the default) where the
    /// game has no such skeleton; the search then uses the evaluation as it is.
    fn structure_key(&self) -> Option<u64> {
        None
    }

    /// A key per colour of where that side's pieces other than pawns stand (`[white, black]`),
    /// for the same correction: an evaluation that misjudges a placement of pieces (a knight
    /// out of play, a rook on a closed file) misjudges it whatever the pawns do. `None` (the
    /// default) where the game does not give one.
    fn piece_keys(&self) -> Option<[u64; 2]> {
        None
    }

    /// A key of where both sides' minor pieces and kings stand, for the same correction: an
    /// evaluation that misjudges how the knights and bishops stand against the kings (an
    /// outpost, a bishop aimed at a castled king) misjudges it whatever the rooks, queens and
    /// pawns do. `None` (the default) where the game does not give one.
    fn minor_key(&self) -> Option<u64> {
        None
    }

    /// A key of where both sides' rooks, queens and kings stand (and the game's other pieces
    /// of that weight), for the same correction: the heavy pieces against the kings (a rook on
    /// the seventh, a queen near the other king). `None` (the default) where the game does not
    /// give one.
    fn major_key(&self) -> Option<u64> {
        None
    }

    fn in_check(&self) -> bool;

    /// Whether the legal move `m` may give check: `false` only where it certainly does not, so
    /// that the search can skip making a move it is about to prune just to ask. The default
    /// knows nothing; a game answers it where it has a test cheaper than making the move.
    #[inline]
    fn may_give_check(&self, _m: Move) -> bool {
        true
    }

    /// A game end that does not depend on having legal moves: repetition, move-count rules,
    /// insufficient material, a captured town.
    fn rule_outcome(&self) -> Option<Outcome>;

    /// A game end that the position shows by itself, without its history or its moves (a
    /// captured town): cheap enough to ask at every node, quiescence included, so that no
    /// evaluation is asked to judge a game that is already over (a net knows nothing of
    /// endings; it was trained on positions of games still being played). Part of
    /// [`Game::rule_outcome`] in the games that have one; `None` (the default) elsewhere.
    fn decided_outcome(&self) -> Option<Outcome> {
        None
    }

    /// The result when the side to move has no legal move (mate, or the game's stalemate rule).
    fn no_moves_outcome(&self) -> Outcome;

    /// Whether the current position occurred before within the last `plies` plies (the search
    /// scores such a repetition as a draw).
    fn is_repetition_within(&self, plies: usize) -> bool;

    /// How the search scores a repetition within the last `plies` plies, or `None` when there
    /// is none. A draw unless the game says otherwise (in Cannon Shogi the side that gave
    /// check with every move of the cycle loses).
    fn repetition_outcome(&self, plies: usize) -> Option<Outcome> {
        self.is_repetition_within(plies)
            .then_some(Outcome::Draw(EndReason::Repetition))
    }

    /// The complete end test: rule endings first, then "no legal moves".
    fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.rule_outcome() {
            return Some(o);
        }
        let mut moves = Self::Moves::default();
        self.legal_moves(&mut moves);
        moves.is_empty().then(|| self.no_moves_outcome())
    }

    /// The move's string in the given notation.
    fn move_to_string(&self, m: Move, notation: Notation) -> String;

    /// The move as a PGN file writes it: SAN where the game has one, the UCI string otherwise.
    fn move_to_pgn(&self, m: Move) -> String {
        self.move_to_string(m, Notation::Uci)
    }

    /// Other ways PGN files of other programs write the move, for reading them (Cannon Shogi:
    /// Fairy-Stockfish's shogi notation, which pychess-variants exports). None by default.
    fn pgn_aliases(&self, _m: Move) -> Vec<String> {
        Vec::new()
    }

    /// Reads a move string by matching it against the strings of the legal moves, so parser and
    /// formatter can never disagree. Games with several accepted forms override this.
    fn parse_move(&self, s: &str, notation: Notation) -> Option<Move> {
        let mut moves = Self::Moves::default();
        self.legal_moves(&mut moves);
        moves
            .into_iter()
            .find(|&m| self.move_to_string(m, notation) == s)
    }

    /// Static evaluation in centipawns from the side to move's point of view.
    fn evaluate(&self) -> i32;

    /// The evaluation's weights and their trace, for `cannonade tune`; `None` (the default)
    /// for a game whose evaluation is not written as weighted terms.
    fn eval_tuning() -> Option<tuning::EvalTuning<Self>> {
        None
    }

    /// Material alone, side to move's view: every piece (on the board, in hand or in reserve)
    /// at one fixed value, with none of the game knowledge in [`Game::evaluate`]. It is the
    /// baseline that evaluation is measured against (the `EvalMaterialOnly` option).
    fn material(&self) -> i32;

    /// The net's value `v` as the search (and `eval`) should see it. The default leaves it
    /// alone; orthodox chess scales it down the more material is on the board (see
    /// `ChessRules::scale_net_value`).
    #[inline]
    fn scale_net_value(&self, v: i32) -> i32 {
        v
    }

    /// Plies played toward a move-count draw (orthodox chess's halfmove clock of the fifty-move
    /// rule): the search damps a static value toward 0 as it grows, since a position whose
    /// advantage has not been turned into a capture or a pawn move for many plies is nearer the
    /// draw than an evaluation trained on positions alone can know. 0 (the default) where the
    /// game has no such rule.
    #[inline]
    fn draw_clock(&self) -> u32 {
        0
    }

    /// A static value `v` (the side to move's) scaled toward 0 where the game knows the
    /// material left rarely or never wins, whatever an evaluation says: orthodox chess's
    /// pawnless endings with little more than a minor piece ahead, a rook's pawn (alone or with
    /// the wrong bishop) against the king in its corner, and bishops of different colours (see
    /// `ChessRules::scale_toward_draw`). The default leaves it alone. The search
    /// applies it where the `EndgameScale` parameter is set, as chess's registry entry sets it.
    #[inline]
    fn scale_toward_draw(&self, v: i32) -> i32 {
        v
    }

    /// A rough value of what the move captures, for move ordering (0 for none).
    fn capture_value(&self, m: Move) -> i32;

    /// A rough value of the piece that makes the move, so that move ordering can try the
    /// cheapest attacker of a victim first (MVV-LVA). 0 when the game has nothing better.
    fn mover_value(&self, _m: Move) -> i32 {
        0
    }

    /// A small number below [`PIECE_KINDS`] naming the kind of piece that makes the move (the
    /// dropped piece for a drop), so that history tables can tell pieces apart. Games with one
    /// kind of mover keep the default 0.
    fn moved_kind(&self, _m: Move) -> usize {
        0
    }

    /// Adds to the ordering scores of quiet moves what the board says about them beyond their
    /// history (in the chess family: leave a square a lesser enemy piece attacks, do not step
    /// onto one). `scores[i]` belongs to `moves[i]`. Nothing by default.
    fn add_quiet_order(&self, _moves: &[Move], _scores: &mut [i32]) {}

    /// Static exchange evaluation: true when playing `m` and then letting both sides capture on
    /// the move's target square, least valuable attacker first, each side free to stop (stand
    /// pat), gains at least `threshold` for the mover, in the units of `Game::capture_value`
    /// (centipawns of material; a promotion counts what it adds to the board).
    ///
    /// `m` must be legal. Quiet moves, drops and promotions are evaluated too: a quiet move gains
    /// 0 and then risks the moved (or dropped, or placed) piece, so `see_ge(quiet, -50)` says
    /// whether it survives on its square. Each family's exact rules (which attackers join, what
    /// is ignored) are in `docs/search.md`, "Static exchange evaluation".
    fn see_ge(&self, m: Move, threshold: i32) -> bool;

    /// A text diagram of the board.
    fn board_diagram(&self) -> String;

    /// Who stands on `sq`, with a game-defined code that tells piece kinds apart; `None` for an
    /// empty square. The facade compares it before and after a move to give the protocol
    /// adapters the squares a move changes, so that no adapter reads a FEN to find out.
    fn occupant(&self, sq: Square) -> Option<(Color, u8)>;

    /// The piece on `sq` as the game's FEN writes it (`P`, `n`, `+p`), for adapters that name
    /// pieces to a GUI; `None` for an empty square.
    fn fen_piece(&self, sq: Square) -> Option<String>;
}

/// Bound on [`Game::moved_kind`]: every game's piece kinds fit below it.
pub const PIECE_KINDS: usize = 24;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_is_worded_once() {
        use Color::*;
        use EndReason::*;
        let cases = [
            (Outcome::Loss(Checkmate), Black, "checkmate", "White mates"),
            (
                Outcome::Draw(Stalemate),
                White,
                "Draw by stalemate",
                "Draw by stalemate",
            ),
            (Outcome::Loss(Stalemate), White, "stalemate", "stalemate"),
            (
                Outcome::Loss(TownTaken),
                Black,
                "Black's town is taken",
                "Black's town is taken",
            ),
            (
                Outcome::Loss(NoLegalMove),
                White,
                "White has no legal move",
                "White has no legal move",
            ),
            (
                Outcome::Draw(Repetition),
                Black,
                "Draw by repetition",
                "Draw by repetition",
            ),
            (
                Outcome::Win(PerpetualCheck),
                White,
                "perpetual check",
                "perpetual check",
            ),
            (
                Outcome::Draw(FiftyMoveRule),
                White,
                "Draw by fifty-move rule",
                "Draw by fifty-move rule",
            ),
            (
                Outcome::Draw(InsufficientMaterial),
                White,
                "Draw by insufficient material",
                "Draw by insufficient material",
            ),
        ];
        for (o, side, words, comment) in cases {
            assert_eq!(o.describe(side), words);
            assert_eq!(o.comment(side), comment);
        }
        assert_eq!(Outcome::Win(PerpetualCheck).result_string(Black), "0-1");
        assert_eq!(Outcome::Loss(Checkmate).result_string(Black), "1-0");
    }
}
