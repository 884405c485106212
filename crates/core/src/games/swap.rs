//! The swap list that every game's static exchange evaluation (`Game::see_ge`) folds: the
//! families differ in which pieces attack a square and what a capture wins, never in how the
//! sequence of captures is scored.

/// Room for one exchange: each capture removes a different piece from the board, and no board
/// holds more than 128 squares.
const CAPACITY: usize = 130;

/// The captures of one exchange on one square, in order. `gains[d]` is what the side making
/// capture `d` has won in all if the exchange stops right after it.
pub(crate) struct SwapList {
    gains: [i32; CAPACITY],
    last: usize,
}

impl SwapList {
    /// An exchange whose first move (the move being evaluated) wins `first`.
    #[inline]
    pub(crate) fn new(first: i32) -> Self {
        let mut gains = [0; CAPACITY];
        gains[0] = first;
        SwapList { gains, last: 0 }
    }

    /// Whether no further capture fits (never reached on a real board; a guard, not a rule).
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.last + 1 >= CAPACITY
    }

    /// Captures made so far after the first move.
    #[inline]
    pub(crate) fn recaptures(&self) -> usize {
        self.last
    }

    /// The next capture wins `won` (the piece taken, plus a promotion's gain).
    #[inline]
    pub(crate) fn capture(&mut self, won: i32) {
        self.last += 1;
        self.gains[self.last] = won - self.gains[self.last - 1];
    }

    /// The value of the exchange for the side that started it: from the last capture back,
    /// each side takes the better of standing pat and going on.
    #[inline]
    pub(crate) fn resolve(mut self) -> i32 {
        while self.last > 0 {
            let d = self.last;
            self.gains[d - 1] = -(-self.gains[d - 1]).max(self.gains[d]);
            self.last -= 1;
        }
        self.gains[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_stops_when_going_on_loses() {
        // A pawn takes a knight (320); the queen could take the pawn (100) but would then be
        // taken by a pawn (900): the queen's side stands pat and the first side keeps 320.
        let mut s = SwapList::new(320);
        s.capture(100);
        s.capture(900);
        assert_eq!(s.resolve(), 320);
        // A rook takes a pawn (100) defended by a pawn, which takes the rook (500).
        let mut s = SwapList::new(100);
        s.capture(500);
        assert_eq!(s.resolve(), 100 - 500);
        // A queen takes a defended pawn, a pawn takes the queen, and a third piece takes that
        // pawn back: once the first move is made, going on (-700) beats stopping (-800).
        let mut s = SwapList::new(100);
        s.capture(900);
        s.capture(100);
        assert_eq!(s.resolve(), 100 - 900 + 100);
        assert_eq!(
            SwapList::new(-50).resolve(),
            -50,
            "no recapture: the move's own gain"
        );
    }
}
