//! What a search reports: each layer's statistics and the whole search's,
//! and the errors of its files.

use std::path::PathBuf;
use std::time::Duration;

/// What the search did in one layer.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LayerStats {
    /// The layer's key ([`Problem::layer`](crate::explore::Problem::layer)).
    pub layer: u64,
    /// Distinct states of the layer.
    pub positions: u64,
    /// States whose successors were generated.
    pub expanded: u64,
    /// Moves generated from the layer's states (into any layer).
    pub moves: u64,
    /// Generated states of this layer that were already stored.
    pub duplicates: u64,
    /// Goal states.
    pub goals: u64,
    /// Leaf states (Spider: reveals).
    pub leaves: u64,
    /// Dead ends ([`NodeKind::Dead`](crate::explore::NodeKind::Dead)).
    pub dead: u64,
    /// Breadth-first steps inside the layer.
    pub steps: u32,
    /// States the layer began with: those that moves from earlier layers
    /// (or the start) led to.
    #[serde(default)]
    pub entries: u64,
    /// Of the entries, those that came from another whole layer
    /// ([`Problem::whole_layer`](crate::explore::Problem::whole_layer); the start is one): all of them when the
    /// layers are whole. A state that came from both counts here. `None`
    /// in a checkpoint written before it was counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entries_across: Option<u64>,
}

/// Statistics of a layered search.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct LayeredStats {
    /// Distinct states over all layers (with deduplication off: generated
    /// states, the start included).
    pub positions: u64,
    /// States expanded.
    pub expanded: u64,
    /// Moves generated.
    pub moves: u64,
    /// Generated states already stored.
    pub duplicates: u64,
    /// Goals met.
    pub goals: u64,
    /// Leaves met.
    pub leaves: u64,
    /// Dead ends met.
    pub dead: u64,
    /// The most moves from the start of any state (along the lines the
    /// search found, which are shortest within a layer).
    pub max_depth: u32,
    /// Every layer finished or started, in the order searched.
    pub layers: Vec<LayerStats>,
    /// Wall-clock time (of this run, when resumed).
    pub elapsed: Duration,
    /// Threads used.
    pub threads: usize,
    /// The largest estimate of the engine's memory: tables, the packed
    /// frontier and the pending buffers.
    pub peak_memory_bytes: u64,
    /// The largest size of the fingerprint tables, in bytes.
    pub peak_table_bytes: u64,
    /// Fingerprints in the tables when they were largest.
    pub peak_table_positions: u64,
    /// Layers finished in an earlier run and read from the checkpoint.
    pub resumed_layers: usize,
    /// On disk: the times the current layer's seen sets passed their
    /// budget ([`DiskOptions::seen_memory`](super::DiskOptions::seen_memory)) and were dropped, its rounds so
    /// far to be looked up on disk (in this run, when resumed).
    pub seen_dropped: u64,
    /// On disk: the rounds whose seen sets outgrew the memory left, run
    /// again split, a wave of parts at a time ([`DiskOptions::split_from`](super::DiskOptions::split_from)).
    pub rounds_split: u64,
    /// States waiting in later layers, not yet begun (deduplicated per
    /// layer; on disk, records: a layer's duplicates go when it reads
    /// them), when these statistics were taken.
    pub queued: u64,
    /// Of them, those that came from another whole layer
    /// ([`Problem::whole_layer`](crate::explore::Problem::whole_layer)): all of them when the layers are whole.
    pub queued_across: u64,
}

impl LayeredStats {
    /// Bytes per stored state in the fingerprint tables at their largest.
    pub fn table_bytes_per_position(&self) -> f64 {
        self.peak_table_bytes as f64 / self.peak_table_positions.max(1) as f64
    }

    /// Distinct states per second of wall-clock time.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Adds a layer read back from a checkpoint: its positions and its
    /// [counts](Self::add_counts).
    pub(super) fn add_layer(&mut self, layer: &LayerStats) {
        self.positions += layer.positions;
        self.add_counts(layer);
    }

    /// Adds a layer's counts of expansions, moves, duplicates, goals,
    /// leaves and dead ends (its positions are counted as they come).
    pub(super) fn add_counts(&mut self, layer: &LayerStats) {
        self.expanded += layer.expanded;
        self.moves += layer.moves;
        self.duplicates += layer.duplicates;
        self.goals += layer.goals;
        self.leaves += layer.leaves;
        self.dead += layer.dead;
    }
}

/// Why a checkpoint could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Reading or writing the directory failed.
    #[error("checkpoint {path}: {}", crate::text::io_reason(error))]
    Io {
        path: PathBuf,
        /// Said in the message, so not a `source` (said once).
        error: std::io::Error,
    },
    /// The directory holds the checkpoint of another search.
    #[error(
        "checkpoint {path} belongs to another search ({found}); use another directory or remove it"
    )]
    OtherSearch { path: PathBuf, found: String },
    /// A file of the directory is not what the search wrote.
    #[error("checkpoint {path}: damaged ({what})")]
    Damaged { path: PathBuf, what: String },
}
