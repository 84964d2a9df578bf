"""Tests of the regression runner (and of the BenchExec tool-info module when BenchExec is
installed). Run: python3 -m unittest discover -s sv-comp"""

import contextlib
import csv
import io
import os
import shutil
import stat
import sys
import tempfile
import textwrap
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import regress  # noqa: E402

PRP = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n"

# A stand-in for yogar: the answer is written in the input file (`ANSWER: <last line> <exit>`),
# or it spins (`SPIN`) to hit the CPU limit. It prints a refinement count like --stats does.
FAKE_TOOL = textwrap.dedent(
    """\
    #!{python}
    import sys
    if sys.argv[1:] == ["--version"]:
        print("yogar 0.0.0"); sys.exit(0)
    if sys.argv[1] == "replay":
        assert open(sys.argv[-1]).read() == "witness", sys.argv
        if "REPLAY_FAILS" in open(sys.argv[-2]).read():
            print("witness not confirmed: search exhausted"); sys.exit(1)
        print("witness confirmed: violation reached"); sys.exit(0)
    assert sys.argv[1] == "verify", sys.argv
    assert "--property" in sys.argv, sys.argv
    text = open(sys.argv[-1]).read()
    if "SPIN" in text:
        while True:
            pass
    line = [l for l in text.splitlines() if l.startswith("ANSWER: ")][0]
    verdict, code = line[len("ANSWER: "):].replace(" REPLAY_FAILS", "").rsplit(" ", 1)
    print("data model: " + ("ILP32" if "--32" in sys.argv else "LP64" if "--64" in sys.argv else "none"))
    print("refinements: 4")
    if "--witness" in sys.argv and verdict.startswith("FALSE"):
        open(sys.argv[sys.argv.index("--witness") + 1], "w").write("witness")
    print(verdict)
    sys.exit(int(code))
    """
)


def make_svb(root, tasks, with_table=True):
    """An sv-benchmarks-like tree: tasks is a list of (dir/name, expected, answer, exit code)."""
    c = os.path.join(root, "c")
    os.makedirs(os.path.join(c, "properties"), exist_ok=True)
    with open(os.path.join(c, "properties", "unreach-call.prp"), "w") as f:
        f.write(PRP)
    rows = []
    for name, expected, answer, code in tasks:
        d, stem = name.split("/")
        os.makedirs(os.path.join(c, d), exist_ok=True)
        with open(os.path.join(c, d, stem + ".i"), "w") as f:
            f.write("int main(void) { return 0; }\n")
            f.write("SPIN\n" if answer == "SPIN" else f"ANSWER: {answer} {code}\n")
        with open(os.path.join(c, d, stem + ".yml"), "w") as f:
            f.write(
                "format_version: '1.0'\n\n# a comment\n"
                f"input_files: '{stem}.i'\n\nproperties:\n"
                "  - property_file: ../properties/unreach-call.prp\n"
                f"    expected_verdict: {'true' if expected else 'false'}\n"
            )
        rows.append([f"{d}/{stem}.yml", f"{d}/{stem}.i", "true" if expected else "false", d])
    if with_table:
        with open(os.path.join(root, "tasks.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["yml", "input_file", "expected_verdict", "directory"])
            w.writerows(rows)


def write_fake_tool(folder):
    path = os.path.join(folder, "yogar")
    with open(path, "w") as f:
        f.write(FAKE_TOOL.format(python=sys.executable))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


def read_rows(out):
    with open(os.path.join(out, "results.csv"), newline="") as f:
        return {r["task"]: r for r in csv.DictReader(f)}


class Scoring(unittest.TestCase):
    def test_sv_comp_scores(self):
        cases = [
            (True, "true", "correct", 2),
            (False, "false(unreach-call)", "correct", 1),
            (True, "false(unreach-call)", "wrong", -16),
            (False, "true", "wrong", -32),
            (False, "false(no-data-race)", "wrong", -16),
            (True, "unknown", "unknown", 0),
            (False, "TIMEOUT", "unknown", 0),
            (True, "OUT OF MEMORY", "unknown", 0),
            (False, "ERROR (internal)", "error", 0),
        ]
        for expected, status, category, score in cases:
            self.assertEqual(regress.categorize(expected, status), (category, score), status)

    def test_summary_adds_up(self):
        rows = []
        for expected, status in [(True, "true"), (False, "false(unreach-call)"), (False, "true"),
                                 (True, "false(unreach-call)"), (True, "TIMEOUT")]:
            category, score = regress.categorize(expected, status)
            rows.append({"expected": "true" if expected else "false", "status": status,
                         "category": category, "score": score, "cpu_s": "1.5", "changed": ""})
        s = regress.summarize(rows)
        self.assertEqual(s["score"], 2 + 1 - 32 - 16)
        self.assertEqual(s["max_score"], 2 + 1 + 1 + 2 + 2)
        self.assertEqual((s["correct_true"], s["correct_false"]), (1, 1))
        self.assertEqual((s["wrong_true"], s["wrong_false"]), (1, 1))
        self.assertEqual((s["unknown"], s["timeout"]), (1, 1))
        self.assertAlmostEqual(s["cpu_s"], 7.5)


class OutputParsing(unittest.TestCase):
    def test_verdict_line_and_exit_code_must_agree(self):
        cases = [
            (["x: 1", "TRUE"], 0, "true"),
            (["FALSE(unreach-call)", ""], 10, "false(unreach-call)"),
            (["UNKNOWN (timeout)"], 5, "TIMEOUT"),
            (["UNKNOWN (out of memory)"], 5, "OUT OF MEMORY"),
            (["UNKNOWN (unsupported: pthread_cond_wait)"], 5, "unknown"),
            (["TRUE"], 10, None),
            (["FALSE(unreach-call)"], 0, None),
            (["TRUE", "trailing noise"], 0, None),
            ([], 0, None),
            (["anything"], 1, "ERROR (internal)"),
            (["anything"], 3, "ERROR (input)"),
            (["anything"], 4, "ERROR (not implemented)"),
        ]
        for lines, code, expected in cases:
            status = regress.parse_output(lines, code)
            if expected is None:
                self.assertTrue(status.startswith("ERROR (exit code"), (lines, code, status))
            else:
                self.assertEqual(status, expected, (lines, code))
        self.assertEqual(regress.parse_output(["TRUE"], None, 9), "ERROR (signal 9)")

    def test_allocation_failures_are_out_of_memory(self):
        bad_alloc = "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc"
        self.assertTrue(regress.out_of_memory(bad_alloc, None))
        self.assertTrue(regress.out_of_memory("memory allocation of 64 bytes failed", None))
        self.assertTrue(regress.out_of_memory("yogar: Out of memory", None))
        self.assertFalse(regress.out_of_memory("thread 'main' panicked at src/x.rs", None))
        # A normal exit that mentions memory in a warning is not an allocation failure.
        self.assertFalse(regress.out_of_memory("warning: out of memory soon", 0))

    def test_stats_lines(self):
        stats = regress.parse_stats(["refinements: 12", "solver time: 0.5 s", "TRUE", "UNKNOWN (x: y)"])
        self.assertEqual(stats["refinements"], "12")
        self.assertEqual(stats["solver time"], "0.5 s")
        self.assertNotIn("TRUE", stats)

    def test_minimal_yaml_reads_both_formats(self):
        v1 = ("format_version: '1.0'\n\n# old name\ninput_files: 'a.i'\n\nproperties:\n"
              "  - property_file: ../properties/termination.prp\n    expected_verdict: true\n"
              "  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n")
        self.assertEqual(regress.parse_task_yml_minimal(v1), {
            "format_version": "1.0",
            "input_files": "a.i",
            "properties": [
                {"property_file": "../properties/termination.prp", "expected_verdict": True},
                {"property_file": "../properties/unreach-call.prp", "expected_verdict": False},
            ],
        })
        v2 = ("format_version: '2.0'\ninput_files:\n  - 'x.c'\n  - y.c\nproperties:\n"
              "  - property_file: p.prp\n    expected_verdict: false\n    subproperty: valid-free\n"
              "options:\n  language: C\n  data_model: LP64\n")
        parsed = regress.parse_task_yml_minimal(v2)
        self.assertEqual(parsed["input_files"], ["x.c", "y.c"])
        self.assertEqual(parsed["properties"][0]["subproperty"], "valid-free")
        self.assertEqual(parsed["options"], {"language": "C", "data_model": "LP64"})
        try:
            import yaml
        except ImportError:
            return
        self.assertEqual(parsed, yaml.safe_load(v2))
        self.assertEqual(regress.parse_task_yml_minimal(v1), yaml.safe_load(v1))

    def test_quick_subset_is_fixed_and_spread(self):
        tasks = [regress.Task(name=f"d{d}/t{i}.yml", yml="", directory=f"d{d}", input_files=[],
                              property_file="", expected=(i % 3 == 0))
                 for d in range(5) for i in range(30)]
        a = regress.quick_subset(tasks)
        b = regress.quick_subset(list(reversed(tasks)))
        self.assertEqual([t.name for t in a], [t.name for t in b])
        self.assertEqual(len(a), regress.QUICK_SIZE)
        self.assertEqual({t.directory for t in a}, {f"d{d}" for d in range(5)})
        for d in range(5):
            picked = [t for t in a if t.directory == f"d{d}"]
            self.assertEqual({t.expected for t in picked}, {True, False})


class EndToEnd(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.tool = write_fake_tool(self.root)

    def tearDown(self):
        self.tmp.cleanup()

    def run_regress(self, svb, *extra):
        out = os.path.join(self.root, "out")
        buf_out, buf_err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(buf_out), contextlib.redirect_stderr(buf_err):
            code = regress.main(["--svb", svb, "--yogar", self.tool, "--out", out,
                                 "--runner", "own", "--jobs", "2",
                                 "--baseline", os.path.join(self.root, "baseline.csv"), *extra])
        return code, read_rows(out) if code != 2 else {}, buf_out.getvalue() + buf_err.getvalue()

    def test_correct_run_passes_and_wrong_verdict_fails(self):
        svb = os.path.join(self.root, "svb")
        make_svb(svb, [
            ("d1/safe", True, "TRUE", 0),
            ("d1/bug", False, "FALSE(unreach-call)", 10),
            ("d2/hard", True, "UNKNOWN (unwind bound too small)", 5),
        ])
        code, rows, log = self.run_regress(svb)
        self.assertEqual(code, 0, log)
        self.assertEqual(rows["d1/safe.yml"]["status"], "true")
        self.assertEqual(rows["d1/bug.yml"]["status"], "false(unreach-call)")
        self.assertEqual(rows["d2/hard.yml"]["category"], "unknown")
        self.assertEqual(rows["d1/safe.yml"]["refinements"], "4")
        self.assertIn("score: 3 of 5", log)

        # A wrong TRUE on a buggy task: exit 1, -32, named in the log.
        make_svb(svb, [("d1/bug", False, "TRUE", 0)])
        code, rows, log = self.run_regress(svb)
        self.assertEqual(code, 1, log)
        self.assertEqual(rows["d1/bug.yml"]["category"], "wrong")
        self.assertEqual(rows["d1/bug.yml"]["score"], "-32")
        self.assertIn("WRONG verdicts: d1/bug.yml", log)

    def test_exit_code_disagreeing_with_the_verdict_is_an_error_not_a_verdict(self):
        svb = os.path.join(self.root, "svb")
        make_svb(svb, [("d1/bug", False, "FALSE(unreach-call)", 0)])
        code, rows, log = self.run_regress(svb)
        self.assertEqual(code, 0, log)
        self.assertEqual(rows["d1/bug.yml"]["category"], "error")

    def test_data_model_default_and_tasks_without_table(self):
        svb = os.path.join(self.root, "svb")
        make_svb(svb, [("d1/safe", True, "TRUE", 0)], with_table=False)
        code, rows, log = self.run_regress(svb)
        self.assertEqual(code, 0, log)
        self.assertEqual(list(rows), ["d1/safe.yml"])
        with open(os.path.join(self.root, "out", "logs", "d1__safe.yml.log")) as f:
            self.assertIn("data model: ILP32", f.read())

    def test_cpu_limit_gives_timeout(self):
        svb = os.path.join(self.root, "svb")
        make_svb(svb, [("d1/loop", True, "SPIN", 0)])
        code, rows, log = self.run_regress(svb, "--limit-cpu", "1")
        self.assertEqual(code, 0, log)
        self.assertEqual(rows["d1/loop.yml"]["status"], "TIMEOUT")
        self.assertGreaterEqual(float(rows["d1/loop.yml"]["cpu_s"]), 0.5)

    def test_baseline_flags_changed_verdicts(self):
        svb = os.path.join(self.root, "svb")
        make_svb(svb, [("d1/a", True, "TRUE", 0), ("d1/b", True, "TRUE", 0)])
        code, rows, log = self.run_regress(svb, "--update-baseline")
        self.assertEqual(code, 0, log)
        with open(os.path.join(self.root, "baseline.csv")) as f:
            self.assertEqual(f.read(), "task,expected,status\nd1/a.yml,true,true\nd1/b.yml,true,true\n")

        make_svb(svb, [("d1/a", True, "UNKNOWN (timeout)", 5), ("d1/b", True, "TRUE", 0)])
        code, rows, log = self.run_regress(svb)
        self.assertEqual(code, 0, log)
        self.assertEqual(rows["d1/a.yml"]["changed"], "yes")
        self.assertEqual(rows["d1/a.yml"]["baseline"], "true")
        self.assertEqual(rows["d1/b.yml"]["changed"], "")
        self.assertIn("changed from baseline: 1", log)
        code, _, _ = self.run_regress(svb, "--fail-on-change")
        self.assertEqual(code, 1)

    def test_replay_checks_every_false_witness(self):
        svb = os.path.join(self.root, "svb")
        make_svb(svb, [
            ("d1/bug", False, "FALSE(unreach-call)", 10),
            ("d1/safe", True, "TRUE", 0),
        ])
        code, rows, log = self.run_regress(svb, "--replay")
        self.assertEqual(code, 0, log)
        self.assertEqual(rows["d1/bug.yml"]["witness"], "confirmed")
        self.assertEqual(rows["d1/safe.yml"]["witness"], "")
        self.assertIn("witnesses confirmed by replay: 1 of 1", log)

        # A witness the replay does not confirm fails the run and is named.
        make_svb(svb, [("d1/bug", False, "FALSE(unreach-call) REPLAY_FAILS", 10)])
        code, rows, log = self.run_regress(svb, "--replay")
        self.assertEqual(code, 1, log)
        self.assertEqual(rows["d1/bug.yml"]["witness"], "not confirmed")
        self.assertIn("witnesses not confirmed by replay: d1/bug.yml", log)

        # The earlier run's witness, replayed again (here by a validator that now confirms it).
        make_svb(svb, [("d1/bug", False, "FALSE(unreach-call)", 10)])
        code, _, log = self.run_regress(svb, "--replay", "--results",
                                        os.path.join(self.root, "out", "results.csv"))
        self.assertEqual(code, 0, log)
        self.assertIn("witnesses replayed", log)
        self.assertIn("witnesses confirmed by replay: 1 of 1", log)

    def test_compare_flags_tasks_whose_verdicts_differ(self):
        svb = os.path.join(self.root, "svb")
        make_svb(svb, [
            ("d1/a", False, "FALSE(unreach-call)", 10),
            ("d1/b", True, "TRUE", 0),
            ("d1/c", True, "UNKNOWN (timeout)", 5),
        ])
        code, _, log = self.run_regress(svb)
        self.assertEqual(code, 0, log)
        other = os.path.join(self.root, "other.csv")
        shutil.copy(os.path.join(self.root, "out", "results.csv"), other)
        # Same verdicts, and an unknown against a verdict: no disagreement.
        make_svb(svb, [
            ("d1/a", False, "FALSE(unreach-call)", 10),
            ("d1/b", True, "UNKNOWN (timeout)", 5),
            ("d1/c", True, "TRUE", 0),
        ])
        code, _, log = self.run_regress(svb, "--compare", other)
        self.assertEqual(code, 0, log)
        self.assertIn("0 tasks with a different verdict", log)
        # A FALSE where the other run said TRUE is a disagreement (and here also wrong).
        make_svb(svb, [("d1/b", True, "FALSE(unreach-call)", 10)])
        code, _, log = self.run_regress(svb, "--compare", other)
        self.assertEqual(code, 1, log)
        self.assertIn("verdicts differ from the compared run: d1/b.yml", log)

        # The same comparison of two finished runs, without running anything.
        code, _, log = self.run_regress(svb, "--results", os.path.join(self.root, "out", "results.csv"),
                                        "--compare", other)
        self.assertEqual(code, 1, log)
        self.assertIn("runner: earlier run", log)
        self.assertIn("verdicts differ from the compared run: d1/b.yml", log)

    def test_filter_selects_by_name(self):
        svb = os.path.join(self.root, "svb")
        make_svb(svb, [("d1/a", True, "TRUE", 0), ("d2/b", True, "TRUE", 0)])
        code, rows, log = self.run_regress(svb, "--filter", "^d2/")
        self.assertEqual((code, list(rows)), (0, ["d2/b.yml"]), log)
        code, rows, log = self.run_regress(svb, "--filter", "nothing")
        self.assertEqual(code, 2)


class BenchmarkDefinition(unittest.TestCase):
    def test_copy_with_chosen_tasks(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "def.xml")
            regress.write_benchmark_def("/data/svb", out, ["pthread/a.yml", "pthread-wmm/b.yml"])
            root = ET.parse(out).getroot()
        self.assertEqual([e.text for e in root.iter("include")],
                         ["/data/svb/c/pthread/a.yml", "/data/svb/c/pthread-wmm/b.yml"])
        self.assertEqual([e.text for e in root.iter("propertyfile")],
                         ["/data/svb/c/properties/unreach-call.prp"])

    def test_copy_points_at_the_given_checkout(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "def.xml")
            regress.write_benchmark_def("/data/svb", out)
            with open(out) as f:
                text = f.read()
        self.assertNotIn(regress.BENCHMARK_DEF_SVB, text)
        root = ET.fromstring(text)
        self.assertEqual(root.get("tool"), "tools.yogar")
        self.assertEqual(root.get("timelimit"), "60 s")
        includes = [e.text for e in root.iter("include")]
        self.assertIn("/data/svb/c/pthread/*.yml", includes)
        self.assertTrue(all(i.startswith("/data/svb/c/pthread") for i in includes), includes)
        self.assertEqual([e.text for e in root.iter("propertyfile")],
                         ["/data/svb/c/properties/unreach-call.prp"])
        options = [(e.get("name"), e.text) for e in root.iter("option")]
        self.assertIn(("--unwind", "auto"), options)
        self.assertIn(("--32", None), options)


try:
    import benchexec.tools.template as template
    from benchexec.util import ProcessExitCode

    HAVE_BENCHEXEC = True
except ImportError:
    HAVE_BENCHEXEC = False


@unittest.skipUnless(HAVE_BENCHEXEC, "BenchExec is not installed")
class ToolInfo(unittest.TestCase):
    def setUp(self):
        from tools import yogar

        self.tool = yogar.Tool()

    def result(self, lines, code=None, sig=None, reason=None):
        exit_code = ProcessExitCode(raw=0, value=code, signal=sig)
        run = template.BaseTool2.Run(["yogar"], exit_code, template.BaseTool2.RunOutput(lines), reason)
        return self.tool.determine_result(run)

    def test_results(self):
        import benchexec.result as result

        self.assertEqual(self.result(["TRUE"], 0), result.RESULT_TRUE_PROP)
        self.assertEqual(self.result(["FALSE(unreach-call)"], 10), result.RESULT_FALSE_REACH)
        self.assertEqual(self.result(["UNKNOWN (unsupported: x)"], 5), result.RESULT_UNKNOWN)
        self.assertEqual(self.result(["UNKNOWN (timeout)"], 5), result.RESULT_TIMEOUT)
        self.assertEqual(self.result(["x"], 1), "ERROR (internal)")
        self.assertTrue(self.result(["TRUE"], 10).startswith("ERROR"))
        self.assertEqual(self.result(["TRUE"], None, 9, "cputime"), result.RESULT_TIMEOUT)

    def test_cmdline_and_values(self):
        task = template.BaseTool2.Task.with_files(["a.i"], property_file="u.prp",
                                                  options={"language": "C", "data_model": "LP64"})
        cmd = self.tool.cmdline("yogar", ["--32", "--unwind", "2"], task, None)
        self.assertEqual(cmd, ["yogar", "verify", "--unwind", "2", "--property", "u.prp", "--64", "a.i"])
        plain = template.BaseTool2.Task.with_files(["a.i"])
        self.assertEqual(self.tool.cmdline("yogar", ["--32"], plain, None), ["yogar", "verify", "--32", "a.i"])
        out = template.BaseTool2.RunOutput(["events: 4", "refinements: 17", "TRUE"])
        self.assertEqual(self.tool.get_value_from_output(out, "refinements:"), "17")
        self.assertEqual(self.tool.get_value_from_output(out, "refinements"), "17")
        self.assertIsNone(self.tool.get_value_from_output(out, "missing"))


if __name__ == "__main__":
    unittest.main()
