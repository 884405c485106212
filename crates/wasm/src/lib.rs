//! Cannonade in the browser: a thin adapter over the engine core for WebAssembly.
//!
//! Two faces, one module (see docs/web.md):
//! - the engine, run in a Web Worker: UCI lines in, UCI lines out, exactly the native engine's
//!   (`Engine` in [`bindings`]), with a host ([`host`]) that gives the core the browser's
//!   clock, no threads, and the lines the page posted while a search runs;
//! - the rules API, run on the page's thread: legal moves, move facts, game ends, through the
//!   core's `Session` facade ([`rules`]); PGN written and read by the core's writer and reader
//!   ([`pgn`]); a searched game judged by the core's review ([`review`]).
//!
//! Everything that is not a call across the JavaScript boundary lives in plain Rust modules
//! that the host's `cargo test -p cannonade-wasm` tests.

pub mod bindings;
pub mod pgn;
pub mod review;
pub mod rules;
pub mod worker;
