//! A batch interface for differential testing against other engines: reads positions (a FEN
//! or `startpos`, optionally followed by ` moves m1 m2 ...`) one per line and writes, one line
//! each, the FEN reached, the sorted legal move strings and the game result.

use cannonade_core::engine::registry::VariantInfo;
use cannonade_core::games::{Notation, Outcome};
use std::io::{BufRead, Write};

/// Answers every line of `input` on `output`: `FEN<TAB>moves<TAB>result`, where result is
/// `none`, `loss:<reason>`, `win:<reason>` or `draw:<reason>` for the side to move; or
/// `error<TAB>message` for a line that cannot be set up.
pub fn run(
    info: &'static VariantInfo,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    for line in input.lines() {
        let line = line?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (pos, moves) = match line.split_once(" moves") {
            Some((p, m)) => (p.trim(), m.split_whitespace().collect::<Vec<_>>()),
            None => (line, Vec::new()),
        };
        let fen = (pos != "startpos").then_some(pos);
        let mut session = info.new_session();
        match session.set_position(fen, &moves, Notation::Uci) {
            Err(e) => writeln!(output, "error\t{e}")?,
            Ok(()) => {
                let mut legal = session.legal_moves(Notation::Uci);
                legal.sort();
                let side = session.side_to_move();
                let result = match session.outcome() {
                    None => "none".to_string(),
                    Some(o @ Outcome::Loss(_)) => format!("loss:{}", o.describe(side)),
                    Some(o @ Outcome::Win(_)) => format!("win:{}", o.describe(side)),
                    Some(o @ Outcome::Draw(_)) => format!("draw:{}", o.describe(side)),
                };
                writeln!(output, "{}\t{}\t{result}", session.fen(), legal.join(" "))?;
            }
        }
    }
    output.flush()
}
