//! `yogar litmus`: a herd-format PPC litmus test in, herd's report out (final states,
//! Ok/No, Allowed/Forbidden). Exit 0 when the test ran (whatever the outcome), 3 on an
//! unreadable test, 5 when the exploration could not finish; a `--timeout` that is not a
//! positive number of seconds is a usage error (as for `verify` and `sat`), not "no limit".

use std::time::{Duration, Instant};

use super::LitmusArgs;
use crate::exit;
use crate::explore::findings::Budget;
use crate::explore::rsmc::MemoryModel;
use crate::litmus;

pub fn run(args: &LitmusArgs) -> u8 {
    let Some(model) = MemoryModel::of(args.mm) else {
        eprintln!(
            "yogar: error: memory model '{}' is not supported by litmus (power, sc)",
            args.mm.name()
        );
        return exit::USAGE;
    };
    let deadline = match args.timeout {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 => {
            Some(Instant::now() + Duration::from_secs_f64(s.min(1e9)))
        }
        Some(s) => {
            eprintln!("yogar: error: --timeout must be a positive number of seconds, not {s}");
            return exit::USAGE;
        }
    };
    let text = match std::fs::read_to_string(&args.file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("yogar: error: cannot read {}: {e}", args.file.display());
            return exit::INPUT;
        }
    };
    let test = match litmus::parse(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("yogar: error: {}: {e}", args.file.display());
            return exit::INPUT;
        }
    };
    let budget = Budget {
        max_executions: None,
        deadline,
    };
    match litmus::run(&test, model, budget) {
        Ok(r) => {
            print!("{}", r.render(&test));
            exit::TRUE
        }
        Err(e) => {
            eprintln!("yogar: {}: {e}", args.file.display());
            exit::UNKNOWN
        }
    }
}
