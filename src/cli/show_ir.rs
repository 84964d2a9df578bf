//! `yogar show-ir FILE [--32|--64]`: the IR as text.

use super::ParseArgs;
use crate::exit;
use crate::ir::print::Printer;

pub fn run(args: &ParseArgs) -> u8 {
    let p = match super::parse::load(args) {
        Ok(p) => p,
        Err(code) => return code,
    };
    super::parse::print_warnings(&p);
    print!("{}", Printer { prog: &p }.program());
    exit::TRUE
}
