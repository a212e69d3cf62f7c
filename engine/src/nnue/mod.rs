//! An efficiently updatable neural network (NNUE) evaluation for the drop
//! families: [`features`] says what the network sees (the board and both
//! hands), [`network`] holds the quantised weights and reads and writes their
//! file, [`accumulator`] keeps the first layer up to date along the search.

pub mod accumulator;
pub mod features;
pub mod network;
mod simd;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use features::{Snapshot, INPUTS};
pub use network::{NetError, Network, HIDDEN, QA, QB, SCALE};

use std::sync::{Arc, OnceLock};

use crate::Rules;

/// The built-in networks (tune/NNUE.md says how each was made). Two-board
/// games have their own: a capture there feeds the partner's hand and pieces
/// arrive from the other board, so the one-board net values hands wrongly
/// (docs/experiments/2026-12-06-bughouse-labels-searched-as-crazyhouse.md).
const EMBEDDED_ONE_BOARD: &[u8] = include_bytes!("../../nets/tandem.nnue");
const EMBEDDED_TWO_BOARD: &[u8] = include_bytes!("../../nets/tandem-two-board.nnue");

fn read_embedded(cell: &'static OnceLock<Arc<Network>>, bytes: &'static [u8]) -> Arc<Network> {
    cell.get_or_init(|| Arc::new(Network::from_bytes(bytes).expect("the embedded networks are whole (a test reads them)"))).clone()
}

/// The built-in network for one-board drop chess (crazyhouse), read once.
pub fn embedded() -> Arc<Network> {
    static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
    read_embedded(&NETWORK, EMBEDDED_ONE_BOARD)
}

/// The built-in network for two-board games (bughouse and its relatives), read once.
pub fn embedded_two_board() -> Arc<Network> {
    static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
    read_embedded(&NETWORK, EMBEDDED_TWO_BOARD)
}

/// Which network evaluates the drop boards of a search.
#[derive(Clone, Debug)]
pub enum Networks {
    /// The built-in network of the position's family.
    BuiltIn,
    /// One network (a file the user chose) for every family.
    Only(Arc<Network>),
}

impl Networks {
    pub fn for_rules(&self, rules: Rules) -> Arc<Network> {
        match self {
            Networks::BuiltIn if rules.is_two_board() => embedded_two_board(),
            Networks::BuiltIn => embedded(),
            Networks::Only(network) => network.clone(),
        }
    }
}

/// A network with small random weights (a fixed xorshift sequence), for tests.
#[cfg(test)]
pub(crate) fn random_network(seed: u64) -> Network {
    let mut state = seed | 1;
    let mut next = |range: i16| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % (2 * range as u64 + 1)) as i16 - range
    };
    Network {
        feature_weights: (0..INPUTS * HIDDEN).map(|_| next(60)).collect(),
        feature_bias: (0..HIDDEN).map(|_| next(200)).collect(),
        output_weights: (0..2 * HIDDEN).map(|_| next(100)).collect(),
        output_bias: i32::from(next(1000)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardId, Color, Game, Position, Rules};

    /// Random games of `rules` (both boards of a two-board game, moves picked
    /// by a xorshift), the position after every move passed to `visit`.
    fn random_games(rules: &str, games: usize, mut visit: impl FnMut(&Position, usize)) {
        let rules: Rules = rules.parse().unwrap();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..games {
            let mut game = Game::new(rules);
            for ply in 0..160 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let board = if rules.is_two_board() && state & 1 == 1 { BoardId::B } else { BoardId::A };
                let moves = game.legal_moves(board);
                if moves.is_empty() || game.is_ended(board) {
                    break;
                }
                let m = moves[(state >> 8) as usize % moves.len()];
                game.play(board, m).unwrap();
                visit(game.board(board), ply);
            }
        }
    }

    #[test]
    fn incremental_updates_equal_a_refresh_in_every_family() {
        let net = random_network(7);
        for rules in ["crazyhouse", "bughouse", "tandem", "tandemschach", "french", "bughouse,promotion=steal", "chess"] {
            let mut stack = AccumulatorStack::new(200);
            let mut positions = 0;
            random_games(rules, 30, |pos, ply| {
                let snapshot = Snapshot::of(pos);
                let expected = Accumulator::refresh(&net, &snapshot).evaluate(&net, pos.turn());
                // The ply of the game, and now and then an unrelated ply, as a search backtracks.
                let at = if ply % 7 == 3 { (ply * 13) % 50 } else { ply };
                assert_eq!(stack.evaluate(&net, at, &snapshot, pos.turn()), expected, "{rules}: {}", crate::to_fen(pos));
                positions += 1;
            });
            assert!(positions > 500, "{rules}: only {positions} positions");
        }
    }

    #[test]
    fn both_perspectives_see_the_same_position_mirrored() {
        let net = random_network(3);
        let white: Position = crate::parse_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Pn] w KQkq - 4 4", "crazyhouse".parse().unwrap()).unwrap();
        let black: Position = crate::parse_fen("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R[Np] b KQkq - 4 4", "crazyhouse".parse().unwrap()).unwrap();
        let eval = |pos: &Position| Accumulator::refresh(&net, &Snapshot::of(pos)).evaluate(&net, pos.turn());
        assert_eq!(eval(&white), eval(&black));
        assert_eq!(Accumulator::refresh(&net, &Snapshot::of(&white)).values(Color::White), Accumulator::refresh(&net, &Snapshot::of(&black)).values(Color::Black));
    }

    #[test]
    fn the_search_uses_a_network_on_drop_boards_only() {
        use crate::search::{Control, Engine, Limits};
        use std::sync::Arc;
        let nodes = |fen: &str, rules: &str, network: Option<Arc<Network>>| {
            let network = network.map(Networks::Only);
            let engine = Engine::new();
            engine.set_network(network);
            let pos = crate::parse_fen(fen, rules.parse().unwrap()).unwrap();
            let limits = Limits { depth: Some(6), multipv: 1, ..Limits::default() };
            engine.search(&pos, &[], &limits, &Control::new(), &mut |_| {}).nodes
        };
        let net = Arc::new(random_network(5));
        let chess = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(nodes(chess, "chess", Some(net.clone())), nodes(chess, "chess", None));
        let zh = "r1b2rk1/pppp1ppp/2n5/2b1p3/2B1P1n1/2NP4/PPP2PPP/R1BQ1RK1[QNp] b - - 0 9";
        let with_net = nodes(zh, "crazyhouse", Some(net.clone()));
        assert_ne!(with_net, nodes(zh, "crazyhouse", None));
        assert_eq!(with_net, nodes(zh, "crazyhouse", Some(net)), "a fixed-depth search is deterministic");
    }

    #[test]
    fn the_embedded_networks_read() {
        assert_eq!(embedded().to_bytes(), EMBEDDED_ONE_BOARD);
        assert_eq!(embedded_two_board().to_bytes(), EMBEDDED_TWO_BOARD);
    }

    #[test]
    fn the_built_in_choice_follows_the_number_of_boards() {
        let net = |rules: &str| Networks::BuiltIn.for_rules(rules.parse().unwrap());
        assert!(Arc::ptr_eq(&net("crazyhouse"), &embedded()));
        for two_board in ["bughouse", "bughouse,mate=standard", "tandem", "tandemschach", "french"] {
            assert!(Arc::ptr_eq(&net(two_board), &embedded_two_board()), "{two_board}");
        }
        let file = Arc::new(random_network(2));
        assert!(Arc::ptr_eq(&Networks::Only(file.clone()).for_rules("bughouse".parse().unwrap()), &file));
    }

    #[test]
    fn a_network_file_reads_back_and_damage_is_refused() {
        let net = random_network(11);
        let bytes = net.to_bytes();
        let read = Network::from_bytes(&bytes).unwrap();
        assert_eq!(read.to_bytes(), bytes);
        assert_eq!(Network::from_bytes(&bytes[..100]).err(), Some(NetError::TooShort));
        assert_eq!(Network::from_bytes(b"hello world, this is not a network").err(), Some(NetError::NotANetwork));
        let mut flipped = bytes.clone();
        flipped[5000] ^= 1;
        assert_eq!(Network::from_bytes(&flipped).err(), Some(NetError::Checksum));
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(Network::from_bytes(&longer).err(), Some(NetError::TrailingBytes));
        let mut other_shape = bytes;
        other_shape[16..20].copy_from_slice(&128u32.to_le_bytes());
        assert!(matches!(Network::from_bytes(&other_shape), Err(NetError::Shape { hidden: 128, .. })));
        assert!(Network::from_bytes(&[]).is_err());
    }
}
