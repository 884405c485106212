//! The protocol adapters' logic, in-process: UCI and XBoard driven line by line as the native
//! loop drives them, their answers read from a recording output (see `support`). What only the
//! real program shows (the first command choosing the protocol, the end of input, the process
//! exiting, its memory) is tested through pipes in the root package's tests/.

mod analysis;
mod nnue;
mod options;
mod support;
mod uci;
mod xboard;
