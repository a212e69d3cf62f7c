//! Engine processes: starting them, talking to them, and noticing when they
//! crash, hang or talk nonsense.
//!
//! Each engine gets a reader thread that timestamps every line and sends it
//! down one channel shared by the table, so the arbiter waits on a single
//! queue with a deadline (the next flag fall) and never blocks on one engine.
//! Protocol differences live behind [`Adapter`] ([`crate::uci`], [`crate::xboard`]):
//! adapters turn arbiter messages into lines and lines into events, without I/O.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, LineWriter, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use tandem_engine::Rules;

use crate::clock::{TimeSource, WallClock};
use crate::seats::{FaultKind, FromEngine, SeatEvent, SeatIndex, Seats, ToEngine};
use crate::uci::UciAdapter;
use crate::xboard::{HoldingPolicy, XboardAdapter};

/// Longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE_BYTES: usize = 64 * 1024;
/// How long engines get to exit after `quit` before they are killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);
/// How often a waiting arbiter looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Xboard,
}

impl std::str::FromStr for Proto {
    type Err = String;

    fn from_str(text: &str) -> Result<Proto, String> {
        match text {
            "uci" => Ok(Proto::Uci),
            "xboard" | "cecp" => Ok(Proto::Xboard),
            _ => Err(format!("unknown protocol '{text}' (expected uci or xboard)")),
        }
    }
}

/// How to start and set up one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    pub name: String,
    pub command: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub proto: Proto,
    /// Engine options (`option.Hash=16`), sent after the variant is chosen.
    pub options: Vec<(String, String)>,
    /// How long the handshake may take.
    pub init_timeout: Duration,
    /// CECP only: when reserve changes are sent (default: by engine).
    pub holding: Option<HoldingPolicy>,
    /// UCI only: offer tandem's bughouse extension (`extension=off` plays the
    /// engine as a plain UCI engine that sees one FEN per move).
    pub extension: bool,
}

impl EngineConfig {
    pub fn new(name: &str, command: impl Into<PathBuf>, proto: Proto) -> EngineConfig {
        EngineConfig {
            name: name.to_string(),
            command: command.into(),
            args: Vec::new(),
            dir: None,
            proto,
            options: Vec::new(),
            init_timeout: Duration::from_secs(10),
            holding: None,
            extension: true,
        }
    }

    fn adapter(&self, rules: Rules) -> Box<dyn Adapter> {
        match self.proto {
            Proto::Uci => Box::new(UciAdapter::new(rules, self.options.clone(), self.extension)),
            Proto::Xboard => Box::new(XboardAdapter::new(rules, self.options.clone(), self.holding)),
        }
    }
}

/// The outcome of one handshake line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Handshake {
    /// Send these lines and keep waiting.
    Continue(Vec<String>),
    /// Send these lines; the engine is ready to play.
    Ready(Vec<String>),
    Failed(String),
}

/// What one engine line means: an event for the arbiter and/or lines to answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub event: Option<FromEngine>,
    pub replies: Vec<String>,
}

impl Parsed {
    pub fn event(event: FromEngine) -> Parsed {
        Parsed { event: Some(event), replies: Vec::new() }
    }

    pub fn nothing() -> Parsed {
        Parsed::default()
    }
}

/// A protocol, as pure translation between arbiter messages and text lines.
pub trait Adapter: Send {
    /// The lines that open the handshake.
    fn start(&mut self) -> Vec<String>;
    fn handshake_line(&mut self, line: &str) -> Handshake;
    /// Silence after which [`Adapter::handshake_quiet`] decides (None: wait for the timeout).
    fn quiet_limit(&self) -> Option<Duration>;
    fn handshake_quiet(&mut self) -> Handshake;
    fn translate(&mut self, message: &ToEngine) -> Vec<String>;
    fn parse(&mut self, line: &str) -> Parsed;
    fn quit(&mut self) -> Vec<String>;
    /// The name the engine gave itself.
    fn engine_name(&self) -> Option<&str>;
}

/// Engine traffic log (`--log`), shared by all matches.
#[derive(Clone)]
pub struct TrafficLog {
    file: Arc<Mutex<LineWriter<File>>>,
    epoch: Instant,
}

impl TrafficLog {
    pub fn create(path: &std::path::Path) -> Result<TrafficLog, String> {
        let file = File::create(path).map_err(|e| format!("cannot create log file {}: {e}", path.display()))?;
        Ok(TrafficLog { file: Arc::new(Mutex::new(LineWriter::new(file))), epoch: Instant::now() })
    }

    pub fn write(&self, context: &str, arrow: &str, line: &str) {
        let seconds = self.epoch.elapsed().as_secs_f64();
        if let Ok(mut file) = self.file.lock() {
            let _ = writeln!(file, "{seconds:10.3} {context} {arrow} {line}");
        }
    }
}

/// A line (or the end of output) from an engine's reader thread.
struct Incoming {
    seat: SeatIndex,
    generation: u64,
    at: Instant,
    line: Option<String>,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    adapter: Box<dyn Adapter>,
    /// Handshake finished.
    ready: bool,
}

/// The engines of one match, as real processes on the wall clock.
pub struct ProcessSeats {
    clock: WallClock,
    rules: Rules,
    configs: Vec<EngineConfig>,
    engines: Vec<Option<Running>>,
    generation: Vec<u64>,
    tx: Sender<Incoming>,
    rx: Receiver<Incoming>,
    /// Events produced outside the channel (failed writes, startup failures).
    pending: VecDeque<SeatEvent>,
    stop: Arc<AtomicBool>,
    log: Option<TrafficLog>,
    /// Log context per seat: `m3 WhiteA fsf`.
    labels: Vec<String>,
}

impl ProcessSeats {
    /// Starts one engine per seat and runs their handshakes side by side.
    /// An engine that fails to start becomes a [`FaultKind::Startup`] event.
    pub fn start(
        configs: Vec<EngineConfig>,
        labels: Vec<String>,
        rules: Rules,
        stop: Arc<AtomicBool>,
        log: Option<TrafficLog>,
    ) -> ProcessSeats {
        let (tx, rx) = mpsc::channel();
        let seats = configs.len();
        let mut table = ProcessSeats {
            clock: WallClock::starting_now(),
            rules,
            configs,
            engines: (0..seats).map(|_| None).collect(),
            generation: vec![0; seats],
            tx,
            rx,
            pending: VecDeque::new(),
            stop,
            log,
            labels,
        };
        let all: Vec<SeatIndex> = (0..seats).collect();
        table.launch(&all);
        // The match starts now: startup failures count from its first instant.
        table.clock = WallClock::starting_now();
        for event in &mut table.pending {
            event.at = Duration::ZERO;
        }
        table
    }

    /// Spawns and handshakes the given seats' engines.
    fn launch(&mut self, seats: &[SeatIndex]) {
        for &seat in seats {
            match self.spawn(seat) {
                Ok(running) => self.engines[seat] = Some(running),
                Err(why) => self.push_fault(seat, FaultKind::Startup, why),
            }
        }
        for &seat in seats {
            if let Some(engine) = self.engines[seat].as_mut() {
                let lines = engine.adapter.start();
                self.write_lines(seat, &lines);
            }
        }
        self.handshake(seats);
    }

    fn spawn(&mut self, seat: SeatIndex) -> Result<Running, String> {
        let config = &self.configs[seat];
        let mut command = Command::new(&config.command);
        command.args(&config.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        {
            // Its own process group: Ctrl-C reaches the runner, which then ends engines itself.
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command.spawn().map_err(|e| format!("cannot start '{}': {e}", config.command.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("no pipes to the engine".to_string());
        };
        self.generation[seat] += 1;
        let generation = self.generation[seat];
        let tx = self.tx.clone();
        thread::Builder::new()
            .name(format!("engine-reader-{seat}"))
            .spawn(move || read_lines(stdout, seat, generation, tx))
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let adapter = config.adapter(self.rules);
        Ok(Running { child, stdin, adapter, ready: false })
    }

    /// Waits until every listed engine is ready or has failed.
    fn handshake(&mut self, seats: &[SeatIndex]) {
        let started = Instant::now();
        let mut last_line: Vec<Instant> = vec![started; self.engines.len()];
        let mut stash = Vec::new();
        loop {
            let waiting: Vec<SeatIndex> =
                seats.iter().copied().filter(|&s| self.engines[s].as_ref().is_some_and(|e| !e.ready)).collect();
            if waiting.is_empty() || self.stop.load(Ordering::Relaxed) {
                break;
            }
            let now = Instant::now();
            let mut wake = now + STOP_POLL;
            for &seat in &waiting {
                let hard = started + self.configs[seat].init_timeout;
                let quiet =
                    self.engines[seat].as_ref().and_then(|e| e.adapter.quiet_limit()).map(|q| last_line[seat] + q);
                let due = quiet.map_or(hard, |q| q.min(hard));
                if now >= due {
                    self.handshake_timeout(seat, now >= hard);
                } else {
                    wake = wake.min(due);
                }
            }
            match self.rx.recv_timeout(wake.saturating_duration_since(Instant::now())) {
                Ok(incoming) if seats.contains(&incoming.seat) && self.is_current(&incoming) => {
                    last_line[incoming.seat] = incoming.at;
                    self.handshake_input(incoming);
                }
                Ok(other) => stash.push(other),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        // Lines for seats outside this handshake wait for `next_event`.
        for incoming in stash {
            let _ = self.tx.send(incoming);
        }
    }

    fn handshake_input(&mut self, incoming: Incoming) {
        let seat = incoming.seat;
        let Some(line) = incoming.line else {
            let status = self.reap(seat);
            self.push_fault(seat, FaultKind::Startup, format!("exited during the handshake ({status})"));
            return;
        };
        self.log_line(seat, "<", &line);
        let Some(engine) = self.engines[seat].as_mut() else { return };
        if engine.ready {
            return;
        }
        let step = engine.adapter.handshake_line(&line);
        self.apply_handshake(seat, step);
    }

    fn handshake_timeout(&mut self, seat: SeatIndex, hard: bool) {
        let timeout = self.configs[seat].init_timeout;
        let step = match self.engines[seat].as_mut() {
            Some(_) if hard => {
                Handshake::Failed(format!("no answer to the handshake within {} s", timeout.as_secs_f64()))
            }
            Some(engine) => engine.adapter.handshake_quiet(),
            None => return,
        };
        self.apply_handshake(seat, step);
    }

    fn apply_handshake(&mut self, seat: SeatIndex, step: Handshake) {
        match step {
            Handshake::Continue(lines) => self.write_lines(seat, &lines),
            Handshake::Ready(lines) => {
                self.write_lines(seat, &lines);
                if let Some(engine) = self.engines[seat].as_mut() {
                    engine.ready = true;
                }
            }
            Handshake::Failed(why) => {
                self.kill(seat);
                self.push_fault(seat, FaultKind::Startup, why);
            }
        }
    }

    fn is_current(&self, incoming: &Incoming) -> bool {
        incoming.generation == self.generation[incoming.seat] && self.engines[incoming.seat].is_some()
    }

    fn push_fault(&mut self, seat: SeatIndex, kind: FaultKind, detail: String) {
        self.log_line(seat, "!", &format!("{kind}: {detail}"));
        let at = self.clock.now();
        self.pending.push_back(SeatEvent { seat, at, message: FromEngine::Fault { kind, detail } });
    }

    fn write_lines(&mut self, seat: SeatIndex, lines: &[String]) {
        if lines.is_empty() {
            return;
        }
        for line in lines {
            self.log_line(seat, ">", line);
        }
        let Some(engine) = self.engines[seat].as_mut() else { return };
        let mut text = lines.join("\n");
        text.push('\n');
        let written = engine.stdin.write_all(text.as_bytes()).and_then(|()| engine.stdin.flush());
        if let Err(e) = written {
            let status = self.reap(seat);
            self.kill(seat);
            self.push_fault(seat, FaultKind::Crash, format!("cannot be written to ({e}; {status})"));
        }
    }

    fn log_line(&self, seat: SeatIndex, arrow: &str, line: &str) {
        if let Some(log) = &self.log {
            log.write(self.labels.get(seat).map(String::as_str).unwrap_or("?"), arrow, line);
        }
    }

    /// How the process ended, if it has (waits briefly for the exit status).
    fn reap(&mut self, seat: SeatIndex) -> String {
        let Some(engine) = self.engines[seat].as_mut() else { return "gone".to_string() };
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match engine.child.try_wait() {
                Ok(Some(status)) => return describe_exit(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                Ok(None) => return "output closed, process still running".to_string(),
                Err(e) => return format!("exit status unknown: {e}"),
            }
        }
    }

    fn kill(&mut self, seat: SeatIndex) {
        if let Some(mut engine) = self.engines[seat].take() {
            let _ = engine.child.kill();
            let _ = engine.child.wait();
        }
        self.generation[seat] += 1;
    }

    /// The engine's own name (`id name`, `myname`), if it gave one.
    pub fn engine_name(&self, seat: SeatIndex) -> Option<String> {
        self.engines.get(seat)?.as_ref()?.adapter.engine_name().map(str::to_string)
    }

    /// Sends `quit`, waits a little, then kills what is left.
    pub fn shutdown(&mut self) {
        for seat in 0..self.engines.len() {
            if let Some(engine) = self.engines[seat].as_mut() {
                let lines = engine.adapter.quit();
                let text = format!("{}\n", lines.join("\n"));
                let _ = engine.stdin.write_all(text.as_bytes());
                let _ = engine.stdin.flush();
            }
        }
        let deadline = Instant::now() + QUIT_GRACE;
        for seat in 0..self.engines.len() {
            let Some(mut engine) = self.engines[seat].take() else { continue };
            drop(engine.stdin);
            loop {
                match engine.child.try_wait() {
                    Ok(Some(_)) | Err(_) => break,
                    Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                    Ok(None) => {
                        let _ = engine.child.kill();
                        let _ = engine.child.wait();
                        break;
                    }
                }
            }
        }
    }

    fn on_incoming(&mut self, incoming: Incoming) -> Option<SeatEvent> {
        let seat = incoming.seat;
        let at = self.clock.at(incoming.at);
        let Some(line) = incoming.line else {
            let status = self.reap(seat);
            self.kill(seat);
            self.log_line(seat, "!", &format!("crash: {status}"));
            let message = FromEngine::Fault { kind: FaultKind::Crash, detail: status };
            return Some(SeatEvent { seat, at, message });
        };
        self.log_line(seat, "<", &line);
        let engine = self.engines[seat].as_mut()?;
        if !engine.ready {
            let step = engine.adapter.handshake_line(&line);
            self.apply_handshake(seat, step);
            return None;
        }
        let parsed = engine.adapter.parse(&line);
        self.write_lines(seat, &parsed.replies);
        parsed.event.map(|message| SeatEvent { seat, at, message })
    }
}

impl Seats for ProcessSeats {
    fn now(&self) -> Duration {
        self.clock.now()
    }

    fn send(&mut self, seat: SeatIndex, message: ToEngine) {
        let Some(engine) = self.engines.get_mut(seat).and_then(Option::as_mut) else { return };
        if !engine.ready {
            return;
        }
        let lines = engine.adapter.translate(&message);
        self.write_lines(seat, &lines);
    }

    fn next_event(&mut self, deadline: Duration) -> Option<SeatEvent> {
        loop {
            if let Some(event) = self.pending.pop_front() {
                return Some(event);
            }
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            let now = self.clock.now();
            if now >= deadline {
                return None;
            }
            match self.rx.recv_timeout((deadline - now).min(STOP_POLL)) {
                Ok(incoming) if self.is_current(&incoming) => {
                    if let Some(event) = self.on_incoming(incoming) {
                        return Some(event);
                    }
                }
                Ok(_stale) => {}
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    fn retire(&mut self, seat: SeatIndex, restart: bool) {
        self.kill(seat);
        if restart {
            self.log_line(seat, "!", "restarting");
            self.launch(&[seat]);
        }
    }

    fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl Drop for ProcessSeats {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The reader thread: one message per line, then `None` at the end of output.
fn read_lines(stdout: impl Read, seat: SeatIndex, generation: u64, tx: Sender<Incoming>) {
    let mut reader = BufReader::new(stdout);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let line = match read_capped_line(&mut reader, &mut buffer) {
            Ok(true) => Some(String::from_utf8_lossy(&buffer).trim_end_matches(['\r', '\n']).to_string()),
            Ok(false) | Err(_) => None,
        };
        let end = line.is_none();
        let sent = tx.send(Incoming { seat, generation, at: Instant::now(), line });
        if end || sent.is_err() {
            return;
        }
    }
}

/// Reads one line into `buffer`, keeping at most [`MAX_LINE_BYTES`] of it.
/// Returns false at the end of the output.
fn read_capped_line(reader: &mut impl BufRead, buffer: &mut Vec<u8>) -> std::io::Result<bool> {
    let mut read_any = false;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(newline) => (&available[..newline], newline + 1),
            None => (available, available.len()),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buffer.len());
        buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let found_newline = done > chunk.len();
        reader.consume(done);
        if found_newline {
            return Ok(true);
        }
    }
}

fn describe_exit(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with code {code}"),
        None => "exited".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_capped_and_the_rest_is_read() {
        let mut text = vec![b'x'; MAX_LINE_BYTES + 100];
        text.extend_from_slice(b"\nbestmove e2e4\npartial");
        let mut reader = BufReader::with_capacity(1000, text.as_slice());
        let mut buffer = Vec::new();
        assert!(read_capped_line(&mut reader, &mut buffer).unwrap());
        assert_eq!(buffer.len(), MAX_LINE_BYTES);
        buffer.clear();
        assert!(read_capped_line(&mut reader, &mut buffer).unwrap());
        assert_eq!(buffer, b"bestmove e2e4");
        buffer.clear();
        assert!(read_capped_line(&mut reader, &mut buffer).unwrap());
        assert_eq!(buffer, b"partial");
        buffer.clear();
        assert!(!read_capped_line(&mut reader, &mut buffer).unwrap());
    }
}
