//! Zobrist keys, generated at compile time from a fixed SplitMix64 stream so
//! that hashes (and so `bench` signatures) are the same on every build.
//!
//! The hash covers pieces on squares, the promoted mask, reserve counts,
//! castling rights, the en passant file, the side to move and whether each
//! king is still unmoved (which matters for `dropped_rook_castles`).

use shakmaty::{Color, Role, Square};

/// Largest reserve count of one role that the hash (and the FEN reader) accepts.
pub const MAX_IN_HAND: usize = 32;

const fn splitmix(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

struct Keys {
    pieces: [[[u64; 64]; 6]; 2],
    promoted: [u64; 64],
    hand: [[[u64; MAX_IN_HAND + 1]; 5]; 2],
    castling: [u64; 64],
    en_passant: [u64; 8],
    black_to_move: u64,
    king_unmoved: [u64; 2],
}

const KEYS: Keys = {
    let mut keys = Keys {
        pieces: [[[0; 64]; 6]; 2],
        promoted: [0; 64],
        hand: [[[0; MAX_IN_HAND + 1]; 5]; 2],
        castling: [0; 64],
        en_passant: [0; 8],
        black_to_move: 0,
        king_unmoved: [0; 2],
    };
    let mut state = 0x7A4D_E3B0_2C6F_1985_u64;
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 6 {
            let mut s = 0;
            while s < 64 {
                let (next, key) = splitmix(state);
                state = next;
                keys.pieces[c][r][s] = key;
                s += 1;
            }
            r += 1;
        }
        let mut r = 0;
        while r < 5 {
            let mut n = 1;
            while n <= MAX_IN_HAND {
                let (next, key) = splitmix(state);
                state = next;
                keys.hand[c][r][n] = key;
                n += 1;
            }
            r += 1;
        }
        let (next, key) = splitmix(state);
        state = next;
        keys.king_unmoved[c] = key;
        c += 1;
    }
    let mut s = 0;
    while s < 64 {
        let (next, key) = splitmix(state);
        state = next;
        keys.promoted[s] = key;
        let (next, key) = splitmix(state);
        state = next;
        keys.castling[s] = key;
        s += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (next, key) = splitmix(state);
        state = next;
        keys.en_passant[f] = key;
        f += 1;
    }
    keys.black_to_move = splitmix(state).1;
    keys
};

#[inline]
pub fn piece(color: Color, role: Role, sq: Square) -> u64 {
    KEYS.pieces[color as usize][role as usize - 1][sq as usize]
}

#[inline]
pub fn promoted(sq: Square) -> u64 {
    KEYS.promoted[sq as usize]
}

/// Key toggled when the count of `role` in `color`'s hand moves between `n - 1` and `n`.
#[inline]
pub fn hand(color: Color, role: Role, n: u8) -> u64 {
    KEYS.hand[color as usize][role as usize - 1][(n as usize).min(MAX_IN_HAND)]
}

#[inline]
pub fn castling(rook_square: Square) -> u64 {
    KEYS.castling[rook_square as usize]
}

#[inline]
pub fn en_passant(sq: Square) -> u64 {
    KEYS.en_passant[sq.file() as usize]
}

#[inline]
pub fn black_to_move() -> u64 {
    KEYS.black_to_move
}

#[inline]
pub fn king_unmoved(color: Color) -> u64 {
    KEYS.king_unmoved[color as usize]
}
