//! Command line: argument definitions and one module per subcommand.

mod args;
mod litmus;
mod memlimit;
mod parse;
mod progress;
mod replay;
mod sat;
mod show_equation;
mod show_ir;
mod verify;

use std::process::ExitCode;

use clap::Parser;

pub use args::{
    Cli, Command, LitmusArgs, ParseArgs, ReplayArgs, SatArgs, ShowEquationArgs, Unwind, VerifyArgs,
};

use crate::exit;
pub use crate::ir::DataModel;

/// Entry point of the binary: parse arguments, run the subcommand, map the outcome to an exit
/// code. Errors are printed as one line on stderr.
pub fn main() -> ExitCode {
    restore_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are "errors" to clap but succeed for the user.
            let code = if e.use_stderr() { exit::USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let code = match cli.command {
        Command::Verify(args) => verify::run(&args),
        Command::Parse(args) => parse::run(&args),
        Command::ShowIr(args) => show_ir::run(&args),
        Command::ShowEquation(args) => show_equation::run(&args),
        Command::Sat(args) => sat::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Litmus(args) => litmus::run(&args),
    };
    ExitCode::from(code)
}

/// A closed output pipe ends the process as it ends `cat` or `grep` (`yogar verify F | head
/// -1`), instead of a panic in the next `println!`: the Rust runtime ignores SIGPIPE, which
/// turns the write into an error that `print!` panics on.
fn restore_sigpipe() {
    // SAFETY: called first in `main`, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
