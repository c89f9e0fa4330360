"""The HTML page of `s3fault bench`, rendered by headless Chromium: it opens with the verdict
the terminal ends with, word for word; it says how many rounds ran (after Ctrl-C, fewer than were
asked for); its tables carry exactly the figures of the JSON file (through the page's data-cell /
data-figure / data-column hooks); it has one chart of each kind per operation and size, with a
log axis exactly where the medians' spread calls for it, the baseline's cells overlaid (only
those) and the control noise band drawn, and per operation a ratio chart whose dots say the
JSON's ratio and change; it has no script, and it fits a window 1280 pixels wide. A page made without a baseline has no overlay and no verdict, and an altered figure is
caught, so no check can pass by finding nothing.

    s3fault bench --json base.json --html base.html                    (no baseline)
    base.json minus one cell, its get cells 20 times faster -> fast.json (a forced regression)
    s3fault bench --control --baseline fast.json --json now.json --html now.html
    base.json 20 times slower -> slow.json; s3fault bench --baseline slow.json    (no regression)
    s3fault bench ... --duration 1s --rounds 3, Ctrl-C in round 2       (rounds that ran)
    chromium --headless --dump-dom / --screenshot now.html  ->  parsed and compared with the JSON

Needs the `chromium` package (tests/deps.sh); fails, does not skip, when it is missing."""

import collections
import html.parser
import json
import os
import re
import shutil
import signal
import subprocess
import unittest
from pathlib import Path

import harness

CHROMIUM = "chromium"
WINDOW_WIDTH = 1280
# The widest table the page may have, counting colspans: the baseline table's 12 columns
# (operation, size, conc, figure and the 8 of the comparison) fit 1280 pixels; the medians table
# of old had 16 and did not.
MAX_TABLE_COLUMNS = 12

# Decimals each figure is printed with (conformance/bench/bench_figures.cpp).
DECIMALS = {
    "mib_per_second": 2, "ops_per_second": 1,
    "latency_p50_ms": 3, "latency_p90_ms": 3, "latency_p99_ms": 3, "latency_max_ms": 3,
    "ttfb_p50_ms": 3, "ttfb_p90_ms": 3, "ttfb_p99_ms": 3, "ttfb_max_ms": 3,
    "operations": 0, "errors": 0, "retries": 0,
    "store_rss_max_mib": 1, "store_rss_mean_mib": 1, "store_threads_max": 0,
    "store_threads_mean": 1, "store_cpu_max_percent": 1, "store_cpu_mean_percent": 1,
}
# The figures a baseline comparison looks at (compared in bench_figures.cpp): the columns of the
# noise table.
COMPARED = ["mib_per_second", "ops_per_second", "latency_p50_ms", "latency_p99_ms", "ttfb_p50_ms"]
# The cell left out of the baseline, so that the overlay must tell cells apart.
DROPPED_CELL = "put 1MiB c=2"
# The baseline's get cells are made this many times better than measured: every get chart then
# needs a log axis, and the verdict has regressions to list.
FASTER = 20
# The page's rule (bench_report_html.cpp, docs/bench.md): a chart whose largest median is at
# least this many times its smallest has a log y axis.
LOG_AXIS_SPREAD = 10
# The figures the latency charts show.
LATENCY_CHARTED = ["latency_p50_ms", "latency_p90_ms", "latency_p99_ms"]
BENCH_ARGS = ["--ops", "get,put", "--sizes", "256KiB,1MiB", "--concurrency", "1,2", "--count",
              "10", "--rounds", "3"]
# Chromium must reach nothing but the page's file: no DNS, every HTTP(S) request to a closed
# local port, and none of its background fetches (updates, sync, field trials).
CHROMIUM_ISOLATION = ["--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
                      "--disable-background-networking", "--disable-component-update",
                      "--disable-sync", "--disable-default-apps", "--no-first-run",
                      "--no-default-browser-check", "--metrics-recording-only"]


def run_bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(harness.proxy_binary()), "bench", "--progress", "never", *args],
                          capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL, env=harness.clean_client_env())


def scaled(report: dict, keep, factor: float) -> dict:
    """The report's cells for which keep(cell) holds, each figure `factor` times better (higher
    throughput, lower latency and TTFB): medians, ranges and per-round values."""
    def better(key: str, value: float) -> float:
        return value * factor if key in ("mib_per_second", "ops_per_second") else value / factor
    cells = []
    for cell in report["cells"]:
        if not keep(cell):
            continue
        cell = json.loads(json.dumps(cell))
        if factor != 1:
            for key, spread in cell["figures"].items():
                if key.startswith(("mib_", "ops_", "latency_", "ttfb_")):
                    low, high = sorted((better(key, spread["min"]), better(key, spread["max"])))
                    spread.update(median=better(key, spread["median"]), min=low, max=high)
            for key, rounds in cell.get("rounds", {}).items():
                cell["rounds"][key] = [better(key, v) for v in rounds]
        cells.append(cell)
    return dict(report, cells=cells)


def terminal_verdict(stdout: str) -> list[str]:
    """The verdict the bench printed last: the "Verdict:" line and the indented lines after it."""
    lines = stdout.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("Verdict:"))
    verdict = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        verdict.append(line[2:])
    return verdict


def terminal_heading(stdout: str) -> str:
    """The medians table's heading as printed, before "; throughput [min..max]; ..."."""
    line = next(line for line in stdout.splitlines()
                if line.startswith(("Medians of", "Figures of")))
    return line[:line.index("; throughput [min..max]")]


def chart_medians(cells: list[dict], key: tuple[str, str], figures: list[str]) -> list[float]:
    """The positive medians of `figures` of the cells of one chart (operation, size)."""
    return [c["figures"][f]["median"] for c in cells if (c["operation"], c["size"]) == key
            for f in figures if f in c["figures"] and c["figures"][f]["median"] > 0]


def cell_name(cell: dict) -> str:
    """The JSON cell as the page's data-cell names it: "get 1MiB c=4"."""
    return f"{cell['operation']} {cell['size']} c={cell['concurrency']}"


def printed(key: str, value: float) -> str:
    return f"{value:.{DECIMALS[key]}f}"


class Chromium:
    """Headless Chromium with a profile of its own under `scratch`."""

    def __init__(self, scratch: Path):
        self.binary = shutil.which(CHROMIUM)
        if self.binary is None:
            raise RuntimeError(f"'{CHROMIUM}' is not on PATH: install the Debian package "
                               f"'chromium' (tests/deps.sh does); this test does not skip")
        self.profile = scratch / "chromium-profile"

    def run(self, page: Path, *args: str) -> subprocess.CompletedProcess:
        command = [self.binary, "--headless", "--no-sandbox", "--disable-gpu",
                   f"--window-size={WINDOW_WIDTH},2000", f"--user-data-dir={self.profile}",
                   *CHROMIUM_ISOLATION, *args, page.resolve().as_uri()]
        return harness.run_command(command, env=harness.clean_client_env(), timeout=180)

    def dump_dom(self, page: Path) -> str:
        return self.run(page, "--dump-dom").stdout

    def screenshot(self, page: Path, png: Path) -> None:
        self.run(page, f"--screenshot={png}")


class Page(html.parser.HTMLParser):
    """A rendered page: its tables (rows of cells with attributes and text), its charts (the
    classes of the elements inside each <svg>), its verdict (the text of the headline and of
    each list item), the text of its elements of class "rounds" and "medians-heading", its
    scripts, the attributes of <body>, and the order of the first verdict and chart."""

    TEXT_CLASSES = ("rounds", "medians-heading")

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tables: list[dict] = []
        self.charts: list[dict] = []
        self.verdict: list[str] = []
        self.verdict_class: list[str] = []
        self.texts: dict[str, str] = {}
        self.scripts = 0
        self.body: dict[str, str] = {}
        self.order: list[str] = []  # "verdict" and "chart", as they come
        self._table = self._row = self._cell = self._chart = None
        self._in_verdict = False
        self._capture = None  # (tag, key in texts) or (tag, None) for a verdict line
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        classes = a.get("class", "").split()
        if tag == "script":
            self.scripts += 1
        elif tag == "body":
            self.body = a
        elif tag == "section" and "verdict" in classes:
            self._in_verdict = True
            self.verdict_class = classes
            self.order.append("verdict")
        elif self._in_verdict and tag in ("p", "li"):
            self.verdict.append("")
            self._capture = (tag, None)
        elif any(c in self.TEXT_CLASSES for c in classes):
            key = next(c for c in classes if c in self.TEXT_CLASSES)
            self.texts[key] = ""
            self._capture = (tag, key)
        elif tag == "table":
            self._table = {"class": a.get("class", ""), "rows": []}
            self.tables.append(self._table)
        elif tag == "tr" and self._table is not None:
            self._row = []
            self._table["rows"].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = {"tag": tag, "attrs": a, "text": ""}
            self._row.append(self._cell)
        elif tag == "svg":
            self._chart = {"class": classes, "operation": a.get("data-operation"),
                           "size": a.get("data-size"), "scale": a.get("data-scale"),
                           "inside": collections.Counter()}
            self.charts.append(self._chart)
            self.order.append("chart")
        elif self._chart is not None:
            self._chart["inside"].update(classes)

    def handle_endtag(self, tag):
        if self._capture is not None and tag == self._capture[0]:
            self._capture = None
        elif tag == "section":
            self._in_verdict = False
        elif tag in ("td", "th"):
            self._cell = None
        elif tag == "tr":
            self._row = None
        elif tag == "table":
            self._table = None
        elif tag == "svg":
            self._chart = None

    def handle_data(self, data):
        if self._capture is not None:
            if self._capture[1] is None:
                self.verdict[-1] += data
            else:
                self.texts[self._capture[1]] += data
        elif self._cell is not None:
            self._cell["text"] += data

    def tables_of(self, css_class: str) -> list[dict]:
        return [t for t in self.tables if css_class in t["class"].split()]

    def hooks(self, css_class: str) -> list[tuple[str, str, str, str]]:
        """(data-cell, data-figure, data-column, text) of every hooked cell in those tables."""
        found = []
        for table in self.tables_of(css_class):
            for row in table["rows"]:
                for c in row:
                    if "data-figure" in c["attrs"]:
                        found.append((c["attrs"].get("data-cell"), c["attrs"]["data-figure"],
                                      c["attrs"].get("data-column"), c["text"].strip()))
        return found

    def charts_of(self, kind: str) -> list[dict]:
        return [c for c in self.charts if kind in c["class"]]

    def chart_keys(self, kind: str) -> list[tuple[str, str]]:
        """(operation, size) of each chart of that kind, in page order."""
        return [(c["operation"], c["size"]) for c in self.charts_of(kind)]


def median_mismatches(page: Page, report: dict) -> list[str]:
    """Where the medians tables differ from the JSON's figures: a wrong median (value or digits),
    a wrong [min..max], a figure the page lacks or one it has that the JSON does not."""
    problems = []
    cells = {cell_name(c): c["figures"] for c in report["cells"]}
    seen = set()
    for name, key, column, text in page.hooks("medians"):
        figures = cells.get(name)
        if figures is None:
            problems.append(f"{name}: no such cell in the JSON")
            continue
        spread = figures.get(key)
        if column == "median":
            seen.add((name, key))
            if spread is None:
                if text != "-":
                    problems.append(f"{name} {key}: page {text!r}, JSON has no value")
            elif text != printed(key, spread["median"]) or float(text) != spread["median"]:
                problems.append(f"{name} {key}: page {text!r}, JSON median {spread['median']}")
        elif column == "range":
            expected = (f"[{printed(key, spread['min'])}..{printed(key, spread['max'])}]"
                        if spread else "")
            if text != expected:
                problems.append(f"{name} {key} range: page {text!r}, JSON {expected!r}")
        else:
            problems.append(f"{name} {key}: unexpected data-column {column!r}")
    expected_keys = {(name, key) for name, figures in cells.items() for key in figures
                     if not key.startswith("store_")}
    for name, key in sorted(expected_keys - seen):
        problems.append(f"{name} {key}: in the JSON, not in the medians tables")
    return problems


def baseline_mismatches(page: Page, report: dict) -> list[str]:
    """Where the baseline table's baseline, now and delta columns differ from the JSON's
    cells[].versus (the baseline's median is its "reference"), or miss one of its entries."""
    problems = []
    entries = {(cell_name(c), key): entry for c in report["cells"]
               for key, entry in c.get("versus", {}).items()}
    json_keys = {"baseline": "reference", "now": "now"}
    seen = set()
    for name, key, column, text in page.hooks("baseline"):
        entry = entries.get((name, key))
        if entry is None:
            problems.append(f"{name} {key}: in the baseline table, not in the JSON")
            continue
        if column in json_keys:
            seen.add((name, key, column))
            value = entry.get(json_keys[column])
            if value is None:
                if text != "-":
                    problems.append(f"{name} {key} {column}: page {text!r}, JSON has none")
            elif text != printed(key, value) or float(text) != value:
                problems.append(f"{name} {key} {column}: page {text!r}, JSON {value}")
        elif column == "delta" and "delta_percent" in entry:
            if float(text) != entry["delta_percent"]:
                problems.append(f"{name} {key} delta: page {text!r}, JSON "
                                f"{entry['delta_percent']}")
    for name, key in entries:
        for column in ("baseline", "now"):
            if (name, key, column) not in seen:
                problems.append(f"{name} {key} {column}: in the JSON, not in the baseline table")
    return problems


def noise_mismatches(page: Page, report: dict) -> list[str]:
    """Where the noise table differs from the JSON's cells[].noise_percent of the compared
    figures, or misses one. (The JSON also keeps the bands of the other figures, p90, max,
    operations...; the terminal's noise table and the CSV show the compared ones only, and so
    does the page.)"""
    problems = []
    bands = {(cell_name(c), key): value for c in report["cells"]
             for key, value in c.get("noise_percent", {}).items() if key in COMPARED}
    seen = set()
    for name, key, column, text in page.hooks("noise"):
        if key not in COMPARED:
            problems.append(f"{name} {key}: in the noise table, not a compared figure")
            continue
        band = bands.get((name, key))
        seen.add((name, key))
        if band is None:
            if text != "-":
                problems.append(f"{name} {key}: page {text!r}, JSON has no band")
        elif text != f"{band:.1f}" or float(text) != band:
            problems.append(f"{name} {key}: page {text!r}, JSON noise {band}")
    for name, key in sorted(set(bands) - seen):
        problems.append(f"{name} {key}: noise in the JSON, not in the noise table")
    return problems


def alter_first(dom: str, table_class: str, column: str) -> str:
    """The DOM with the first figure of `column` in the table of `table_class` one unit of its
    last digit larger (the min of a [min..max])."""
    start = dom.index(f'class="{table_class}"')
    cell = re.compile(r'<td[^>]*data-column="' + column + r'"[^>]*>([^<]*)</td>').search(dom, start)
    number = re.compile(r"-?\d+(?:\.(\d+))?").search(cell.group(1))
    if number is None:
        raise AssertionError(f"the first {column} of the {table_class} table has no figure")
    decimals = len(number.group(1) or "")
    changed = f"{float(number.group(0)) + 10 ** -decimals:.{decimals}f}"
    at = cell.start(1) + number.start()
    return dom[:at] + changed + dom[at + len(number.group(0)):]


def drop_first_hook(dom: str, table_class: str, column: str) -> str:
    """The DOM with the hooks of the first `column` cell of that table removed."""
    start = dom.index(f'class="{table_class}"')
    hook = re.compile(r' data-cell="[^"]*" data-figure="[^"]*" data-column="' + column + '"')
    match = hook.search(dom, start)
    return dom[:match.start()] + dom[match.end():]


def ratio_mismatch(text: str, versus: dict, key: str) -> str:
    """Why `text` ("0.05x", "12.3x") is not the ratio of a comparison's medians as ratio_text
    prints it, or "". The page's ratio is of the medians before the JSON rounded them to the
    figure's decimals: it may be anywhere the rounded medians allow, give or take half a unit
    of its own last digit."""
    # format_ratio: at least two significant digits (0.0088x, 0.21x, 1.05x, 12.3x, 113x).
    match = re.fullmatch(r"\d+(\.(\d+))?x", text)
    if not match:
        return f"{text!r} is not a ratio as ratio_text prints it"
    half = 0.5 * 10 ** -DECIMALS[key]
    now, reference = versus["now"], versus["reference"]
    low = (now - half) / (reference + half)
    high = (now + half) / (reference - half) if reference > half else float("inf")
    value = float(text.rstrip("x"))
    slack = 0.5 * 10 ** -len(match.group(2) or "") + 1e-9
    if not low - slack <= value <= high + slack:
        return f"{text!r} is not {now} / {reference} ({now / reference})"
    return ""


def ratio_mark_mismatches(marks: list[dict], report: dict, below: float) -> list[str]:
    """Where the ratio chart's marks (their data-* attributes) differ from the JSON's throughput
    comparisons, one mark per comparison: the change, the ratio (ratio_mismatch), and a judged
    ratio not below `below`."""
    by_key = {(m["data-cell"], m["data-store"]): m for m in marks}
    compared = [c for c in report["cells"] if "mib_per_second" in c.get("versus", {})]
    problems = [] if len(by_key) == len(compared) else [
        f"{len(by_key)} ratio marks for {len(compared)} comparisons"]
    for cell in compared:
        versus = cell["versus"]["mib_per_second"]
        mark = by_key.get((cell_name(cell), cell.get("store", "")))
        where = f"{cell_name(cell)} {cell.get('store', '')}"
        if mark is None:
            problems.append(f"{where}: no ratio mark")
        elif mark["data-change"] != versus["change"]:
            problems.append(f"{where}: change {mark['data-change']!r}, JSON {versus['change']!r}")
        elif not versus["judged"]:
            problems += [] if mark["data-ratio"] == "-" else [f"{where}: a ratio not judged"]
        elif why := ratio_mismatch(mark["data-ratio"], versus, "mib_per_second"):
            problems.append(f"{where}: {why}")
        elif float(mark["data-ratio"].rstrip("x")) >= below:
            problems.append(f"{where}: {mark['data-ratio']} is not below {below}x")
    return problems


def open_page_test(test_class, purpose: str) -> harness.OriginProcess:
    """A page test class's scratch folder (`tmp`), headless Chromium (`chromium`) and a started
    `s3fault origin`, each cleaned up with the class."""
    test_class.tmp = harness.scratch_root() / harness.unique_bucket_name(purpose)
    test_class.tmp.mkdir(parents=True)
    test_class.chromium = Chromium(test_class.tmp)
    test_class.addClassCleanup(shutil.rmtree, test_class.chromium.profile, ignore_errors=True)
    origin = harness.OriginProcess()
    origin.start()
    test_class.addClassCleanup(harness.stop_and_check, origin)
    return origin


def layout_probe(chromium: Chromium, scratch: Path, page: Path, extra: str) -> dict:
    """How a copy of `page`, with `extra` added to its body, lays out in Chromium's window: its
    inner width, the document's client and scroll widths, and how far the widest table
    overflows its own scroll box (0: none scrolls). The copy gets a probe script (the page
    itself has none) that writes them into <body>, and the dumped DOM carries them."""
    probe = scratch / f"probe-{page.stem}-{len(extra)}.html"
    script = ("<script>document.body.setAttribute('data-probe', JSON.stringify({"
              "inner: window.innerWidth, client: document.documentElement.clientWidth, "
              "scroll: document.documentElement.scrollWidth, boxes: Math.max(0, "
              "...[...document.querySelectorAll('.scroll')].map("
              "e => e.scrollWidth - e.clientWidth))}));</script>")
    probe.write_text(page.read_text().replace("</body>", extra + script + "</body>"))
    rendered = Page(chromium.dump_dom(probe))
    if "data-probe" not in rendered.body:
        raise AssertionError("the probe script did not run")
    return json.loads(rendered.body["data-probe"])


def interrupted_bench(endpoint: str, json_path: Path, html_path: Path) -> tuple[str, int]:
    """A bench of 3 rounds of one cell, Ctrl-C (SIGINT) as soon as round 1 has ended: its
    stdout and exit status."""
    command = [str(harness.proxy_binary()), "bench", "--progress", "never", "--endpoint",
               endpoint, "--ops", "get", "--sizes", "256KiB", "--concurrency", "1", "--duration",
               "1s", "--rounds", "3", "--json", str(json_path), "--html", str(html_path)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True,
                          env=harness.clean_client_env()) as bench:
        printed = []
        for line in bench.stdout:
            printed.append(line)
            if "] round 1/3 " in line:
                bench.send_signal(signal.SIGINT)
                break
        # The rest through the same buffered reader (communicate() would skip what it holds).
        rest, errors = bench.stdout.read(), bench.stderr.read()
        bench.wait(timeout=120)
    if bench.returncode != 130:
        raise AssertionError(f"the interrupted bench exited {bench.returncode}, not 130:\n"
                             f"{''.join(printed)}{rest}{errors}")
    return "".join(printed) + rest, bench.returncode


class BenchHtmlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        origin = open_page_test(cls, "bench-html")

        base_json, cls.base_html = cls.tmp / "base.json", cls.tmp / "base.html"
        first = run_bench("--endpoint", origin.url, *BENCH_ARGS, "--json", str(base_json),
                          "--html", str(cls.base_html))
        if first.returncode != 0:
            raise AssertionError(f"the baseline run failed:\n{first.stdout}{first.stderr}")
        cls.base_stdout = first.stdout
        cls.base = json.loads(base_json.read_text())
        # The baseline: one cell fewer, and the get cells FASTER times better than measured.
        faster = dict(scaled(cls.base, lambda c: c["operation"] == "get", FASTER))
        faster["cells"] += scaled(cls.base, lambda c: c["operation"] != "get"
                                  and cell_name(c) != DROPPED_CELL, 1)["cells"]
        cls.fast = faster
        fast_json = cls.tmp / "fast.json"
        fast_json.write_text(json.dumps(faster))
        cls.base_cells = {cell_name(c) for c in faster["cells"]}

        now_json, cls.now_html = cls.tmp / "now.json", cls.tmp / "now.html"
        # Exit status 1 (the regressions) is not the point.
        second = run_bench("--endpoint", origin.url, *BENCH_ARGS, "--control", "--baseline",
                           str(fast_json), "--json", str(now_json), "--html", str(cls.now_html))
        if not now_json.is_file() or not cls.now_html.is_file():
            raise AssertionError(f"the run against the baseline wrote no JSON or HTML "
                                 f"(exit {second.returncode}):\n{second.stdout}{second.stderr}")
        cls.now_stdout = second.stdout
        cls.now = json.loads(now_json.read_text())
        cls.now_dom = cls.chromium.dump_dom(cls.now_html)
        cls.now_page = Page(cls.now_dom)
        cls.base_page = Page(cls.chromium.dump_dom(cls.base_html))

        # No regression: a run against the first one made FASTER times slower.
        slow_json, cls.clean_html = cls.tmp / "slow.json", cls.tmp / "clean.html"
        slow_json.write_text(json.dumps(scaled(cls.base, lambda c: True, 1 / FASTER)))
        # Every figure 20 times better than the baseline is told; but a figure whose rounds are
        # far apart (a p99 of 3 rounds of 10 operations) may be too, or not: "cannot tell" is
        # then allowed, as what it says is not what this run checks.
        clean = run_bench("--endpoint", origin.url, *BENCH_ARGS, "--baseline", str(slow_json),
                          "--allow-inconclusive", "--html", str(cls.clean_html))
        if clean.returncode != 0:
            raise AssertionError(f"the run against a slow baseline failed (exit "
                                 f"{clean.returncode}):\n{clean.stdout}{clean.stderr}")
        cls.clean_stdout = clean.stdout
        cls.clean_page = Page(cls.chromium.dump_dom(cls.clean_html))

        cut_json, cut_html = cls.tmp / "cut.json", cls.tmp / "cut.html"
        cls.cut_stdout, _ = interrupted_bench(origin.url, cut_json, cut_html)
        cls.cut = json.loads(cut_json.read_text())
        cls.cut_page = Page(cls.chromium.dump_dom(cut_html))

    def test_the_medians_tables_carry_the_json_figures(self):
        self.assertTrue(self.now_page.tables_of("medians"))
        self.assertEqual(median_mismatches(self.now_page, self.now), [])
        # The page without a baseline, against its own JSON (before a cell was dropped).
        self.assertTrue(self.base_page.tables_of("medians"))
        self.assertEqual(median_mismatches(self.base_page, self.base), [])

    def test_the_baseline_table_carries_the_comparison(self):
        self.assertEqual(len(self.now_page.tables_of("baseline")), 1)
        self.assertEqual(baseline_mismatches(self.now_page, self.now), [])
        compared = [c for c in self.now["cells"] if c.get("versus")]
        self.assertEqual(len(compared), len(self.now["cells"]) - 1)
        # The cell the baseline lacks has its row, saying so.
        rows = [[c["text"] for c in row] for row in self.now_page.tables_of("baseline")[0]["rows"]]
        self.assertIn(DROPPED_CELL.replace(" c=", " ").split() + ["-"] * 8
                      + ["not in the baseline"], rows)

    def test_the_noise_table_carries_every_band(self):
        bands = sum(key in COMPARED for c in self.now["cells"]
                    for key in c.get("noise_percent", {}))
        self.assertGreater(bands, 0, "--control gave no noise band")
        self.assertEqual(len(self.now_page.tables_of("noise")), 1)
        # The terminal's columns (print_summary, "Noise band ...").
        header = [c["text"] for c in self.now_page.tables_of("noise")[0]["rows"][0]]
        self.assertEqual(header, ["operation", "size", "conc", "MiB/s ±%", "ops/s ±%",
                                  "lat p50 ±%", "lat p99 ±%", "ttfb p50 ±%"])
        self.assertEqual(noise_mismatches(self.now_page, self.now), [])
        self.assertEqual(self.base_page.tables_of("noise"), [], "no --control, no noise table")

    def test_the_page_opens_with_the_terminals_verdict(self):
        pages = {"forced regression": (self.now_stdout, self.now_page, "regressed"),
                 "no baseline": (self.base_stdout, self.base_page, "no-verdict"),
                 "no regression": (self.clean_stdout, self.clean_page, "passed|inconclusive")}
        for name, (stdout, page, looks) in pages.items():
            with self.subTest(page=name):
                printed = terminal_verdict(stdout)
                self.assertEqual(page.verdict, printed)
                self.assertTrue(set(looks.split("|")) & set(page.verdict_class),
                                page.verdict_class)
                # First on the page, before any chart.
                self.assertEqual(page.order[0], "verdict")
        # What each says. The baseline's get cells were 20 times better: regressions, each
        # with the baseline's and this run's medians and the change; as many as the JSON has.
        headline, *details = self.now_page.verdict
        self.assertRegex(headline, rf"^Verdict: {len(self.now['regressions'])} regressions "
                                   r"against the baseline \S+fast\.json \(\d+ figures of 7 cells; "
                                   r"1 cell not in the baseline\)")
        # The other lines: figures not judged, or that could not tell (and the summary of those).
        regressions = [line for line in details if " → " in line]
        self.assertEqual(len(regressions), len(self.now["regressions"]))
        for line in regressions:
            self.assertRegex(line, r"^(get|put) \S+ c=\d \S+( p\d\d)?: [\d.]+ → [\d.]+( ms)? "
                                   r"\([-+]\d+\.\d %, (slower|worse); p [<\d.]+\)$")
        self.assertTrue(any(line.startswith("get ") for line in regressions), details)
        self.assertEqual(self.base_page.verdict,
                         ["Verdict: none, there was no baseline to compare with (--baseline FILE)"])
        self.assertRegex(self.clean_page.verdict[0],
                         r"^Verdict: (no regressions: 40 figures of 8 cells compared with the "
                         r"baseline \S+slow\.json, every one able|inconclusive, passed with "
                         r"--allow-inconclusive: \d+ of 40 figures of 8 cells compared with the "
                         r"baseline \S+slow\.json could not tell)")
        # A verdict that says otherwise than the terminal is caught.
        altered = Page(self.now_dom.replace(" regressions against", " regression against", 1))
        self.assertNotEqual(altered.verdict, terminal_verdict(self.now_stdout))

    def test_the_page_says_the_rounds_that_ran(self):
        # All 3 rounds ran: said as such, and the medians heading is the terminal's.
        for stdout, page in ((self.base_stdout, self.base_page), (self.now_stdout, self.now_page)):
            self.assertEqual(page.texts["rounds"], "3 rounds")
            self.assertEqual(page.texts["medians-heading"], terminal_heading(stdout))
        self.assertEqual(self.base_page.texts["medians-heading"], "Medians of 3 runs per cell")
        self.assertEqual(self.now_page.texts["medians-heading"],
                         "Medians of 6 runs per cell (3 rounds x 2 control runs)")
        # Ctrl-C after round 1: the rounds the JSON has runs of, and the run the signal cut
        # short (round 2's, when it had begun), never "Medians of 3 runs".
        ran = len({run["round"] for run in self.cut["runs"]})
        cut = sum(run.get("cut_short", False) for run in self.cut["runs"])
        self.assertTrue(self.cut["interrupted"])
        self.assertLess(ran, 3)
        said = f"{ran} of 3 rounds ran" + (f", {cut} run cut short" if cut else "")
        self.assertEqual(self.cut_page.texts["rounds"], said)
        runs = "Figures of 1 run" if ran == 1 else f"Medians of {ran} runs"
        self.assertEqual(self.cut_page.texts["medians-heading"],
                         f"{runs} per cell ({said}, interrupted)")
        self.assertEqual(self.cut_page.texts["medians-heading"], terminal_heading(self.cut_stdout))
        self.assertEqual(self.cut_page.verdict, terminal_verdict(self.cut_stdout))

    def test_one_chart_of_each_kind_per_operation_and_size(self):
        for page, report in ((self.now_page, self.now), (self.base_page, self.base),
                             (self.cut_page, self.cut)):
            sizes = sorted({(c["operation"], c["size"]) for c in report["cells"]})
            for kind in ("throughput", "latency"):
                self.assertEqual(sorted(page.chart_keys(kind)), sizes, kind)

    def test_a_log_axis_exactly_where_the_spread_needs_it(self):
        logs = 0
        for chart in self.now_page.charts_of("throughput") + self.now_page.charts_of("latency"):
            key = (chart["operation"], chart["size"])
            figures = (["mib_per_second"] if "throughput" in chart["class"] else LATENCY_CHARTED)
            medians = (chart_medians(self.now["cells"], key, figures)
                       + chart_medians(self.fast["cells"], key, figures))
            spread_needs_log = max(medians) >= LOG_AXIS_SPREAD * min(medians)
            with self.subTest(chart=chart["class"], cell=key):
                self.assertEqual(chart["scale"], "log" if spread_needs_log else "linear",
                                 medians)
            logs += chart["scale"] == "log"
        # The get charts, 20 times apart from their baseline, are among them.
        self.assertGreaterEqual(logs, 4)

    def test_every_chart_overlays_the_baseline_cells_and_the_noise_band(self):
        for kind in ("throughput", "latency"):
            self.assertEqual(len(self.now_page.charts_of(kind)), 4)
        marks_per_cell = {"throughput": 1, "latency": 3}
        for chart in self.now_page.charts_of("throughput") + self.now_page.charts_of("latency"):
            kind = "throughput" if "throughput" in chart["class"] else "latency"
            cells = [c for c in self.now["cells"]
                     if (c["operation"], c["size"]) == (chart["operation"], chart["size"])]
            in_base = [c for c in cells if cell_name(c) in self.base_cells]
            # The compared figures the chart shows that have a control band.
            banded = ["mib_per_second"] if kind == "throughput" else ["latency_p50_ms",
                                                                      "latency_p99_ms"]
            bands = sum(key in c.get("noise_percent", {}) for c in cells for key in banded)
            with self.subTest(chart=kind, operation=chart["operation"], size=chart["size"]):
                # One dot per cell and one hollow dot per cell of the baseline; three bars
                # (p50, p90, p99) per cell and three hollow ones per cell of the baseline.
                self.assertEqual(chart["inside"]["mark"], marks_per_cell[kind] * len(cells))
                self.assertEqual(chart["inside"]["baseline-mark"],
                                 marks_per_cell[kind] * len(in_base))
                self.assertEqual(chart["inside"]["noise-band"], bands)
        # The dropped cell really is one of the charts' cells: its chart has one mark fewer.
        dropped = next(c for c in self.now_page.charts_of("throughput")
                       if (c["operation"], c["size"]) == ("put", "1MiB"))
        self.assertEqual(dropped["inside"]["baseline-mark"], dropped["inside"]["mark"] - 1)
        self.assertGreater(sum(c["inside"]["noise-band"] for c in self.now_page.charts), 0,
                           "--control drew no noise band")

    def test_a_ratio_chart_per_operation_says_each_throughput_comparison(self):
        # Per operation, a dot per cell of the baseline: this run's median over the baseline's
        # (as ratio_text prints it), and what the comparison said. The baseline's get cells
        # were made 20 times faster: about 0.05x.
        self.assertEqual(sorted(c["operation"] for c in self.now_page.charts_of("ratio")),
                         ["get", "put"])
        self.assertEqual(self.base_page.charts_of("ratio"), [], "no baseline, no ratio chart")
        marks = [dict(re.findall(r'(data-[a-z]+)="([^"]*)"', tag))
                 for tag in re.findall(r'<circle class="ratio-mark"[^>]*>', self.now_dom)]
        # Every cell but the one the baseline lacks; the get cells were 20 times faster there.
        self.assertEqual(len(marks), len(self.now["cells"]) - 1)
        self.assertEqual(ratio_mark_mismatches([m for m in marks if m["data-cell"].startswith(
            "get")], dict(self.now, cells=[c for c in self.now["cells"]
                                           if c["operation"] == "get"]), 0.1), [])
        self.assertEqual(ratio_mark_mismatches(marks, self.now, float("inf")), [])

    def test_a_page_without_baseline_has_no_overlay(self):
        self.assertEqual(len(self.base_page.charts), 8)
        for chart in self.base_page.charts:
            self.assertGreater(chart["inside"]["mark"], 0)
            self.assertEqual(chart["inside"]["baseline-mark"], 0)
            self.assertEqual(chart["inside"]["baseline-line"], 0)
            self.assertEqual(chart["inside"]["noise-band"], 0, "no --control, no band")
        self.assertEqual(self.base_page.tables_of("baseline"), [])
        self.assertNotIn("(baseline)", self.base_html.read_text())

    def test_no_script_and_nothing_fetched(self):
        for page in (self.now_html, self.base_html):
            text = page.read_text()
            for needle in ("<script", "src=", "href=", "url(", "@import"):
                self.assertNotIn(needle, text, page.name)
        self.assertEqual(self.now_page.scripts, 0)

    def test_the_page_fits_1280_pixels(self):
        # What is checked, and why. By structure: no table has more than MAX_TABLE_COLUMNS
        # columns; the medians table of old had 16 (22 with --store-pid) and outgrew the window
        # once its figures had more digits, while this test's small figures still squeeze into
        # it by wrapping, so the column count is the check that holds for any figures. By
        # layout: --dump-dom says nothing of layout, so a copy of the page gets a probe script
        # (the page itself has none) that writes into <body> the window's width, the document's
        # scroll width and how far any table overflows its own scroll box; Chromium lays the
        # copy out in a 1280-pixel window and the dumped DOM carries the numbers. The page must
        # not scroll sideways, nor any table inside its box. A copy with deliberately wide
        # blocks shows that the probe sees an overflow when there is one.
        for table in self.now_page.tables:
            widest = max(sum(int(c["attrs"].get("colspan") or 1) for c in row)
                         for row in table["rows"])
            self.assertLessEqual(widest, MAX_TABLE_COLUMNS, table["class"])
        fits = self.layout_probe(self.now_html, "")
        self.assertEqual(fits["inner"], WINDOW_WIDTH, fits)
        self.assertLessEqual(fits["scroll"], fits["client"], fits)
        self.assertEqual(fits["boxes"], 0, fits)
        wide = self.layout_probe(self.now_html, '<div style="width:1800px">wide</div>'
                                 '<div class="scroll"><div style="width:1500px">wide</div></div>')
        self.assertGreater(wide["scroll"], wide["client"], wide)
        self.assertGreater(wide["boxes"], 0, wide)

    def layout_probe(self, page: Path, extra: str) -> dict:
        return layout_probe(self.chromium, self.tmp, page, extra)

    def test_the_screenshot_is_a_1280_wide_png(self):
        logs = os.environ.get("S3FAULT_TEST_LOGS")
        png = Path(logs) / "bench.png" if logs else self.tmp / "bench.png"
        png.parent.mkdir(parents=True, exist_ok=True)
        png.unlink(missing_ok=True)
        self.chromium.screenshot(self.now_html, png)
        data = png.read_bytes()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n", "not a PNG")
        self.assertEqual(data[12:16], b"IHDR")
        self.assertEqual(int.from_bytes(data[16:20], "big"), WINDOW_WIDTH)

    def test_an_altered_figure_is_caught(self):
        # The comparisons above must fail when the page says something else than the JSON:
        # one figure of each table, one unit of its last digit off.
        for table, column, check in (("medians", "median", median_mismatches),
                                     ("medians", "range", median_mismatches),
                                     ("baseline", "now", baseline_mismatches),
                                     ("noise", "noise", noise_mismatches)):
            with self.subTest(table=table, column=column):
                altered = Page(alter_first(self.now_dom, table, column))
                self.assertEqual(len(check(altered, self.now)), 1)
        # ... and when the page lacks a figure the JSON has.
        for table, column, check in (("medians", "median", median_mismatches),
                                     ("baseline", "baseline", baseline_mismatches),
                                     ("noise", "noise", noise_mismatches)):
            with self.subTest(table=table, missing=column):
                fewer = Page(drop_first_hook(self.now_dom, table, column))
                self.assertEqual(len(check(fewer, self.now)), 1)


if __name__ == "__main__":
    unittest.main()
