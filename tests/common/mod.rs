//! Helpers shared by the integration tests that run the `yogar` binary on a C program.

use std::path::PathBuf;
use std::process::Command;

/// `yogar verify --unwind 2` of a program written as `<name>.c` in a temporary folder of its
/// own (`suite` names the test binary, so that binaries running at once do not share files):
/// (exit code, last stdout line).
pub fn verify(suite: &str, name: &str, source: &str) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("yogar-{suite}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(format!("{name}.c"));
    std::fs::write(&path, source).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["verify", "--unwind", "2"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("").to_string();
    (out.status.code().unwrap_or(-1), last)
}
