//! The program's tests, built as one binary: each runs the real `cannonade` (and the fake engine,
//! src/bin/fake_engine.rs) through its command line or its pipes, as a user or a GUI does. Each
//! test file here is a module, so the core is linked (and, under the release profile's thin LTO,
//! optimised) once for all of them rather than once per file.
//!
//! - The protocols through the binary: `uci`, `xboard`, `protocol_hardening`, `protocol_fuzz`.
//! - The commands: `cli`, `analyse`, `epd`, `match_runner`, `datagen`, `nnue` (train), `spsa`.
//!
//! `tool_support`, `epd_support` and `protocol_support` are what the modules share. The engine's
//! own logic is tested in-process in crates/core/tests/suite.

mod epd_support;
mod protocol_support;
mod tool_support;

mod analyse;
mod cli;
mod datagen;
mod epd;
mod match_runner;
mod nnue;
mod protocol_fuzz;
mod protocol_hardening;
mod spsa;
mod uci;
mod xboard;
