//! Every FALSE program of tests/programs: `yogar verify --witness` writes a violation witness
//! and `yogar replay` confirms it by running the program concretely along it, on its first,
//! witness-guided run unless the program says otherwise.

use std::path::Path;
use std::process::Command;

#[test]
fn every_false_verdict_has_a_witness_that_replay_confirms() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let tmp = std::env::temp_dir().join(format!("yogar-witness-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/programs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("c"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let head = text.lines().next().unwrap_or("");
        if !head.contains("expect: FALSE") {
            continue;
        }
        let unwind = head.split("unwind:").nth(1).map(str::trim).unwrap_or("2");
        let witness = tmp.join(format!("{checked}.graphml"));
        let verify = Command::new(env!("CARGO_BIN_EXE_yogar"))
            .args(["verify", "--unwind", unwind, "--witness"])
            .arg(&witness)
            .arg(&path)
            .output()
            .expect("verify runs");
        if verify.status.code() != Some(10) {
            failures.push(format!("{}: verify did not answer FALSE", path.display()));
            continue;
        }
        let replay = Command::new(env!("CARGO_BIN_EXE_yogar"))
            .arg("replay")
            .arg(&path)
            .arg(&witness)
            .output()
            .expect("replay runs");
        let out = String::from_utf8_lossy(&replay.stdout);
        if replay.status.code() != Some(0) || !out.contains("witness confirmed") {
            failures.push(format!("{}: {}", path.display(), out.trim()));
        } else if !text.contains("// replay: needs search")
            && !String::from_utf8_lossy(&replay.stderr)
                .contains("replay: 0 runs before the confirming one")
        {
            // The witness alone should lead the first run to the error; a program where the
            // run cannot make the equation's steps says so in a `// replay: needs search` line.
            failures.push(format!(
                "{}: the witness-guided run missed: {}",
                path.display(),
                out.trim()
            ));
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(checked >= 30, "only {checked} FALSE programs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
