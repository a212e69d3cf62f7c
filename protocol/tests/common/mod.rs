//! Drives the real `tandem` binary through stdin/stdout with timeouts.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Generous: CI shares two cores between several test binaries.
pub const TIMEOUT: Duration = Duration::from_secs(20);

pub struct Tandem {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub transcript: Vec<String>,
}

impl Tandem {
    pub fn start() -> Tandem {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tandem"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tandem starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Tandem { child, stdin, lines, transcript: Vec::new() }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("tandem reads its input");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them (the last one included).
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                None => panic!("timed out; transcript so far:\n{}", self.transcript.join("\n")),
            }
        }
    }

    /// The first line starting with `prefix` (earlier lines are returned too).
    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        let lines = self.read_until(|l| l.starts_with(prefix));
        lines.last().cloned().unwrap_or_default()
    }

    /// Sends `line`, then a synchronisation command, and returns what came in between.
    pub fn exchange(&mut self, line: &str, sync: &str, sync_reply: &str) -> Vec<String> {
        self.send(line);
        self.send(sync);
        let mut lines = self.read_until(|l| l == sync_reply);
        lines.pop();
        lines
    }

    /// Lines arriving within `window` (used to check that nothing more comes).
    pub fn lines_within(&mut self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut seen = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            seen.push(line);
        }
        seen
    }

    /// Waits for the process to end; its exit status, or `None` after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    }
}

impl Drop for Tandem {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// UCI sessions: a command answered before `isready`, the shown FEN, the best move.
pub mod uci {
    use super::Tandem;

    /// Sends `line` and returns what the engine said before answering `isready`.
    pub fn say(t: &mut Tandem, line: &str) -> Vec<String> {
        t.exchange(line, "isready", "readyok")
    }

    /// The `fen` line of the `d` display.
    pub fn fen(t: &mut Tandem) -> String {
        let shown = say(t, "d");
        shown
            .iter()
            .find_map(|l| l.strip_prefix("info string fen "))
            .unwrap_or_else(|| panic!("no fen in {shown:?}"))
            .to_string()
    }

    /// The move of the next `bestmove` line.
    pub fn bestmove(t: &mut Tandem) -> String {
        let line = t.expect_prefix("bestmove ");
        line.split_whitespace().nth(1).unwrap_or_default().to_string()
    }
}
