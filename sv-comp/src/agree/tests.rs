//! The agreement check: end to end with a stand-in for yogar whose answer per engine is
//! written in the input file, and over the shared SV-COMP tasks of `sv-comp/agree-tasks.csv`
//! with the real yogar (skipped with a message when the checkout or the binary is absent).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::run;
use crate::regress::status::{Status, VerdictClass};
use crate::regress::Log;

const PRP: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";

/// A stand-in for `yogar verify`: the input file holds `ENGINE: <last line> <exit>` lines
/// (`default` for a run without --engine; `race-ENGINE` under no-data-race, `mem-ENGINE`
/// under valid-memsafety, `ovf-ENGINE` under no-overflow); it checks that
/// the bound options are given.
const FAKE_TOOL: &str = r#"#!/bin/sh
[ "$1" = verify ] || exit 98
case " $* " in *" --unwind 2 --no-unwinding-assertions "*) ;; *) exit 97;; esac
engine=default; take=; file=; prp=; takep=
for a; do
  if [ -n "$take" ]; then engine=$a; take=; fi
  if [ -n "$takep" ]; then prp=$a; takep=; fi
  if [ "$a" = --engine ]; then take=1; fi
  if [ "$a" = --property ]; then takep=1; fi
  file=$a
done
if grep -q data-race "$prp"; then engine="race-$engine"; fi
if grep -q valid-memtrack "$prp"; then engine="mem-$engine"; fi
if grep -q overflow "$prp"; then engine="ovf-$engine"; fi
line=$(grep "^$engine: " "$file" | head -n 1 | sed "s/^$engine: //")
[ -n "$line" ] || { echo "UNKNOWN (no answer)"; exit 5; }
code=${line##* }; verdict=${line% *}
echo "$verdict"
exit "$code"
"#;

struct Fixture {
    root: PathBuf,
}

impl Fixture {
    /// A task tree: per task (dir/name, answers as `engine: LAST-LINE EXIT` lines).
    fn new(name: &str, tasks: &[(&str, &str)]) -> Fixture {
        let root = std::env::temp_dir().join(format!("yogar-agree-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let c = root.join("svb/c");
        std::fs::create_dir_all(c.join("properties")).unwrap();
        std::fs::write(c.join("properties/unreach-call.prp"), PRP).unwrap();
        let tool = root.join("yogar");
        std::fs::write(&tool, FAKE_TOOL).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        for (name, answers) in tasks {
            let (dir, stem) = name.split_once('/').unwrap();
            std::fs::create_dir_all(c.join(dir)).unwrap();
            std::fs::write(c.join(format!("{dir}/{stem}.i")), answers).unwrap();
            std::fs::write(
                c.join(format!("{dir}/{stem}.yml")),
                format!(
                    "format_version: '1.0'\ninput_files: '{stem}.i'\nproperties:\n  - \
                     property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n"
                ),
            )
            .unwrap();
        }
        Fixture { root }
    }

    /// Runs the check; the exit code, agree.csv's statuses by (task, engine), the output.
    fn run(&self, extra: &[&str]) -> (u8, BTreeMap<(String, String), String>, String) {
        let mut argv: Vec<String> = vec![
            "--svb".into(),
            self.root.join("svb").display().to_string(),
            "--yogar".into(),
            self.root.join("yogar").display().to_string(),
            "--out".into(),
            self.root.join("out").display().to_string(),
            "--limit-cpu".into(),
            "5".into(),
        ];
        argv.extend(extra.iter().map(|s| s.to_string()));
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let csv = self.root.join("out/agree.csv");
        let _ = std::fs::remove_file(&csv);
        let code = run(
            &argv,
            &mut Log {
                out: &mut out,
                err: &mut err,
            },
        );
        let text = String::from_utf8_lossy(&out).into_owned() + &String::from_utf8_lossy(&err);
        (code, read_outcomes(&csv), text)
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn read_outcomes(csv: &Path) -> BTreeMap<(String, String), String> {
    let Ok(mut r) = csv::Reader::from_path(csv) else {
        return BTreeMap::new();
    };
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            ((rec[0].to_string(), rec[1].to_string()), rec[2].to_string())
        })
        .collect()
}

const AGREE: &str = "default: TRUE 0\ndpor: TRUE 0\ncdpor: TRUE 0\n";
const UNDECIDED: &str =
    "default: FALSE(unreach-call) 10\ndpor: UNKNOWN (unsupported: an input) 5\n";
const DISAGREE: &str = "default: TRUE 0\ndpor: TRUE 0\ncdpor: FALSE(unreach-call) 10\n";

#[test]
fn agreeing_and_undecided_runs_pass() {
    let f = Fixture::new("pass", &[("d/a", AGREE), ("d/b", UNDECIDED)]);
    let (code, outcomes, text) = f.run(&["--engines", "default,dpor,cdpor"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(outcomes.len(), 6, "{outcomes:?}");
    assert_eq!(outcomes[&("d/a.yml".into(), "cdpor".into())], "true");
    assert_eq!(
        outcomes[&("d/b.yml".into(), "default".into())],
        "false(unreach-call)"
    );
    assert_eq!(outcomes[&("d/b.yml".into(), "dpor".into())], "unknown");
    assert!(text.contains("disagreements: 0"), "{text}");
}

#[test]
fn a_true_against_a_false_fails_and_names_the_task() {
    let f = Fixture::new("fail", &[("d/a", AGREE), ("d/c", DISAGREE)]);
    let (code, _, text) = f.run(&["--engines", "default,dpor,cdpor"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("d/c.yml: default true, dpor true, cdpor false(unreach-call)"),
        "{text}"
    );
    assert!(!text.contains("d/a.yml: default"), "{text}");
    // Two explorers disagreeing with each other count as well, without the default engine.
    let (code, _, text) = f.run(&["--engines", "dpor,cdpor"]);
    assert_eq!(code, 1, "{text}");
}

/// Under `--property` each property is compared on its own: a race verdict never meets an
/// unreach-call one, and a disagreement names its property.
#[test]
fn properties_are_compared_each_on_its_own() {
    const RACY: &str = "default: TRUE 0\ndpor: TRUE 0\nrace-default: FALSE(no-data-race) 10\n\
                        race-dpor: FALSE(no-data-race) 10\n";
    const SPLIT: &str = "default: TRUE 0\ndpor: TRUE 0\nrace-default: TRUE 0\n\
                         race-dpor: FALSE(no-data-race) 10\n";
    let f = Fixture::new("props", &[("d/a", RACY), ("d/b", SPLIT), ("d/c", AGREE)]);
    let both = ["--engines", "default,dpor", "--property"];
    let (code, _, text) = f.run(&[&both[..], &["unreach-call,no-data-race"]].concat());
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("d/b.yml [no-data-race]: default true, dpor false(no-data-race)"));
    assert!(!text.contains("d/a.yml [no-data-race]:"), "{text}");
    assert!(text.contains("property no-data-race"), "{text}");
    assert!(text.contains("12 runs"), "{text}");
    let (code, _, text) = f.run(&[&both[..], &["unreach-call"]].concat());
    assert_eq!(code, 0, "{text}");
    // Every second task: d/a and d/c, which agree under both.
    let (code, _, text) = f.run(&[&both[..], &["no-data-race", "--every", "2"]].concat());
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("2 tasks, 4 runs"), "{text}");
    let (code, _, text) = f.run(&[&both[..], &["termination"]].concat());
    assert_eq!(code, 2, "{text}");
}

/// `--property all` is the four properties; valid-memsafety is compared like the others, and
/// two FALSE verdicts of different kinds are listed apart without failing the check.
#[test]
fn all_properties_and_memsafety_kinds() {
    const MEM_SPLIT: &str = "default: TRUE 0\ndpor: TRUE 0\nmem-default: TRUE 0\n\
                             mem-dpor: FALSE(valid-deref) 10\n";
    const MEM_KINDS: &str = "default: TRUE 0\ndpor: TRUE 0\nmem-default: FALSE(valid-memtrack) 10\n\
                             mem-dpor: FALSE(valid-deref) 10\novf-default: TRUE 0\novf-dpor: TRUE 0\n";
    let f = Fixture::new("mem", &[("d/a", MEM_KINDS), ("d/b", MEM_SPLIT)]);
    let both = ["--engines", "default,dpor", "--property"];
    let (code, outcomes, text) = f.run(&[&both[..], &["all"]].concat());
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("2 tasks, 16 runs"), "{text}");
    assert!(text.contains("property valid-memsafety"), "{text}");
    assert!(text.contains("property no-overflow"), "{text}");
    assert!(
        text.contains("d/b.yml [valid-memsafety]: default true, dpor false(valid-deref)"),
        "{text}"
    );
    assert!(!text.contains("d/a.yml [valid-memsafety]:"), "{text}");
    assert!(text.contains("FALSE of different kinds"), "{text}");
    assert!(
        text.contains("d/a.yml: default false(valid-memtrack), dpor false(valid-deref)"),
        "{text}"
    );
    // The CSV keeps the last property's status per (task, engine): no-overflow comes last.
    assert_eq!(outcomes[&("d/a.yml".into(), "dpor".into())], "true");
    // Only d/a (no TRUE against FALSE there): different kinds alone pass.
    let (code, _, text) = f.run(&[&both[..], &["valid-memsafety", "--filter", "d/a"]].concat());
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("FALSE of different kinds"), "{text}");
}

/// `--every N --offset K` for K in 0..N covers every task once.
#[test]
fn offsets_cover_every_task_once() {
    let f = Fixture::new(
        "offset",
        &[("d/a", AGREE), ("d/b", AGREE), ("d/c", DISAGREE)],
    );
    let mut seen = Vec::new();
    for k in ["0", "1"] {
        let (code, outcomes, text) =
            f.run(&["--engines", "default", "--every", "2", "--offset", k]);
        assert_eq!(code, 0, "{text}");
        seen.extend(outcomes.into_keys().map(|(t, _)| t));
    }
    seen.sort();
    assert_eq!(seen, ["d/a.yml", "d/b.yml", "d/c.yml"]);
    let (code, _, text) = f.run(&["--every", "2", "--offset", "2"]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("--offset 2 must be below --every 2"),
        "{text}"
    );
}

#[test]
fn a_list_selects_runs() {
    let f = Fixture::new("list", &[("d/a", AGREE), ("d/c", DISAGREE)]);
    let list = f.root.join("list.csv");
    std::fs::write(
        &list,
        "# a comment\ntask,engine\nd/a.yml,default\nd/a.yml,dpor\nd/c.yml,default\nd/c.yml,dpor\n\
         d/a.yml,default\n",
    )
    .unwrap();
    let (code, outcomes, text) = f.run(&["--list", list.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    // A (task, engine) listed twice runs once.
    assert!(text.contains("2 tasks, 4 runs"), "{text}");
    assert_eq!(outcomes.len(), 4, "{outcomes:?}");
    assert!(!outcomes.contains_key(&("d/c.yml".into(), "cdpor".into())));
    // A task the checkout lacks is a usage error.
    std::fs::write(&list, "task,engine\nd/zz.yml,dpor\n").unwrap();
    let (code, _, text) = f.run(&["--list", list.to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("d/zz.yml is not in"), "{text}");
}

#[test]
fn bad_arguments_are_usage_errors() {
    let f = Fixture::new("usage", &[("d/a", AGREE)]);
    let (code, _, _) = f.run(&["--limit-cpu", "x"]);
    assert_eq!(code, 2);
    let (code, _, text) = f.run(&["--filter", "nothing-matches"]);
    assert_eq!(code, 2);
    assert!(text.contains("no run selected"), "{text}");
}

/// The real check over the shared tasks: every (task, engine) run of `agree-tasks.csv` (runs
/// that gave a verdict within a few CPU seconds in the last 10 s sweep), 10 s CPU per run, 2
/// at a time. Fails on any disagreement; also when fewer than half of the listed runs give a
/// verdict, so that the check cannot pass by timing everything out.
#[test]
fn engines_and_explorers_agree_on_the_listed_shared_tasks() {
    let root = crate::regress::repo_root();
    let Some(svb) = yogar::svcomp::sv_benchmarks(None) else {
        eprintln!("skipped: no ../shared/sv-benchmarks checkout");
        return;
    };
    // The yogar binary of this build profile: beside the directory of this test executable.
    let yogar = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent()?.parent().map(|d| d.join("yogar")))
        .filter(|p| p.is_file());
    let Some(yogar) = yogar else {
        eprintln!("skipped: no yogar binary of this build (cargo test --workspace builds it)");
        return;
    };
    let list = root.join("sv-comp/agree-tasks.csv");
    let out = std::env::temp_dir().join(format!("yogar-agree-shared-{}", std::process::id()));
    let argv: Vec<String> = [
        "--svb",
        svb.to_str().unwrap(),
        "--yogar",
        yogar.to_str().unwrap(),
        "--list",
        list.to_str().unwrap(),
        "--property",
        "unreach-call",
        "--limit-cpu",
        "10",
        "--limit-wall",
        "60",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (mut o, mut e) = (Vec::new(), Vec::new());
    let code = run(
        &argv,
        &mut Log {
            out: &mut o,
            err: &mut e,
        },
    );
    let text = String::from_utf8_lossy(&o).into_owned() + &String::from_utf8_lossy(&e);
    let outcomes = read_outcomes(&out.join("agree.csv"));
    let _ = std::fs::remove_dir_all(&out);
    let summary: String = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join("\n");
    eprintln!("{summary}");
    assert_eq!(code, 0, "{summary}");
    let decided = outcomes
        .values()
        .filter(|s| Status::parse(s).class() != VerdictClass::None)
        .count();
    assert!(
        2 * decided >= outcomes.len() && !outcomes.is_empty(),
        "only {decided} of {} listed runs gave a verdict:\n{summary}",
        outcomes.len()
    );
}
