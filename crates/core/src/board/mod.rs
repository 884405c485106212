//! Board geometry, squares, bitboards and attack tables, shared by every game.

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod geometry;
pub mod square;
pub mod word;
pub mod zobrist;

pub use attacks::{LeaperTable, RayDir, Rays};
pub use bitboard::Bitboard;
pub use geometry::{Geometry, Offset};
pub use square::{Color, Square};
pub use word::BitWord;
