//! Training positions on disk: one record per position, about 40 bytes.
//!
//! A record: the occupied squares (u64), one nibble per occupied square in
//! square order (`colour << 3 | role`, white = 1, pawn = 1 … king = 6; two a
//! byte, low nibble first), the hands (5 counts each, black then white, in
//! `HAND_ROLES` order), a byte whose bit 0 is the side to move (1: white), the
//! search score (i16, centipawns for the side to move) and the game result
//! for the side to move (i8: 1 win, 0 draw, -1 loss). All little-endian.
//! Files are appended to and read whole; a cut-off last record is ignored, so
//! an interrupted generator loses at most one position.

use std::io::{self, Write};

use tandem_engine::nnue::Snapshot;
use tandem_engine::HAND_ROLES;
use tandem_engine::{Bitboard, Color, Position, Reserve, Role, Square};

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub snapshot: Snapshot,
    pub turn: Color,
    /// The search's score for the side to move, in centipawns.
    pub score: i16,
    /// The game's result for the side to move: 1, 0 or -1.
    pub result: i8,
}

impl Record {
    pub fn new(pos: &Position, score: i16, result: i8) -> Record {
        Record { snapshot: Snapshot::of(pos), turn: pos.turn(), score, result }
    }

    /// The position mirrored left to right (files a and h swapped), with the
    /// same labels. Chess is left-right symmetric but for castling, which
    /// the network does not see; so a mirrored position is one more sample
    /// of nearly the same worth.
    pub fn mirrored(&self) -> Record {
        let mut mirrored = *self;
        for bitboard in mirrored.snapshot.pieces.iter_mut().flatten() {
            *bitboard = bitboard.flip_horizontal();
        }
        mirrored
    }

    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let mut occupied = Bitboard::EMPTY;
        for color in &self.snapshot.pieces {
            for &bb in color {
                occupied |= bb;
            }
        }
        let mut bytes = Vec::with_capacity(48);
        bytes.extend_from_slice(&u64::from(occupied).to_le_bytes());
        let nibbles: Vec<u8> = occupied.into_iter().map(|sq| self.nibble(sq)).collect();
        bytes.extend(nibbles.chunks(2).map(|pair| pair[0] | pair.get(1).map_or(0, |high| high << 4)));
        for color in [Color::Black, Color::White] {
            bytes.extend(HAND_ROLES.iter().map(|&role| self.snapshot.hands[color as usize].count(role)));
        }
        bytes.push(u8::from(self.turn == Color::White));
        bytes.extend_from_slice(&self.score.to_le_bytes());
        bytes.push(self.result as u8);
        out.write_all(&bytes)
    }

    fn nibble(&self, square: Square) -> u8 {
        for color in Color::ALL {
            for role in Role::ALL {
                if self.snapshot.pieces[color as usize][role as usize - 1].contains(square) {
                    return (u8::from(color == Color::White) << 3) | role as u8;
                }
            }
        }
        unreachable!("only occupied squares are written")
    }
}

/// Every whole record in `bytes`; an error names the first malformed one.
pub fn read_records(bytes: &[u8]) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    let mut rest = bytes;
    loop {
        let at = bytes.len() - rest.len();
        match parse_record(rest) {
            Ok(Some((record, used))) => {
                records.push(record);
                rest = &rest[used..];
            }
            Ok(None) => return Ok(records), // the end, or the cut-off tail of an interrupted run
            Err(what) => return Err(format!("record {} (byte {at}): {what}", records.len() + 1)),
        }
    }
}

/// The record at the start of `bytes` and its length; `None` when `bytes`
/// ends before the record does.
fn parse_record(bytes: &[u8]) -> Result<Option<(Record, usize)>, &'static str> {
    let Some(head) = bytes.first_chunk::<8>() else { return Ok(None) };
    let occupied = Bitboard(u64::from_le_bytes(*head));
    let pieces_len = occupied.count().div_ceil(2);
    let Some(tail) = bytes.get(8 + pieces_len..8 + pieces_len + 14) else { return Ok(None) };
    let mut snapshot = Snapshot::EMPTY;
    for (index, square) in occupied.into_iter().enumerate() {
        let byte = bytes[8 + index / 2];
        let nibble = if index % 2 == 0 { byte & 15 } else { byte >> 4 };
        let role = Role::try_from(nibble & 7).map_err(|_| "a piece of no role")?;
        let color = Color::from_white(nibble & 8 != 0);
        snapshot.pieces[color as usize][role as usize - 1].add(square);
    }
    for (side, color) in [Color::Black, Color::White].into_iter().enumerate() {
        let mut hand = Reserve::EMPTY;
        for (i, &role) in HAND_ROLES.iter().enumerate() {
            for _ in 0..tail[side * 5 + i] {
                hand.add(role);
            }
        }
        snapshot.hands[color as usize] = hand;
    }
    let turn = match tail[10] {
        0 => Color::Black,
        1 => Color::White,
        _ => return Err("the side to move is neither colour"),
    };
    let score = i16::from_le_bytes([tail[11], tail[12]]);
    let result = tail[13] as i8;
    if !(-1..=1).contains(&result) {
        return Err("a result other than 1, 0 or -1");
    }
    Ok(Some((Record { snapshot, turn, score, result }, 8 + pieces_len + 14)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_engine::parse_fen;

    #[test]
    fn records_read_back_and_a_cut_off_tail_is_dropped() {
        let rules = "bughouse".parse().unwrap();
        let fens = [
            "r1b1k2r/ppp2ppp/2n5/3pq3/1b1P4/2N2N2/PPP2PPP/R1BQKB1R[NNBpp] w KQkq - 0 8",
            "2kr3r/ppp2ppp/2n5/3q4/3P4/2P2N2/P4PPP/R1BQ1RK1[BNPPPPPPPPPPbpp] b - - 0 14",
            "8/8/8/8/8/8/8/K6k[] w - - 0 1",
        ];
        let records: Vec<Record> = fens
            .iter()
            .enumerate()
            .map(|(i, fen)| Record::new(&parse_fen(fen, rules).unwrap(), 37 * i as i16 - 50, i as i8 - 1))
            .collect();
        let mut bytes = Vec::new();
        for record in &records {
            record.write(&mut bytes).unwrap();
        }
        assert_eq!(read_records(&bytes).unwrap(), records);
        assert_eq!(read_records(&bytes[..bytes.len() - 3]).unwrap(), records[..2]);
        let mut bad = bytes.clone();
        let first_len = 8 + parse_record(&bytes).unwrap().unwrap().0.snapshot.pieces.iter().flatten().map(|b| b.count()).sum::<usize>().div_ceil(2) + 14;
        bad[first_len - 4] = 7; // the first record's side to move
        assert!(read_records(&bad).unwrap_err().starts_with("record 1"));
    }

    #[test]
    fn a_mirrored_record_swaps_the_files_and_keeps_hands_and_labels() {
        let rules = "crazyhouse".parse().unwrap();
        let played = Record::new(&parse_fen("r3k2r/1pp5/8/8/8/8/PP6/R3K2R[Nqp] b KQkq - 0 20", rules).unwrap(), 120, 1);
        let expected = Record::new(&parse_fen("r2k3r/5pp1/8/8/8/8/6PP/R2K3R[Nqp] b - - 0 20", rules).unwrap(), 120, 1);
        assert_eq!(played.mirrored(), expected);
        assert_eq!(played.mirrored().mirrored(), played);
    }
}
