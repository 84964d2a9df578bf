//! Every FALSE program of tests/programs: `yogar verify --witness` writes a violation witness
//! and `yogar replay` confirms it by running the program concretely along it, on its first,
//! witness-guided run unless the program says otherwise.

use std::path::Path;

#[path = "common/witness.rs"]
mod common;

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
        match common::verify_then_replay(&["--unwind", unwind], &path, &witness) {
            // The replayer does not order the addresses of different objects: a program whose
            // error compares them says so, and its replay stops there without refuting.
            Err(why)
                if text.contains("// replay: unordered addresses")
                    && why.contains("'>u' on pointers") => {}
            Err(why) => failures.push(why),
            // The witness alone should lead the first run to the error; a program where the
            // run cannot make the equation's steps says so in a `// replay: needs search` line.
            Ok(stats)
                if !text.contains("// replay: needs search")
                    && !stats.contains("replay: 0 runs before the confirming one") =>
            {
                failures.push(format!(
                    "{}: the witness-guided run missed: {}",
                    path.display(),
                    stats.trim()
                ))
            }
            Ok(_) => {}
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(checked >= 30, "only {checked} FALSE programs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
