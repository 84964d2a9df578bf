//! More threads than the default limit of 64: the limit grows with the unwind bound, so a
//! program creating 70 threads in a loop gets its verdict at the bound its loop needs. (The
//! programs live in tests/limits rather than tests/programs: replaying a 70-thread witness is
//! beyond the replay explorer's step budget.)

use std::path::Path;
use std::process::Command;

fn verify(file: &str) -> (i32, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/limits")
        .join(file);
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["verify", "--unwind", "71"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("").to_string();
    (out.status.code().unwrap_or(-1), last)
}

#[test]
fn seventy_threads_in_a_loop_get_their_verdicts() {
    assert_eq!(verify("threads_beyond_64_true.c"), (0, "TRUE".into()));
    assert_eq!(
        verify("threads_beyond_64_false.c"),
        (10, "FALSE(unreach-call)".into())
    );
}
