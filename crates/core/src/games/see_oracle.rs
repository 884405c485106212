//! Test support: a brute-force exchange resolver that checks each family's fast `see_ge`.
//!
//! It plays the exchange with the real `make_move` / `unmake_move`: on each turn the side to move
//! lists its captures onto the target square from the family's move generator (pseudo-legal:
//! pins are ignored, as the fast SEE ignores them), takes the one the family's order puts first
//! (least valuable attacker, then a fixed tie-break), and chooses between that capture and
//! standing pat by minimax. A king may capture only when the other side then has no capture onto
//! the square. Nothing here shares code with the fast SEE except the order of attackers and the
//! value of a capture, which are the definition being checked.

use crate::board::Square;
use crate::games::{Game, Move};

/// What the resolver needs from a family.
pub(crate) trait SeeOracle: Game {
    /// The side to move's captures onto `sq` by its move generator, pseudo-legal, one per
    /// capturing piece (where a capture may promote, the promotion the SEE assumes).
    fn captures_onto(&self, sq: Square, out: &mut Self::Moves);
    /// Order of attackers: the smallest key captures first.
    fn attacker_key(&self, m: Move) -> (i32, usize, usize);
    /// What the mover gains by the move itself (before any reply), in SEE units.
    fn gain(&self, m: Move) -> i32;
    /// Whether the move is made by a king (which may not capture onto a defended square).
    fn by_king(&self, m: Move) -> bool;
}

/// The best the side to move can get from captures onto `sq` (0 when it stands pat).
fn resolve<G: SeeOracle>(p: &mut G, sq: Square) -> i32 {
    let mut caps = G::Moves::default();
    p.captures_onto(sq, &mut caps);
    let Some(&m) = caps.iter().min_by_key(|&&m| p.attacker_key(m)) else {
        return 0;
    };
    let gain = p.gain(m);
    let king = p.by_king(m);
    p.make_move(m);
    if king {
        let mut replies = G::Moves::default();
        p.captures_onto(sq, &mut replies);
        if !replies.is_empty() {
            p.unmake_move();
            return 0;
        }
    }
    let v = gain - resolve(p, sq);
    p.unmake_move();
    v.max(0)
}

/// The exact exchange value of the legal move `m` by brute force.
pub(crate) fn exchange_value<G: SeeOracle>(p: &G, m: Move) -> i32 {
    let mut q = p.clone();
    let gain = q.gain(m);
    q.make_move(m);
    gain - resolve(&mut q, m.to())
}

/// Checks `see_ge` against the resolver for every capture and promotion of `p` and for about
/// 32 of its other moves (spread over the list), at the exact value, one above and one below
/// it, and at `extra`. Returns the number of moves checked or the first disagreement.
pub(crate) fn check_position<G: SeeOracle>(p: &G, extra: i32) -> Result<usize, String> {
    let mut moves = G::Moves::default();
    p.legal_moves(&mut moves);
    let stride = moves.len() / 32 + 1;
    let mut checked = 0;
    for (i, &m) in moves.iter().enumerate() {
        if !p.is_tactical(m) && i % stride != 0 {
            continue;
        }
        checked += 1;
        let v = exchange_value(p, m);
        for t in [v, v + 1, v - 1, extra] {
            if p.see_ge(m, t) != (v >= t) {
                return Err(format!(
                    "{}: move {} exchange value {v}, see_ge(.., {t}) = {}",
                    p.to_fen(),
                    p.move_to_string(m, crate::games::Notation::Uci),
                    p.see_ge(m, t)
                ));
            }
        }
    }
    Ok(checked)
}

/// Walks a random game of `choices.len()` plies from `start`, checking every position on the
/// way; stops early when the game ends.
pub(crate) fn check_random_game<G: SeeOracle>(
    start: &G,
    choices: &[(u16, i16)],
) -> Result<usize, String> {
    let mut p = start.clone();
    let mut checked = 0;
    for &(c, t) in choices {
        if p.rule_outcome().is_some() {
            break;
        }
        checked += check_position(&p, t as i32)?;
        let mut moves = G::Moves::default();
        p.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        // Every other ply a capture when there is one, so that the pieces meet and the
        // positions are full of exchanges.
        let caps: G::Moves = moves
            .iter()
            .copied()
            .filter(|&m| p.is_tactical(m))
            .collect();
        let m = if c % 2 == 1 && !caps.is_empty() {
            caps[(c as usize / 2) % caps.len()]
        } else {
            moves[c as usize % moves.len()]
        };
        p.make_move(m);
    }
    Ok(checked)
}

/// Rough cost of `see_ge`: nanoseconds per call over every legal move of the positions of a
/// fixed pseudo-random game from `start` (run with `--ignored --nocapture` in release).
pub(crate) fn time_see<G: Game>(start: &G, plies: usize) -> (f64, f64) {
    let mut p = start.clone();
    let mut positions = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..plies {
        let mut moves = G::Moves::default();
        p.legal_moves(&mut moves);
        if moves.is_empty() || p.rule_outcome().is_some() {
            break;
        }
        positions.push(p.clone());
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        p.make_move(moves[seed as usize % moves.len()]);
    }
    let mut work: Vec<(G, Vec<Move>, Vec<Move>)> = Vec::new();
    for q in positions {
        let mut moves = G::Moves::default();
        q.legal_moves(&mut moves);
        let (caps, quiets): (Vec<Move>, Vec<Move>) = moves.iter().partition(|&&m| q.is_tactical(m));
        work.push((q, caps, quiets));
    }
    let mut result = [0.0; 2];
    for (k, slot) in result.iter_mut().enumerate() {
        let mut calls = 0u64;
        let mut yes = 0u64;
        let t0 = std::time::Instant::now();
        for _ in 0..20 {
            for (q, caps, quiets) in &work {
                let list = if k == 0 { caps } else { quiets };
                for &m in list {
                    yes += u64::from(q.see_ge(std::hint::black_box(m), 0));
                    calls += 1;
                }
            }
        }
        std::hint::black_box(yes);
        *slot = t0.elapsed().as_nanos() as f64 / calls.max(1) as f64;
    }
    (result[0], result[1])
}

#[test]
#[ignore]
fn see_timing() {
    use crate::games::cannon::CannonPosition;
    use crate::games::chess::{CannonriderChess, Chess, ChesstoniaChess, SwedishCannonChess};
    use crate::games::shogi::ShogiPosition;
    fn show<G: Game>(name: &str) {
        let start = crate::engine::registry::new_game::<G>(name).unwrap();
        let (caps, quiets) = time_see(&start, 80);
        println!("{name:>20}: captures {caps:6.1} ns, quiet moves {quiets:6.1} ns per see_ge");
    }
    show::<Chess>("chess");
    show::<SwedishCannonChess>("swedishcannon");
    show::<CannonriderChess>("cannonrider");
    show::<ChesstoniaChess>("chesstonia");
    show::<ShogiPosition>("cannonshogi");
    show::<CannonPosition>("cannon");
}
