//! The net file: a fixed 64-byte header, the weights, and a CRC-32 of everything before it.
//! The layout is documented byte by byte in `docs/nnue.md`; all numbers are little-endian.
//!
//! Reading checks, in this order: the magic, the version, the header's values, the length the
//! header implies (a shorter file is *truncated*), the checksum (a changed byte is *corrupted*),
//! and on request the variant and the feature count the caller expects. Any failure is a
//! [`NetError`] that names the problem; nothing half-read is ever returned.

use super::network::Network;
use super::{KingBuckets, OutputBuckets, BLOCK, MAX_FEATURES, MAX_HIDDEN, MAX_OUT_WEIGHT};
use std::path::Path;

/// The first eight bytes of every net file. The CR LF and the DOS end-of-file byte make a file
/// damaged by a text-mode transfer fail here rather than later.
pub const MAGIC: [u8; 8] = *b"CNNUE\r\n\x1a";

/// The format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// Bytes of the fixed header.
const HEADER_LEN: usize = 64;
/// Bytes of the variant name field (NUL-padded ASCII).
const NAME_LEN: usize = 32;
/// The activation code of the squared clipped ReLU (the only one so far).
const ACTIVATION_SCRELU: u8 = 1;

/// Why a net could not be read, written or used.
#[derive(thiserror::Error, Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read or written.
    #[error("net file {path}: {message}")]
    Io { path: String, message: String },
    /// Shorter than a header and a checksum: not a net file, or cut off very early.
    #[error("not a net file: {len} bytes, less than a header ({HEADER_LEN} bytes) and a checksum")]
    TooShort { len: usize },
    /// The file does not start with [`MAGIC`].
    #[error("not a Cannonade net file (wrong magic bytes)")]
    BadMagic,
    /// Written by a newer (or unknown) format version.
    #[error(
        "net file format version {found} is not supported (this build reads version \
         {FORMAT_VERSION})"
    )]
    UnsupportedVersion { found: u32 },
    /// A header value is out of range (hidden size, quantisation, name...).
    #[error("net file header is invalid: {0}")]
    BadHeader(String),
    /// The file ends before the weights the header announces.
    #[error("net file is truncated: its header announces {expected} bytes, the file has {found}")]
    Truncated { expected: usize, found: usize },
    /// The file goes on after its checksum.
    #[error(
        "net file has {} bytes of unexpected data after its checksum ({found} bytes, \
         {expected} expected)",
        .found - .expected
    )]
    TrailingData { expected: usize, found: usize },
    /// The stored checksum does not match the contents: the file is corrupted.
    #[error(
        "net file is corrupted: checksum {computed:08x} does not match the stored {stored:08x}"
    )]
    Checksum { stored: u32, computed: u32 },
    /// The net was trained for another variant: `found` is the net's, `expected` the one
    /// wanted.
    #[error("the net was trained for variant '{found}', not '{expected}'")]
    WrongVariant { expected: String, found: String },
    /// The net's input layer does not fit the game's features.
    #[error("the net has {found} input features but the game has {expected}")]
    WrongFeatureCount { expected: usize, found: usize },
    /// The header's king-bucket code (byte 61) names no layout this build knows.
    #[error("net file header names an unknown king-bucket layout (code {code})")]
    UnknownKingBuckets { code: u8 },
    /// The feature transformer's rows are not a whole number of feature sets, one per bucket.
    #[error(
        "the net has {rows} feature rows, not a multiple of its {buckets} king buckets \
         ({layout})"
    )]
    BucketRows {
        rows: usize,
        buckets: usize,
        layout: KingBuckets,
    },
    /// The net has king buckets and the game cannot say where its king stands.
    #[error("the net uses king buckets ({layout}) but variant '{variant}' has no king buckets")]
    NoKingBuckets {
        variant: String,
        layout: KingBuckets,
    },
}

/// The CRC-32 table of the IEEE 802.3 polynomial (reflected, `0xEDB88320`).
const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// CRC-32 (IEEE 802.3, as zip and PNG use it) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c = CRC_TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// The length of a file holding a net of this size.
fn file_len(features: usize, hidden: usize, outputs: usize) -> usize {
    HEADER_LEN + 2 * features * hidden + 2 * hidden + outputs * (2 * 2 * hidden + 4) + 4
}

/// Reads little-endian numbers from a byte slice whose length has been checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let out = self.bytes[self.at..self.at + N]
            .try_into()
            .expect("length checked");
        self.at += N;
        out
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        let out = self.bytes[self.at..self.at + 2 * n]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        self.at += 2 * n;
        out
    }
}

impl Network {
    /// Reads a net from the bytes of a net file (a file read into memory, or a net embedded
    /// with `include_bytes!`), checking its integrity but not which game it is for (see
    /// [`Network::from_bytes_for`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_LEN + 4 {
            // A short file that starts like a net file is a truncated one.
            if bytes.len() >= MAGIC.len() && bytes[..MAGIC.len()] == MAGIC {
                return Err(NetError::Truncated {
                    expected: HEADER_LEN + 4,
                    found: bytes.len(),
                });
            }
            return Err(NetError::TooShort { len: bytes.len() });
        }
        if bytes[..MAGIC.len()] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let mut r = Reader { bytes, at: 8 };
        let version = r.u32();
        if version != FORMAT_VERSION {
            return Err(NetError::UnsupportedVersion { found: version });
        }
        let name_field: [u8; NAME_LEN] = r.take();
        let name_len = name_field.iter().position(|&b| b == 0).unwrap_or(NAME_LEN);
        let bad = |what: String| Err(NetError::BadHeader(what));
        if name_len == 0
            || name_field[name_len..].iter().any(|&b| b != 0)
            || !name_field[..name_len].iter().all(|b| b.is_ascii_graphic())
        {
            return bad("the variant name is not printable ASCII padded with zero bytes".into());
        }
        let variant = String::from_utf8(name_field[..name_len].to_vec()).expect("ASCII");
        let features = r.u32() as usize;
        let hidden = r.u32() as usize;
        let qa = r.u16();
        let qb = r.u16();
        let scale = r.u32();
        let [activation, bucket_code, output_count, men_per_bucket] = r.take::<4>();
        if features == 0 || features > MAX_FEATURES {
            return bad(format!(
                "feature count {features} is not between 1 and {MAX_FEATURES}"
            ));
        }
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(BLOCK) {
            return bad(format!(
                "hidden size {hidden} is not a multiple of {BLOCK} between {BLOCK} and \
                 {MAX_HIDDEN}"
            ));
        }
        if qa == 0 || qa > 255 {
            return bad(format!("QA {qa} is not between 1 and 255"));
        }
        if qb == 0 {
            return bad("QB is 0".into());
        }
        if scale == 0 {
            return bad("the output scale is 0".into());
        }
        if activation != ACTIVATION_SCRELU {
            return bad(format!("unknown activation code {activation}"));
        }
        let Some(outputs) = OutputBuckets::from_header(output_count, men_per_bucket) else {
            return bad(format!(
                "output buckets {output_count} of {men_per_bucket} men: not 0, or 2 to {} \
                 buckets of at least one man",
                super::MAX_OUTPUT_BUCKETS
            ));
        };
        let buckets = KingBuckets::from_code(bucket_code)
            .ok_or(NetError::UnknownKingBuckets { code: bucket_code })?;
        if !features.is_multiple_of(buckets.count()) {
            return Err(NetError::BucketRows {
                rows: features,
                buckets: buckets.count(),
                layout: buckets,
            });
        }
        let expected = file_len(features, hidden, outputs.count());
        if bytes.len() < expected {
            return Err(NetError::Truncated {
                expected,
                found: bytes.len(),
            });
        }
        if bytes.len() > expected {
            return Err(NetError::TrailingData {
                expected,
                found: bytes.len(),
            });
        }
        let stored = u32::from_le_bytes(bytes[expected - 4..].try_into().expect("4 bytes"));
        let computed = crc32(&bytes[..expected - 4]);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        debug_assert_eq!(r.at, HEADER_LEN);
        let ft_weights = r.i16s(features * hidden);
        let ft_bias = r.i16s(hidden);
        let out_weights = r.i16s(outputs.count() * 2 * hidden);
        if let Some(w) = out_weights.iter().find(|w| w.abs() > MAX_OUT_WEIGHT) {
            return bad(format!("output weight {w} is beyond ±{MAX_OUT_WEIGHT}"));
        }
        let out_bias = (0..outputs.count()).map(|_| r.i32()).collect();
        Ok(Network {
            variant,
            features,
            buckets,
            hidden,
            qa,
            qb,
            scale,
            ft_weights,
            ft_bias,
            outputs,
            out_weights,
            out_bias,
        })
    }

    /// Reads a net as [`Network::from_bytes`] does and refuses it unless it was made for
    /// `variant` with `feature_count` input features.
    pub fn from_bytes_for(
        bytes: &[u8],
        variant: &str,
        feature_count: usize,
    ) -> Result<Network, NetError> {
        let net = Network::from_bytes(bytes)?;
        net.check_for(variant, feature_count)?;
        Ok(net)
    }

    /// Whether this net fits `variant` and a game with `feature_count` features.
    pub fn check_for(&self, variant: &str, feature_count: usize) -> Result<(), NetError> {
        if self.variant != variant {
            return Err(NetError::WrongVariant {
                expected: variant.to_string(),
                found: self.variant.clone(),
            });
        }
        if self.feature_count() != feature_count {
            return Err(NetError::WrongFeatureCount {
                expected: feature_count,
                found: self.feature_count(),
            });
        }
        Ok(())
    }

    /// Whether this net's king buckets fit a game that has them (`has_king_buckets`, the
    /// game's [`crate::nnue::NnueFeatures::has_king_buckets`]) or not: a game without them
    /// takes only nets whose rows do not depend on the king (no buckets, no mirroring).
    pub fn check_king_buckets(&self, has_king_buckets: bool) -> Result<(), NetError> {
        if self.buckets.uses_king() && !has_king_buckets {
            return Err(NetError::NoKingBuckets {
                variant: self.variant.clone(),
                layout: self.buckets,
            });
        }
        Ok(())
    }

    /// Reads a net file.
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Network::from_bytes(&bytes)
    }

    /// Reads a net file and refuses it unless it fits `variant` and `feature_count`.
    pub fn load_for(path: &Path, variant: &str, feature_count: usize) -> Result<Network, NetError> {
        let net = Network::load(path)?;
        net.check_for(variant, feature_count)?;
        Ok(net)
    }

    /// The bytes of the net file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(file_len(self.features, self.hidden, self.outputs.count()));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let mut name = [0u8; NAME_LEN];
        name[..self.variant.len()].copy_from_slice(self.variant.as_bytes());
        out.extend_from_slice(&name);
        out.extend_from_slice(&(self.features as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.qa.to_le_bytes());
        out.extend_from_slice(&self.qb.to_le_bytes());
        out.extend_from_slice(&self.scale.to_le_bytes());
        let [count, men_per_bucket] = self.outputs.header();
        out.extend_from_slice(&[
            ACTIVATION_SCRELU,
            self.buckets.code(),
            count,
            men_per_bucket,
        ]);
        debug_assert_eq!(out.len(), HEADER_LEN);
        for v in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for b in &self.out_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Writes the net file.
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        std::fs::write(path, self.to_bytes()).map_err(|e| NetError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Checks what a net built in memory (by the trainer or a test) must satisfy to be saved
    /// and read back: the same rules [`Network::from_bytes`] applies to a file.
    pub(crate) fn validate(&self) -> Result<(), NetError> {
        if self.variant.is_empty()
            || self.variant.len() > NAME_LEN
            || !self.variant.bytes().all(|b| b.is_ascii_graphic())
        {
            return Err(NetError::BadHeader(format!(
                "variant name '{}' is not 1 to {NAME_LEN} printable ASCII characters",
                self.variant
            )));
        }
        // The rest is checked by reading the bytes back: one set of rules.
        Network::from_bytes(&self.to_bytes()).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_check_value() {
        // The standard check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }
}
