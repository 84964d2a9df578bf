//! YAML violation witnesses (format 2.2): every FALSE program of tests/programs/races and
//! tests/programs/overflow (default engine and dpor) and a sample of the unreach-call FALSE
//! programs (every sixth) gets a `violation_sequence` whose waypoints carry thread ids, and
//! `yogar replay` confirms it: the race between the two target accesses, the overflow or the
//! error at the target. A tampered witness — a target moved to another thread or line, a
//! waypoint in a thread never created, a line no statement of its thread is on — is rejected.

use std::path::{Path, PathBuf};
use std::process::Command;

use yogar::witness::yaml::{Entry, WaypointType};

fn programs(dir: &str) -> Vec<(PathBuf, u32)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(dir);
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/programs") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let head = text.lines().next().unwrap_or("");
        if path.extension().and_then(|e| e.to_str()) != Some("c") || !head.contains("expect: FALSE")
        {
            continue;
        }
        let unwind = head
            .split("unwind:")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{}: no `unwind:` header", path.display()));
        out.push((path, unwind));
    }
    out.sort();
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("yogar-yaml-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `yogar verify` writing the YAML witness to `yaml`: its last line (FALSE expected).
fn verify(program: &Path, unwind: u32, extra: &[&str], yaml: &Path) -> Result<(), String> {
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .arg("verify")
        .args(["--unwind", &unwind.to_string()])
        .args(extra)
        .arg("--witness")
        .arg(yaml.with_extension("graphml"))
        .arg("--witness-yaml")
        .arg(yaml)
        .arg(program)
        .output()
        .expect("verify runs");
    let text = String::from_utf8_lossy(&out.stdout);
    if out.status.code() != Some(10) {
        return Err(format!("{}: {}", program.display(), text.trim()));
    }
    Ok(())
}

/// `yogar replay`: exit code and its first line.
fn replay(program: &Path, witness: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .arg("replay")
        .arg(program)
        .arg(witness)
        .output()
        .expect("replay runs");
    let text = String::from_utf8_lossy(&out.stdout);
    (
        out.status.code(),
        text.lines().next().unwrap_or("").to_string(),
    )
}

fn read(yaml: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(yaml).expect("witness written");
    yaml_serde::from_str(&text).expect("the witness is YAML of the format")
}

/// Every FALSE program of `dir` under `property` (a `.prp` text, if any) by each engine: the
/// YAML witness has thread ids and the property's targets, and replay confirms it with
/// `confirmed` in its answer.
fn all_replay(dir: &str, prp: Option<&str>, engines: &[&str], sample: usize, confirmed: &str) {
    let tmp = temp_dir(dir.trim_matches('.'));
    let prp_file = tmp.join("property.prp");
    let mut extra: Vec<String> = Vec::new();
    if let Some(spec) = prp {
        std::fs::write(&prp_file, spec).expect("prp");
        extra = vec!["--property".into(), prp_file.display().to_string()];
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for (program, unwind) in programs(dir).into_iter().step_by(sample) {
        let text = std::fs::read_to_string(&program).unwrap_or_default();
        for engine in engines {
            if *engine == "dpor" && text.contains("dpor enumerates inputs") {
                continue;
            }
            let yaml = tmp.join(format!("{checked}.yml"));
            let mut args: Vec<&str> = extra.iter().map(String::as_str).collect();
            args.extend(["--engine", engine]);
            if let Err(e) = verify(&program, unwind, &args, &yaml) {
                failures.push(format!("{engine}: {e}"));
                continue;
            }
            let entries = read(&yaml);
            assert_eq!(entries[0].entry_type, "violation_sequence");
            assert_eq!(entries[0].metadata.format_version, "2.2");
            let targets = entries[0].content.last().expect("segments").segment.len();
            assert_eq!(targets, if dir == "races" { 2 } else { 1 }, "{yaml:?}");
            let all_have_threads = entries[0]
                .content
                .iter()
                .flat_map(|s| &s.segment)
                .all(|w| w.waypoint.thread_id.is_some());
            assert!(all_have_threads, "{}", program.display());
            let (code, said) = replay(&program, &yaml);
            if code != Some(0) || !said.contains(confirmed) {
                failures.push(format!("{engine}: {}: {said}", program.display()));
            }
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 6, "only {checked} witnesses");
}

#[test]
fn race_witnesses_replay() {
    all_replay(
        "races",
        Some(yogar::svcomp::NO_DATA_RACE_SPEC),
        &["yogar", "dpor"],
        1,
        "witness confirmed: data race",
    );
}

#[test]
fn overflow_witnesses_replay() {
    all_replay(
        "overflow",
        Some(yogar::svcomp::NO_OVERFLOW_SPEC),
        &["yogar", "dpor"],
        1,
        "witness confirmed: signed overflow",
    );
}

#[test]
fn unreach_call_witnesses_replay() {
    all_replay(".", None, &["yogar"], 6, "witness confirmed: violation");
}

/// The witness of `program` (FALSE under `prp`), tampered by `tamper`, and what replay says.
fn tampered(
    program: &str,
    prp: Option<&str>,
    tamper: &dyn Fn(&mut Entry),
) -> (Option<i32>, String, Option<i32>) {
    let program = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(program);
    let tmp = temp_dir("tamper");
    let name = program.file_stem().unwrap().to_string_lossy().into_owned();
    let yaml = tmp.join(format!("{name}.yml"));
    let mut extra = Vec::new();
    let prp_file = tmp.join(format!("{name}.prp"));
    if let Some(spec) = prp {
        std::fs::write(&prp_file, spec).expect("prp");
        extra = vec!["--property".to_string(), prp_file.display().to_string()];
    }
    let args: Vec<&str> = extra.iter().map(String::as_str).collect();
    verify(&program, 2, &args, &yaml).expect("FALSE");
    let (original, _) = replay(&program, &yaml);
    let mut entries = read(&yaml);
    tamper(&mut entries[0]);
    let bad = tmp.join(format!("{name}.tampered.yml"));
    std::fs::write(&bad, yaml_serde::to_string(&entries).expect("YAML")).expect("write");
    let (code, said) = replay(&program, &bad);
    let _ = std::fs::remove_file(&bad);
    let _ = std::fs::remove_file(&yaml);
    (code, said, original)
}

fn targets(e: &mut Entry) -> impl Iterator<Item = &mut yogar::witness::yaml::Waypoint> {
    e.content
        .last_mut()
        .expect("segments")
        .segment
        .iter_mut()
        .map(|w| &mut w.waypoint)
}

fn assert_rejected(result: (Option<i32>, String, Option<i32>), what: &str) {
    let (code, said, original) = result;
    assert_eq!(original, Some(0), "{what}: the untampered witness replays");
    assert_eq!(code, Some(1), "{what}: {said}");
    assert!(said.starts_with("witness not confirmed"), "{what}: {said}");
}

#[test]
fn a_race_target_in_the_wrong_thread_or_line_is_rejected() {
    let race = Some(yogar::svcomp::NO_DATA_RACE_SPEC);
    // join_moved_false.c: the child writes, main reads after creating it.
    let prog = "races/join_moved_false.c";
    // Both targets in one thread.
    let r = tampered(prog, race, &|e| {
        let t: Vec<_> = targets(e).map(|w| w.thread_id).collect();
        for w in targets(e) {
            w.thread_id = t[0];
        }
    });
    assert_rejected(r, "one thread");
    // The threads of the two accesses swapped: each line is code of the other thread only.
    let r = tampered(prog, race, &|e| {
        let t: Vec<_> = targets(e).map(|w| w.thread_id).collect();
        for (w, t) in targets(e).zip(t.into_iter().rev()) {
            w.thread_id = t;
        }
    });
    assert_rejected(r, "threads swapped");
    // A thread no waypoint created.
    let r = tampered(prog, race, &|e| {
        if let Some(w) = targets(e).next() {
            w.thread_id = Some(7);
        }
    });
    assert_rejected(r, "thread 7");
    // A line of no statement (the comment on line 2).
    let r = tampered(prog, race, &|e| {
        if let Some(w) = targets(e).next() {
            w.location.line = 2;
        }
    });
    assert_rejected(r, "line 2");
}

#[test]
fn an_unreach_call_target_elsewhere_is_rejected() {
    let prog = "mutex_wrong_lock_false.c";
    // The error one line off: a statement of the same thread, where no error is.
    let r = tampered(prog, None, &|e| {
        for w in targets(e) {
            w.location.line -= 1;
        }
    });
    assert_rejected(r, "line before the error");
    // The error claimed in a created thread, which never runs that line.
    let r = tampered(prog, None, &|e| {
        for w in targets(e) {
            w.thread_id = Some(1);
        }
    });
    assert_rejected(r, "error in thread 1");
    // A waypoint before the target in a thread that does not exist yet.
    let r = tampered(prog, None, &|e| {
        let first = e
            .content
            .iter_mut()
            .map(|s| &mut s.segment[0].waypoint)
            .find(|w| w.kind != WaypointType::FunctionEnter);
        if let Some(w) = first {
            w.thread_id = Some(5);
        }
    });
    assert_rejected(r, "thread 5");
}

/// The kind a memory-safety program's header names (`// expect: FALSE(valid-free) ...`).
fn expected_kind(program: &Path) -> String {
    let text = std::fs::read_to_string(program).expect("program");
    let head = text.lines().next().unwrap_or("");
    head.split("FALSE(")
        .nth(1)
        .and_then(|r| r.split(')').next())
        .unwrap_or_else(|| panic!("{}: no FALSE(kind) header", program.display()))
        .to_string()
}

/// Every FALSE program of tests/programs/memsafety by each engine: the YAML witness names the
/// subproperty (`G valid-free`), replay confirms a violation of that kind, and the same witness
/// naming another kind is rejected (replay checks the kind, not only the place).
#[test]
fn memsafety_witnesses_replay_with_their_kind_only() {
    let tmp = temp_dir("memsafety-kind");
    let prp = tmp.join("property.prp");
    std::fs::write(&prp, yogar::svcomp::VALID_MEMSAFETY_SPEC).expect("prp");
    let prp = prp.display().to_string();
    let (mut failures, mut checked) = (Vec::new(), 0);
    for (program, unwind) in programs("memsafety") {
        let text = std::fs::read_to_string(&program).unwrap_or_default();
        let kind = expected_kind(&program);
        for engine in ["yogar", "dpor"] {
            if (engine == "dpor" && text.contains("dpor enumerates inputs"))
                || (engine == "yogar" && text.contains("default engine: UNKNOWN"))
            {
                continue;
            }
            let yaml = tmp.join(format!("{checked}.yml"));
            let args = ["--property", prp.as_str(), "--engine", engine];
            if let Err(e) = verify(&program, unwind, &args, &yaml) {
                failures.push(format!("{engine}: {e}"));
                continue;
            }
            let mut entries = read(&yaml);
            assert_eq!(entries[0].metadata.task.specification, format!("G {kind}"));
            let (code, said) = replay(&program, &yaml);
            if code != Some(0) || !said.contains(&format!("memory-safety violation ({kind})")) {
                failures.push(format!("{engine}: {}: {said}", program.display()));
            }
            let other = ["valid-deref", "valid-free", "valid-memtrack"]
                .into_iter()
                .find(|k| *k != kind)
                .expect("another kind");
            entries[0].metadata.task.specification = format!("G {other}");
            let bad = tmp.join(format!("{checked}.other.yml"));
            std::fs::write(&bad, yaml_serde::to_string(&entries).expect("YAML")).expect("write");
            let (code, said) = replay(&program, &bad);
            if code != Some(1) || !said.starts_with("witness not confirmed") {
                failures.push(format!(
                    "{engine}: {} as {other}: {said}",
                    program.display()
                ));
            }
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 12, "only {checked} witnesses");
}
