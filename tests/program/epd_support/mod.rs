//! A brute-force resolver of forced wins, the reference the suites' `dm` and `am` answers are
//! checked against: plain minimax over the game's legal moves (`Game::legal_moves`,
//! `make_move`, the game's own `outcome`), cut only where the answer is already certain (a
//! move that wins, a reply that escapes), so it shares nothing with the search but the rules.

use cannonade_core::engine::registry::{GameVisitor, VariantInfo};
use cannonade_core::games::{Game, Notation, Outcome};

/// Whether the side to move of `pos` can force a win within `n` of its own moves (a win on
/// its `n`-th move at the latest: mate, a town taken, the opponent left without moves where
/// that loses).
pub fn wins_within<G: Game>(pos: &mut G, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    moves.iter().any(|&m| move_wins_within(pos, m, n))
}

/// Whether move `m` of the side to move wins by force within `n` of that side's moves
/// (counting `m`).
pub fn move_wins_within<G: Game>(pos: &mut G, m: cannonade_core::games::Move, n: u32) -> bool {
    pos.make_move(m);
    let win = match pos.outcome() {
        Some(Outcome::Loss(_)) => true,
        Some(_) => false,
        None => n > 1 && every_reply_loses_within(pos, n - 1),
    };
    pos.unmake_move();
    win
}

/// Whether every legal move of the side to move of `pos` lets the opponent force a win within
/// `n` of the opponent's moves.
fn every_reply_loses_within<G: Game>(pos: &mut G, n: u32) -> bool {
    let mut replies = G::Moves::default();
    pos.legal_moves(&mut replies);
    replies.iter().all(|&r| {
        pos.make_move(r);
        let lost = match pos.outcome() {
            // The reply ended the game: a win for its mover's opponent only if that is who
            // is to move now and won.
            Some(Outcome::Win(_)) => true,
            Some(_) => false,
            None => wins_within(pos, n),
        };
        pos.unmake_move();
        lost
    })
}

/// What the resolver says about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The fewest moves in which the side to move forces a win, if at most the limit asked.
    pub shortest_win: Option<u32>,
    /// The moves (UCI) that force a win in `shortest_win` moves.
    pub winning_moves: Vec<String>,
}

/// `fen`, a position of `variant`.
fn position<G: Game>(variant: &'static VariantInfo, fen: &str) -> G {
    G::new_game(&variant.game).unwrap().with_fen(fen).unwrap()
}

/// The resolver's verdict on `fen` of `variant`, looking for wins in at most `most` moves.
pub fn verdict(variant: &'static VariantInfo, fen: &str, most: u32) -> Verdict {
    struct V<'a>(&'a str, u32);
    impl GameVisitor for V<'_> {
        type Output = Verdict;
        fn visit<G: Game>(self, variant: &'static VariantInfo) -> Verdict {
            let mut pos: G = position(variant, self.0);
            let shortest_win = (1..=self.1).find(|&n| wins_within(&mut pos, n));
            let mut winning_moves = Vec::new();
            if let Some(n) = shortest_win {
                let mut moves = G::Moves::default();
                pos.legal_moves(&mut moves);
                for &m in moves.iter() {
                    if move_wins_within(&mut pos, m, n) {
                        winning_moves.push(pos.move_to_string(m, Notation::Uci));
                    }
                }
            }
            Verdict {
                shortest_win,
                winning_moves,
            }
        }
    }
    variant.visit(V(fen, most))
}

/// Whether, after move `mv` (UCI) of `fen`, the opponent forces a win within `n` moves.
pub fn loses_after(variant: &'static VariantInfo, fen: &str, mv: &str, n: u32) -> bool {
    struct V<'a>(&'a str, &'a str, u32);
    impl GameVisitor for V<'_> {
        type Output = bool;
        fn visit<G: Game>(self, variant: &'static VariantInfo) -> bool {
            let mut pos: G = position(variant, self.0);
            let m = pos.parse_move(self.1, Notation::Uci).unwrap();
            pos.make_move(m);
            match pos.outcome() {
                Some(Outcome::Win(_)) => true,
                Some(_) => false,
                None => wins_within(&mut pos, self.2),
            }
        }
    }
    variant.visit(V(fen, mv, n))
}

/// The legal moves (UCI) of `fen`.
pub fn legal_moves(variant: &'static VariantInfo, fen: &str) -> Vec<String> {
    let mut s = variant.new_session();
    s.set_position(Some(fen), &[], Notation::Uci).unwrap();
    s.legal_moves(Notation::Uci)
}
