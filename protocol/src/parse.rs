//! Shared pieces of command parsing: the error type and checked numbers.
//!
//! Every parser in this crate is a pure function from a line to a command or
//! an [`InputError`], so it can be property-tested in-process.

use std::fmt;
use std::time::Duration;

/// Why a line was refused. The text is complete enough to show to a person
/// as it is (`info string error: …` in UCI, `Error (…): line` in CECP).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError(pub String);

impl InputError {
    pub fn new(message: impl Into<String>) -> InputError {
        InputError(message.into())
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// A whole number in `min..=max`, named for the error message.
pub fn number_in<T>(name: &str, text: Option<&str>, min: T, max: T) -> Result<T, InputError>
where
    T: std::str::FromStr + PartialOrd + fmt::Display + Copy,
{
    let text = text.ok_or_else(|| InputError::new(format!("'{name}' needs a value")))?;
    let value: T = text.parse().map_err(|_| {
        InputError::new(format!("'{name}' expects a whole number, not '{}'", crate::output::echo(text)))
    })?;
    if value < min || value > max {
        return Err(InputError::new(format!("'{name}' must be between {min} and {max}, not {value}")));
    }
    Ok(value)
}

/// Longest clock or move time accepted: about 11.5 days, far above any game.
pub const MAX_MILLIS: i64 = 1_000_000_000;

/// A clock reading in milliseconds. GUIs send negative times after a flag
/// falls; those count as zero rather than failing the command (and the move).
pub fn clock_millis(name: &str, text: Option<&str>) -> Result<Duration, InputError> {
    let ms = number_in(name, text, i64::MIN, i64::MAX)?;
    if ms > MAX_MILLIS {
        return Err(InputError::new(format!("'{name}' must be at most {MAX_MILLIS} ms, not {ms}")));
    }
    Ok(Duration::from_millis(ms.max(0) as u64))
}

/// A duration in milliseconds that must not be negative.
pub fn millis(name: &str, text: Option<&str>) -> Result<Duration, InputError> {
    number_in(name, text, 0, MAX_MILLIS).map(|ms: i64| Duration::from_millis(ms as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_checked() {
        assert_eq!(number_in("depth", Some("5"), 1u32, 10), Ok(5));
        assert!(number_in("depth", Some("0"), 1u32, 10).unwrap_err().0.contains("between 1 and 10"));
        assert!(number_in("depth", Some("x"), 1u32, 10).unwrap_err().0.contains("whole number"));
        assert!(number_in::<u32>("depth", None, 1, 10).unwrap_err().0.contains("needs a value"));
        assert!(number_in("n", Some("99999999999999999999999"), 0u64, u64::MAX).is_err());
    }

    #[test]
    fn clock_times_clamp_negatives_only() {
        assert_eq!(clock_millis("wtime", Some("-50")), Ok(Duration::ZERO));
        assert!(clock_millis("wtime", Some("5000000000")).is_err());
        assert!(millis("movetime", Some("-1")).is_err());
    }
}
