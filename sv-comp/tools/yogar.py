# BenchExec tool-info module for yogar, a bounded model checker for multi-threaded C programs.
#
# Use with sv-comp/ on PYTHONPATH as `tools.yogar` (see sv-comp/README.md). The verdict is the
# last line of yogar's output together with its exit code: both must agree, otherwise the run
# is an error rather than a guessed verdict.

import re

import benchexec.result as result
import benchexec.tools.template

# Exit codes of `yogar verify` (src/exit.rs).
EXIT_TRUE = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_NOT_IMPLEMENTED = 4
EXIT_UNKNOWN = 5
EXIT_FALSE = 10

_ERRORS = {
    EXIT_INTERNAL: "ERROR (internal)",
    EXIT_USAGE: "ERROR (usage)",
    EXIT_INPUT: "ERROR (input)",
    EXIT_NOT_IMPLEMENTED: "ERROR (not implemented)",
}

_DATA_MODEL_FLAGS = {"ILP32": "--32", "LP64": "--64"}

# `FALSE(<violation>)` of yogar (src/verdict.rs, `Violation::name`) -> BenchExec's result
# constant of that (sub)property.
_FALSE = {
    "unreach-call": "RESULT_FALSE_REACH",
    "no-data-race": "RESULT_FALSE_DATARACE",
    "valid-deref": "RESULT_FALSE_DEREF",
    "valid-free": "RESULT_FALSE_FREE",
    "valid-memtrack": "RESULT_FALSE_MEMTRACK",
    "no-overflow": "RESULT_FALSE_OVERFLOW",
}


class Tool(benchexec.tools.template.BaseTool2):
    """yogar: scheduling-constraint based abstraction refinement for pthread programs."""

    def executable(self, tool_locator):
        try:
            return tool_locator.find_executable("yogar")
        except benchexec.tools.template.ToolNotFoundException:
            # A source checkout: `cargo build --release` leaves it here.
            return tool_locator.find_executable("yogar", subdir="target/release")

    def version(self, executable):
        # `yogar --version` prints "yogar 0.1.0".
        return self._version_from_tool(executable, line_prefix="yogar")

    def name(self):
        return "yogar"

    def cmdline(self, executable, options, task, rlimits):
        options = list(options)
        if not options or options[0] != "verify":
            options = ["verify"] + options
        if task.property_file:
            options += ["--property", task.property_file]
        data_model = None
        if isinstance(task.options, dict):
            data_model = task.options.get("data_model")
        if data_model:
            flag = _DATA_MODEL_FLAGS.get(data_model)
            if flag is None:
                raise benchexec.tools.template.UnsupportedFeatureException(
                    f"Unsupported data_model '{data_model}' of task {task}"
                )
            # The task is authoritative: a default data model given in the benchmark
            # definition (for format-1.0 tasks, which state none) gives way.
            options = [o for o in options if o not in ("--32", "--64")] + [flag]
        return [executable] + options + list(task.input_files_or_identifier)

    def determine_result(self, run):
        lines = [line.strip() for line in run.output if line.strip()]
        last = lines[-1] if lines else ""
        code = run.exit_code.value
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if code is None:
            return f"ERROR (signal {run.exit_code.signal})"
        if code in _ERRORS:
            return _ERRORS[code]
        if code == EXIT_TRUE and last == "TRUE":
            return result.RESULT_TRUE_PROP
        false = re.fullmatch(r"FALSE\(([a-z-]+)\)", last)
        if code == EXIT_FALSE and false and false.group(1) in _FALSE:
            name = false.group(1)
            return getattr(result, _FALSE[name], result.RESULT_FALSE_PROP + "(" + name + ")")
        unknown = re.fullmatch(r"UNKNOWN(?: \((.*)\))?", last)
        if code == EXIT_UNKNOWN and unknown:
            reason = (unknown.group(1) or "").strip().lower()
            if reason == "timeout":
                return result.RESULT_TIMEOUT
            if "out of memory" in reason:
                return "OUT OF MEMORY"
            return result.RESULT_UNKNOWN
        # Verdict line and exit code disagree, or there is no verdict line.
        return f"ERROR (exit code {code}, output {last[:40]!r})"

    def get_value_from_output(self, output, identifier):
        key = identifier.rstrip(":").strip()
        for line in output:
            name, sep, value = line.partition(":")
            if sep and name.strip() == key:
                return value.strip()
        return None
