"""Tests of the BenchExec tool-info module (`tools/yogar.py`); skipped when BenchExec is not
installed. Run: python3 -m unittest discover -s sv-comp"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

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
        for name in ["no-data-race", "valid-deref", "valid-free", "valid-memtrack", "no-overflow"]:
            self.assertEqual(self.result([f"FALSE({name})"], 10), f"false({name})")
        self.assertEqual(self.result(["FALSE(no-data-race)"], 10), result.RESULT_FALSE_DATARACE)
        self.assertTrue(self.result(["FALSE(termination)"], 10).startswith("ERROR"))
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
