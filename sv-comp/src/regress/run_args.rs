//! The options every section that runs `yogar verify` over the tasks shares: where the tasks
//! and yogar are, the extra options, the limits of one run and how many run at once.

use std::path::PathBuf;

use crate::child::Limits;

/// Shared by `regress` and `agree` (flattened into each one's options).
#[derive(clap::Args, Debug)]
pub(crate) struct RunArgs {
    /// sv-benchmarks checkout (default: $SVB, else ../shared/sv-benchmarks)
    #[arg(long)]
    pub svb: Option<PathBuf>,
    /// The yogar binary (default: the one beside this executable)
    #[arg(long)]
    pub yogar: Option<PathBuf>,
    /// Extra options for every `yogar verify` (one string, split at spaces)
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub yogar_args: String,
    /// CPU seconds per run
    #[arg(long, default_value_t = 60)]
    pub limit_cpu: u64,
    /// Memory per run in MB (0: none)
    #[arg(long, default_value_t = 4096)]
    pub limit_mem: u64,
    /// Wall seconds per run (default 2 x CPU + 10)
    #[arg(long)]
    pub limit_wall: Option<f64>,
    /// Runs made in parallel
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Only tasks whose name (dir/name.yml) matches this regular expression
    #[arg(long)]
    pub filter: Option<String>,
}

impl RunArgs {
    /// The limits of one run.
    pub fn limits(&self) -> Limits {
        super::limits(self.limit_cpu, self.limit_mem, self.limit_wall)
    }
}
