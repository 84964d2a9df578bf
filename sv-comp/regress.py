#!/usr/bin/env python3
"""Regression runner: yogar on the SV-COMP unreach-call tasks of an sv-benchmarks checkout.

Runs every task (from $SVB/tasks.csv, or every .yml with an unreach-call property under $SVB/c)
with per-task CPU-time and memory limits, compares the verdicts with the expected ones, scores
them as SV-COMP does, compares them with the committed baseline, and writes a CSV, an HTML table
and a summary. Exits 1 if any verdict is wrong (and, with --fail-on-change, if any verdict
differs from the baseline).

Runs go through BenchExec's RunExecutor (cgroup-based limits and measurements) when BenchExec
is installed and usable here, else through a runner of its own (setrlimit: RLIMIT_CPU,
RLIMIT_AS; a wall-clock timeout; CPU time and max RSS from wait4).

Usage: regress.py --svb PATH [--yogar PATH] [--jobs N] [--limit-cpu S] [--limit-mem MB]
                  [--filter REGEX] [--quick] [--out DIR] [--update-baseline] ...
"""

import argparse
import concurrent.futures
import csv
import html
import os
import re
import resource
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_BASELINE = os.path.join(HERE, "baseline.csv")
BENCHMARK_DEF = os.path.join(HERE, "yogar-concurrency.xml")
# How the benchmark definition names the sv-benchmarks checkout (relative to its own folder).
BENCHMARK_DEF_SVB = "../../shared/sv-benchmarks"

UNREACH_CALL = "CHECK(init(main()),LTL(G!call(reach_error())))"

# Exit codes of `yogar verify` (src/exit.rs).
EXIT_TRUE, EXIT_FALSE, EXIT_UNKNOWN = 0, 10, 5
EXIT_ERRORS = {1: "internal", 2: "usage", 3: "input", 4: "not implemented"}

# SV-COMP scoring: correct TRUE +2, correct FALSE +1, wrong FALSE -16, wrong TRUE -32.
SCORE_CORRECT_TRUE = 2
SCORE_CORRECT_FALSE = 1
SCORE_WRONG_FALSE = -16
SCORE_WRONG_TRUE = -32

QUICK_SIZE = 20

CSV_FIELDS = [
    "task",
    "directory",
    "expected",
    "status",
    "category",
    "score",
    "cpu_s",
    "wall_s",
    "mem_mb",
    "refinements",
    "clauses",
    "unwind",
    "witness",
    "baseline",
    "changed",
]


# ----------------------------------------------------------------------------- tasks


@dataclass
class Task:
    name: str  # the .yml, relative to $SVB/c
    yml: str
    directory: str
    input_files: list
    property_file: str
    expected: bool
    data_model: str = None  # "ILP32", "LP64" or None (format 1.0)


def _unquote(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _scalar(text):
    text = _unquote(text)
    return {"true": True, "false": False}.get(text, text)


def parse_task_yml_minimal(text):
    """The subset of YAML that SV-COMP task definitions use: top-level keys with scalars, a list
    of scalars (input_files), a list of mappings (properties) and a mapping (options). Used
    when PyYAML is not installed."""
    data = {}
    key = None
    item = None
    for raw in text.splitlines():
        line = raw.split(" #")[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        body = line.strip()
        if indent == 0:
            key, _, value = body.partition(":")
            key = key.strip()
            value = value.strip()
            if value.startswith("[") and value.endswith("]"):
                data[key] = [_scalar(v) for v in value[1:-1].split(",") if v.strip()]
            else:
                data[key] = _scalar(value) if value else None
            item = None
        elif body.startswith("- "):
            entry = body[2:].strip()
            if not isinstance(data.get(key), list):
                data[key] = []
            k, sep, v = entry.partition(":")
            if sep and not entry.startswith(("'", '"')) and (v == "" or v.startswith(" ")):
                item = {k.strip(): _scalar(v)}
                data[key].append(item)
            else:
                data[key].append(_scalar(entry))
                item = None
        else:
            k, _, v = body.partition(":")
            if item is not None:
                item[k.strip()] = _scalar(v)
            else:
                if not isinstance(data.get(key), dict):
                    data[key] = {}
                data[key][k.strip()] = _scalar(v)
    return data


def parse_task_yml(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        import yaml
    except ImportError:
        return parse_task_yml_minimal(text)
    return yaml.safe_load(text) or {}


def is_unreach_call(property_file):
    """Whether a .prp file is the unreach-call specification (by content; by name only when
    the file cannot be read)."""
    try:
        with open(property_file, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return os.path.basename(property_file) == "unreach-call.prp"
    checks = ["".join(line.split()) for line in text.splitlines() if line.strip()]
    return checks == [UNREACH_CALL]


def task_from_yml(c_dir, yml):
    """The Task of a .yml, or None if it has no unreach-call property with a verdict."""
    data = parse_task_yml(yml)
    base = os.path.dirname(yml)
    files = data.get("input_files")
    if isinstance(files, str):
        files = [files]
    if not files:
        raise ValueError(f"{yml}: no input_files")
    for prop in data.get("properties") or []:
        prp = os.path.normpath(os.path.join(base, str(prop.get("property_file", ""))))
        verdict = prop.get("expected_verdict")
        if is_unreach_call(prp) and isinstance(verdict, bool):
            options = data.get("options") or {}
            name = os.path.relpath(yml, c_dir)
            return Task(
                name=name,
                yml=yml,
                directory=os.path.dirname(name),
                input_files=[os.path.join(base, f) for f in files],
                property_file=prp,
                expected=verdict,
                data_model=options.get("data_model") if isinstance(options, dict) else None,
            )
    return None


def load_tasks(svb):
    """All unreach-call tasks of an sv-benchmarks checkout, sorted by name."""
    c_dir = os.path.join(svb, "c")
    table = os.path.join(svb, "tasks.csv")
    tasks = []
    if os.path.isfile(table):
        with open(table, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                task = task_from_yml(c_dir, os.path.join(c_dir, row["yml"]))
                if task is None:
                    raise ValueError(f"{row['yml']}: no unreach-call property")
                listed = row.get("expected_verdict", "").strip().lower()
                if listed and listed != str(task.expected).lower():
                    raise ValueError(
                        f"{row['yml']}: tasks.csv says {listed}, the task says {task.expected}"
                    )
                tasks.append(task)
    else:
        for root, dirs, files in os.walk(c_dir):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".yml"):
                    task = task_from_yml(c_dir, os.path.join(root, name))
                    if task is not None:
                        tasks.append(task)
    return sorted(tasks, key=lambda t: t.name)


def quick_subset(tasks, size=QUICK_SIZE):
    """A fixed, small subset: round robin over the directories (sorted), each directory's tasks
    alternating expected TRUE and FALSE, so that the subset covers every directory and both
    verdicts and does not change unless the task set does."""
    by_dir = {}
    for t in sorted(tasks, key=lambda t: t.name):
        by_dir.setdefault(t.directory, ([], []))[0 if t.expected else 1].append(t)
    queues = []
    for d in sorted(by_dir):
        trues, falses = by_dir[d]
        mixed = []
        for i in range(max(len(trues), len(falses))):
            mixed += trues[i : i + 1] + falses[i : i + 1]
        queues.append(mixed)
    chosen = []
    while len(chosen) < size and any(queues):
        for q in queues:
            if q and len(chosen) < size:
                chosen.append(q.pop(0))
    return sorted(chosen, key=lambda t: t.name)


def data_model_flags(task, default_data_model):
    data_model = task.data_model or default_data_model
    return {"ILP32": ["--32"], "LP64": ["--64"]}.get(data_model, [])


def command(task, yogar, default_data_model, extra_args, witness=None):
    """`yogar verify` for one task; `--stats` so that the table can show the formula size and
    refinements, and `--witness` where the witness should go."""
    return (
        [yogar, "verify", "--property", task.property_file, "--stats"]
        + data_model_flags(task, default_data_model)
        + (["--witness", witness] if witness else [])
        + list(extra_args)
        + list(task.input_files)
    )


def replay_command(task, yogar, default_data_model, witness):
    """`yogar replay` of a violation witness (our own validator)."""
    return (
        [yogar, "replay"]
        + data_model_flags(task, default_data_model)
        + list(task.input_files)
        + [witness]
    )


def read_results(path):
    """task → status of a results.csv written by this runner."""
    with open(path, newline="", encoding="utf-8") as f:
        return {row["task"]: row["status"] for row in csv.DictReader(f)}


def disagreements(rows, other):
    """Tasks where this run and `other` (task → status) both gave a verdict and the
    verdicts differ."""
    out = []
    for r in rows:
        mine, theirs = verdict_class(r["status"]), verdict_class(other.get(r["task"], ""))
        if mine != "none" and theirs != "none" and mine != theirs:
            out.append(r["task"])
    return out


# ----------------------------------------------------------------------------- results


@dataclass
class Outcome:
    status: str  # "true", "false(unreach-call)", "unknown", "TIMEOUT", "OUT OF MEMORY", "ERROR (...)"
    cpu_s: float = 0.0
    wall_s: float = 0.0
    mem_bytes: int = 0
    refinements: str = ""
    stats: dict = field(default_factory=dict)


def parse_output(lines, exit_code, sig=None):
    """The status of a run from yogar's stdout lines and its exit code (None if killed by
    signal `sig`). The last line and the exit code must agree; otherwise the run is an error,
    never a verdict."""
    lines = [line.strip() for line in lines if line.strip()]
    last = lines[-1] if lines else ""
    if exit_code is None:
        return f"ERROR (signal {sig})"
    if exit_code in EXIT_ERRORS:
        return f"ERROR ({EXIT_ERRORS[exit_code]})"
    if exit_code == EXIT_TRUE and last == "TRUE":
        return "true"
    if exit_code == EXIT_FALSE and re.fullmatch(r"FALSE\([a-z-]+\)", last):
        return "false" + last[len("FALSE") :]
    m = re.fullmatch(r"UNKNOWN(?: \((.*)\))?", last)
    if exit_code == EXIT_UNKNOWN and m:
        reason = (m.group(1) or "").strip().lower()
        if reason == "timeout":
            return "TIMEOUT"
        if "out of memory" in reason:
            return "OUT OF MEMORY"
        return "unknown"
    return f"ERROR (exit code {exit_code}, last line {last[:40]!r})"


def out_of_memory(err_text, code):
    """An allocation failure under the memory limit, by what stderr says: Rust's abort message,
    the C++ SAT back end's `std::bad_alloc` termination, or a killed run reporting it."""
    return (
        "memory allocation of" in err_text
        or "std::bad_alloc" in err_text
        or (code is None and "out of memory" in err_text.lower())
    )


def parse_stats(lines):
    """`key: value` lines (yogar --stats)."""
    stats = {}
    for line in lines:
        m = re.fullmatch(r"([A-Za-z][A-Za-z0-9_ .-]*):\s*(\S.*)", line.strip())
        if m:
            stats[m.group(1).strip()] = m.group(2).strip()
    return stats


def verdict_class(status):
    """"true", "false" or "none"."""
    if status == "true":
        return "true"
    if status.startswith("false"):
        return "false"
    return "none"


def categorize(expected, status):
    """(category, score): category is correct, wrong, unknown or error."""
    v = verdict_class(status)
    if v == "true":
        return ("correct", SCORE_CORRECT_TRUE) if expected else ("wrong", SCORE_WRONG_TRUE)
    if v == "false":
        # Only a violation of the property that was asked for is a correct FALSE.
        if status == "false(unreach-call)" and not expected:
            return "correct", SCORE_CORRECT_FALSE
        return "wrong", SCORE_WRONG_FALSE
    if status.startswith("ERROR"):
        return "error", 0
    return "unknown", 0


# ----------------------------------------------------------------------------- runners


def _limits_preexec(cpu_s, mem_bytes):
    def apply():
        # Soft limit: SIGXCPU; the hard limit one second later: SIGKILL.
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
        if mem_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (mem_bytes, mem_bytes))

    return apply


def run_own(cmd, out_path, err_path, cpu_s, mem_bytes, wall_s):
    """Run with setrlimit limits and a wall-clock timeout; measure with wait4."""
    start = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        try:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                preexec_fn=_limits_preexec(cpu_s, mem_bytes),
                start_new_session=True,
            )
        except OSError as e:
            return Outcome(status=f"ERROR (cannot run: {e.strerror})"), [], []
    killed = threading.Event()

    def kill():
        killed.set()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(wall_s, kill)
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    cpu = usage.ru_utime + usage.ru_stime
    mem = usage.ru_maxrss * 1024  # kilobytes on Linux
    # Children the tool left behind (e.g. a preprocessor) go with it.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass

    out_lines = _read_lines(out_path)
    err_text = "\n".join(_read_lines(err_path))
    code = proc.returncode if proc.returncode >= 0 else None
    sig = -proc.returncode if proc.returncode < 0 else None
    if killed.is_set():
        text = "TIMEOUT"
    elif sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu >= cpu_s - 0.5):
        text = "TIMEOUT"
    elif out_of_memory(err_text, code):
        text = "OUT OF MEMORY"
    else:
        text = parse_output(out_lines, code, sig)
    return Outcome(status=text, cpu_s=cpu, wall_s=wall, mem_bytes=mem), out_lines, err_text


class BenchExecRunner:
    """Runs through BenchExec's RunExecutor (one per worker thread)."""

    def __init__(self):
        from benchexec.runexecutor import RunExecutor

        self._make = lambda: RunExecutor(use_namespaces=False)
        self._local = threading.local()

    def executor(self):
        if not hasattr(self._local, "executor"):
            self._local.executor = self._make()
        return self._local.executor

    def run(self, cmd, out_path, err_path, cpu_s, mem_bytes, wall_s):
        try:
            res = self.executor().execute_run(
                cmd,
                out_path,
                error_filename=err_path,
                write_header=False,
                hardtimelimit=cpu_s,
                walltimelimit=wall_s,
                memlimit=mem_bytes or None,
            )
        except Exception as e:  # BenchExec reports setup problems as exceptions
            return Outcome(status=f"ERROR (benchexec: {e})"), [], ""
        out_lines = _read_lines(out_path)
        err_text = "\n".join(_read_lines(err_path))
        reason = res.get("terminationreason")
        exit_code = res.get("exitcode")
        if reason in ("cputime", "cputime-soft", "walltime"):
            text = "TIMEOUT"
        elif reason == "memory":
            text = "OUT OF MEMORY"
        elif "failed" in res:
            text = "ERROR (benchexec: run failed)"
        else:
            text = parse_output(out_lines, exit_code.value, exit_code.signal)
        return (
            Outcome(
                status=text,
                cpu_s=res.get("cputime", 0.0),
                wall_s=res.get("walltime", 0.0),
                mem_bytes=res.get("memory", 0) or 0,
            ),
            out_lines,
            err_text,
        )


def benchexec_runner_if_usable(tmp_dir):
    """A BenchExecRunner if BenchExec is installed and can limit and measure a run here."""
    try:
        import logging

        logging.getLogger().setLevel(logging.ERROR)
        runner = BenchExecRunner()
        probe_out = os.path.join(tmp_dir, "benchexec-probe.log")
        res = runner.executor().execute_run(
            ["/bin/true"],
            probe_out,
            write_header=False,
            hardtimelimit=5,
            memlimit=64 * 1024 * 1024,
        )
        os.remove(probe_out)
        if res.get("exitcode") is None or res["exitcode"].value != 0 or "cputime" not in res:
            return None
        return runner
    except Exception:
        return None


def _read_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().splitlines()
    except OSError:
        return []


# ----------------------------------------------------------------------------- baseline


def read_baseline(path):
    """task -> status of the baseline (empty when there is none yet)."""
    if not os.path.isfile(path):
        return {}
    with open(path, newline="", encoding="utf-8") as f:
        return {row["task"]: row["status"] for row in csv.DictReader(f) if row.get("task")}


def write_baseline(path, rows, previous):
    """Rewrite the baseline with this run's statuses; tasks not run keep their old row."""
    merged = {task: ("", status) for task, status in previous.items()}
    for r in rows:
        merged[r["task"]] = (r["expected"], r["status"])
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["task", "expected", "status"])
        for task in sorted(merged):
            w.writerow([task, *merged[task]])


# ----------------------------------------------------------------------------- reports


def summarize(rows):
    s = {
        "tasks": len(rows),
        "correct_true": sum(r["category"] == "correct" and r["expected"] == "true" for r in rows),
        "correct_false": sum(r["category"] == "correct" and r["expected"] == "false" for r in rows),
        "wrong_true": sum(r["category"] == "wrong" and r["status"] == "true" for r in rows),
        "wrong_false": sum(r["category"] == "wrong" and r["status"] != "true" for r in rows),
        "unknown": sum(r["category"] == "unknown" for r in rows),
        "timeout": sum(r["status"] == "TIMEOUT" for r in rows),
        "error": sum(r["category"] == "error" for r in rows),
        "changed": sum(r["changed"] == "yes" for r in rows),
        "witness_confirmed": sum(r.get("witness") == "confirmed" for r in rows),
        "witness_checked": sum(bool(r.get("witness")) for r in rows),
        "score": sum(int(r["score"]) for r in rows),
        "max_score": sum(
            SCORE_CORRECT_TRUE if r["expected"] == "true" else SCORE_CORRECT_FALSE for r in rows
        ),
        "cpu_s": sum(float(r["cpu_s"]) for r in rows),
    }
    return s


def summary_text(s, runner_name):
    return (
        f"tasks: {s['tasks']} (runner: {runner_name})\n"
        f"correct: {s['correct_true'] + s['correct_false']} "
        f"({s['correct_true']} true, {s['correct_false']} false)\n"
        f"wrong: {s['wrong_true'] + s['wrong_false']} "
        f"({s['wrong_true']} true, {s['wrong_false']} false)\n"
        f"unknown: {s['unknown']} (of which timeout: {s['timeout']})\n"
        f"error: {s['error']}\n"
        f"changed from baseline: {s['changed']}\n"
        + (f"witnesses confirmed by replay: {s['witness_confirmed']} of {s['witness_checked']}\n"
           if s.get("witness_checked") else "")
        + f"score: {s['score']} of {s['max_score']}\n"
        f"cpu time: {s['cpu_s']:.1f} s\n"
    )


def write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: r[k] for k in CSV_FIELDS})


def write_html(path, rows, summary):
    colors = {"correct": "#d8f5d8", "wrong": "#f8c8c8", "unknown": "#f4f4f4", "error": "#fbe7c6"}
    out = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8"><title>yogar regression</title>',
        "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
        "td,th{border:1px solid #bbb;padding:2px 6px;font-size:13px}"
        "td.n{text-align:right}</style></head><body>",
        "<h1>yogar regression</h1>",
        "<pre>" + html.escape(summary) + "</pre>",
        "<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in CSV_FIELDS) + "</tr>",
    ]
    for r in rows:
        style = colors.get(r["category"], "#fff")
        if r["changed"] == "yes":
            style += ";font-weight:bold"
        cells = []
        for k in CSV_FIELDS:
            cls = ' class="n"' if k in ("score", "cpu_s", "wall_s", "mem_mb", "refinements") else ""
            cells.append(f"<td{cls}>{html.escape(str(r[k]))}</td>")
        out.append(f'<tr style="background:{style}">' + "".join(cells) + "</tr>")
    out.append("</table></body></html>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


# ----------------------------------------------------------------------------- benchexec


def write_benchmark_def(svb, out_path, task_names=None):
    """A copy of yogar-concurrency.xml whose task paths point at the checkout `svb`, with the
    tool-info module still found through PYTHONPATH (sv-comp/). With `task_names` (paths
    below `c/`), the copy includes just those tasks."""
    with open(BENCHMARK_DEF, encoding="utf-8") as f:
        text = f.read()
    if BENCHMARK_DEF_SVB + "/" not in text:
        raise ValueError(f"{BENCHMARK_DEF} does not name {BENCHMARK_DEF_SVB}")
    if task_names is not None:
        includes = "".join(
            f"    <include>{BENCHMARK_DEF_SVB}/c/{html.escape(name)}</include>\n" for name in task_names
        )
        text = re.sub(r"(    <include>[^\n]*\n)+", lambda _: includes, text, count=1)
    text = text.replace(BENCHMARK_DEF_SVB + "/", os.path.abspath(svb) + "/")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(text)


# ----------------------------------------------------------------------------- main


def find_yogar(explicit):
    if explicit:
        return os.path.abspath(explicit)
    built = os.path.join(REPO, "target", "release", "yogar")
    if os.access(built, os.X_OK):
        return built
    from shutil import which

    return which("yogar") or built


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--svb", default=os.environ.get("SVB", os.path.join(REPO, "..", "shared", "sv-benchmarks")),
                   help="sv-benchmarks checkout (default: $SVB or ../shared/sv-benchmarks)")
    p.add_argument("--yogar", help="the yogar binary (default: target/release/yogar, else PATH)")
    p.add_argument("--yogar-args", default="", help="extra options for `yogar verify` (one string)")
    p.add_argument("--limit-cpu", type=int, default=60, help="CPU seconds per task (default 60)")
    p.add_argument("--limit-mem", type=int, default=4096, help="memory per task in MB (default 4096; 0: none)")
    p.add_argument("--limit-wall", type=float, help="wall seconds per task (default 2 x CPU + 10)")
    p.add_argument("--jobs", type=int, default=2, help="tasks run in parallel (default 2)")
    p.add_argument("--filter", help="only tasks whose name matches this regular expression")
    p.add_argument("--quick", action="store_true", help=f"a fixed subset of {QUICK_SIZE} tasks across directories")
    p.add_argument("--out", default=os.path.join(REPO, "target", "regress"), help="output folder (default target/regress)")
    p.add_argument("--baseline", default=DEFAULT_BASELINE, help="baseline CSV (default sv-comp/baseline.csv)")
    p.add_argument("--update-baseline", action="store_true", help="rewrite the baseline with this run's statuses")
    p.add_argument("--fail-on-change", action="store_true", help="also exit 1 if a verdict differs from the baseline")
    p.add_argument("--runner", choices=["auto", "benchexec", "own"], default="auto",
                   help="auto: BenchExec's RunExecutor if usable, else the own runner")
    p.add_argument("--replay", action="store_true",
                   help="write a witness for every FALSE and check it with `yogar replay` (column witness)")
    p.add_argument("--results", metavar="CSV",
                   help="run nothing: summarize (and --compare) the results.csv of an earlier run")
    p.add_argument("--compare", metavar="CSV",
                   help="results.csv of another run (e.g. another engine): fail on any task where both "
                        "gave a verdict and the verdicts differ")
    p.add_argument("--benchexec-xml", metavar="OUT",
                   help="only write yogar-concurrency.xml for this checkout to OUT, then stop "
                        "(with --filter or --quick: just those tasks)")
    p.add_argument("--default-data-model", choices=["ILP32", "LP64", "none"], default="ILP32",
                   help="data model for tasks that state none (format 1.0; SV-COMP ran these as ILP32)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    svb = os.path.abspath(args.svb)
    if not os.path.isdir(os.path.join(svb, "c")):
        print(f"regress: no sv-benchmarks checkout at {svb} (give --svb or SVB=...)", file=sys.stderr)
        return 2
    if args.benchexec_xml and not (args.filter or args.quick):
        write_benchmark_def(svb, args.benchexec_xml)
        print(f"regress: wrote {args.benchexec_xml}")
        return 0
    try:
        tasks = load_tasks(svb)
    except (OSError, ValueError) as e:
        print(f"regress: {e}", file=sys.stderr)
        return 2
    if args.filter:
        rx = re.compile(args.filter)
        tasks = [t for t in tasks if rx.search(t.name)]
    if args.quick:
        tasks = quick_subset(tasks)
    if not tasks:
        print("regress: no task selected", file=sys.stderr)
        return 2
    if args.benchexec_xml:
        write_benchmark_def(svb, args.benchexec_xml, [t.name for t in tasks])
        print(f"regress: wrote {args.benchexec_xml} ({len(tasks)} tasks)")
        return 0

    if args.results:
        # No runs: the rows of an earlier run, for its summary and --compare.
        with open(args.results, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        selected = {t.name for t in tasks}
        rows = [r for r in rows if r["task"] in selected]
        for r in rows:
            r.setdefault("witness", "")
        if not args.replay:
            return report(args, rows, "earlier run " + args.results, {}, None)

    yogar = find_yogar(args.yogar)
    if not os.access(yogar, os.X_OK):
        print(f"regress: no yogar binary at {yogar} (build it, or give --yogar)", file=sys.stderr)
        return 2
    out_dir = os.path.abspath(args.out)
    if args.results:
        # The earlier run's witnesses (its logs/ folder), checked again by this yogar's replay.
        out_dir = os.path.dirname(os.path.abspath(args.results))
    logs = os.path.join(out_dir, "logs")
    os.makedirs(logs, exist_ok=True)
    runner = None
    if args.runner in ("auto", "benchexec"):
        runner = benchexec_runner_if_usable(out_dir)
        if runner is None and args.runner == "benchexec":
            print("regress: BenchExec is not installed or not usable here", file=sys.stderr)
            return 2
    runner_name = "benchexec" if runner else "own"
    run = runner.run if runner else run_own
    mem_bytes = args.limit_mem * 1024 * 1024
    wall = args.limit_wall or 2 * args.limit_cpu + 10
    extra = shlex.split(args.yogar_args)
    default_dm = None if args.default_data_model == "none" else args.default_data_model
    baseline = read_baseline(args.baseline)

    print(f"regress: {len(tasks)} tasks, {yogar}, runner {runner_name}, jobs {args.jobs}, "
          f"{args.limit_cpu} s CPU, {args.limit_mem} MB", flush=True)

    def check_witness(task, witness):
        """Whether `yogar replay` confirms the violation witness of a FALSE verdict."""
        if not os.path.exists(witness):
            return "no witness"
        stem = task.name.replace("/", "__")
        _, r_lines, _ = run(
            replay_command(task, yogar, default_dm, witness),
            os.path.join(logs, stem + ".replay.log"),
            os.path.join(logs, stem + ".replay.err"),
            args.limit_cpu, mem_bytes, wall,
        )
        confirmed = any(line.startswith("witness confirmed") for line in r_lines)
        return "confirmed" if confirmed else "not confirmed"

    if args.results:
        by_name = {t.name: t for t in tasks}
        for r in rows:
            if verdict_class(r["status"]) == "false":
                stem = r["task"].replace("/", "__")
                r["witness"] = check_witness(by_name[r["task"]], os.path.join(logs, stem + ".graphml"))
        return report(args, rows, "earlier run " + args.results + ", witnesses replayed", {}, None)

    def one(task):
        stem = task.name.replace("/", "__")
        witness = os.path.join(logs, stem + ".graphml") if args.replay else None
        if witness and os.path.exists(witness):
            os.remove(witness)
        cmd = command(task, yogar, default_dm, extra, witness)
        outcome, out_lines, _ = run(
            cmd, os.path.join(logs, stem + ".log"), os.path.join(logs, stem + ".err"),
            args.limit_cpu, mem_bytes, wall,
        )
        stats = parse_stats(out_lines)
        category, score = categorize(task.expected, outcome.status)
        replayed = ""
        if witness and verdict_class(outcome.status) == "false":
            replayed = check_witness(task, witness)
        base = baseline.get(task.name, "")
        changed = bool(base) and verdict_class(base) != verdict_class(outcome.status)
        return {
            "task": task.name,
            "directory": task.directory,
            "expected": "true" if task.expected else "false",
            "status": outcome.status,
            "category": category,
            "score": score,
            "cpu_s": f"{outcome.cpu_s:.2f}",
            "wall_s": f"{outcome.wall_s:.2f}",
            "mem_mb": f"{outcome.mem_bytes / 1e6:.1f}",
            "refinements": stats.get("refinements", ""),
            # The Yogar engine's first formula (φ0); the monolithic engine reports φ0 as 0.
            "clauses": (stats.get("phi0 clauses", "0") != "0" and stats["phi0 clauses"])
            or stats.get("clauses", ""),
            "unwind": stats.get("unwind bound", ""),
            "witness": replayed,
            "baseline": base,
            "changed": "yes" if changed else "",
        }

    rows = []
    lock = threading.Lock()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for row in pool.map(one, tasks):
            with lock:
                rows.append(row)
                flag = "  WRONG" if row["category"] == "wrong" else ""
                flag += f"  CHANGED (was {row['baseline']})" if row["changed"] else ""
                flag += f"  witness {row['witness']}" if row["witness"] else ""
                print(f"[{len(rows)}/{len(tasks)}] {row['task']}: {row['status']} "
                      f"(expected {row['expected']}) {row['cpu_s']} s{flag}", flush=True)

    return report(args, rows, runner_name, baseline, out_dir)


def report(args, rows, runner_name, baseline, out_dir):
    """Summary, tables (when `out_dir`), baseline update, and the exit status of a run."""
    summary = summary_text(summarize(rows), runner_name)
    print(summary, end="")
    if out_dir:
        write_csv(os.path.join(out_dir, "results.csv"), rows)
        write_html(os.path.join(out_dir, "results.html"), rows, summary)
        with open(os.path.join(out_dir, "summary.txt"), "w", encoding="utf-8") as f:
            f.write(summary)
        print(f"results: {os.path.join(out_dir, 'results.csv')}, {os.path.join(out_dir, 'results.html')}")
    if args.update_baseline:
        write_baseline(args.baseline, rows, baseline)
        print(f"baseline updated: {args.baseline}")

    wrong = [r["task"] for r in rows if r["category"] == "wrong"]
    changed = [r["task"] for r in rows if r["changed"]]
    unconfirmed = [r["task"] for r in rows if r["witness"] not in ("", "confirmed")]
    differ = disagreements(rows, read_results(args.compare)) if args.compare else []
    if args.compare:
        print(f"compared with {args.compare}: {len(differ)} tasks with a different verdict")
    status = 0
    if wrong:
        print("WRONG verdicts: " + " ".join(wrong), file=sys.stderr)
        status = 1
    if unconfirmed:
        print("witnesses not confirmed by replay: " + " ".join(unconfirmed), file=sys.stderr)
        status = 1
    if differ:
        print("verdicts differ from the compared run: " + " ".join(differ), file=sys.stderr)
        status = 1
    if status:
        return status
    if changed and args.fail_on_change:
        print("verdicts changed from the baseline: " + " ".join(changed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
