//! Differential tests against a live fairy-stockfish (`/usr/games/fairy-stockfish`,
//! or `$TANDEM_FSF`): random positions reached by random play, with pieces
//! arriving in the reserves as they would from a partner, must give the same
//! legal move set as the peer.
//!
//! Without the peer these tests say so and pass, unless `TANDEM_REQUIRE_PEERS`
//! is set (as `.ci/run` does after installing it).

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use tandem_engine::{to_fen, Color, Position, Role, Rules};
use tandem_tests::Rng;

struct Fsf {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Fsf {
    fn start(variant: &str, ini: Option<&std::path::Path>) -> Option<Fsf> {
        let path = std::env::var("TANDEM_FSF").unwrap_or_else(|_| "/usr/games/fairy-stockfish".into());
        let Ok(mut child) = Command::new(&path).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn() else {
            assert!(std::env::var_os("TANDEM_REQUIRE_PEERS").is_none(), "fairy-stockfish not found at {path}");
            eprintln!("skipped: fairy-stockfish not found at {path}");
            return None;
        };
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut fsf = Fsf { child, stdin, stdout };
        fsf.send("uci");
        if let Some(ini) = ini {
            fsf.send(&format!("setoption name VariantPath value {}", ini.display()));
        }
        fsf.send(&format!("setoption name UCI_Variant value {variant}"));
        Some(fsf)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn legal_moves(&mut self, fen: &str) -> BTreeSet<String> {
        self.send(&format!("position fen {fen}"));
        self.send("go perft 1");
        let mut moves = BTreeSet::new();
        let mut line = String::new();
        loop {
            line.clear();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "fairy-stockfish closed its output");
            if line.starts_with("Nodes searched") {
                return moves;
            }
            if let Some((m, count)) = line.trim().split_once(": ") {
                if count == "1" {
                    moves.insert(m.to_string());
                }
            }
        }
    }
}

impl Drop for Fsf {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

fn compare(rules: Rules, variant: &str, ini: Option<&std::path::Path>, games: usize, seed: u64) {
    let Some(mut fsf) = Fsf::start(variant, ini) else { return };
    let mut rng = Rng::new(seed);
    let roles = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    let mut compared = 0;
    for _ in 0..games {
        let mut pos = Position::startpos(rules);
        for _ in 0..80 {
            // Material arriving from the partner board.
            if rules.is_two_board() && rng.below(3) == 0 {
                let color = if rng.below(2) == 0 { Color::White } else { Color::Black };
                pos.add_to_reserve(color, roles[rng.below(5)]);
            }
            let fen = to_fen(&pos);
            let ours: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            assert_eq!(ours, fsf.legal_moves(&fen), "{variant}: legal moves differ in {fen}");
            compared += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.below(moves.len())]);
        }
    }
    eprintln!("{variant}: {compared} positions agree with fairy-stockfish");
}

#[test]
fn crazyhouse_matches_fairy_stockfish() {
    compare(Rules::crazyhouse(), "crazyhouse", None, 40, 11);
}

#[test]
fn bughouse_matches_fairy_stockfish() {
    compare(Rules::bughouse(), "bughouse", None, 40, 12);
}

#[test]
fn no_check_drops_match_fairy_stockfish() {
    let ini = std::env::temp_dir().join(format!("tandem-nocheck-{}.ini", std::process::id()));
    std::fs::write(&ini, "[nocheckdrops:bughouse]\ndropChecks = false\n").unwrap();
    compare("bughouse,drop_checks=no-check".parse().unwrap(), "nocheckdrops", Some(&ini), 40, 13);
    let _ = std::fs::remove_file(&ini);
}
