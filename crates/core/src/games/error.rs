//! Why a game refused a FEN, a move or a rule switch: typed, so that each protocol can word
//! the refusal in its own form, with the reason written once, next to each kind of error.

use crate::board::fen::BoardFieldError;
use std::fmt;
use thiserror::Error;

/// The part of a FEN that a [`FenError`] is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    /// No FEN at all (an empty string).
    Empty,
    /// The board field: ranks, squares, piece letters.
    Board,
    /// The pieces in hand or in reserve (bracketed after the board, or SFEN's hand field).
    Hand,
    SideToMove,
    Castling,
    EnPassant,
    HalfmoveClock,
    /// The fullmove number (SFEN's move number too).
    FullmoveNumber,
    /// Text after the last field a FEN can have.
    Trailing,
    /// A rule over the whole position rather than one field: one king each, the side not to
    /// move not in check, no more pieces than the game has, no pawn on its last rank...
    Position,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Empty => "empty FEN",
            FenField::Board => "board",
            FenField::Hand => "pieces in hand",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en-passant square",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
            FenField::Trailing => "text after the FEN",
            FenField::Position => "position",
        })
    }
}

/// A FEN that was refused: which field, and why (shown as the reason alone).
#[derive(Error, Clone, Debug, PartialEq, Eq)]
#[error("{reason}")]
pub struct FenError {
    pub field: FenField,
    pub reason: String,
}

impl FenError {
    pub fn new(field: FenField, reason: impl Into<String>) -> Self {
        FenError {
            field,
            reason: reason.into(),
        }
    }

    pub fn empty() -> Self {
        Self::new(FenField::Empty, "empty FEN")
    }

    pub fn board(reason: impl Into<String>) -> Self {
        Self::new(FenField::Board, reason)
    }

    pub fn hand(reason: impl Into<String>) -> Self {
        Self::new(FenField::Hand, reason)
    }

    pub fn side_to_move(reason: impl Into<String>) -> Self {
        Self::new(FenField::SideToMove, reason)
    }

    pub fn castling(reason: impl Into<String>) -> Self {
        Self::new(FenField::Castling, reason)
    }

    pub fn en_passant(reason: impl Into<String>) -> Self {
        Self::new(FenField::EnPassant, reason)
    }

    pub fn position(reason: impl Into<String>) -> Self {
        Self::new(FenField::Position, reason)
    }

    /// Unexpected text after the last field: `unexpected '{extra}' after the FEN`.
    pub fn trailing(extra: &str) -> Self {
        Self::new(
            FenField::Trailing,
            format!("unexpected '{extra}' after the FEN"),
        )
    }
}

/// The shared board reader's refusals are about the board field.
impl From<BoardFieldError> for FenError {
    fn from(e: BoardFieldError) -> Self {
        FenError::board(e.to_string())
    }
}

/// A move string that is not a legal move of the position it was given for.
#[derive(Error, Clone, Debug, PartialEq, Eq)]
#[error("{}", self.describe())]
pub struct MoveError {
    /// The move as it was given.
    pub text: String,
    /// The FEN of the position it was tried on.
    pub fen: String,
    /// Where it stood in a list of moves (counted from 0), if it came in one; shown counted
    /// from 1 (`move 3 'e2e4' is not legal in ...`).
    pub index: Option<usize>,
}

impl MoveError {
    fn describe(&self) -> String {
        let MoveError { text, fen, index } = self;
        match index {
            Some(i) => format!("move {} '{text}' is not legal in {fen}", i + 1),
            None => format!("'{text}' is not a legal move in {fen}"),
        }
    }
}

/// Why a game refused a FEN, a move, a rule switch or a variant.
#[derive(Error, Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    IllegalMove(#[from] MoveError),
    /// A rule switch this game does not have; `hint` names the ones it has, if said.
    #[error("unknown rule option '{name}'{}", hint.map(|h| format!(" ({h})")).unwrap_or_default())]
    UnknownRuleOption {
        name: String,
        hint: Option<&'static str>,
    },
    /// No variant of this name is registered.
    #[error("unknown variant '{0}'")]
    UnknownVariant(String),
    /// A registered variant that this game type cannot play (another board size, a board
    /// that does not fit its bitboard word).
    #[error("'{name}' {why}")]
    NotThisGame { name: String, why: &'static str },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_the_reasons_in_words() {
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        let in_list = MoveError {
            text: "e2e4".into(),
            fen: fen.into(),
            index: Some(0),
        };
        assert_eq!(
            in_list.to_string(),
            format!("move 1 'e2e4' is not legal in {fen}")
        );
        let alone = GameError::from(MoveError {
            index: None,
            ..in_list
        });
        assert_eq!(
            alone.to_string(),
            format!("'e2e4' is not a legal move in {fen}")
        );
        let bad = GameError::from(FenError::castling("bad castling character 'Z'"));
        assert_eq!(bad.to_string(), "bad castling character 'Z'");
        let rule = GameError::UnknownRuleOption {
            name: "Foo".into(),
            hint: None,
        };
        assert_eq!(rule.to_string(), "unknown rule option 'Foo'");
        assert_eq!(
            FenError::trailing("x"),
            FenError::new(FenField::Trailing, "unexpected 'x' after the FEN")
        );
    }
}
