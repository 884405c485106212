//! Cannonade's engine core: the rules of every game, the search, the nets' inference, the
//! option table, the engine facade and the protocol adapters as translators of lines. It
//! needs no operating system: the clock, the seed and any helper threads are handed to it by
//! the program that embeds it (the native `cannonade` program, or the WebAssembly build).
//!
//! Layers, from the bottom; each uses only the layers below it: [`board`] (geometry,
//! bitboards, attacks), [`nnue`] (the network and its inference), [`games`] (the `Game` trait,
//! one module per family, perft), [`search`] (generic over `Game`), [`engine`] (the `Session`
//! facade and the variant registry, the one place that knows variant names), and on top
//! [`protocol`] (UCI, XBoard).

pub mod board;
pub mod engine;
pub mod games;
pub mod host;
pub mod nnue;
pub mod pgn;
pub mod protocol;
pub mod review;
pub mod search;
