//! What every position type's history shares: the walk back over it that finds repetitions.
//! What a repetition means (a draw after three or four, a loss for a perpetual checker) stays
//! with each game.

use super::Move;

/// The earlier occurrences of the current position (key `key`) in `history` (oldest first),
/// most recent first, each as the number of plies back it stands (even: the same side is to
/// move). `played` reads an entry: the move made and the key of the position it was made in
/// (a null move is [`Move::NONE`]). The walk looks back at most `span` plies (a game whose
/// irreversible moves reset a clock passes that clock) and stops at a null move: a position
/// before a pass in the search is not one the game could have repeated.
#[inline]
pub(crate) fn earlier_occurrences<'a, U>(
    history: &'a [U],
    played: impl Fn(&U) -> (Move, u64) + 'a,
    key: u64,
    span: usize,
) -> impl Iterator<Item = usize> + 'a {
    let n = history.len();
    (1..=span.min(n))
        .map(move |back| (back, played(&history[n - back])))
        .take_while(|&(_, (mv, _))| !mv.is_none())
        .filter(move |&(back, (_, before))| back % 2 == 0 && before == key)
        .map(|(back, _)| back)
}
