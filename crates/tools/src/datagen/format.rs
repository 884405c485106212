//! The training-data file of `cannonade datagen`: a header, then records, byte by byte as
//! `docs/datagen.md` describes them; and [`DataReader`], which reads them back (the trainer's
//! way in).
//!
//! A file is one or more *segments*, each a header followed by records. `datagen` writes one
//! segment; files of several shards joined with `cat` are several. A record's first byte is its
//! FEN's length, never 0, and a header's first byte is 0, so the reader always knows which of the
//! two comes next.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

/// The first eight bytes of every header. The leading 0 can never start a record.
pub const MAGIC: [u8; 8] = *b"\0CANDGEN";
/// The format version this build writes and reads.
pub const VERSION: u16 = 1;
/// The score of a position in which the search found a mate (for the side to move: positive;
/// against it: negative). Centipawn scores are clamped to one less than this.
pub const SCORE_MATE: i16 = 10_000;
/// The longest FEN a record can hold (its length is one byte).
pub const MAX_FEN_BYTES: usize = 255;
/// Flag bit of a record: the last kept position of its game. A game is complete in a file
/// exactly when its last record carries it (resuming cuts off any game without it).
pub const FLAG_GAME_END: u8 = 1;
/// Bytes of a record besides the FEN: length, score, result, flags, game index.
pub const RECORD_FIXED_BYTES: usize = 1 + 2 + 1 + 1 + 4;

/// One header: the variant every record after it belongs to, and the settings that made them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The variant's engine name, as `cannonade variants` lists it.
    pub variant: String,
    /// How the records were made (search limit, seed, shard, options...), one line of text for
    /// people and for `datagen`'s check that a resumed run uses the same settings.
    pub settings: String,
}

impl Header {
    /// The header's bytes; an error for a variant name or settings too long for their length
    /// fields.
    pub fn encode(&self) -> Result<Vec<u8>, EncodeError> {
        let name = self.variant.as_bytes();
        let settings = self.settings.as_bytes();
        if name.is_empty() || name.len() > 255 {
            return Err(EncodeError::VariantName(self.variant.clone()));
        }
        let settings_len =
            u16::try_from(settings.len()).map_err(|_| EncodeError::Settings(settings.len()))?;
        let mut out = Vec::with_capacity(13 + name.len() + settings.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(name.len() as u8);
        out.extend_from_slice(name);
        out.extend_from_slice(&settings_len.to_le_bytes());
        out.extend_from_slice(settings);
        Ok(out)
    }
}

/// The result of a game from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    Loss,
    Draw,
    Win,
}

impl GameResult {
    /// The stored byte: -1, 0 or 1.
    pub fn to_i8(self) -> i8 {
        match self {
            GameResult::Loss => -1,
            GameResult::Draw => 0,
            GameResult::Win => 1,
        }
    }

    pub fn from_i8(v: i8) -> Option<Self> {
        match v {
            -1 => Some(GameResult::Loss),
            0 => Some(GameResult::Draw),
            1 => Some(GameResult::Win),
            _ => None,
        }
    }

    /// The same result seen from the other side.
    pub fn flip(self) -> Self {
        match self {
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
            GameResult::Win => GameResult::Loss,
        }
    }
}

/// One kept position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position, exactly as the variant's FEN writes it (hands, reserves, towns, clocks).
    pub fen: String,
    /// The search score, centipawns from the side to move's view, within
    /// `-SCORE_MATE..=SCORE_MATE`; `±SCORE_MATE` for a mate found.
    pub score: i16,
    /// How the game ended, from the side to move's view.
    pub result: GameResult,
    /// The index of the game the position comes from (the same in every shard's numbering).
    pub game: u32,
    /// Whether this is the last kept position of its game.
    pub game_end: bool,
}

impl Record {
    /// Appends the record's bytes to `out`; an error for an empty FEN or one too long for its
    /// length byte.
    pub fn encode_into(&self, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let fen = self.fen.as_bytes();
        if fen.is_empty() || fen.len() > MAX_FEN_BYTES {
            return Err(EncodeError::Fen {
                fen: self.fen.clone(),
            });
        }
        out.push(fen.len() as u8);
        out.extend_from_slice(fen);
        out.extend_from_slice(&self.score.to_le_bytes());
        out.push(self.result.to_i8() as u8);
        out.push(if self.game_end { FLAG_GAME_END } else { 0 });
        out.extend_from_slice(&self.game.to_le_bytes());
        Ok(())
    }

    /// The record's size in the file.
    pub fn encoded_len(&self) -> usize {
        RECORD_FIXED_BYTES + self.fen.len()
    }
}

/// A header or record that the format has no room for.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// An empty variant name, or one longer than its length byte.
    #[error("variant name '{0}' has no room in a header")]
    VariantName(String),
    /// Settings longer than their 16-bit length field (their length in bytes).
    #[error("settings of {0} bytes have no room in a header")]
    Settings(usize),
    /// An empty FEN, or one longer than its length byte.
    #[error("a FEN of {len} bytes has no room in a record (1 to {MAX_FEN_BYTES}): {fen}", len = fen.len())]
    Fen { fen: String },
}

/// Why a data file could not be read.
#[derive(thiserror::Error, Debug)]
pub enum DataError {
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The file does not start with a header of this format (or a header is damaged).
    #[error("not a cannonade datagen file (bad magic)")]
    BadMagic,
    /// A header of another version of the format.
    #[error("datagen format version {0}, this build reads version {VERSION}")]
    BadVersion(u16),
    /// A header of another variant than the one asked for (or than the file's first).
    #[error("the data is for variant '{found}', not '{expected}'")]
    WrongVariant { expected: String, found: String },
    /// The input ends before its first header is complete (an empty file included).
    #[error("the file is empty or its header is cut off")]
    NoHeader,
    /// A record or header whose fields hold values the format does not allow.
    #[error("damaged data: {0}")]
    Corrupt(String),
}

/// Reads a data file record by record.
///
/// [`DataReader::new`] reads the first header and refuses a bad magic, another version or
/// another variant than the one asked for. Iterating gives the records of every segment in file
/// order; a later header (files joined with `cat`) is read and checked the same way (same
/// version and variant; its settings may differ) and yields nothing. Input that ends inside a
/// record or header (an interrupted run) ends the iteration cleanly: [`DataReader::truncated`]
/// then says so, and [`DataReader::position`] is where the cut-off part begins. Any error ends
/// the iteration after it is returned.
pub struct DataReader<R: Read> {
    inner: R,
    headers: Vec<Header>,
    /// Bytes consumed by complete headers and records.
    position: u64,
    truncated: bool,
    done: bool,
}

impl DataReader<BufReader<File>> {
    /// Opens a file; `variant` as in [`DataReader::new`].
    pub fn open(path: &Path, variant: Option<&str>) -> Result<Self, DataError> {
        let file = File::open(path)?;
        DataReader::new(BufReader::with_capacity(1 << 16, file), variant)
    }
}

/// Fills `buf` from `r`; `Ok(false)` when the input ends first.
fn fill<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<bool> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => return Ok(false),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

impl<R: Read> DataReader<R> {
    /// Reads the first header. With `Some(variant)`, the header's variant (the engine name, as
    /// `cannonade variants` lists it) must be exactly that.
    pub fn new(mut inner: R, variant: Option<&str>) -> Result<Self, DataError> {
        let mut first = [0u8; 1];
        if !fill(&mut inner, &mut first)? {
            return Err(DataError::NoHeader);
        }
        if first[0] != 0 {
            return Err(DataError::BadMagic);
        }
        let (header, len) = match read_header_rest(&mut inner)? {
            Some(h) => h,
            None => return Err(DataError::NoHeader),
        };
        if let Some(expected) = variant {
            if header.variant != expected {
                return Err(DataError::WrongVariant {
                    expected: expected.to_string(),
                    found: header.variant,
                });
            }
        }
        Ok(DataReader {
            inner,
            headers: vec![header],
            position: len,
            truncated: false,
            done: false,
        })
    }

    /// The first header.
    pub fn header(&self) -> &Header {
        &self.headers[0]
    }

    /// Every header read so far, in file order (one per joined file).
    pub fn headers(&self) -> &[Header] {
        &self.headers
    }

    /// Whether the input ended inside a record or header.
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// Bytes of complete headers and records read so far.
    pub fn position(&self) -> u64 {
        self.position
    }

    fn next_item(&mut self) -> Result<Option<Record>, DataError> {
        loop {
            let mut first = [0u8; 1];
            if !fill(&mut self.inner, &mut first)? {
                return Ok(None);
            }
            if first[0] == 0 {
                let Some((header, len)) = read_header_rest(&mut self.inner)? else {
                    self.truncated = true;
                    return Ok(None);
                };
                if header.variant != self.headers[0].variant {
                    return Err(DataError::WrongVariant {
                        expected: self.headers[0].variant.clone(),
                        found: header.variant,
                    });
                }
                self.headers.push(header);
                self.position += len;
                continue;
            }
            let len = usize::from(first[0]);
            let mut buf = vec![0u8; len + RECORD_FIXED_BYTES - 1];
            if !fill(&mut self.inner, &mut buf)? {
                self.truncated = true;
                return Ok(None);
            }
            let fen = std::str::from_utf8(&buf[..len])
                .map_err(|_| DataError::Corrupt("a FEN is not UTF-8".into()))?
                .to_string();
            let rest = &buf[len..];
            let score = i16::from_le_bytes([rest[0], rest[1]]);
            if score.unsigned_abs() > SCORE_MATE.unsigned_abs() {
                return Err(DataError::Corrupt(format!("score {score} in {fen}")));
            }
            let result = GameResult::from_i8(rest[2] as i8)
                .ok_or_else(|| DataError::Corrupt(format!("result {} in {fen}", rest[2] as i8)))?;
            let flags = rest[3];
            if flags & !FLAG_GAME_END != 0 {
                return Err(DataError::Corrupt(format!("flags {flags:#04x} in {fen}")));
            }
            let game = u32::from_le_bytes([rest[4], rest[5], rest[6], rest[7]]);
            self.position += (len + RECORD_FIXED_BYTES) as u64;
            return Ok(Some(Record {
                fen,
                score,
                result,
                game,
                game_end: flags & FLAG_GAME_END != 0,
            }));
        }
    }
}

/// Reads a header after its first (0) byte; `None` when the input ends first. Returns the
/// header and its length in bytes.
fn read_header_rest<R: Read>(r: &mut R) -> Result<Option<(Header, u64)>, DataError> {
    let mut fixed = [0u8; 10];
    if !fill(r, &mut fixed)? {
        return Ok(None);
    }
    if fixed[..7] != MAGIC[1..] {
        return Err(DataError::BadMagic);
    }
    let version = u16::from_le_bytes([fixed[7], fixed[8]]);
    if version != VERSION {
        return Err(DataError::BadVersion(version));
    }
    let name_len = usize::from(fixed[9]);
    let mut name = vec![0u8; name_len + 2];
    if !fill(r, &mut name)? {
        return Ok(None);
    }
    let settings_len = usize::from(u16::from_le_bytes([name[name_len], name[name_len + 1]]));
    name.truncate(name_len);
    let mut settings = vec![0u8; settings_len];
    if !fill(r, &mut settings)? {
        return Ok(None);
    }
    let text = |b: Vec<u8>, what: &str| {
        String::from_utf8(b).map_err(|_| DataError::Corrupt(format!("the {what} is not UTF-8")))
    };
    let header = Header {
        variant: text(name, "variant name")?,
        settings: text(settings, "settings text")?,
    };
    Ok(Some((
        header,
        (MAGIC.len() + 2 + 1 + name_len + 2 + settings_len) as u64,
    )))
}

impl<R: Read> Iterator for DataReader<R> {
    type Item = Result<Record, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_item() {
            Ok(Some(r)) => Some(Ok(r)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(variant: &str) -> Header {
        Header {
            variant: variant.into(),
            settings: "test".into(),
        }
    }

    fn record(fen: &str, game: u32, game_end: bool) -> Record {
        Record {
            fen: fen.into(),
            score: -37,
            result: GameResult::Win,
            game,
            game_end,
        }
    }

    fn file(variant: &str, records: &[Record]) -> Vec<u8> {
        let mut out = header(variant).encode().unwrap();
        for r in records {
            r.encode_into(&mut out).unwrap();
        }
        out
    }

    #[test]
    fn records_round_trip_byte_by_byte() {
        let r = record("8/8/8/8/8/8/8/K1k5 w - - 0 1", 7, true);
        let mut bytes = Vec::new();
        r.encode_into(&mut bytes).unwrap();
        assert_eq!(bytes.len(), r.encoded_len());
        assert_eq!(bytes[0] as usize, r.fen.len());
        let tail = &bytes[1 + r.fen.len()..];
        assert_eq!(tail, &[0xdb, 0xff, 1, FLAG_GAME_END, 7, 0, 0, 0]);
        let h = header("chess").encode().unwrap();
        assert_eq!(&h[..8], b"\0CANDGEN");
        assert_eq!(&h[8..11], &[1, 0, 5]);
        assert_eq!(&h[11..16], b"chess");
        assert_eq!(&h[16..18], &[4, 0]);
        let all = file(
            "chess",
            &[r.clone(), record("k7/8/8/8/8/8/8/7K b - - 3 9", 9, false)],
        );
        let mut reader = DataReader::new(&all[..], Some("chess")).unwrap();
        assert_eq!(reader.header(), &header("chess"));
        assert_eq!(reader.next().unwrap().unwrap(), r);
        assert_eq!(reader.next().unwrap().unwrap().game, 9);
        assert!(reader.next().is_none());
        assert!(!reader.truncated());
        assert_eq!(reader.position(), all.len() as u64);
    }

    #[test]
    fn a_cut_off_end_stops_cleanly_wherever_it_is_cut() {
        let records = [
            record("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, true),
            record("4k3/8/8/8/8/8/8/3K4 b - - 1 1", 1, true),
        ];
        let all = file("chess", &records);
        let first_end = all.len() - records[1].encoded_len();
        for cut in first_end..all.len() {
            let mut reader = DataReader::new(&all[..cut], None).unwrap();
            assert_eq!(reader.next().unwrap().unwrap(), records[0]);
            assert!(reader.next().is_none(), "cut at {cut}");
            assert_eq!(reader.truncated(), cut != first_end, "cut at {cut}");
            assert_eq!(reader.position(), first_end as u64);
        }
        // Within the first header there is nothing to read.
        for cut in 0..file("chess", &[]).len() {
            assert!(matches!(
                DataReader::new(&all[..cut], None),
                Err(DataError::NoHeader)
            ));
        }
    }

    #[test]
    fn joined_files_read_as_one_and_other_variants_are_refused() {
        let a = file("chess", &[record("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, true)]);
        let b = file("chess", &[record("4k3/8/8/8/8/8/8/3K4 b - - 1 1", 1, true)]);
        let joined = [a.clone(), b.clone()].concat();
        let reader = DataReader::new(&joined[..], Some("chess")).unwrap();
        assert_eq!(reader.map(|r| r.unwrap().game).collect::<Vec<_>>(), [0, 1]);
        // A joined file of two variants fails at the second header.
        let c = file("cannon", &[]);
        let mixed = [a.clone(), c].concat();
        let mut reader = DataReader::new(&mixed[..], None).unwrap();
        assert!(reader.next().unwrap().is_ok());
        assert!(matches!(
            reader.next(),
            Some(Err(DataError::WrongVariant { .. }))
        ));
        assert!(reader.next().is_none());
        assert!(matches!(
            DataReader::new(&a[..], Some("cannon")),
            Err(DataError::WrongVariant { .. })
        ));
        let mut bad = a.clone();
        bad[3] = b'X';
        assert!(matches!(
            DataReader::new(&bad[..], None),
            Err(DataError::BadMagic)
        ));
        let mut bad = a.clone();
        bad[0] = 1;
        assert!(matches!(
            DataReader::new(&bad[..], None),
            Err(DataError::BadMagic)
        ));
        let mut bad = a;
        bad[8] = 2;
        assert!(matches!(
            DataReader::new(&bad[..], None),
            Err(DataError::BadVersion(2))
        ));
    }

    #[test]
    fn impossible_values_are_refused() {
        let mut bytes = file("chess", &[record("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, true)]);
        let n = bytes.len();
        bytes[n - 6] = 2; // the result
        let mut reader = DataReader::new(&bytes[..], None).unwrap();
        assert!(matches!(reader.next(), Some(Err(DataError::Corrupt(_)))));
        let mut long = Vec::new();
        assert!(record(&"p".repeat(256), 0, true)
            .encode_into(&mut long)
            .is_err());
        assert!(record("", 0, true).encode_into(&mut long).is_err());
    }
}
