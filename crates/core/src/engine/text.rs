//! How messages quote what a user sent: cut to a length a GUI can show, so no input comes back
//! as an error line of its own size. Every layer that words an error uses these.

/// The longest echo of the user's text in an error message, in characters.
pub const ECHO_CHARS: usize = 80;

/// The user's text as error messages echo it: at most [`ECHO_CHARS`] characters, then `...`.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(ECHO_CHARS) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// The longest error message, in characters: messages that quote the user's input (a FEN
/// field, a move) are cut here.
pub const MESSAGE_CHARS: usize = 300;

/// A whole error message cut to [`MESSAGE_CHARS`] characters (then `...`).
pub fn clip_message(text: &str) -> String {
    match text.char_indices().nth(MESSAGE_CHARS) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}
