//! The engine facade: one object-safe interface over every game, so the protocols and tools
//! choose a game by name at run time while the work inside is monomorphised per game.

use crate::board::{Color, Square};
use crate::games::notation::leg_ends;
use crate::games::perft;
use crate::games::{
    Game, GameError, Move, MoveError, MoveKind, Notation, Outcome, RuleOption, Variant,
};
use crate::host::Host;
use crate::nnue::{Accumulator, Network};
use crate::search::TranspositionTable;
use crate::search::{self, Limits, Report, SearchControl, SearchOptions, SearchResult};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A game in progress: its variant, rule switches and current position.
pub trait Session: Send {
    fn variant(&self) -> &'static str;
    /// Sets a rule switch; takes effect from the next position set up.
    fn set_rule_option(&mut self, name: &str, value: bool) -> Result<(), GameError>;
    fn rule_option_names(&self) -> Vec<&'static str>;
    /// Sets the position from a FEN (or the start position) and a list of move strings. On any
    /// error nothing changes.
    fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[&str],
        notation: Notation,
    ) -> Result<(), GameError>;
    /// Plays one more move string on the current position.
    fn play(&mut self, mv: &str, notation: Notation) -> Result<(), GameError>;
    fn fen(&self) -> String;
    fn side_to_move(&self) -> Color;
    fn key(&self) -> u64;
    fn board_diagram(&self) -> String;
    fn legal_moves(&self, notation: Notation) -> Vec<String>;
    fn outcome(&self) -> Option<Outcome>;
    /// Whether the side to move is in check (always false in a game without check).
    fn in_check(&self) -> bool;
    /// Whether a legal move (given in `notation`) is one the game counts as tactical: a
    /// capture, a promotion or its other forcing moves ([`Game::is_tactical`]); an error if the
    /// string is not a legal move here.
    fn is_tactical(&self, mv: &str, notation: Notation) -> Result<bool, GameError>;
    /// One legal move of the current position (given in `notation`) written every way a tool
    /// needs it; an error if the string is not a legal move here.
    fn move_text(&self, mv: &str, notation: Notation) -> Result<MoveText, GameError>;
    /// The legal move (UCI string) that another program's PGN writes as `word` (see
    /// `Game::pgn_aliases`), if one does.
    fn move_from_alias(&self, word: &str) -> Option<String>;
    /// Every legal move of the current position with what the adapters need to know about it,
    /// in generation order.
    fn move_facts(&self) -> Vec<MoveFacts>;
    /// The facts of one legal move given in `notation`; an error if it is not legal here.
    fn facts_of(&self, mv: &str, notation: Notation) -> Result<MoveFacts, GameError>;
    /// Perft split by root move, in move-generation order, with the total; with `threads > 1`
    /// the root moves are shared out over the caller's thread and up to `threads - 1` of
    /// `host`'s.
    fn perft_divide(
        &self,
        host: &dyn Host,
        depth: u32,
        threads: usize,
        notation: Notation,
    ) -> Divide;
    /// [`Session::perft_divide`] that gives up (`None`) soon after `stop` is set.
    fn perft_divide_until(
        &self,
        host: &dyn Host,
        depth: u32,
        threads: usize,
        notation: Notation,
        stop: &Arc<AtomicBool>,
    ) -> Option<Divide>;
    /// The rule switches of this variant, with defaults and help.
    fn rule_options(&self) -> &'static [RuleOption];
    /// An independent copy (same variant, switches and position), e.g. for a search thread.
    fn clone_session(&self) -> Box<dyn Session>;
    /// Static evaluation of the current position, centipawns, side to move's view.
    fn evaluate(&self) -> i32;
    /// How many NNUE input features the game has (what a net for it must have).
    fn nnue_feature_count(&self) -> usize;
    /// Whether the game's nets may have king buckets (see [`crate::nnue::KingBuckets`]).
    fn nnue_has_king_buckets(&self) -> bool;
    /// The net's evaluation of the current position from freshly built accumulators,
    /// centipawns, side to move's view; `None` if the net is not one for this variant.
    fn evaluate_nnue(&self, net: &Network) -> Option<i32>;
    /// Searches the current position (see [`search::search`]); moves come out as strings in
    /// `notation`.
    fn search(
        &self,
        limits: &Limits,
        opts: &SearchOptions,
        tt: &Arc<TranspositionTable>,
        ctl: &Arc<SearchControl>,
        notation: Notation,
        report: &mut dyn FnMut(Report<String>),
    ) -> SearchResult<String>;
}

/// A perft count split by root move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide {
    /// `(move, leaves below it)` for each legal move, in generation order.
    pub moves: Vec<(String, u64)>,
    /// The leaves at the depth asked: the sum over the moves, and 1 at depth 0 (the position
    /// itself, with no moves listed).
    pub total: u64,
}

impl Divide {
    fn of(depth: u32, moves: Vec<(String, u64)>) -> Divide {
        let total = if depth == 0 {
            1
        } else {
            moves.iter().map(|(_, n)| n).sum()
        };
        Divide { moves, total }
    }
}

/// One move in each notation: for engines of either protocol and for PGN files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub uci: String,
    pub xboard: String,
    /// SAN where the game has it (see `Game::move_to_pgn`).
    pub pgn: String,
}

impl MoveText {
    pub fn in_notation(&self, notation: Notation) -> &str {
        match notation {
            Notation::Uci => &self.uci,
            Notation::XBoard => &self.xboard,
        }
    }
}

/// A square as (file, rank), both counted from 0 (rank 0 is white's first rank).
pub type Coord = (usize, usize);

/// What the game knows about one legal move, told to the adapters so that none of them reads a
/// FEN or takes a move string apart to find it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveFacts {
    pub text: MoveText,
    /// Where the moving piece stands; `None` for a drop.
    pub from: Option<Coord>,
    /// The first destination: where the piece goes, or the victim of a shot.
    pub to: Coord,
    /// Where each leg of the move ends, in order: `[to]` for a move of one leg; a shot (a
    /// capture by a piece that does not move) goes to its victim and back, `[to, from]`, as
    /// XBoard enters it and writes it (`e3e5,e5e3`; `games::notation` writes it).
    pub legs: Vec<Coord>,
    /// Whether the move may be made promoting or not: another legal move goes the same way,
    /// one promoting and the other not (shogi's `+` and its plain form, both legal). False
    /// for a forced promotion, and for a choice between promoted pieces alone (chess).
    pub promotion_choice: bool,
    /// Whether `to` holds a piece before the move (XBoard's highlight shows such targets red).
    pub to_occupied: bool,
    /// Whether the move removes an enemy piece from the board.
    pub capture: bool,
    /// The letter of the dropped piece, upper case, for a drop.
    pub drop: Option<char>,
    /// Every square whose contents the move changes.
    pub changed: Vec<Coord>,
    /// The moving piece as the FEN writes it (`P`, `+p`); `None` for a drop.
    pub piece: Option<String>,
    /// For a piece brought onto an occupied square (a Swedish cannon's entry, `C@e2`): where
    /// the piece that stood there went (e4). `None` for every other move.
    pub displaced: Option<Coord>,
}

/// The facade for one game type.
#[derive(Clone)]
pub struct GameSession<G: Game> {
    variant: &'static Variant,
    /// The start position with the current rule switches; FENs are read relative to it.
    base: G,
    pos: G,
}

impl<G: Game> GameSession<G> {
    pub fn new(variant: &'static Variant) -> Result<Self, GameError> {
        let base = G::new_game(variant)?;
        Ok(GameSession {
            variant,
            pos: base.clone(),
            base,
        })
    }

    pub fn position(&self) -> &G {
        &self.pos
    }

    /// Whether `net` was made for this variant (or for the one whose nets it shares:
    /// [`crate::engine::registry::VariantInfo::net_name`]) and fits its positions: a net is
    /// only ever used on the game it was trained for.
    fn net_fits(&self, net: &Network) -> bool {
        let name = crate::engine::registry::find(self.variant.name)
            .map_or(self.variant.name, |v| v.net_name());
        net.check_for(name, self.pos.feature_count()).is_ok()
            && net.check_king_buckets(self.pos.has_king_buckets()).is_ok()
    }
}

impl<G: Game> GameSession<G> {
    fn coord(&self, sq: Square) -> Coord {
        (
            sq.index() % self.variant.files,
            sq.index() / self.variant.files,
        )
    }

    /// The refusal of `mv`, a move string that is not a legal move of the current position.
    fn illegal(&self, mv: &str) -> MoveError {
        MoveError {
            text: mv.to_string(),
            fen: self.pos.to_fen(),
            index: None,
        }
    }

    /// The legal moves of the current position.
    fn legal(&self) -> G::Moves {
        let mut list = G::Moves::default();
        self.pos.legal_moves(&mut list);
        list
    }

    /// The facts of legal move `m` of the current position (see [`MoveFacts`]); `legal` is
    /// the position's legal moves.
    fn facts(&self, m: Move, legal: &[Move]) -> MoveFacts {
        let pos = &self.pos;
        let (files, ranks) = (self.variant.files, self.variant.ranks);
        let mut after = pos.clone();
        after.make_move(m);
        let squares = (0..files * ranks).map(|i| Square::new(i as u8));
        let changed: Vec<Square> = squares
            .filter(|&sq| pos.occupant(sq) != after.occupant(sq))
            .collect();
        let them = !pos.side_to_move();
        let count = |p: &G| {
            (0..files * ranks)
                .filter(|&i| {
                    p.occupant(Square::new(i as u8))
                        .is_some_and(|o| o.0 == them)
                })
                .count()
        };
        let xboard = pos.move_to_string(m, Notation::XBoard);
        // A piece put on the board from a hand or reserve: a drop, or a Swedish cannon's
        // entry (which also moves the pawn standing there).
        let drop = matches!(m.kind(), MoveKind::Drop | MoveKind::Entry)
            .then(|| xboard.split('@').next().and_then(|l| l.chars().last()))
            .flatten()
            .map(|c| c.to_ascii_uppercase());
        let to_occupied = pos.occupant(m.to()).is_some();
        // A piece brought onto an occupied square whose piece moves on: where that piece went
        // (empty before the move, occupied after it).
        let displaced = (drop.is_some() && to_occupied)
            .then(|| {
                changed
                    .iter()
                    .find(|&&sq| sq != m.to() && pos.occupant(sq).is_none())
                    .map(|&sq| self.coord(sq))
            })
            .flatten();
        MoveFacts {
            text: MoveText {
                uci: pos.move_to_string(m, Notation::Uci),
                xboard,
                pgn: pos.move_to_pgn(m),
            },
            from: drop.is_none().then(|| self.coord(m.from())),
            piece: drop.is_none().then(|| pos.fen_piece(m.from())).flatten(),
            to: self.coord(m.to()),
            legs: leg_ends(m).iter().map(|&sq| self.coord(sq)).collect(),
            promotion_choice: m.kind() != MoveKind::Drop
                && legal.iter().any(|&o| {
                    o.from() == m.from()
                        && o.to() == m.to()
                        && o.kind() != MoveKind::Drop
                        && (o.kind() == MoveKind::Promotion) != (m.kind() == MoveKind::Promotion)
                }),
            to_occupied,
            capture: count(&after) < count(pos),
            drop,
            changed: changed.into_iter().map(|sq| self.coord(sq)).collect(),
            displaced,
        }
    }
}

/// The strings of a line of moves played from `pos`.
fn line_strings<G: Game>(pos: &G, line: &[Move], notation: Notation) -> Vec<String> {
    let mut p = pos.clone();
    line.iter()
        .map(|&m| {
            let s = p.move_to_string(m, notation);
            p.make_move(m);
            s
        })
        .collect()
}

/// Plays `moves` (strings) from `pos`, stopping with an error at the first that is not legal.
pub fn apply_moves<G: Game>(
    pos: &mut G,
    moves: &[&str],
    notation: Notation,
) -> Result<(), GameError> {
    for (i, s) in moves.iter().enumerate() {
        match pos.parse_move(s, notation) {
            Some(m) => pos.make_move(m),
            None => {
                return Err(GameError::IllegalMove(MoveError {
                    text: s.to_string(),
                    fen: pos.to_fen(),
                    index: Some(i),
                }))
            }
        }
    }
    Ok(())
}

impl<G: Game> Session for GameSession<G> {
    fn variant(&self) -> &'static str {
        self.variant.name
    }

    fn set_rule_option(&mut self, name: &str, value: bool) -> Result<(), GameError> {
        let mut base = self.base.clone();
        base.set_rule_option(name, value)?;
        self.base = base;
        let mut pos = self.pos.clone();
        pos.set_rule_option(name, value)?;
        self.pos = pos;
        Ok(())
    }

    fn rule_option_names(&self) -> Vec<&'static str> {
        self.variant.rule_options.iter().map(|o| o.name).collect()
    }

    fn set_position(
        &mut self,
        fen: Option<&str>,
        moves: &[&str],
        notation: Notation,
    ) -> Result<(), GameError> {
        let mut pos = match fen {
            Some(f) => self.base.with_fen(f)?,
            None => self.base.clone(),
        };
        apply_moves(&mut pos, moves, notation)?;
        self.pos = pos;
        Ok(())
    }

    fn play(&mut self, mv: &str, notation: Notation) -> Result<(), GameError> {
        apply_moves(&mut self.pos, &[mv], notation)
    }

    fn fen(&self) -> String {
        self.pos.to_fen()
    }

    fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    fn key(&self) -> u64 {
        self.pos.key()
    }

    fn board_diagram(&self) -> String {
        self.pos.board_diagram()
    }

    fn legal_moves(&self, notation: Notation) -> Vec<String> {
        let mut list = G::Moves::default();
        self.pos.legal_moves(&mut list);
        list.iter()
            .map(|&m| self.pos.move_to_string(m, notation))
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }

    fn in_check(&self) -> bool {
        self.pos.in_check()
    }

    fn is_tactical(&self, mv: &str, notation: Notation) -> Result<bool, GameError> {
        match self.pos.parse_move(mv, notation) {
            Some(m) => Ok(self.pos.is_tactical(m)),
            None => Err(self.illegal(mv).into()),
        }
    }

    fn move_text(&self, mv: &str, notation: Notation) -> Result<MoveText, GameError> {
        let m = self
            .pos
            .parse_move(mv, notation)
            .ok_or_else(|| self.illegal(mv))?;
        Ok(MoveText {
            uci: self.pos.move_to_string(m, Notation::Uci),
            xboard: self.pos.move_to_string(m, Notation::XBoard),
            pgn: self.pos.move_to_pgn(m),
        })
    }

    fn move_from_alias(&self, word: &str) -> Option<String> {
        let list = self.legal();
        list.iter()
            .find(|&&m| self.pos.pgn_aliases(m).iter().any(|a| a == word))
            .map(|&m| self.pos.move_to_string(m, Notation::Uci))
    }

    fn move_facts(&self) -> Vec<MoveFacts> {
        let list = self.legal();
        list.iter().map(|&m| self.facts(m, &list)).collect()
    }

    fn facts_of(&self, mv: &str, notation: Notation) -> Result<MoveFacts, GameError> {
        match self.pos.parse_move(mv, notation) {
            Some(m) => Ok(self.facts(m, &self.legal())),
            None => Err(self.illegal(mv).into()),
        }
    }

    fn perft_divide(
        &self,
        host: &dyn Host,
        depth: u32,
        threads: usize,
        notation: Notation,
    ) -> Divide {
        let moves = perft::divide(host, &self.pos, depth, threads)
            .into_iter()
            .map(|(m, n)| (self.pos.move_to_string(m, notation), n))
            .collect();
        Divide::of(depth, moves)
    }

    fn perft_divide_until(
        &self,
        host: &dyn Host,
        depth: u32,
        threads: usize,
        notation: Notation,
        stop: &Arc<AtomicBool>,
    ) -> Option<Divide> {
        let split = perft::divide_until(host, &self.pos, depth, threads, stop)?;
        let moves = split
            .into_iter()
            .map(|(m, n)| (self.pos.move_to_string(m, notation), n))
            .collect();
        Some(Divide::of(depth, moves))
    }

    fn rule_options(&self) -> &'static [RuleOption] {
        self.variant.rule_options
    }

    fn clone_session(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn evaluate(&self) -> i32 {
        self.pos.evaluate()
    }

    fn nnue_feature_count(&self) -> usize {
        self.pos.feature_count()
    }

    fn nnue_has_king_buckets(&self) -> bool {
        self.pos.has_king_buckets()
    }

    fn evaluate_nnue(&self, net: &Network) -> Option<i32> {
        if !self.net_fits(net) {
            return None;
        }
        let side = self.pos.side_to_move();
        let mut acc = [Accumulator::new(net), Accumulator::new(net)];
        let mut features = Vec::new();
        for (a, perspective) in acc.iter_mut().zip([side, !side]) {
            features.clear();
            self.pos
                .bucketed_features(net.king_buckets(), perspective, &mut features);
            a.refresh(net, &features);
        }
        let bucket = self.pos.output_bucket(net.output_buckets());
        // As the search sees it (the game may scale the net's output).
        Some(
            self.pos
                .scale_net_value(net.evaluate(&acc[0], &acc[1], bucket)),
        )
    }

    fn search(
        &self,
        limits: &Limits,
        opts: &SearchOptions,
        tt: &Arc<TranspositionTable>,
        ctl: &Arc<SearchControl>,
        notation: Notation,
        report: &mut dyn FnMut(Report<String>),
    ) -> SearchResult<String> {
        let pos = &self.pos;
        let strings = |line: Vec<Move>| line_strings(pos, &line, notation);
        let mut inner = |r: Report<Move>| report(r.map_moves(strings));
        let r = if opts.nnue.as_deref().is_some_and(|net| !self.net_fits(net)) {
            let opts = SearchOptions {
                nnue: None,
                ..opts.clone()
            };
            search::search(pos, limits, &opts, tt, ctl, &mut inner)
        } else {
            search::search(pos, limits, opts, tt, ctl, &mut inner)
        };
        match Report::Done(r).map_moves(strings) {
            Report::Done(r) => r,
            Report::Info(_) => unreachable!("map_moves keeps the variant"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry::find;

    fn session(variant: &str, fen: Option<&str>) -> Box<dyn Session> {
        let mut s = find(variant).unwrap().new_session();
        s.set_position(fen, &[], Notation::Uci).unwrap();
        s
    }

    #[test]
    fn facts_name_the_squares_a_move_changes() {
        let s = session("chess", Some("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"));
        let ep = s.facts_of("e5d6", Notation::Uci).unwrap();
        assert_eq!((ep.from, ep.to), (Some((4, 4)), (3, 5)));
        assert!(ep.capture && !ep.to_occupied && ep.drop.is_none());
        assert_eq!(ep.changed, vec![(3, 4), (4, 4), (3, 5)]);
        assert_eq!(ep.displaced, None);
        let quiet = s.facts_of("e1d1", Notation::Uci).unwrap();
        assert!(!quiet.capture && quiet.changed.len() == 2);
        assert!(s.facts_of("e1e3", Notation::Uci).is_err());
    }

    /// An illegal move is refused as such, with its place in the list when it came in one, and
    /// the position is left as it was.
    #[test]
    fn an_illegal_move_says_which_and_where() {
        let mut s = session("chess", None);
        let start = crate::engine::registry::find("chess")
            .unwrap()
            .game
            .start_fen;
        let e = s
            .set_position(None, &["e2e4", "e7e5", "e4e5"], Notation::Uci)
            .unwrap_err();
        let after_two = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(
            e,
            GameError::IllegalMove(MoveError {
                text: "e4e5".to_string(),
                fen: after_two.to_string(),
                index: Some(2),
            })
        );
        assert_eq!(
            e.to_string(),
            format!("move 3 'e4e5' is not legal in {after_two}")
        );
        assert_eq!(s.fen(), start);
        let e = s.facts_of("e1e3", Notation::Uci).unwrap_err();
        assert!(matches!(
            &e,
            GameError::IllegalMove(MoveError { index: None, .. })
        ));
        assert_eq!(
            e.to_string(),
            format!("'e1e3' is not a legal move in {start}")
        );
        let e = s.set_position(Some("8/8/8 w - - 0 1"), &[], Notation::Uci);
        assert!(matches!(e, Err(GameError::Fen(_))));
    }

    #[test]
    fn a_town_is_dropped_from_the_hand() {
        let s = session("cannon", None);
        let town = s.facts_of("T@b1", Notation::Uci).unwrap();
        assert_eq!((town.from, town.to, town.drop), (None, (1, 0), Some('T')));
        assert_eq!(town.displaced, None, "a town is placed on an empty square");
        assert_eq!(town.legs, vec![(1, 0)]);
    }

    #[test]
    fn a_shot_goes_to_its_victim_and_back() {
        let s = session(
            "cannon",
            Some("4t5/10/10/10/4s5/10/4S5/4S5/4S5/4T5[] w - - 0 1"),
        );
        let shot = s.facts_of("e4e6", Notation::Uci).unwrap();
        assert_eq!(shot.text.xboard, "e3e5,e5e3");
        assert_eq!((shot.from, shot.to), (Some((4, 3)), (4, 5)));
        assert_eq!(shot.legs, vec![(4, 5), (4, 3)]);
        assert!(shot.capture && shot.to_occupied);
        let step = s.facts_of("e4e5", Notation::Uci).unwrap();
        assert_eq!(step.legs, vec![(4, 4)]);
    }

    #[test]
    fn a_promotion_choice_is_both_forms_legal() {
        // Cannon Shogi: the gold cannon on d2 may promote in the zone or not; the lance on i8
        // must promote on i9; a chess pawn chooses among promoted pieces only.
        let s = session(
            "cannonshogi",
            Some("l3k3l/P7L/9/9/9/9/9/3U5/4K4[] w - - 0 1"),
        );
        let choice = |mv: &str| s.facts_of(mv, Notation::XBoard).unwrap().promotion_choice;
        assert!(choice("d2d7") && choice("d2d7+"));
        assert!(!choice("d2d3") && !choice("i8i9+"));
        assert!(choice("a8a9") && choice("a8a9+"));
        let chess = session("chess", Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"));
        assert!(
            !chess
                .facts_of("a7a8q", Notation::Uci)
                .unwrap()
                .promotion_choice
        );
    }

    #[test]
    fn a_swedish_cannon_entry_says_where_the_pawn_went() {
        let s = session("swedishcannon", None);
        let entry = s
            .move_facts()
            .into_iter()
            .find(|f| f.text.uci == "C@e2")
            .unwrap();
        assert_eq!(entry.drop, Some('C'));
        assert!(entry.to_occupied && !entry.capture);
        assert_eq!(entry.displaced, Some((4, 3)), "the pawn of e2 went to e4");
    }
}
