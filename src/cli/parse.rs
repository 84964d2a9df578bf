//! `yogar parse FILE [--32|--64]`: lower the program and print a one-line summary.

use super::ParseArgs;
use crate::exit;
use crate::frontend;
use crate::ir;

/// Loads the program, printing the error line on failure; `Err(exit code)` then.
pub fn load(args: &ParseArgs) -> Result<ir::Program, u8> {
    frontend::load_with(&args.file, args.data_model(), &args.frontend.options()).map_err(|e| {
        eprintln!("yogar: {e}");
        e.exit_code()
    })
}

/// Warnings for the user: one line each.
pub fn print_warnings(p: &ir::Program) {
    for w in &p.warnings {
        eprintln!("yogar: warning: {w}");
    }
    for c in &p.external_calls {
        eprintln!(
            "yogar: warning: {}: function '{}' has no body: its result is nondet and it writes nothing",
            p.loc_str(c.loc),
            c.name
        );
    }
}

pub fn run(args: &ParseArgs) -> u8 {
    let p = match load(args) {
        Ok(p) => p,
        Err(code) => return code,
    };
    print_warnings(&p);
    let funcs = p.defined_funcs().count().saturating_sub(2);
    let globals = p
        .globals()
        .filter(|(_, v)| !v.name.starts_with("$str"))
        .count();
    println!(
        "{}: {} functions, {} globals, {} thread creations, {} properties, {} warnings",
        args.file.display(),
        funcs,
        globals,
        p.thread_create_sites(),
        p.props.len(),
        p.warnings.len() + p.external_calls.len()
    );
    exit::TRUE
}
