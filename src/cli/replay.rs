//! `yogar replay FILE WITNESS [--32|--64]`: validate a violation witness by running the
//! program concretely, guided by the witness, until a run reaches the violation.

use super::parse::ir_model;
use super::ReplayArgs;
use crate::exit;
use crate::explore::{parse_witness, replay, Limits, ReplayResult};
use crate::frontend;

/// Exit code when the witness is not confirmed.
const NOT_CONFIRMED: u8 = 1;

pub fn run(args: &ReplayArgs) -> u8 {
    let text = match std::fs::read_to_string(&args.witness) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("yogar: cannot read {}: {e}", args.witness.display());
            return exit::INPUT;
        }
    };
    let edges = match parse_witness(&text) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("yogar: bad witness {}: {e}", args.witness.display());
            return exit::INPUT;
        }
    };
    let model = ir_model(args.data_model());
    let prog = match std::panic::catch_unwind(|| frontend::load_file(&args.file, model)) {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => {
            eprintln!("yogar: {e}");
            return exit::INPUT;
        }
        Err(_) => {
            eprintln!(
                "yogar: internal error while reading {}",
                args.file.display()
            );
            return exit::INTERNAL;
        }
    };
    let limits = Limits::default();
    match replay(&prog, &edges, &limits) {
        ReplayResult::Confirmed { thread, loc, .. } => {
            println!(
                "witness confirmed: violation reached at {} in thread {thread}",
                prog.loc_str(loc)
            );
            exit::TRUE
        }
        ReplayResult::NotConfirmed(why) => {
            println!("witness not confirmed: {why}");
            NOT_CONFIRMED
        }
    }
}
