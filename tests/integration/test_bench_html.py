"""The HTML page of `s3fault bench`, rendered by headless Chromium: its tables carry exactly the
figures of the JSON file (through the page's data-cell / data-figure / data-column hooks), its
charts overlay the baseline's cells and only those, it has no script, and it fits a window
1280 pixels wide. A page made without a baseline has no overlay, and an altered figure is caught,
so neither check can pass by finding nothing.

    s3fault bench --json base.json --html base.html          (no baseline)
    base.json minus one cell ----------------------------.
    s3fault bench --control --baseline base.json --json now.json --html now.html
    chromium --headless --dump-dom / --screenshot now.html  ->  parsed and compared with now.json

Needs the `chromium` package (tests/deps.sh); fails, does not skip, when it is missing."""

import collections
import html.parser
import json
import os
import re
import shutil
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
    classes of the elements inside each <svg>), its scripts and the attributes of <body>."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tables: list[dict] = []
        self.charts: list[dict] = []
        self.scripts = 0
        self.body: dict[str, str] = {}
        self._table = self._row = self._cell = self._chart = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "script":
            self.scripts += 1
        elif tag == "body":
            self.body = a
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
            self._chart = {"class": a.get("class", "").split(),
                           "operation": a.get("data-operation"), "inside": collections.Counter()}
            self.charts.append(self._chart)
        elif self._chart is not None:
            self._chart["inside"].update(a.get("class", "").split())

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._cell = None
        elif tag == "tr":
            self._row = None
        elif tag == "table":
            self._table = None
        elif tag == "svg":
            self._chart = None

    def handle_data(self, data):
        if self._cell is not None:
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

    def charts_of(self, kind: str) -> dict[str, collections.Counter]:
        return {c["operation"]: c["inside"] for c in self.charts if kind in c["class"]}


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
    cells[].baseline, or miss one of its entries."""
    problems = []
    entries = {(cell_name(c), key): entry for c in report["cells"]
               for key, entry in c.get("baseline", {}).items()}
    seen = set()
    for name, key, column, text in page.hooks("baseline"):
        entry = entries.get((name, key))
        if entry is None:
            problems.append(f"{name} {key}: in the baseline table, not in the JSON")
            continue
        if column in ("baseline", "now"):
            seen.add((name, key, column))
            if column not in entry:
                if text != "-":
                    problems.append(f"{name} {key} {column}: page {text!r}, JSON has none")
            elif text != printed(key, entry[column]) or float(text) != entry[column]:
                problems.append(f"{name} {key} {column}: page {text!r}, JSON {entry[column]}")
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


class BenchHtmlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = harness.scratch_root() / harness.unique_bucket_name("bench-html")
        cls.tmp.mkdir(parents=True)
        cls.chromium = Chromium(cls.tmp)
        cls.addClassCleanup(shutil.rmtree, cls.chromium.profile, ignore_errors=True)
        origin = harness.OriginProcess()
        origin.start()
        cls.addClassCleanup(harness.stop_and_check, origin)

        base_json, cls.base_html = cls.tmp / "base.json", cls.tmp / "base.html"
        first = run_bench("--endpoint", origin.url, *BENCH_ARGS, "--json", str(base_json),
                          "--html", str(cls.base_html))
        if first.returncode != 0:
            raise AssertionError(f"the baseline run failed:\n{first.stdout}{first.stderr}")
        cls.base = json.loads(base_json.read_text())
        base = dict(cls.base)
        base["cells"] = [c for c in base["cells"] if cell_name(c) != DROPPED_CELL]
        base_json.write_text(json.dumps(base))
        cls.base_cells = {cell_name(c) for c in base["cells"]}

        now_json, cls.now_html = cls.tmp / "now.json", cls.tmp / "now.html"
        # A timing comparison: its exit status (0, or 1 when a figure moved) is not the point.
        second = run_bench("--endpoint", origin.url, *BENCH_ARGS, "--control", "--baseline",
                           str(base_json), "--json", str(now_json), "--html", str(cls.now_html))
        if not now_json.is_file() or not cls.now_html.is_file():
            raise AssertionError(f"the run against the baseline wrote no JSON or HTML "
                                 f"(exit {second.returncode}):\n{second.stdout}{second.stderr}")
        cls.now = json.loads(now_json.read_text())
        cls.now_dom = cls.chromium.dump_dom(cls.now_html)
        cls.now_page = Page(cls.now_dom)
        cls.base_page = Page(cls.chromium.dump_dom(cls.base_html))

    def test_the_medians_tables_carry_the_json_figures(self):
        self.assertTrue(self.now_page.tables_of("medians"))
        self.assertEqual(median_mismatches(self.now_page, self.now), [])
        # The page without a baseline, against its own JSON (before a cell was dropped).
        self.assertTrue(self.base_page.tables_of("medians"))
        self.assertEqual(median_mismatches(self.base_page, self.base), [])

    def test_the_baseline_table_carries_the_comparison(self):
        self.assertEqual(len(self.now_page.tables_of("baseline")), 1)
        self.assertEqual(baseline_mismatches(self.now_page, self.now), [])
        compared = [c for c in self.now["cells"] if c.get("baseline")]
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

    def test_every_chart_overlays_the_baseline_cells(self):
        throughput = self.now_page.charts_of("throughput")
        latency = self.now_page.charts_of("latency")
        self.assertEqual(set(throughput), {"get", "put"})
        self.assertEqual(set(latency), {"get", "put"})
        for op in ("get", "put"):
            cells = [cell_name(c) for c in self.now["cells"] if c["operation"] == op]
            in_base = [name for name in cells if name in self.base_cells]
            with self.subTest(operation=op):
                # One dot per cell and one hollow dot per cell of the baseline; three bars
                # (p50, p90, p99) per cell and three light ones per cell of the baseline.
                self.assertEqual(throughput[op]["mark"], len(cells))
                self.assertEqual(throughput[op]["baseline-mark"], len(in_base))
                self.assertEqual(latency[op]["mark"], 3 * len(cells))
                self.assertEqual(latency[op]["baseline-mark"], 3 * len(in_base))
        # The dropped cell really is one of the charts' cells: put has one mark fewer.
        self.assertEqual(throughput["put"]["baseline-mark"], throughput["put"]["mark"] - 1)

    def test_a_page_without_baseline_has_no_overlay(self):
        self.assertEqual(len(self.base_page.charts), 4)
        for chart in self.base_page.charts:
            self.assertGreater(chart["inside"]["mark"], 0)
            self.assertEqual(chart["inside"]["baseline-mark"], 0)
            self.assertEqual(chart["inside"]["baseline-line"], 0)
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
        probe = self.tmp / f"probe-{len(extra)}.html"
        # boxes: how far the widest table overflows its own scroll box (0: none scrolls).
        script = ("<script>document.body.setAttribute('data-probe', JSON.stringify({"
                  "inner: window.innerWidth, client: document.documentElement.clientWidth, "
                  "scroll: document.documentElement.scrollWidth, boxes: Math.max(0, "
                  "...[...document.querySelectorAll('.scroll')].map("
                  "e => e.scrollWidth - e.clientWidth))}));</script>")
        probe.write_text(page.read_text().replace("</body>", extra + script + "</body>"))
        rendered = Page(self.chromium.dump_dom(probe))
        self.assertIn("data-probe", rendered.body, "the probe script did not run")
        return json.loads(rendered.body["data-probe"])

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
