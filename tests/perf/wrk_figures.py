"""Reads the outputs of `wrk --latency` runs (one file per side, runs separated by `=== run N`)
and prints one line per side: the median req/s, p50 and p99 over the runs, and the total of
timeouts and errors. Every side but the last gets its rate over the last side's (the reference,
nginx) and its p99 over the reference's.

    wrk_figures.py LABEL NAME=OUTPUT.txt... REFERENCE_NAME=OUTPUT.txt"""

import re
import statistics
import sys

UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def milliseconds(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * UNITS_MS[unit]


def runs_of(path: str) -> list[dict]:
    runs = []
    for chunk in open(path).read().split("=== run ")[1:]:
        rate = re.search(r"Requests/sec:\s+([\d.]+)", chunk)
        p50 = re.search(r"^\s+50%\s+(\S+)", chunk, re.M)
        p99 = re.search(r"^\s+99%\s+(\S+)", chunk, re.M)
        socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                           chunk)
        non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", chunk)
        runs.append({
            "rate": float(rate.group(1)) if rate else 0.0,
            "p50": milliseconds(p50.group(1)) if p50 else float("nan"),
            "p99": milliseconds(p99.group(1)) if p99 else float("nan"),
            "timeouts": int(socket.group(4)) if socket else 0,
            "errors": (sum(map(int, socket.groups()[:3])) if socket else 0)
                      + (int(non_2xx.group(1)) if non_2xx else 0),
            "failed": rate is None,
        })
    return runs


def summary(runs: list[dict]) -> dict:
    return {"rate": statistics.median(r["rate"] for r in runs),
            "p50": statistics.median(r["p50"] for r in runs),
            "p99": statistics.median(r["p99"] for r in runs),
            "timeouts": sum(r["timeouts"] for r in runs),
            "errors": sum(r["errors"] for r in runs),
            "failed": sum(r["failed"] for r in runs)}


def ratio(value: float, reference: float) -> float:
    return value / reference if reference else float("nan")


def main() -> None:
    label, named = sys.argv[1], [arg.split("=", 1) for arg in sys.argv[2:]]
    sides = [(name, summary(runs_of(path))) for name, path in named]
    reference_name, reference = sides[-1]
    width = max(len(name) for name, _ in sides)
    print(f"{label} (ratios: over {reference_name})")
    for name, side in sides:
        ratios = p99_ratio = ""
        if side is not reference:
            ratios = f" ({ratio(side['rate'], reference['rate']):.2f}x)"
            p99_ratio = f" ({ratio(side['p99'], reference['p99']):.2f}x)"
        failed = f", {side['failed']} runs without figures" if side["failed"] else ""
        print(f"  {name:{width}} {side['rate']:10.1f} req/s{ratios:9}  p50 {side['p50']:9.2f} ms  "
              f"p99 {side['p99']:9.2f} ms{p99_ratio:9}  timeouts {side['timeouts']:3}  "
              f"errors {side['errors']}{failed}")


if __name__ == "__main__":
    main()
