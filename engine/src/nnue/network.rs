//! The network: inputs → `HIDDEN` per perspective (shared weights) → one
//! output, with clipped ReLU between. Integers throughout:
//!
//! - the first layer's weights and biases are the float weights × `QA`, so a
//!   hidden value of 1.0 is `QA` and the clip is `0..=QA`;
//! - the output weights are × `QB`, the output bias × `QA × QB`;
//! - the output, side to move's half first, is `sum / (QA × QB)` in units of
//!   `SCALE` centipawns (the trainer fits `sigmoid(output)` to the targets, so
//!   `SCALE` is the centipawn scale of its win expectation).
//!
//! File format (little-endian): the 8-byte magic `TANDNNUE`, a u32 version,
//! u32 inputs, u32 hidden; the first layer's weights input by input (each
//! input's `HIDDEN` weights together, as the accumulator adds them), its
//! biases, the `2 × HIDDEN` output weights, the output bias as i32, and last a
//! u64 FNV-1a hash of everything before it, so a damaged file is refused.

use std::fmt;

use super::features::INPUTS;
use super::simd;

pub const HIDDEN: usize = 256;
pub const QA: i32 = 255;
pub const QB: i32 = 256;
pub const SCALE: i32 = 400;

const MAGIC: &[u8; 8] = b"TANDNNUE";
const VERSION: u32 = 1;

/// The quantised network.
#[derive(Clone)]
pub struct Network {
    /// `INPUTS × HIDDEN`, input-major.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// `2 × HIDDEN`: the side to move's half, then the other side's.
    pub output_weights: Vec<i16>,
    pub output_bias: i32,
}

impl fmt::Debug for Network {
    /// The shape, not the 200,000 weights.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({INPUTS}-{HIDDEN}-1)")
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    TooShort,
    NotANetwork,
    Version(u32),
    Shape { inputs: u32, hidden: u32 },
    Checksum,
    TrailingBytes,
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::TooShort => write!(f, "the file ends early: not a whole network"),
            NetError::NotANetwork => write!(f, "not a tandem network (no TANDNNUE header)"),
            NetError::Version(v) => write!(f, "network format version {v}, this build reads {VERSION}"),
            NetError::Shape { inputs, hidden } => {
                write!(f, "a {inputs}-{hidden} network, this build plays {INPUTS}-{HIDDEN}")
            }
            NetError::Checksum => write!(f, "the checksum does not match: the file is damaged"),
            NetError::TrailingBytes => write!(f, "bytes after the network's end"),
        }
    }
}

impl std::error::Error for NetError {}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Reads little-endian values off the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], NetError> {
        let (head, rest) = self.bytes.split_first_chunk::<N>().ok_or(NetError::TooShort)?;
        self.bytes = rest;
        Ok(*head)
    }

    fn u32(&mut self) -> Result<u32, NetError> {
        Ok(u32::from_le_bytes(self.take()?))
    }

    fn i16s(&mut self, count: usize) -> Result<Vec<i16>, NetError> {
        (0..count).map(|_| Ok(i16::from_le_bytes(self.take()?))).collect()
    }
}

impl Network {
    /// Reads a network file, checking its header, shape and checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let body_len = bytes.len().checked_sub(8).ok_or(NetError::TooShort)?;
        let mut reader = Reader { bytes };
        if &reader.take::<8>()? != MAGIC {
            return Err(NetError::NotANetwork);
        }
        let version = reader.u32()?;
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let (inputs, hidden) = (reader.u32()?, reader.u32()?);
        if inputs as usize != INPUTS || hidden as usize != HIDDEN {
            return Err(NetError::Shape { inputs, hidden });
        }
        let network = Network {
            feature_weights: reader.i16s(INPUTS * HIDDEN)?,
            feature_bias: reader.i16s(HIDDEN)?,
            output_weights: reader.i16s(2 * HIDDEN)?,
            output_bias: i32::from_le_bytes(reader.take()?),
        };
        let checksum = u64::from_le_bytes(reader.take()?);
        if !reader.bytes.is_empty() {
            return Err(NetError::TrailingBytes);
        }
        if checksum != fnv1a(&bytes[..body_len]) {
            return Err(NetError::Checksum);
        }
        Ok(network)
    }

    /// The file form [`Network::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(32 + 2 * (INPUTS + 3) * HIDDEN);
        bytes.extend_from_slice(MAGIC);
        for value in [VERSION, INPUTS as u32, HIDDEN as u32] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        for weights in [&self.feature_weights, &self.feature_bias, &self.output_weights] {
            bytes.extend(weights.iter().flat_map(|w| w.to_le_bytes()));
        }
        bytes.extend_from_slice(&self.output_bias.to_le_bytes());
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// The `HIDDEN` weights of one input.
    #[inline]
    pub fn weights_of(&self, input: usize) -> &[i16] {
        &self.feature_weights[input * HIDDEN..(input + 1) * HIDDEN]
    }

    /// The output in centipawns for the side to move, from the two halves of
    /// the accumulator (`us`: the side to move's perspective).
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let (ours, theirs) = self.output_weights.split_at(HIDDEN);
        let sum = clipped_dot(us, ours) + clipped_dot(them, theirs) + self.output_bias;
        (i64::from(sum) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// `Σ clamp(value, 0, QA) × weight`; the values stay in i32 (at most
/// 255 × 507 a term with the trainer's weight clip, 512 terms).
fn clipped_dot(values: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    simd::dot(values, weights, QA)
}
