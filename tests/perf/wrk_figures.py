"""Reads the outputs of `wrk --latency` runs (one file per side, runs separated by `=== run N`)
and prints one line per side: the median req/s, p50 and p99 over the runs, and the total of
timeouts and errors. The first side is s3fault's origin; the others get its rate over theirs.

    wrk_figures.py LABEL ORIGIN.txt NGINX.txt [RGW.txt]"""

import re
import statistics
import sys

SIDES = ["s3fault origin", "nginx", "RGW"]
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


def main() -> None:
    label, paths = sys.argv[1], sys.argv[2:]
    sides = [summary(runs_of(path)) for path in paths]
    origin = sides[0]
    print(label)
    for name, side in zip(SIDES, sides):
        ratio = f" ({origin['rate'] / side['rate']:.2f}x)" if side is not origin and side["rate"] else ""
        failed = f", {side['failed']} runs without figures" if side["failed"] else ""
        print(f"  {name:15} {side['rate']:10.1f} req/s{ratio:9}  p50 {side['p50']:9.2f} ms  "
              f"p99 {side['p99']:9.2f} ms  timeouts {side['timeouts']:3}  errors {side['errors']}"
              f"{failed}")


if __name__ == "__main__":
    main()
