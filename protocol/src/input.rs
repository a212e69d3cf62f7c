//! Reading commands: a thread turns the raw input bytes into lines.
//!
//! Lines are capped at [`MAX_LINE_BYTES`] (the rest of an overlong line is
//! skipped and reported), invalid UTF-8 is replaced rather than refused, and
//! `\r` line ends are accepted, so no input can make the reader stall or grow
//! without bound.

use std::io::Read;
use std::sync::mpsc::Sender;

use crate::front_end::Event;

/// The longest command line accepted (a long `position … moves …` fits easily).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputEvent {
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`] was skipped; its length in bytes.
    TooLong(usize),
    /// The input ended.
    Closed,
}

/// Splits a byte stream into capped lines.
#[derive(Default)]
pub struct LineSplitter {
    pending: Vec<u8>,
    /// Bytes of the current line beyond the cap, once it overflowed.
    overflow: usize,
}

impl LineSplitter {
    /// Feeds bytes; returns the lines (and overflow reports) they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<InputEvent> {
        let mut events = Vec::new();
        for chunk in bytes.split_inclusive(|&b| b == b'\n') {
            let (body, ends_line) = match chunk.strip_suffix(b"\n") {
                Some(body) => (body, true),
                None => (chunk, false),
            };
            self.append(body);
            if ends_line {
                events.push(self.take_line());
            }
        }
        events
    }

    /// The last line, if the input ended without a newline.
    pub fn finish(&mut self) -> Option<InputEvent> {
        (!self.pending.is_empty() || self.overflow > 0).then(|| self.take_line())
    }

    fn append(&mut self, body: &[u8]) {
        let room = MAX_LINE_BYTES.saturating_sub(self.pending.len());
        if self.overflow == 0 && body.len() <= room {
            self.pending.extend_from_slice(body);
        } else {
            let kept = if self.overflow == 0 { room } else { 0 };
            self.pending.extend_from_slice(&body[..kept]);
            self.overflow += body.len() - kept;
        }
    }

    fn take_line(&mut self) -> InputEvent {
        let bytes = std::mem::take(&mut self.pending);
        if self.overflow > 0 {
            let total = bytes.len() + self.overflow;
            self.overflow = 0;
            return InputEvent::TooLong(total);
        }
        let text = String::from_utf8_lossy(&bytes);
        InputEvent::Line(text.trim_end_matches('\r').to_string())
    }
}

/// Reads `input` on its own thread until it ends, sending each line as an event.
pub fn spawn_reader<R: Read + Send + 'static>(mut input: R, events: Sender<Event>) {
    std::thread::spawn(move || {
        let mut splitter = LineSplitter::default();
        let mut buffer = [0u8; 8192];
        loop {
            let read = match input.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            for event in splitter.push(&buffer[..read]) {
                if events.send(Event::Input(event)).is_err() {
                    return;
                }
            }
        }
        if let Some(last) = splitter.finish() {
            let _ = events.send(Event::Input(last));
        }
        let _ = events.send(Event::Input(InputEvent::Closed));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> InputEvent {
        InputEvent::Line(s.to_string())
    }

    #[test]
    fn splits_across_reads_and_strips_carriage_returns() {
        let mut s = LineSplitter::default();
        assert_eq!(s.push(b"uc"), vec![]);
        assert_eq!(s.push(b"i\r\nisready\nqu"), vec![line("uci"), line("isready")]);
        assert_eq!(s.finish(), Some(line("qu")));
        assert_eq!(s.finish(), None);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let mut s = LineSplitter::default();
        assert_eq!(s.push(b"go \xff\xfe\n"), vec![line("go \u{fffd}\u{fffd}")]);
    }

    #[test]
    fn overlong_lines_are_reported_and_skipped() {
        let mut s = LineSplitter::default();
        let long = vec![b'x'; MAX_LINE_BYTES + 10];
        assert_eq!(s.push(&long), vec![]);
        assert_eq!(s.push(b"yy\nisready\n"), vec![InputEvent::TooLong(MAX_LINE_BYTES + 12), line("isready")]);
    }
}
