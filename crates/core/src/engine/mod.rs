//! The engine: the one object-safe interface ([`Session`]) over every game, the variant
//! registry that maps names to games, the state an engine keeps ([`EngineState`]), and the
//! facade over them ([`Engine`]: `go`, `stop`, `ponderhit`, the long jobs, reports through a
//! [`Listener`]) that both protocol adapters drive. Protocols and tools choose a game by name
//! here at run time; the work inside a session is monomorphised per game.

pub mod bench;
pub mod facade;
pub mod jobs;
pub mod look;
pub mod options;
pub mod registry;
pub mod session;
pub mod state;
pub mod text;
pub mod wdl;

pub use facade::{Engine, Listener, Progress, Remote, SearchId};
pub use registry::{VariantInfo, VARIANTS};
pub use session::{apply_moves, Coord, Divide, GameSession, MoveFacts, MoveText, Session};
pub use state::EngineState;
