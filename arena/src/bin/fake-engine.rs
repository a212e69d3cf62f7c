//! A small engine for the arena's tests: it plays random legal moves (using
//! tandem-engine) over UCI or CECP, and misbehaves on request so the runner's
//! fault handling can be tested without real engines.
//!
//! `--mode crash|hang|illegal|garbage|resign` misbehaves at the first move
//! request after `--after N` moves; `--delay-ms` slows every move down;
//! `--extension` speaks tandem's UCI bughouse extension; `--tell TEXT` sends a
//! partner message with every move; `--record FILE` appends every line it
//! receives to FILE, so tests can check what the runner sent.

use std::io::{BufRead, Write};
use std::time::Duration;

use clap::{Parser, ValueEnum};
use tandem_engine::{parse_fen, Color, Position, Reserve, Role, Rules, STARTPOS};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Random legal moves.
    Random,
    /// Exits with code 3 instead of moving.
    Crash,
    /// Stops answering (and ignores `quit`).
    Hang,
    /// Plays a well-formed but illegal move.
    Illegal,
    /// Prints junk, then a move that is not a move.
    Garbage,
    /// Answers `bestmove (none)` / `resign`.
    Resign,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Proto {
    Uci,
    Xboard,
}

#[derive(Parser, Debug)]
#[command(name = "fake-engine", about = "A misbehaving test engine for tandem match")]
struct Args {
    #[arg(long, value_enum, default_value = "random")]
    mode: Mode,
    #[arg(long, value_enum, default_value = "uci")]
    proto: Proto,
    /// Moves played normally before misbehaving.
    #[arg(long, default_value_t = 0)]
    after: u32,
    /// Think time per move.
    #[arg(long, default_value_t = 0)]
    delay_ms: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Answer `bughouse` with `bughouseok` (tandem's UCI extension).
    #[arg(long)]
    extension: bool,
    /// A partner message sent with every move.
    #[arg(long)]
    tell: Option<String>,
    /// Append every received line to this file.
    #[arg(long)]
    record: Option<std::path::PathBuf>,
}

struct Fake {
    args: Args,
    rng: fastrand::Rng,
    rules: Rules,
    position: Position,
    moves_played: u32,
    /// CECP: the engine only watches (`force`).
    force: bool,
    hung: bool,
    out: std::io::Stdout,
    record: Option<std::fs::File>,
}

fn main() {
    let args = Args::parse();
    let record =
        args.record.as_ref().and_then(|path| std::fs::OpenOptions::new().create(true).append(true).open(path).ok());
    let rules = Rules::chess();
    let mut fake = Fake {
        rng: fastrand::Rng::with_seed(args.seed),
        args,
        rules,
        position: Position::startpos(rules),
        moves_played: 0,
        force: true,
        hung: false,
        out: std::io::stdout(),
        record,
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if let Some(file) = fake.record.as_mut() {
            let _ = writeln!(file, "{line}");
        }
        if fake.hung {
            continue;
        }
        let keep_going = match fake.args.proto {
            Proto::Uci => fake.uci(line.trim()),
            Proto::Xboard => fake.xboard(line.trim()),
        };
        if !keep_going {
            break;
        }
    }
}

impl Fake {
    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    fn uci(&mut self, line: &str) -> bool {
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        match command {
            "uci" => {
                self.say("id name fake-engine");
                self.say("option name UCI_Variant type combo default chess var chess var crazyhouse var bughouse var tandem var tandemschach var french");
                self.say("option name Rules type string default");
                self.say("uciok");
            }
            "isready" => self.say("readyok"),
            "bughouse" if self.args.extension => {
                self.say("feature seat partner reserve clocks ptell bfen");
                self.say("bughouseok");
            }
            "setoption" => self.set_option(rest),
            "position" => self.set_position(rest),
            "reserve" if self.args.extension => self.set_reserves(rest, false),
            "go" => return self.move_now(),
            "quit" => return false,
            _ => {}
        }
        true
    }

    fn xboard(&mut self, line: &str) -> bool {
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        match command {
            "protover" => self.say("feature myname=\"fake-engine\" usermove=1 setboard=1 ping=1 variants=\"normal,bughouse,crazyhouse\" done=1"),
            "new" => {
                self.rules = Rules::chess();
                self.position = Position::startpos(self.rules);
                self.force = false;
            }
            "variant" => {
                self.rules = match rest.trim() {
                    "bughouse" => Rules::bughouse(),
                    "crazyhouse" => Rules::crazyhouse(),
                    _ => Rules::chess(),
                };
                self.position = Position::startpos(self.rules);
            }
            "force" => self.force = true,
            "setboard" => match parse_fen(rest, self.rules) {
                Ok(position) => self.position = position,
                Err(e) => self.say(&format!("Error (bad FEN): {e}")),
            },
            "holding" => self.set_reserves(rest, true),
            "ping" => self.say(&format!("pong {rest}")),
            "go" => {
                self.force = false;
                return self.move_now();
            }
            "usermove" => return self.opponent_moved(rest.trim()),
            "quit" => return false,
            "xboard" | "accepted" | "rejected" | "time" | "otim" | "level" | "easy" | "hard" | "post" | "nopost"
            | "partner" | "ptell" | "result" | "option" | "random" | "computer" => {}
            other if other.len() >= 4 && other.chars().nth(1).is_some_and(|c| c.is_ascii_digit() || c == '@') => {
                return self.opponent_moved(other);
            }
            _ => {}
        }
        true
    }

    fn opponent_moved(&mut self, text: &str) -> bool {
        match self.position.parse_move(text) {
            Ok(m) => {
                self.position.play(m);
                if self.force {
                    true
                } else {
                    self.move_now()
                }
            }
            Err(_) => {
                self.say(&format!("Illegal move: {text}"));
                true
            }
        }
    }

    fn set_option(&mut self, rest: &str) {
        let Some((name, value)) = rest.strip_prefix("name ").and_then(|r| r.split_once(" value ")) else { return };
        match name.trim() {
            "UCI_Variant" => {
                if let Ok(rules) = value.trim().parse() {
                    self.rules = rules;
                }
            }
            "Rules" => {
                if let Ok(rules) = format!("{},{}", self.rules.preset.name(), value.trim()).parse() {
                    self.rules = rules;
                }
            }
            _ => {}
        }
        self.position = Position::startpos(self.rules);
    }

    fn set_position(&mut self, rest: &str) {
        let (setup, moves) = match rest.split_once(" moves ") {
            Some((setup, moves)) => (setup, moves.split_whitespace().collect()),
            None => (rest, Vec::new()),
        };
        let fen = setup.strip_prefix("fen ").unwrap_or(if setup.starts_with("startpos") { STARTPOS } else { setup });
        let Ok(mut position) = parse_fen(fen.trim(), self.rules) else {
            self.say("info string error: bad FEN");
            return;
        };
        for text in moves {
            match position.parse_move(text) {
                Ok(m) => {
                    position.play(m);
                }
                Err(_) => {
                    self.say(&format!("info string error: illegal move {text}"));
                    return;
                }
            }
        }
        self.position = position;
    }

    /// `reserve QNpp` (UCI extension) or `holding [QN] [PP]` (CECP).
    fn set_reserves(&mut self, text: &str, cecp: bool) {
        let mut reserves = [Reserve::EMPTY; 2];
        if cecp {
            let parts: Vec<&str> = text.split(']').collect();
            for (slot, part) in parts.iter().take(2).enumerate() {
                for ch in part.trim().trim_start_matches('[').chars() {
                    if let Some(role) = Role::from_char(ch) {
                        reserves[slot].add(role);
                    }
                }
            }
        } else {
            for ch in text.trim().chars().filter(|&c| c != '-') {
                if let Some(role) = Role::from_char(ch) {
                    reserves[usize::from(ch.is_ascii_lowercase())].add(role);
                }
            }
        }
        self.position.set_reserve(Color::White, reserves[0]);
        self.position.set_reserve(Color::Black, reserves[1]);
    }

    /// Answers a move request, or misbehaves. False ends the engine.
    fn move_now(&mut self) -> bool {
        std::thread::sleep(Duration::from_millis(self.args.delay_ms));
        let misbehave = self.moves_played >= self.args.after;
        match self.args.mode {
            Mode::Crash if misbehave => std::process::exit(3),
            Mode::Hang if misbehave => {
                self.hung = true;
                return true;
            }
            Mode::Illegal if misbehave => {
                let king = self.position.king(self.position.turn());
                let text = format!("Q@{king}");
                self.play_out(&text);
                return true;
            }
            Mode::Garbage if misbehave => {
                self.say("\u{1}\u{7f}}}{{ garbage ]] garbage");
                self.say(&"#".repeat(100_000));
                self.play_out("@@@!!");
                return true;
            }
            Mode::Resign if misbehave => {
                let line = if self.args.proto == Proto::Uci { "bestmove (none)" } else { "resign" };
                self.say(line);
                return true;
            }
            _ => {}
        }
        let moves = self.position.legal_moves();
        if moves.is_empty() {
            let line = if self.args.proto == Proto::Uci { "bestmove (none)" } else { "resign" };
            self.say(line);
            return true;
        }
        let m = moves[self.rng.usize(..moves.len())];
        self.position.play(m);
        self.moves_played += 1;
        if let Some(text) = self.args.tell.clone() {
            let prefix = if self.args.proto == Proto::Uci { "ptell" } else { "tellics ptell" };
            self.say(&format!("{prefix} {text}"));
        }
        self.play_out(&m.to_string());
        true
    }

    fn play_out(&mut self, text: &str) {
        let line = match self.args.proto {
            Proto::Uci => format!("bestmove {text}"),
            Proto::Xboard => format!("move {text}"),
        };
        self.say(&line);
    }
}
