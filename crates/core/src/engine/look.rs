//! How a game looks to a GUI that does not know it: which picture each piece is drawn with,
//! how many kinds of piece its hand shows and how pieces come into play from it. A registry
//! entry describes its game this way; each GUI protocol turns the description into its own
//! commands (XBoard: `setup` and `piece`, see `protocol::xboard::describe`), so nothing here
//! is one GUI's numbering.

/// The picture a piece is drawn with, named by what it shows. The set is the one XBoard-family
/// GUIs draw (from the chess pieces to shogi's and the fairy pieces'); a GUI maps each to its
/// own image.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PieceImage {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    /// A ferz (in shogi GUIs: the silver general).
    Ferz,
    Alfil,
    Archbishop,
    Chancellor,
    /// A wazir (in shogi GUIs: the gold general).
    Wazir,
    /// A commoner (a king that is not royal).
    Man,
    Cannon,
    Nightrider,
    Cardinal,
    Dragon,
    Grasshopper,
    Silver,
    Falcon,
    /// A lance. (XBoard moves its lance like a pawn, double step and en passant included, but
    /// lets it gate a piece from the hand onto the square it leaves; see [`HandStyle::Gating`].)
    Lance,
    Cobra,
    Unicorn,
    Sword,
    Duck,
    /// A winged dragon.
    Flying,
    /// A winged horse.
    Horse,
    /// A helmet (copper).
    Copper,
    /// A helmet (iron).
    Iron,
    Axe,
    /// A round disc.
    Wheel,
    Butterfly,
    King,
}

/// How pieces come into play from a game's hand, as far as a GUI must know to show it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HandStyle {
    /// No hand.
    None,
    /// Pieces in hand are placed on empty squares; captured pieces do not go to the hand
    /// (Whitcher's towns).
    PlacedOnly,
    /// Captured pieces go to the captor's hand, unpromoted, and are dropped from it (shogi).
    CapturesToHand,
    /// A piece comes in onto an occupied square whose piece it moves on: shown as that piece's
    /// move with the new piece appearing where it stood ("gating", as in Seirawan chess;
    /// Swedish Cannon Chess's cannon entry).
    Gating,
}

/// How a GUI draws a game it does not know.
#[derive(Clone, Debug)]
pub struct BoardLook {
    /// Each upper-case piece letter of the game and its picture (the king's last is fine;
    /// a GUI puts the royal piece where it wants it).
    pub images: &'static [(char, PieceImage)],
    /// Promoted pieces (shogi's `+X`): the letter of the unpromoted piece and the picture of
    /// its promoted form.
    pub promoted: &'static [(char, PieceImage)],
    /// How many kinds of piece the hand shows (0: no hand shown). A piece that can be in hand
    /// must be among the first this many images, in the GUI's order.
    pub hand_slots: usize,
    pub hand: HandStyle,
    /// Moves in Betza notation for pieces a GUI can be told exactly (standard chess pieces
    /// need none): the piece as the FEN writes it (`S`, or `+U` for a promoted one) and its
    /// moves, the same for both sides. A GUI that knows a piece's moves can check and write
    /// them as it does its own pieces' (XBoard's move list and check marks).
    pub betza: &'static [(&'static str, &'static str)],
}

impl BoardLook {
    /// A plain board with no hand: a GUI puts the letters of the start position on its fairy
    /// pictures in order. For a new game until it has a look of its own.
    pub const PLAIN: BoardLook = BoardLook {
        images: &[],
        promoted: &[],
        hand_slots: 0,
        hand: HandStyle::None,
        betza: &[],
    };
}
