//! One FALSE program through `yogar verify --witness` and `yogar replay`, for the suites that
//! check that every violation witness an engine writes is confirmed.

use std::path::Path;
use std::process::Command;

/// Runs `yogar verify ARGS --witness WITNESS PROGRAM`, which must answer FALSE, then `yogar
/// replay PROGRAM WITNESS`, which must confirm it. Ok with replay's stderr (its statistics),
/// or Err with why not.
pub fn verify_then_replay(args: &[&str], program: &Path, witness: &Path) -> Result<String, String> {
    let verify = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .arg("verify")
        .args(args)
        .arg("--witness")
        .arg(witness)
        .arg(program)
        .output()
        .expect("verify runs");
    if verify.status.code() != Some(10) {
        return Err(format!(
            "{}: verify did not answer FALSE",
            program.display()
        ));
    }
    let replay = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .arg("replay")
        .arg(program)
        .arg(witness)
        .output()
        .expect("replay runs");
    let out = String::from_utf8_lossy(&replay.stdout);
    if replay.status.code() != Some(0) || !out.contains("witness confirmed") {
        return Err(format!("{}: {}", program.display(), out.trim()));
    }
    Ok(String::from_utf8_lossy(&replay.stderr).into_owned())
}
