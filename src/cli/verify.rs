//! `yogar verify`.

use super::VerifyArgs;
use crate::exit;

pub fn run(args: &VerifyArgs) -> u8 {
    let _ = args;
    eprintln!("yogar: error: verify is not implemented yet (no verdict)");
    exit::NOT_IMPLEMENTED
}
