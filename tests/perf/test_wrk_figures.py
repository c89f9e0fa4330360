"""wrk_figures.py reads wrk's own output: medians over the runs, timeouts and errors summed, a run
without figures counted, and rates and p99 as ratios over the last side. Fed wrk outputs written
here, so that a parser that misreads a unit or drops a timeout fails."""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrk_figures  # noqa: E402


def wrk_run(rate: str, p50: str, p99: str, timeouts: int = 0, non_2xx: int = 0) -> str:
    text = (f"Running 5s test @ http://127.0.0.1:1/x\n  Latency Distribution\n"
            f"     50%   {p50}\n     75%   1.00ms\n     90%   1.00ms\n     99%   {p99}\n")
    if timeouts:
        text += f"  Socket errors: connect 0, read 1, write 0, timeout {timeouts}\n"
    if non_2xx:
        text += f"  Non-2xx or 3xx responses: {non_2xx}\n"
    return text + f"Requests/sec: {rate}\nTransfer/sec: 1.00MB\n"


class WrkFiguresTest(unittest.TestCase):
    def write(self, *runs: str) -> str:
        handle = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        self.addCleanup(os.unlink, handle.name)
        handle.write("".join(f"=== run {i}\n{run}" for i, run in enumerate(runs, 1)))
        handle.close()
        return handle.name

    def test_medians_sums_and_units(self):
        path = self.write(wrk_run("100.0", "1.50ms", "1.20s", timeouts=2),
                          wrk_run("300.0", "900.00us", "250.00ms", non_2xx=3),
                          wrk_run("200.0", "2.00ms", "400.00ms", timeouts=1))
        side = wrk_figures.summary(wrk_figures.runs_of(path))
        self.assertEqual(side["rate"], 200.0)
        self.assertEqual(side["p50"], 1.5)
        self.assertEqual(side["p99"], 400.0)  # 1.20s read as 1200 ms, not 1.2
        self.assertEqual(side["timeouts"], 3)
        self.assertEqual(side["errors"], 1 + 3 + 1)  # read errors and non-2xx answers
        self.assertEqual(side["failed"], 0)

    def test_a_run_without_figures_is_counted(self):
        path = self.write(wrk_run("100.0", "1.00ms", "2.00ms"), "unable to connect\n")
        self.assertEqual(wrk_figures.summary(wrk_figures.runs_of(path))["failed"], 1)

    def test_ratios_are_over_the_last_side(self):
        origin = self.write(wrk_run("300.0", "1.00ms", "150.00ms"))
        nginx = self.write(wrk_run("200.0", "1.00ms", "300.00ms"))
        sys.argv = ["wrk_figures.py", "GET 10MiB c=32", f"origin={origin}", f"nginx={nginx}"]
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            wrk_figures.main()
        lines = printed.getvalue().splitlines()
        self.assertEqual(lines[0], "GET 10MiB c=32 (ratios: over nginx)")
        self.assertIn("300.0 req/s (1.50x)", lines[1])
        self.assertIn("p99    150.00 ms (0.50x)", lines[1])
        self.assertNotIn("x)", lines[2])


if __name__ == "__main__":
    unittest.main()
