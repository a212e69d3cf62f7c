//! Engine settings that must not change under a running search (hash size,
//! threads, clearing for a new game): applied at once when idle, otherwise
//! queued and applied when the search ends.

use crate::engine_api::Engine;
use crate::parse::InputError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChange {
    HashMb(usize),
    Threads(usize),
    Clear,
}

pub use tandem_engine::search::engine::{DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};

#[derive(Default)]
pub struct DeferredChanges {
    queued: Vec<EngineChange>,
}

impl DeferredChanges {
    /// Applies `change` now if no search runs, else queues it.
    pub fn request(&mut self, engine: &Engine, searching: bool, change: EngineChange) {
        if searching {
            self.queued.push(change);
        } else {
            apply(engine, change);
        }
    }

    /// Applies everything queued (call when no search runs any more).
    pub fn apply_queued(&mut self, engine: &Engine) {
        for change in self.queued.drain(..) {
            apply(engine, change);
        }
    }
}

fn apply(engine: &Engine, change: EngineChange) {
    match change {
        // `check_hash_fits` refused sizes that cannot fit; should the allocation
        // still fail, the engine keeps its old table.
        EngineChange::HashMb(mb) => {
            let _ = engine.set_hash_mb(mb);
        }
        EngineChange::Threads(n) => engine.set_threads(n),
        EngineChange::Clear => engine.clear(),
    }
}

/// Refuses a hash size this machine cannot give: allocating it would abort the
/// process. Reads `MemAvailable` where the system tells it (Linux); elsewhere
/// every size in range is accepted.
pub fn check_hash_fits(megabytes: usize) -> Result<(), InputError> {
    let Some(available_mb) = available_memory_mb() else {
        return Ok(());
    };
    // Leave a quarter for everything else (the other board's engine, the GUI).
    let limit = available_mb / 4 * 3;
    if megabytes > limit {
        return Err(InputError::new(format!(
            "hash of {megabytes} MB does not fit: this machine has {available_mb} MB available (at most {limit} MB can be used)"
        )));
    }
    Ok(())
}

fn available_memory_mb() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kilobytes: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurd_hash_sizes_are_refused() {
        assert!(check_hash_fits(1).is_ok());
        if available_memory_mb().is_some() {
            assert!(check_hash_fits(usize::MAX / 2).unwrap_err().0.contains("does not fit"));
        }
    }
}
