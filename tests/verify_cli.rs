//! `yogar verify` as BenchExec and users call it: task files and property files, the data
//! model, `--unwind auto`, witnesses, `--json`, `--memlimit`, `--compare-size` and `--dot`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const UNREACH: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";
const VALID_MEMSAFETY: &str = "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n";
const NO_OVERFLOW: &str = "CHECK( init(main()), LTL(G ! overflow) )\n";
const TERMINATION: &str = "CHECK( init(main()), LTL(F end) )\n";

fn programs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs")
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yogar-verify-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `yogar verify ARGS` in `dir`: (exit code, stdout lines, stderr).
fn verify(dir: &Path, args: &[&str]) -> (i32, Vec<String>, String) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .arg("verify")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    (
        out.status.code().unwrap_or(-1),
        stdout.lines().map(str::to_string).collect(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn last(lines: &[String]) -> &str {
    lines.last().map_or("", |s| s.as_str())
}

/// Reaches the error only where `long` has 32 bits.
const LONG_IS_32: &str = "extern void reach_error(void);\n\
    int main(void) {\n  if (sizeof(long) == 4) reach_error();\n  return 0;\n}\n";

fn write_task(dir: &Path, data_model: &str, prp: &str) -> PathBuf {
    std::fs::write(dir.join("p.c"), LONG_IS_32).unwrap();
    std::fs::write(dir.join("unreach-call.prp"), UNREACH).unwrap();
    std::fs::write(dir.join("no-overflow.prp"), NO_OVERFLOW).unwrap();
    std::fs::write(dir.join("valid-memsafety.prp"), VALID_MEMSAFETY).unwrap();
    std::fs::write(dir.join("termination.prp"), TERMINATION).unwrap();
    let yml = dir.join("t.yml");
    std::fs::write(
        &yml,
        format!(
            "format_version: '2.0'\ninput_files: 'p.c'\nproperties:\n  - property_file: {prp}\n    \
             expected_verdict: false\noptions:\n  language: C\n  data_model: {data_model}\n"
        ),
    )
    .unwrap();
    yml
}

#[test]
fn task_file_gives_program_and_data_model() {
    let dir = scratch("task");
    write_task(&dir, "ILP32", "unreach-call.prp");
    let (code, out, err) = verify(&dir, &["t.yml"]);
    assert_eq!((code, last(&out)), (10, "FALSE(unreach-call)"), "{err}");
    // The user's flag is authoritative over the task's data model.
    let (code, out, _) = verify(&dir, &["--64", "t.yml"]);
    assert_eq!((code, last(&out)), (0, "TRUE"));

    write_task(&dir, "LP64", "unreach-call.prp");
    let (code, out, _) = verify(&dir, &["t.yml"]);
    assert_eq!((code, last(&out)), (0, "TRUE"));
    // A plain .c file is LP64 unless told otherwise; an explicit property file is read.
    let (code, out, _) = verify(&dir, &["--property", "unreach-call.prp", "p.c"]);
    assert_eq!((code, last(&out)), (0, "TRUE"));
    let (code, out, _) = verify(&dir, &["--property", "unreach-call.prp", "--32", "p.c"]);
    assert_eq!((code, last(&out)), (10, "FALSE(unreach-call)"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn other_properties_and_bad_requests() {
    let dir = scratch("bad");
    write_task(&dir, "ILP32", "termination.prp");
    let (code, out, _) = verify(&dir, &["t.yml"]);
    assert_eq!((code, last(&out)), (5, "UNKNOWN (unsupported property)"));
    let (code, out, _) = verify(&dir, &["--property", "termination.prp", "p.c"]);
    assert_eq!((code, last(&out)), (5, "UNKNOWN (unsupported property)"));
    // valid-memsafety is checked by the default engine and dpor, by no other; the program has
    // no memory operation (its reachable reach_error() is no error under the property).
    let (code, out, _) = verify(&dir, &["--property", "valid-memsafety.prp", "--32", "p.c"]);
    assert_eq!((code, last(&out)), (0, "TRUE"));
    let (code, out, _) = verify(
        &dir,
        &[
            "--engine",
            "cegar",
            "--property",
            "valid-memsafety.prp",
            "p.c",
        ],
    );
    assert_eq!((code, last(&out)), (5, "UNKNOWN (unsupported property)"));
    // no-overflow is checked by the default engine and dpor, by no other; the reachable
    // reach_error() is no error under it.
    let (code, out, _) = verify(&dir, &["--property", "no-overflow.prp", "--32", "p.c"]);
    assert_eq!((code, last(&out)), (0, "TRUE"));
    let (code, out, _) = verify(
        &dir,
        &["--engine", "cegar", "--property", "no-overflow.prp", "p.c"],
    );
    assert_eq!((code, last(&out)), (5, "UNKNOWN (unsupported property)"));
    let (code, out, _) = verify(&dir, &["--property", "termination.prp", "--json", "p.c"]);
    assert_eq!(code, 5);
    let v: serde_json::Value = serde_json::from_str(&out[0]).unwrap();
    assert_eq!(
        (&v["verdict"], &v["reason"]),
        (&"UNKNOWN".into(), &"unsupported property".into())
    );

    let (code, out, err) = verify(&dir, &["missing.yml"]);
    assert_eq!(code, 3);
    assert!(out.is_empty());
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    std::fs::write(
        dir.join("m.yml"),
        "format_version: '2.0'\ninput_files: 'gone.c'\nproperties:\n  - property_file: \
         unreach-call.prp\n",
    )
    .unwrap();
    let (code, _, err) = verify(&dir, &["m.yml"]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let (code, _, err) = verify(&dir, &["--property", "gone.prp", "p.c"]);
    assert_eq!(code, 3, "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A loop of five iterations: bounds below 5 are too small, so `auto` must go past them.
fn loop_program(bad: bool) -> String {
    let cond = if bad { "i == 5" } else { "i != 5" };
    format!(
        "extern void reach_error(void);\nint main(void) {{\n  int i = 0;\n  while (i < 5) i++;\n  \
         if ({cond}) reach_error();\n  return 0;\n}}\n"
    )
}

fn bound_line(out: &[String]) -> u32 {
    let line = out
        .iter()
        .find_map(|l| l.strip_prefix("unwind bound: "))
        .expect("an unwind bound line");
    line.parse().unwrap()
}

#[test]
fn unwind_auto_deepens_until_a_verdict() {
    let dir = scratch("auto");
    std::fs::write(dir.join("ok.c"), loop_program(false)).unwrap();
    std::fs::write(dir.join("bad.c"), loop_program(true)).unwrap();
    for (file, code, verdict) in [("ok.c", 0, "TRUE"), ("bad.c", 10, "FALSE(unreach-call)")] {
        for extra in [&[][..], &["--unwind", "auto"][..]] {
            let mut args = extra.to_vec();
            args.push(file);
            let (c, out, err) = verify(&dir, &args);
            assert_eq!((c, last(&out)), (code, verdict), "{file}: {err}");
            // 1, 2, 3, 4 are too small for bounded checking; 6 is the first bound of the
            // sequence that suffices. After bound 1 the prover's cheapest rungs run once
            // (TRUE with a proof line that names a prover, after bound 1); the other provers
            // and the stateful search wait while the bounds are quick
            // (`pipeline::QUICK_BOUND`), so the error is found by bound 6, not by the
            // stateful search after bound 3.
            let bound = bound_line(&out);
            let quick = code == 0 && bound == 1;
            assert!(bound == 6 || quick, "{file}: bound {bound}");
            let proved_by = out.iter().find_map(|l| l.strip_prefix("proved by: "));
            if code == 0 {
                let how = proved_by.expect("a TRUE says how it was proved");
                if quick {
                    assert!(!how.starts_with("unwinding assertions"), "{file}: {how}");
                } else {
                    assert_eq!(how, "unwinding assertions at bound 6", "{file}");
                }
            }
        }
    }
    // A fixed bound that is too small stays an UNKNOWN.
    let (c, out, _) = verify(&dir, &["--unwind", "3", "ok.c"]);
    assert_eq!(c, 5);
    assert!(last(&out).starts_with("UNKNOWN (unwind bound too small"));
    assert_eq!(bound_line(&out), 3);
    // --stats reports the deciding bound too.
    let (_, out, _) = verify(&dir, &["--stats", "bad.c"]);
    assert_eq!(bound_line(&out), 6);
    assert!(out.iter().any(|l| l.starts_with("refinements: ")));
    let (c, _, _) = verify(&dir, &["--unwind", "six", "ok.c"]);
    assert_eq!(c, 2);
    std::fs::remove_dir_all(dir).unwrap();
}

fn data<'a>(node: roxmltree::Node<'a, 'a>, key: &str) -> Option<&'a str> {
    node.children()
        .find(|c| c.has_tag_name("data") && c.attribute("key") == Some(key))
        .and_then(|c| c.text())
}

/// The witness of a FALSE program: required keys, thread ids, creations, one violation.
fn check_violation_witness(dir: &Path, program: &Path, entry_functions: &[&str]) -> Vec<String> {
    let witness = dir.join("w.graphml");
    let prog = program.to_str().unwrap();
    let (code, out, err) = verify(dir, &["--witness", "w.graphml", "--32", prog]);
    assert_eq!((code, last(&out)), (10, "FALSE(unreach-call)"), "{err}");
    let text = std::fs::read_to_string(&witness).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let graph = doc.descendants().find(|n| n.has_tag_name("graph")).unwrap();
    assert_eq!(data(graph, "witness-type"), Some("violation_witness"));
    assert_eq!(data(graph, "architecture"), Some("32bit"));
    assert_eq!(data(graph, "programfile"), Some(prog));
    assert_eq!(
        data(graph, "specification"),
        Some(UNREACH.trim()),
        "specification"
    );
    let hash = data(graph, "programhash").unwrap();
    assert_eq!(
        hash,
        yogar::witness::sha256_hex(&std::fs::read(program).unwrap())
    );
    for key in ["producer", "sourcecodelang", "creationtime"] {
        assert!(data(graph, key).is_some(), "missing {key}");
    }
    let violations = graph
        .children()
        .filter(|n| n.has_tag_name("node") && data(*n, "violation") == Some("true"))
        .count();
    assert_eq!(violations, 1);
    let edges: Vec<_> = graph
        .children()
        .filter(|n| n.has_tag_name("edge"))
        .collect();
    let mut created = vec!["0".to_string()];
    let mut assumptions = Vec::new();
    for (i, e) in edges.iter().enumerate() {
        let tid = data(*e, "threadId").expect("threadId on every edge");
        assert!(
            created.iter().any(|c| c == tid),
            "thread {tid} acts uncreated"
        );
        if let Some(child) = data(*e, "createThread") {
            // Threads are numbered in the order the execution creates them, as a replay
            // (and a validator that counts `pthread_create` calls) numbers them.
            assert_eq!(
                child,
                created.len().to_string(),
                "thread ids in creation order"
            );
            let next = edges.get(i + 1).expect("an edge after createThread");
            assert_eq!(data(*next, "threadId"), Some(child));
            let f = data(*next, "enterFunction").expect("enterFunction after createThread");
            assert!(entry_functions.contains(&f), "{f}");
            created.push(child.to_string());
        }
        if let Some(a) = data(*e, "assumption") {
            assumptions.push(a.to_string());
        }
    }
    assert!(created.len() > 1, "no thread created");
    // The violation node is the target of the last edge.
    let last_edge = edges.last().unwrap();
    let target = last_edge.attribute("target").unwrap();
    let vnode = graph
        .children()
        .find(|n| n.has_tag_name("node") && n.attribute("id") == Some(target))
        .unwrap();
    assert_eq!(data(vnode, "violation"), Some("true"));
    assumptions
}

#[test]
fn violation_witnesses_of_false_programs() {
    let dir = scratch("witness");
    let readme = programs().join("readme_example.c");
    let assumptions = check_violation_witness(&dir, &readme, &["worker"]);
    // Both workers read the counter; one of the reads sees 0.
    assert!(
        assumptions.iter().any(|a| a == "counter == 0;"),
        "{assumptions:?}"
    );

    let nondet = programs().join("nondet_input_and_schedule_false.c");
    let assumptions = check_violation_witness(&dir, &nondet, &["t1", "t2"]);
    // t2 reads 42, which only the input can have put there.
    assert!(
        assumptions.iter().any(|a| a == "x == 42;"),
        "{assumptions:?}"
    );
    assert!(
        assumptions.iter().any(|a| a == "\\result == 42;"),
        "{assumptions:?}"
    );

    // A loop instance no execution creates comes before the checker: the checker is still
    // thread 3 in the witness.
    let pool = programs().join("pool_partly_created_false.c");
    check_violation_witness(&dir, &pool, &["producer", "checker"]);

    // Without --witness the witness goes to ./witness.graphml.
    let (code, _, _) = verify(&dir, &[readme.to_str().unwrap()]);
    assert_eq!(code, 10);
    assert!(dir.join("witness.graphml").is_file());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn correctness_witness_of_a_true_program() {
    let dir = scratch("correct");
    std::fs::write(dir.join("ok.c"), loop_program(false)).unwrap();
    let (code, _, _) = verify(&dir, &["--witness", "c.graphml", "ok.c"]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(dir.join("c.graphml")).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let graph = doc.descendants().find(|n| n.has_tag_name("graph")).unwrap();
    assert_eq!(data(graph, "witness-type"), Some("correctness_witness"));
    assert_eq!(data(graph, "architecture"), Some("64bit"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn json_result() {
    let dir = scratch("json");
    let readme = programs().join("readme_example.c");
    let (code, out, _) = verify(&dir, &["--json", readme.to_str().unwrap()]);
    assert_eq!((code, last(&out)), (10, "FALSE(unreach-call)"));
    let line = out
        .iter()
        .find(|l| l.starts_with('{'))
        .expect("a JSON line");
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(v["verdict"], "FALSE(unreach-call)");
    // No loops: the first bound decides.
    assert_eq!(v["unwind_bound"], 1);
    assert!(v["statistics"]["refinements"].is_u64());
    let events = v["trace"]["events"].as_array().unwrap();
    // Two increments of the counter that lose one: two reads and two writes by workers.
    let writes: Vec<_> = events
        .iter()
        .filter(|e| e["cell"].as_str().unwrap().starts_with("counter") && e["access"] == "write")
        .collect();
    assert_eq!(writes.len(), 2, "{events:?}");
    assert!(writes.iter().all(|e| e["value"] == 1));
    assert_eq!(v["trace"]["threads"].as_array().unwrap().len(), 3);

    let (code, out, _) = verify(&dir, &["--json", "--unwind", "3", readme.to_str().unwrap()]);
    let line = out.iter().find(|l| l.starts_with('{')).unwrap();
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(code, 10);
    assert_eq!(v["unwind_bound"], 3);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Two threads in endless loops: the formula grows with the bound without end.
const ENDLESS: &str = "#include <pthread.h>\nint x;\n\
    void *w(void *a) { while (1) { x = x + 1; } return 0; }\n\
    int main(void) { pthread_t t; pthread_create(&t, 0, w, 0);\n\
    while (1) { x = x - 1; } return 0; }\n";

#[test]
fn memory_limit_ends_in_unknown() {
    let dir = scratch("mem");
    let readme = programs().join("readme_example.c");
    // Too little even to start: still a verdict line, never a crash.
    let (code, out, err) = verify(&dir, &["--memlimit", "1", readme.to_str().unwrap()]);
    assert_eq!((code, last(&out)), (5, "UNKNOWN (out of memory)"), "{err}");
    let (code, out, err) = verify(&dir, &["--memlimit", "4000", readme.to_str().unwrap()]);
    assert_eq!((code, last(&out)), (10, "FALSE(unreach-call)"), "{err}");
    // Exhausted while building the formula.
    std::fs::write(dir.join("endless.c"), ENDLESS).unwrap();
    let (code, out, err) = verify(
        &dir,
        &["--memlimit", "700", "--unwind", "100000", "endless.c"],
    );
    assert_eq!((code, last(&out)), (5, "UNKNOWN (out of memory)"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn compare_size_and_dot() {
    let dir = scratch("dot");
    let readme = programs().join("readme_example.c");
    let file = readme.to_str().unwrap();
    let (code, out, _) = verify(
        &dir,
        &[
            "--engine",
            "cegar",
            "--stats",
            "--compare-size",
            "--dot",
            "g.dot",
            "--unwind",
            "2",
            file,
        ],
    );
    assert_eq!(code, 10);
    let num = |key: &str| -> u64 {
        out.iter()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("no {key} line"))
            .trim()
            .parse()
            .unwrap()
    };
    assert!(num("monolithic xi clauses:") > 0);
    assert!(num("phi0 clauses:") > 0);
    // The peak resident memory, in MiB: a running yogar holds at least one.
    let peak: f64 = out
        .iter()
        .find_map(|l| l.strip_prefix("peak memory MiB:"))
        .expect("--stats reports the peak memory")
        .trim()
        .parse()
        .unwrap();
    assert!(peak > 1.0 && peak < 1e6, "{peak}");
    // The process's CPU time: positive (the frontend alone takes some) and far below a minute.
    let cpu: f64 = out
        .iter()
        .find_map(|l| l.strip_prefix("process cpu time:"))
        .expect("--stats reports the CPU time")
        .trim()
        .parse()
        .unwrap();
    assert!(cpu > 0.0 && cpu < 60.0, "{cpu}");
    // Its one refinement is an exact check, not a cycle: no graph.
    assert_eq!(num("refinements by graph:"), 0);
    assert!(!dir.join("g.dot").exists());
    // Lock-order refinements are found as cycles of the event order graph.
    let locks = programs().join("lock_order_consistent_true.c");
    let (code, out, _) = verify(
        &dir,
        &[
            "--engine",
            "cegar",
            "--stats",
            "--dot",
            "l.dot",
            "--unwind",
            "2",
            locks.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0);
    assert!(out
        .iter()
        .any(|l| l.starts_with("refinements by graph: ") && !l.ends_with(": 0")));
    let dot = std::fs::read_to_string(dir.join("l.dot")).unwrap();
    assert!(dot.starts_with("digraph") && dot.contains("->"), "{dot}");
    // A program with no refinement writes no graph and says so.
    std::fs::write(dir.join("ok.c"), loop_program(false)).unwrap();
    let (code, _, err) = verify(&dir, &["--dot", "h.dot", "ok.c"]);
    assert_eq!(code, 0);
    assert!(!dir.join("h.dot").exists());
    assert!(
        err.contains("no counterexample was refuted by a cycle"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// `outer` creates `inner`: the witness has `inner` created by `outer`'s thread, after
/// `outer` itself is created by main.
const NESTED: &str = "#include <pthread.h>\nextern void reach_error(void);\nint x;\n\
    void *inner(void *a) { x = 5; return 0; }\n\
    void *outer(void *a) { pthread_t t; pthread_create(&t, 0, inner, 0); return 0; }\n\
    int main(void) { pthread_t t; pthread_create(&t, 0, outer, 0);\n\
    if (x == 5) reach_error(); return 0; }\n";

#[test]
fn witness_of_a_thread_created_by_a_thread() {
    let dir = scratch("nested");
    std::fs::write(dir.join("nest.c"), NESTED).unwrap();
    let assumptions = check_violation_witness(&dir, &dir.join("nest.c"), &["outer", "inner"]);
    assert_eq!(assumptions, ["x == 5;"]);
    let text = std::fs::read_to_string(dir.join("w.graphml")).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let creates: Vec<(String, u32, String)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("edge"))
        .filter_map(|e| {
            let child = data(e, "createThread")?;
            Some((
                data(e, "threadId")?.to_string(),
                data(e, "startline")?.parse().ok()?,
                child.to_string(),
            ))
        })
        .collect();
    assert_eq!(
        creates,
        [
            ("0".to_string(), 6, "1".to_string()),
            ("1".to_string(), 5, "2".to_string())
        ]
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--stats` counts the waiting loops the spin reduction cut, and `--no-spin-reduction`
/// unrolls them like any loop: the unbounded await then cannot be proved at any bound.
#[test]
fn spin_reduction_is_counted_and_can_be_turned_off() {
    let dir = scratch("spin");
    let prog =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/spin/flag_after_bad_write_true.c");
    let prog = prog.to_str().unwrap();
    let (code, lines, _) = verify(&dir, &["--unwind", "auto", "--stats", prog]);
    assert_eq!((code, last(&lines)), (0, "TRUE"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l == "spin loops reduced: 1"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l == "spin await loops: 1"),
        "{lines:?}"
    );
    let (code, lines, _) = verify(
        &dir,
        &["--unwind", "3", "--no-spin-reduction", "--stats", prog],
    );
    assert_eq!(code, 5, "{lines:?}");
    assert!(
        last(&lines).starts_with("UNKNOWN (unwind bound too small"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l == "spin loops reduced: 0"),
        "{lines:?}"
    );
}

/// A signed global read back in another step: the explorers' trace shows the access's own
/// bits, as the SAT engines' trace does (a read was shown sign-extended to 64 bits).
#[test]
fn explorer_trace_shows_a_negative_read_at_its_width() {
    let dir = scratch("negative-read");
    let src = dir.join("neg.c");
    std::fs::write(
        &src,
        "#include <pthread.h>\nextern int __VERIFIER_nondet_int(void);\n\
         extern void reach_error(void);\nint in1; int x;\n\
         void *t(void *a) { x = 1; return 0; }\n\
         int main(void) {\n  pthread_t h;\n  in1 = __VERIFIER_nondet_int();\n\
         pthread_create(&h, 0, t, 0);\n  if (in1 == -9 && x == 1) reach_error();\n  return 0;\n}\n",
    )
    .unwrap();
    for engine in ["dpor", "cdpor"] {
        let (code, out, _) = verify(&dir, &["--engine", engine, "neg.c"]);
        assert_eq!(code, 10, "{engine}: {out:?}");
        let reads: Vec<&String> = out.iter().filter(|l| l.contains("read  in1")).collect();
        assert!(!reads.is_empty(), "{engine}: no read of in1 in {out:?}");
        for r in reads {
            assert!(r.ends_with("read  in1 = 4294967287 (-9)"), "{engine}: {r}");
        }
    }
}

/// `yogar verify F | head -1`: the closed pipe ends yogar like any Unix filter (SIGPIPE),
/// not with a panic message.
#[test]
fn a_closed_output_pipe_is_no_panic() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["verify", "--engine", "dpor"])
        .arg(programs().join("mpc_race_then_input_false.c"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
}

/// An explorer's UNKNOWN names the line whose instruction trapped, not the start of the step
/// that ran it (which was `<input>:0` for main's first step).
#[test]
fn explorer_unknown_names_the_line_that_trapped() {
    let dir = scratch("trap-line");
    std::fs::write(
        dir.join("trap.c"),
        "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
         int a[4];\nint main(void) {\n  int i = __VERIFIER_nondet_int();\n\
         int *p = a + i;\n  if (*p > 3) reach_error();\n  return 0;\n}\n",
    )
    .unwrap();
    for engine in ["dpor", "cdpor"] {
        let (code, out, _) = verify(&dir, &["--engine", engine, "trap.c"]);
        assert_eq!(code, 5, "{engine}: {out:?}");
        // The offset is pinned (inside its object or one past its end, else UNKNOWN at the
        // arithmetic); one past the end traps at the dereference. Either names its own line.
        let why = last(&out);
        assert!(
            why.ends_with("input-dependent pointer offset outside its object at trap.c:6)")
                || why.ends_with("out-of-bounds access at trap.c:7)"),
            "{engine}: {why}"
        );
    }
}

/// `--causal-maps` switches the rvf explorer's causal maps on: the same verdict, and `--stats`
/// shows the witness-search steps they cut (none without them).
#[test]
fn causal_maps_option_reaches_the_rvf_explorer() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/rvf_two_readers_true.c");
    let cuts = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
            .args(["verify", "--engine", "rvf", "--unwind", "2", "--stats"])
            .args(extra)
            .arg(&path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(text.lines().any(|l| l == "TRUE"), "{text}");
        text.lines()
            .find_map(|l| l.strip_prefix("causal map cuts: "))
            .and_then(|n| n.trim().parse::<u64>().ok())
            .expect("--stats prints the cuts")
    };
    assert_eq!(cuts(&[]), 0);
    assert!(cuts(&["--causal-maps"]) > 0);
}
