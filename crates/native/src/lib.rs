//! What the native program gives the engine core: the protocol loop on standard input and
//! output ([`stdio`]), and a host with `std`'s clock and threads.

pub mod simple_host;
pub mod stdio;
