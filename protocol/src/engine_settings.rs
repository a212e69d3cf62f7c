//! Engine settings that must not change under a running search (hash size,
//! threads, clearing for a new game, the evaluation): applied at once when
//! idle, otherwise queued and applied when the search ends.

use std::sync::Arc;

use tandem_engine::nnue::{Network, Networks};

use crate::engine_api::Engine;
use crate::output::echo;
use crate::parse::InputError;

#[derive(Clone, Debug)]
pub enum EngineChange {
    HashMb(usize),
    Threads(usize),
    Clear,
    /// The networks for drop boards, or `None` for the classical evaluation.
    Network(Option<Networks>),
}

/// `EvalFile`'s value for the network built into the binary.
pub const EMBEDDED_NETWORK: &str = "<embedded>";

/// `Use NNUE`'s default: on, the networks beat the classical evaluation in
/// crazyhouse and in bughouse, plain and with the extension (README, docs/experiments/).
pub const USE_NNUE_DEFAULT: bool = true;

/// The network file at `path`, or `None` for the built-in ones (`<embedded>`
/// or nothing). The error names the file by `setting` (`EvalFile`)
/// and says what is wrong with it.
pub fn read_network(path: &str, setting: &str) -> Result<Option<Arc<Network>>, String> {
    if path.is_empty() || path == EMBEDDED_NETWORK {
        return Ok(None);
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {setting} '{}': {e}", echo(path)))?;
    let network = Network::from_bytes(&bytes).map_err(|e| format!("{setting} '{}' refused: {e}", echo(path)))?;
    Ok(Some(Arc::new(network)))
}

/// The evaluation options both front ends offer: `Use NNUE` and `EvalFile`.
pub struct EvalChoice {
    use_nnue: bool,
    /// The loaded `EvalFile`; `None`: the built-in networks.
    network: Option<Arc<Network>>,
}

impl Default for EvalChoice {
    fn default() -> EvalChoice {
        EvalChoice { use_nnue: USE_NNUE_DEFAULT, network: None }
    }
}

impl EvalChoice {
    pub fn set_use(&mut self, on: bool) -> EngineChange {
        self.use_nnue = on;
        self.change()
    }

    /// Loads the network file at `path` (`<embedded>`: the built-in ones). A
    /// file that cannot be read or is not a whole network is refused and the
    /// network in use stays.
    pub fn set_file(&mut self, path: &str) -> Result<EngineChange, InputError> {
        self.network = read_network(path.trim(), "EvalFile").map_err(InputError::new)?;
        Ok(self.change())
    }

    /// What the engine evaluates with after these options.
    pub fn change(&self) -> EngineChange {
        let networks = self.network.clone().map_or(Networks::BuiltIn, Networks::Only);
        EngineChange::Network(self.use_nnue.then_some(networks))
    }
}

pub use tandem_engine::search::{DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};

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
        for change in std::mem::take(&mut self.queued) {
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
        EngineChange::Network(network) => engine.set_network(network),
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
