//! The engine's output: whole lines, flushed one by one, shared by the input
//! loop and the search thread.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A line writer that many threads may hold. Each line is written and flushed
/// under one lock, so lines never interleave and a GUI sees each at once.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output { sink: Arc::new(Mutex::new(sink)) }
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one line. A closed pipe is not an error worth dying for here:
    /// the input side notices the end and quits.
    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = sink.write_all(text.as_bytes());
        let _ = sink.write_all(b"\n");
        let _ = sink.flush();
    }
}

/// Longest piece of input echoed back in a message.
const ECHO_CHARS: usize = 120;

/// Input text made safe to echo on one output line: control characters become
/// `?` and long text is cut, so garbage input cannot forge or flood output.
pub fn echo(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(ECHO_CHARS)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().nth(ECHO_CHARS).is_some() {
        shown.push('…');
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_replaces_control_characters_and_cuts() {
        assert_eq!(echo("a\u{0}b\tc"), "a?b?c");
        let long = "x".repeat(500);
        assert_eq!(echo(&long).chars().count(), ECHO_CHARS + 1);
    }
}
