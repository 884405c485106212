//! Cannonade: a UCI/XBoard engine for the cannon family of chess variants.
//!
//! Layers, from the bottom: [`board`] (geometry, bitboards, attacks), [`games`] (the `Game`
//! trait, one module per family, the registry), [`tools`] (perft), and [`protocol`] (the engine
//! facade and the protocol adapters).

pub mod board;
pub mod games;
pub mod protocol;
pub mod search;
pub mod tools;
