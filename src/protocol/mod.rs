//! Protocol adapters and the engine facade they talk to.

pub mod engine;
