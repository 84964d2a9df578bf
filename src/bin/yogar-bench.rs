//! `yogar-bench` (`make bench`): see [`yogar::bench`].

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    ExitCode::from(yogar::bench::main(&args))
}
