//! `yogar show-equation FILE [--32|--64] [--unwind N]`: the equation as text.

use super::ShowEquationArgs;
use crate::exit;
use crate::symex::print::EquationPrinter;

pub fn run(args: &ShowEquationArgs) -> u8 {
    let p = match super::parse::load(&args.program) {
        Ok(p) => p,
        Err(code) => return code,
    };
    super::parse::print_warnings(&p);
    match crate::pipeline::equation(&p, args.unwind) {
        Ok(out) => {
            print!(
                "{}",
                EquationPrinter {
                    prog: &p,
                    out: &out
                }
            );
            exit::TRUE
        }
        Err(why) => {
            println!("UNKNOWN ({why})");
            exit::UNKNOWN
        }
    }
}
