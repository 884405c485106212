//! PGN, text in and text out: the one reader of every PGN the project reads (`cannonade
//! analyse`, the match runner's openings, the page) and the writer of every PGN it writes.
//! Nothing here opens a file; the tools do that.
//!
//! - [`file`]: a file's games, their tags and the move words of their movetext.
//! - [`moves`]: move words as legal moves of their game, in the forms other programs write
//!   (the game is asked; the reader knows no rule).
//! - [`write`]: tags, movetext and whole games.
//!
//! ```
//! use cannonade_core::engine::registry;
//! use cannonade_core::pgn;
//!
//! let games = pgn::read_games("[Variant \"swedishcannon\"]\n\n1. Pe2e4=C e5 *\n");
//! let variant = registry::find(games[0].tag("Variant").unwrap()).unwrap();
//! let start = variant.new_session();
//! assert_eq!(games[0].moves(start.as_ref(), None).unwrap(), ["C@e2", "e7e5"]);
//! ```

pub mod file;
pub mod moves;
pub mod write;

pub use file::{movetext_tokens, read_games, PgnGame};
pub use moves::{find_move, find_san, MoveReader};
pub use write::{quote, wrap_tokens, write_game, BlackNumbers, Movetext};
