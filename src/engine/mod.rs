//! The engine facade: the one object-safe interface ([`Session`]) over every game, and the
//! variant registry that maps names to games. Protocols and tools choose a game by name here at
//! run time; the work inside a session is monomorphised per game.

pub mod registry;
pub mod session;

pub use registry::{VariantInfo, VARIANTS};
pub use session::{apply_moves, Coord, GameSession, MoveFacts, MoveText, Session};
