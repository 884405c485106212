//! Opening the output file: a new file gets its header; an existing one of the same job is
//! cut back to its last complete game and resumed.

use super::format::{DataError, DataReader, Header};
use super::spec::Shard;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The file opened for appending, after the part to keep: its positions and the number (within
/// the shard) of the first game it lacks.
pub(super) struct Resumed {
    pub(super) file: File,
    pub(super) positions: u64,
    pub(super) next: u64,
}

/// Opens `path` for the job of `header`: a new or empty file gets the header; an existing one
/// must hold this job's data (one header, the same settings), and is cut back to its last
/// complete game.
pub(super) fn open_output(path: &Path, header: &Header, shard: Shard) -> Result<Resumed, String> {
    let shown = path.display();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {shown}: {e}"))?;
    let header_bytes = header.encode().map_err(|e| e.to_string())?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {shown}: {e}"))?
        .len();
    let fresh = |mut file: File| -> Result<Resumed, String> {
        file.set_len(0)
            .and_then(|_| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(&header_bytes))
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
        Ok(Resumed {
            file,
            positions: 0,
            next: 0,
        })
    };
    if len == 0 {
        return fresh(file);
    }
    let mut reader = match DataReader::new(BufReader::new(&file), Some(&header.variant)) {
        Ok(r) => r,
        Err(DataError::NoHeader) => {
            // Interrupted while writing its header: start again if it is ours.
            let mut head = Vec::new();
            (&file)
                .seek(SeekFrom::Start(0))
                .map_err(|e| format!("cannot read {shown}: {e}"))?;
            (&file)
                .take(header_bytes.len() as u64)
                .read_to_end(&mut head)
                .map_err(|e| format!("cannot read {shown}: {e}"))?;
            if header_bytes.starts_with(&head) {
                return fresh(file);
            }
            return Err(format!("{shown}: {}", DataError::NoHeader));
        }
        Err(e) => return Err(format!("{shown}: {e}; it is left as it is")),
    };
    if reader.header().settings != header.settings {
        return Err(format!(
            "{shown} holds data made with other settings, so it cannot be resumed; run the \
             command that made it, or write to another file\n  file: {}\n  now:  {}",
            reader.header().settings,
            header.settings
        ));
    }
    let mut keep = reader.position();
    let (mut positions, mut in_game) = (0u64, 0u64);
    let mut last_game: Option<u64> = None;
    let mut previous: Option<u64> = None;
    while let Some(record) = reader.next() {
        let record = record.map_err(|e| format!("{shown}: {e}; it is left as it is"))?;
        if reader.headers().len() > 1 {
            break;
        }
        let game = u64::from(record.game);
        if !shard.contains(game) || previous.is_some_and(|p| game < p) {
            return Err(format!(
                "{shown}: game {game} does not belong here (shard {}/{}, after game {}); it \
                 is left as it is",
                shard.index,
                shard.count,
                previous.map_or("none".to_string(), |p| p.to_string())
            ));
        }
        previous = Some(game);
        in_game += 1;
        if record.game_end {
            positions += in_game;
            in_game = 0;
            keep = reader.position();
            last_game = Some(game);
        }
    }
    if reader.headers().len() > 1 {
        return Err(format!(
            "{shown} holds several files joined together; only one run's own file can be \
             resumed"
        ));
    }
    drop(reader);
    file.set_len(keep)
        .and_then(|_| file.seek(SeekFrom::End(0)).map(|_| ()))
        .map_err(|e| format!("cannot cut {shown} back to its last complete game: {e}"))?;
    Ok(Resumed {
        file,
        positions,
        next: last_game.map_or(0, |g| (g - shard.first_game()) / shard.count + 1),
    })
}
