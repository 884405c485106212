//! Cannonade: a UCI/XBoard engine for the cannon family of chess variants.
//!
//! Layers, from the bottom; each uses only the layers below it: [`board`] (geometry,
//! bitboards, attacks), [`games`] (the `Game` trait, one module per family, perft), [`search`]
//! (generic over `Game`), [`engine`] (the `Session` facade and the variant registry, the one
//! place that knows variant names), and on top [`protocol`] (UCI, XBoard) and [`tools`]
//! (bench, match runner, openings).

pub mod board;
pub mod engine;
pub mod games;
pub mod nnue;
pub mod protocol;
pub mod search;
pub mod tools;
