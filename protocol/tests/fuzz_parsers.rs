//! Property tests ("fuzzing" in-process) of the command parsers, the FEN parser
//! and the front ends' state handling: no input may panic, and an input that
//! is refused must leave the state as it was.
//!
//! The default run is quick. The full run (at least a million inputs per
//! property; `TANDEM_FUZZ_CASES` overrides the count) is ignored by default:
//!
//!     cargo test --release -p tandem-protocol --test fuzz_parsers -- --ignored --nocapture

use std::io::Write;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use tandem_engine::search::Engine;
use tandem_engine::{parse_bfen, parse_fen, Rules};
use tandem_protocol::bughouse::PartnerMessage;
use tandem_protocol::front_end::FrontEnd;
use tandem_protocol::search_thread::Searcher;
use tandem_protocol::uci::UciFrontEnd;
use tandem_protocol::uci_command::{parse_uci_line, UciCommand};
use tandem_protocol::xboard::XboardFrontEnd;
use tandem_protocol::xboard_command::{parse_xboard_line, XboardCommand};
use tandem_protocol::Output;

const QUICK_CASES: u32 = 300;
const FULL_CASES: u32 = 1_000_000;

fn full_cases() -> u32 {
    std::env::var("TANDEM_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(FULL_CASES)
}

fn run<S: Strategy>(name: &str, cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let start = std::time::Instant::now();
    let mut runner = TestRunner::new(config);
    if let Err(error) = runner.run(&strategy, test) {
        panic!("{name}: {error}");
    }
    eprintln!("{name}: {cases} inputs, 0 failures, {:.1} s", start.elapsed().as_secs_f64());
}

// ---- input generators ------------------------------------------------------

const WORDS: &[&str] = &[
    "uci", "debug", "on", "off", "isready", "setoption", "name", "value", "Hash", "Threads", "MultiPV",
    "Ponder", "Move", "Overhead", "UCI_Variant", "Rules", "Clear", "register", "ucinewgame", "position",
    "startpos", "fen", "bfen", "moves", "go", "wtime", "btime", "winc", "binc", "movestogo", "depth",
    "nodes", "mate", "movetime", "infinite", "searchmoves", "ponder", "stop", "ponderhit", "d",
    "bughouse", "seat", "partner", "reserve", "ptell", "A", "B", "white", "black", "sit", "fast", "slow",
    "dead", "x", "need", "dontgive", "trades", "good", "bad", "time", "otim", "move", "none", "board",
    "pwtime", "pbtime", "pwinc", "pbinc", "xboard", "protover", "new", "variant", "force", "usermove",
    "level", "st", "sd", "setboard", "ping", "result", "?", "holding", "post", "nopost", "undo",
    "remove", "memory", "cores", "playother", "analyze", "exit", ".", "white", "crazyhouse", "normal", "chess", "tandem",
    "tandemschach", "french", "e2e4", "e7e5", "g1f3", "N@e4", "n@e5", "P@a1", "e7e8q", "e1g1", "a7a8",
    "e7e8@d4", "e7e8@", "0000", "(none)", "|", "\"", "[Q]", "[p]", "[]", "[-]", "WQ", "bn", "-", "w", "b",
    "KQkq", "0", "1", "-1", "2", "255", "256", "65536", "65537", "99999999999999999999", "1.5", "nan",
    "inf", "2:30", "5:99", "<empty>", "drop_checks=no-check", "pawn_drops=ranks-2-6", "promotion=steal",
    "mate=maybe", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nq]",
    "4k3/8/8/8/8/8/8/4K3[QRBNPqrbnp]", "8/8/8/8/8/8/8/8", "~", "k7/8/1K6/8/8/8/8/8[Q]",
];

/// Lines made of protocol words, numbers and junk: they reach deep into the parsers.
fn token_line() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        8 => proptest::sample::select(WORDS).prop_map(str::to_string),
        1 => any::<i64>().prop_map(|n| n.to_string()),
        1 => "[a-hA-Z1-8@~/\\[\\]-]{1,12}",
        1 => "\\PC{0,8}",
    ];
    proptest::collection::vec(token, 0..14).prop_map(|tokens| tokens.join(" "))
}

/// Arbitrary bytes as the reader delivers them (invalid UTF-8 replaced).
fn byte_line() -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<u8>(), 0..200)
        .prop_map(|bytes| String::from_utf8_lossy(&bytes).trim_end_matches('\r').replace('\n', " "))
}

fn any_line() -> impl Strategy<Value = String> {
    prop_oneof![6 => token_line(), 2 => byte_line(), 1 => any::<String>()]
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R/Pn b KQkq - 2 5",
    "4k3/8/8/8/8/8/8/Q~3K3[QRBNPqrbnp] w - - 0 1",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR[-] w KQkq d6 0 3",
    "k7/8/1K6/8/8/8/8/8/ w - - 12 40",
];

/// Valid FENs with random edits: most are broken in one field, some still valid.
fn mutated_fen() -> impl Strategy<Value = String> {
    let edit = (any::<u8>(), any::<usize>(), proptest::sample::select(b"/[]~-0123456789kqrbnpKQRBNPwWx ".as_slice()));
    (proptest::sample::select(FENS), proptest::collection::vec(edit, 0..5)).prop_map(|(fen, edits)| {
        let mut bytes = fen.as_bytes().to_vec();
        for (kind, at, ch) in edits {
            let at = at % (bytes.len() + 1);
            match kind % 4 {
                0 if at < bytes.len() => bytes[at] = ch,
                1 => bytes.insert(at, ch),
                2 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.truncate(at),
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

const RULES: [Rules; 4] = [Rules::chess(), Rules::crazyhouse(), Rules::bughouse(), Rules::tandem()];

// ---- properties --------------------------------------------------------------

fn parsers_never_panic(line: String) -> Result<(), TestCaseError> {
    let _ = parse_uci_line(&line, false);
    let _ = parse_uci_line(&line, true);
    let _ = parse_xboard_line(&line);
    let _ = PartnerMessage::parse(&line);
    let _ = parse_bfen(&line, Rules::bughouse());
    fen_round_trips(line)
}

/// A FEN that parses writes out to a FEN that parses to the same position.
/// (Under rules without drops a reserve is read but not written, so there
/// only the written FEN must be stable.)
fn fen_round_trips(fen: String) -> Result<(), TestCaseError> {
    for rules in RULES {
        if let Ok(position) = parse_fen(&fen, rules) {
            let written = position.to_string();
            let again = parse_fen(&written, rules).map_err(|e| TestCaseError::fail(format!("{written}: {e}")))?;
            if rules.has_drops() {
                prop_assert_eq!(&again, &position, "{} -> {}", fen, written);
            }
            prop_assert_eq!(again.to_string(), written);
        }
    }
    Ok(())
}

/// Collects what a front end writes.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::ErrorKind::Other)?.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    fn take(&self) -> String {
        let mut bytes = self.0.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&std::mem::take(&mut *bytes)).into_owned()
    }
}

fn engine() -> Arc<Engine> {
    static ENGINE: OnceLock<Arc<Engine>> = OnceLock::new();
    ENGINE.get_or_init(|| Arc::new(Engine::new())).clone()
}

/// Feeds lines to a front end; around every refused line, `d` must show the same state.
fn state_survives_refused_lines(
    front_end: &mut dyn FrontEnd,
    capture: &Capture,
    lines: &[String],
    is_refusal: fn(&str) -> bool,
) -> Result<(), TestCaseError> {
    for line in lines {
        front_end.handle_line("d");
        let before = capture.take();
        front_end.handle_line(line);
        let reply = capture.take();
        front_end.handle_line("d");
        let after = capture.take();
        if reply.lines().any(is_refusal) {
            prop_assert_eq!(&before, &after, "refused '{}' ({}) changed the state", line, reply);
        }
    }
    Ok(())
}

/// UCI lines that would start or end a search are left out: searches are
/// covered by the transcript tests, and this property is about state.
fn uci_session(lines: Vec<String>) -> Result<(), TestCaseError> {
    let keep = |l: &String| {
        !matches!(
            parse_uci_line(l, true).ok().and_then(|p| p.command),
            Some(UciCommand::Go(_) | UciCommand::Quit | UciCommand::Display)
        )
    };
    let lines: Vec<String> = lines.into_iter().filter(keep).collect();
    let capture = Capture::default();
    let (sender, _events) = mpsc::channel();
    let searcher = Searcher::new(engine(), sender);
    let mut front_end = UciFrontEnd::new(Output::new(Box::new(capture.clone())), searcher);
    state_survives_refused_lines(&mut front_end, &capture, &lines, |l| l.starts_with("info string error:"))
}

fn xboard_session(lines: Vec<String>) -> Result<(), TestCaseError> {
    let keep = |l: &String| {
        !matches!(
            parse_xboard_line(l).ok().flatten(),
            Some(
                XboardCommand::Go
                    | XboardCommand::New
                    | XboardCommand::PlayOther
                    | XboardCommand::EnginePlays(_)
                    | XboardCommand::Analyze
                    | XboardCommand::Quit
                    | XboardCommand::Display
            )
        )
    };
    let lines: Vec<String> = lines.into_iter().filter(keep).collect();
    let capture = Capture::default();
    let (sender, _events) = mpsc::channel();
    let searcher = Searcher::new(engine(), sender);
    let mut front_end = XboardFrontEnd::new(Output::new(Box::new(capture.clone())), searcher);
    front_end.handle_line("force");
    state_survives_refused_lines(&mut front_end, &capture, &lines, |l| {
        l.starts_with("Error") || l.starts_with("Illegal move")
    })
}

fn sessions() -> impl Strategy<Value = Vec<String>> {
    let line = prop_oneof![3 => token_line(), 1 => mutated_fen().prop_map(|f| format!("position fen {f}")), 1 => byte_line()];
    proptest::collection::vec(line, 1..12).prop_map(|mut lines| {
        lines.insert(0, "bughouse".to_string());
        lines
    })
}

fn xboard_sessions() -> impl Strategy<Value = Vec<String>> {
    let line = prop_oneof![3 => token_line(), 1 => mutated_fen().prop_map(|f| format!("setboard {f}")), 1 => byte_line()];
    proptest::collection::vec(line, 1..12)
}

// ---- quick runs (default) ------------------------------------------------------

#[test]
fn quick_command_parsers_never_panic() {
    run("command lines", QUICK_CASES, any_line(), parsers_never_panic);
}

#[test]
fn quick_fen_parser_never_panics_and_round_trips() {
    run("mutated FENs", QUICK_CASES, mutated_fen(), fen_round_trips);
}

#[test]
fn quick_refused_commands_leave_the_state_intact() {
    run("UCI sessions", QUICK_CASES / 3, sessions(), uci_session);
    run("CECP sessions", QUICK_CASES / 3, xboard_sessions(), xboard_session);
}

// ---- full runs (ignored) ---------------------------------------------------------

#[test]
#[ignore = "long: a million inputs per property (see the module docs)"]
fn full_command_parsers_never_panic() {
    run("command lines", full_cases(), any_line(), parsers_never_panic);
}

#[test]
#[ignore = "long: a million inputs per property (see the module docs)"]
fn full_fen_parser_never_panics_and_round_trips() {
    run("mutated FENs", full_cases(), mutated_fen(), fen_round_trips);
}

#[test]
#[ignore = "long: sessions of up to 12 lines, a tenth of the case count"]
fn full_refused_commands_leave_the_state_intact() {
    run("UCI sessions", full_cases() / 10, sessions(), uci_session);
    run("CECP sessions", full_cases() / 10, xboard_sessions(), xboard_session);
}
