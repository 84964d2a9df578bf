//! End-to-end tests of the regression runner: a small task tree and a stand-in for yogar (a
//! shell script whose answer is written in the input file) in a temporary folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{run, Log};

const PRP: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";

/// A stand-in for yogar: the answer is written in the input file (`ANSWER: <last line>
/// <exit>`), or it spins (`SPIN`) to hit the CPU limit. It prints a refinement count and the
/// data model it was given, and writes a witness for a FALSE when asked; `replay` confirms a
/// witness unless the input says `REPLAY_FAILS` (or, with `REPLAY_CRASHES`, prints the line
/// and is killed).
const FAKE_TOOL: &str = r#"#!/bin/sh
prev=; cur=; for a; do prev=$cur; cur=$a; done
if [ "$1" = replay ]; then
  [ "$(cat "$cur")" = witness ] || exit 99
  if grep -q REPLAY_FAILS "$prev"; then echo "witness not confirmed: search exhausted"; exit 1; fi
  echo "witness confirmed: violation reached"
  if grep -q REPLAY_CRASHES "$prev"; then kill -9 $$; fi
  exit 0
fi
[ "$1" = verify ] || exit 98
case " $* " in *" --property "*) ;; *) exit 97;; esac
if grep -q SPIN "$cur"; then while :; do :; done; fi
line=$(grep '^ANSWER: ' "$cur" | head -n 1 | sed 's/^ANSWER: //; s/ REPLAY_FAILS//; s/ REPLAY_CRASHES//')
code=${line##* }; verdict=${line% *}
dm=none; case " $* " in *" --32 "*) dm=ILP32;; *" --64 "*) dm=LP64;; esac
echo "data model: $dm"
echo "refinements: 4"
witness=; take=; for a; do if [ -n "$take" ]; then witness=$a; take=; fi; if [ "$a" = --witness ]; then take=1; fi; done
case "$verdict" in FALSE*) if [ -n "$witness" ]; then printf witness > "$witness"; fi;; esac
echo "$verdict"
exit "$code"
"#;

struct Fixture {
    root: PathBuf,
}

impl Fixture {
    fn new(name: &str) -> Fixture {
        let root =
            std::env::temp_dir().join(format!("yogar-regress-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let tool = root.join("yogar");
        std::fs::write(&tool, FAKE_TOOL).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        Fixture { root }
    }

    fn svb(&self) -> PathBuf {
        self.root.join("svb")
    }

    /// An sv-benchmarks-like tree: (dir/name, expected, answer, exit code) per task.
    fn tasks(&self, tasks: &[(&str, bool, &str, i32)], with_table: bool) {
        let c = self.svb().join("c");
        std::fs::create_dir_all(c.join("properties")).unwrap();
        std::fs::write(c.join("properties/unreach-call.prp"), PRP).unwrap();
        let mut table = String::from("yml,input_file,expected_verdict,directory\n");
        for (name, expected, answer, code) in tasks {
            let (dir, stem) = name.split_once('/').unwrap();
            std::fs::create_dir_all(c.join(dir)).unwrap();
            let body = if *answer == "SPIN" {
                "SPIN\n".to_string()
            } else {
                format!("ANSWER: {answer} {code}\n")
            };
            std::fs::write(
                c.join(format!("{dir}/{stem}.i")),
                format!("int main(void) {{ return 0; }}\n{body}"),
            )
            .unwrap();
            std::fs::write(
                c.join(format!("{dir}/{stem}.yml")),
                format!(
                    "format_version: '1.0'\n\n# a comment\ninput_files: '{stem}.i'\n\n\
                     properties:\n  - property_file: ../properties/unreach-call.prp\n    \
                     expected_verdict: {expected}\n"
                ),
            )
            .unwrap();
            table.push_str(&format!(
                "{dir}/{stem}.yml,{dir}/{stem}.i,{expected},{dir}\n"
            ));
        }
        let csv = self.svb().join("tasks.csv");
        if with_table {
            std::fs::write(csv, table).unwrap();
        } else {
            let _ = std::fs::remove_file(csv);
        }
    }

    fn out(&self) -> PathBuf {
        self.root.join("out")
    }

    /// Runs the runner; the exit code, the rows of results.csv by task, and all it printed.
    fn run(&self, extra: &[&str]) -> (u8, BTreeMap<String, super::table::Row>, String) {
        let mut argv: Vec<String> = vec![
            "--svb".into(),
            self.svb().display().to_string(),
            "--yogar".into(),
            self.root.join("yogar").display().to_string(),
            "--out".into(),
            self.out().display().to_string(),
            "--jobs".into(),
            "2".into(),
            "--baseline".into(),
            self.root.join("baseline.csv").display().to_string(),
        ];
        argv.extend(extra.iter().map(|s| s.to_string()));
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let results = self.out().join("results.csv");
        let _ = std::fs::remove_file(&results);
        let code = run(
            &argv,
            &mut Log {
                out: &mut out,
                err: &mut err,
            },
        );
        let rows = if results.is_file() {
            super::table::read_rows(&results)
                .unwrap()
                .into_iter()
                .map(|r| (r.task.clone(), r))
                .collect()
        } else {
            BTreeMap::new()
        };
        let text = String::from_utf8_lossy(&out).into_owned() + &String::from_utf8_lossy(&err);
        (code, rows, text)
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn path_str(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn correct_run_passes_and_wrong_verdict_fails() {
    let f = Fixture::new("wrong");
    f.tasks(
        &[
            ("d1/safe", true, "TRUE", 0),
            ("d1/bug", false, "FALSE(unreach-call)", 10),
            ("d2/hard", true, "UNKNOWN (unwind bound too small)", 5),
        ],
        true,
    );
    let (code, rows, log) = f.run(&[]);
    assert_eq!(code, 0, "{log}");
    assert_eq!(rows["d1/safe.yml"].status, "true");
    assert_eq!(rows["d1/bug.yml"].status, "false(unreach-call)");
    assert_eq!(rows["d2/hard.yml"].category, "unknown");
    assert_eq!(rows["d1/safe.yml"].refinements, "4");
    assert!(log.contains("score: 3 of 5"), "{log}");

    // A wrong TRUE on a buggy task: exit 1, -32, named in the log.
    f.tasks(&[("d1/bug", false, "TRUE", 0)], true);
    let (code, rows, log) = f.run(&[]);
    assert_eq!(code, 1, "{log}");
    assert_eq!(rows["d1/bug.yml"].category, "wrong");
    assert_eq!(rows["d1/bug.yml"].score, -32);
    assert!(log.contains("WRONG verdicts: d1/bug.yml"), "{log}");
}

#[test]
fn exit_code_disagreeing_with_the_verdict_is_an_error_not_a_verdict() {
    let f = Fixture::new("disagree");
    f.tasks(&[("d1/bug", false, "FALSE(unreach-call)", 0)], true);
    let (code, rows, log) = f.run(&[]);
    assert_eq!(code, 0, "{log}");
    assert_eq!(rows["d1/bug.yml"].category, "error");
}

#[test]
fn data_model_default_and_tasks_without_table() {
    let f = Fixture::new("notable");
    f.tasks(&[("d1/safe", true, "TRUE", 0)], false);
    let (code, rows, log) = f.run(&[]);
    assert_eq!(code, 0, "{log}");
    assert_eq!(rows.keys().collect::<Vec<_>>(), ["d1/safe.yml"]);
    let out = std::fs::read_to_string(f.out().join("logs/d1__safe.yml.log")).unwrap();
    assert!(out.contains("data model: ILP32"), "{out}");
    let (_, _, _) = f.run(&["--default-data-model", "none"]);
    let out = std::fs::read_to_string(f.out().join("logs/d1__safe.yml.log")).unwrap();
    assert!(out.contains("data model: none"), "{out}");
}

#[test]
fn cpu_limit_gives_timeout() {
    let f = Fixture::new("cpu");
    f.tasks(&[("d1/loop", true, "SPIN", 0)], true);
    let (code, rows, log) = f.run(&["--limit-cpu", "1"]);
    assert_eq!(code, 0, "{log}");
    assert_eq!(rows["d1/loop.yml"].status, "TIMEOUT");
    assert!(rows["d1/loop.yml"].cpu_s.parse::<f64>().unwrap() >= 0.5);
}

#[test]
fn baseline_flags_changed_verdicts() {
    let f = Fixture::new("baseline");
    f.tasks(
        &[("d1/a", true, "TRUE", 0), ("d1/b", true, "TRUE", 0)],
        true,
    );
    let (code, _, log) = f.run(&["--update-baseline"]);
    assert_eq!(code, 0, "{log}");
    assert_eq!(
        std::fs::read_to_string(f.root.join("baseline.csv")).unwrap(),
        "task,expected,status\nd1/a.yml,true,true\nd1/b.yml,true,true\n"
    );

    f.tasks(
        &[
            ("d1/a", true, "UNKNOWN (timeout)", 5),
            ("d1/b", true, "TRUE", 0),
        ],
        true,
    );
    let (code, rows, log) = f.run(&[]);
    assert_eq!(code, 0, "{log}");
    assert_eq!(rows["d1/a.yml"].changed, "yes");
    assert_eq!(rows["d1/a.yml"].baseline, "true");
    assert_eq!(rows["d1/b.yml"].changed, "");
    assert!(log.contains("changed from baseline: 1"), "{log}");
    let (code, _, _) = f.run(&["--fail-on-change"]);
    assert_eq!(code, 1);
}

#[test]
fn replay_checks_every_false_witness() {
    let f = Fixture::new("replay");
    f.tasks(
        &[
            ("d1/bug", false, "FALSE(unreach-call)", 10),
            ("d1/safe", true, "TRUE", 0),
        ],
        true,
    );
    let (code, rows, log) = f.run(&["--replay"]);
    assert_eq!(code, 0, "{log}");
    assert_eq!(rows["d1/bug.yml"].witness, "confirmed");
    assert_eq!(rows["d1/safe.yml"].witness, "");
    assert!(
        log.contains("witnesses confirmed by replay: 1 of 1"),
        "{log}"
    );

    // A witness the replay does not confirm fails the run and is named.
    f.tasks(
        &[("d1/bug", false, "FALSE(unreach-call) REPLAY_FAILS", 10)],
        true,
    );
    let (code, rows, log) = f.run(&["--replay"]);
    assert_eq!(code, 1, "{log}");
    assert_eq!(rows["d1/bug.yml"].witness, "not confirmed");
    assert!(
        log.contains("witnesses not confirmed by replay: d1/bug.yml"),
        "{log}"
    );

    // A replay killed after its line is no confirmation: only exit 0 with the line is.
    f.tasks(
        &[("d1/bug", false, "FALSE(unreach-call) REPLAY_CRASHES", 10)],
        true,
    );
    let (code, rows, log) = f.run(&["--replay"]);
    assert_eq!(code, 1, "{log}");
    assert_eq!(rows["d1/bug.yml"].witness, "not confirmed");

    // The earlier run's witness, replayed again (by a validator that now confirms it).
    let earlier = f.root.join("earlier");
    std::fs::rename(f.out(), &earlier).unwrap();
    f.tasks(&[("d1/bug", false, "FALSE(unreach-call)", 10)], true);
    let results = path_str(&earlier.join("results.csv"));
    let (code, _, log) = f.run(&["--replay", "--results", &results]);
    assert_eq!(code, 0, "{log}");
    assert!(log.contains("witnesses replayed"), "{log}");
    assert!(
        log.contains("witnesses confirmed by replay: 1 of 1"),
        "{log}"
    );
}

#[test]
fn compare_flags_tasks_whose_verdicts_differ() {
    let f = Fixture::new("compare");
    f.tasks(
        &[
            ("d1/a", false, "FALSE(unreach-call)", 10),
            ("d1/b", true, "TRUE", 0),
            ("d1/c", true, "UNKNOWN (timeout)", 5),
        ],
        true,
    );
    let (code, _, log) = f.run(&[]);
    assert_eq!(code, 0, "{log}");
    let other = f.root.join("other.csv");
    std::fs::copy(f.out().join("results.csv"), &other).unwrap();
    let other = path_str(&other);
    // Same verdicts, and an unknown against a verdict: no disagreement.
    f.tasks(
        &[
            ("d1/a", false, "FALSE(unreach-call)", 10),
            ("d1/b", true, "UNKNOWN (timeout)", 5),
            ("d1/c", true, "TRUE", 0),
        ],
        true,
    );
    let (code, _, log) = f.run(&["--compare", &other]);
    assert_eq!(code, 0, "{log}");
    assert!(log.contains("0 tasks with a different verdict"), "{log}");
    // A FALSE where the other run said TRUE is a disagreement (and here also wrong).
    f.tasks(&[("d1/b", true, "FALSE(unreach-call)", 10)], true);
    let (code, _, log) = f.run(&["--compare", &other]);
    assert_eq!(code, 1, "{log}");
    assert!(
        log.contains("verdicts differ from the compared run: d1/b.yml"),
        "{log}"
    );

    // The same comparison of two finished runs, without running anything.
    let earlier = f.root.join("earlier.csv");
    std::fs::copy(f.out().join("results.csv"), &earlier).unwrap();
    let (code, _, log) = f.run(&["--results", &path_str(&earlier), "--compare", &other]);
    assert_eq!(code, 1, "{log}");
    assert!(log.contains("runner: earlier run"), "{log}");
    assert!(
        log.contains("verdicts differ from the compared run: d1/b.yml"),
        "{log}"
    );
}

#[test]
fn filter_selects_by_name_and_bad_usage_exits_2() {
    let f = Fixture::new("filter");
    f.tasks(
        &[("d1/a", true, "TRUE", 0), ("d2/b", true, "TRUE", 0)],
        true,
    );
    let (code, rows, log) = f.run(&["--filter", "^d2/"]);
    assert_eq!(code, 0, "{log}");
    assert_eq!(rows.keys().collect::<Vec<_>>(), ["d2/b.yml"]);
    let (code, _, log) = f.run(&["--filter", "nothing"]);
    assert_eq!(code, 2, "{log}");
    assert!(log.contains("no task selected"), "{log}");
    let (code, _, _) = f.run(&["--limit-cpu", "soon"]);
    assert_eq!(code, 2);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let argv = ["--svb".to_string(), "/nonexistent".to_string()];
    let log = &mut Log {
        out: &mut out,
        err: &mut err,
    };
    assert_eq!(run(&argv, log), 2);
    let err = String::from_utf8_lossy(&err);
    assert!(err.contains("no sv-benchmarks checkout"), "{err}");
}

#[test]
fn benchexec_definition_for_the_chosen_tasks() {
    let f = Fixture::new("xml");
    f.tasks(
        &[("d1/a", true, "TRUE", 0), ("d2/b", true, "TRUE", 0)],
        true,
    );
    let xml = f.root.join("def.xml");
    let (code, _, log) = f.run(&["--filter", "d2", "--benchexec-xml", &path_str(&xml)]);
    assert_eq!(code, 0, "{log}");
    let text = std::fs::read_to_string(&xml).unwrap();
    let svb = f.svb().canonicalize().unwrap();
    assert!(text.contains(&format!("<include>{}/c/d2/b.yml</include>", svb.display())));
    assert!(!text.contains("d1/a.yml"));
}
