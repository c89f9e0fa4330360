"""The HTML page of `s3fault bench` comparing two stores, rendered by headless Chromium: one
`s3fault origin` benched directly and through an `s3fault proxy` that delays every GetObject by
20 ms, so that the second store is far slower than the first (the reference).

    s3fault origin                                         <- direct
    s3fault proxy --fault 'delay 20ms op=GetObject'  -> origin   <- delayed
    s3fault bench --store direct=ORIGIN --store delayed=PROXY --ops get --sizes 256KiB
                  --concurrency 1,2 --count 20 --rounds 2 --allow-inconclusive --json --html
    chromium --headless --dump-dom / --screenshot  ->  parsed and compared with the JSON

It checks that the page opens with the terminal's verdict, word for word; that every hooked
figure of its tables (medians, stores side by side, each store against the reference) is the
JSON's, store by store; that each chart has one series per store; that the ratio chart has a
dot per compared cell whose ratio is the JSON's medians' ratio and whose change is the JSON's,
the delayed store's below 1x; that the settings name both stores; that it has no script and
fits a window 1280 pixels wide. Its screenshot is bench-stores.png in the test's log directory.

Needs the `chromium` package (tests/deps.sh); fails, does not skip, when it is missing."""

import json
import os
import subprocess
import unittest
from pathlib import Path

import harness
from test_bench_html import (MAX_TABLE_COLUMNS, WINDOW_WIDTH, Page, cell_name, layout_probe,
                             open_page_test, printed, ratio_mark_mismatches, ratio_mismatch,
                             terminal_verdict)

STORES = ["direct", "delayed"]
DELAY = "delay 20ms op=GetObject"
BENCH_ARGS = ["--ops", "get", "--sizes", "256KiB", "--concurrency", "1,2", "--count", "20",
              "--rounds", "2", "--allow-inconclusive"]
# The data-column of each column of the stores' comparison table and the JSON key of its value
# in cells[].versus (comparison_text.hpp).
STORE_COLUMNS = {"reference": "reference", "median": "now"}


class MarkedPage(Page):
    """A rendered page as test_bench_html.Page reads it, plus the attributes of every element
    inside each chart, so that marks can be told apart by their data-store."""

    def handle_starttag(self, tag, attrs):
        super().handle_starttag(tag, attrs)
        if tag == "svg":
            self._chart["attrs"] = dict(attrs)
            self._chart["marks"] = []
        elif self._chart is not None:
            self._chart["marks"].append({"tag": tag, **{k: v or "" for k, v in attrs}})

    def store_hooks(self, css_class: str) -> list[tuple[str, str, str, str, str]]:
        """(data-cell, data-store, data-figure, data-column, text) of every hooked cell."""
        found = []
        for table in self.tables_of(css_class):
            for row in table["rows"]:
                for c in row:
                    a = c["attrs"]
                    if "data-figure" in a:
                        found.append((a.get("data-cell"), a.get("data-store"), a["data-figure"],
                                      a.get("data-column"), c["text"].strip()))
        return found

    def marks(self, css_class: str) -> list[dict]:
        """The elements of that class in any chart."""
        return [m for chart in self.charts for m in chart["marks"]
                if css_class in m.get("class", "").split()]


def json_cells(report: dict) -> dict[tuple[str, str], dict]:
    """The JSON's cells by (data-cell, store)."""
    return {(cell_name(c), c.get("store", "")): c for c in report["cells"]}


def median_mismatches(page: MarkedPage, report: dict) -> list[str]:
    """Where the medians tables differ from the JSON's figures of the same cell and store, or
    miss one."""
    problems = []
    cells = json_cells(report)
    seen = set()
    for name, store, key, column, text in page.store_hooks("medians"):
        cell = cells.get((name, store))
        if cell is None:
            problems.append(f"{name} on {store}: no such cell in the JSON")
            continue
        spread = cell["figures"].get(key)
        if column == "median":
            seen.add((name, store, key))
            expected = printed(key, spread["median"]) if spread else "-"
        else:
            expected = (f"[{printed(key, spread['min'])}..{printed(key, spread['max'])}]"
                        if spread else "")
        if text != expected:
            problems.append(f"{name} on {store} {key} {column}: page {text!r}, JSON {expected!r}")
    for (name, store), cell in cells.items():
        for key in cell["figures"]:
            if not key.startswith("store_") and (name, store, key) not in seen:
                problems.append(f"{name} on {store} {key}: in the JSON, not in the medians")
    return problems


def comparison_mismatches(page: MarkedPage, report: dict) -> list[str]:
    """Where the side-by-side and stores tables differ from the JSON: a store's median, the
    reference's, the ratio (of the medians, ratio_mismatch), the rounds or the change; or a
    comparison of the JSON the stores table lacks."""
    problems = []
    cells = json_cells(report)
    seen = set()
    for table in ("side-by-side", "stores"):
        for name, store, key, column, text in page.store_hooks(table):
            cell = cells.get((name, store))
            versus = (cell or {}).get("versus", {}).get(key)
            where = f"{table}: {name} on {store} {key} {column}"
            if cell is None:
                problems.append(f"{where}: no such cell in the JSON")
            elif column == "median" and table == "side-by-side":
                spread = cell["figures"].get(key)
                if text != (printed(key, spread["median"]) if spread else "-"):
                    problems.append(f"{where}: page {text!r}, JSON {spread}")
            elif versus is None:
                problems.append(f"{where}: the JSON has no comparison")
            elif column in STORE_COLUMNS:
                seen.add((name, store, key, column))
                value = versus.get(STORE_COLUMNS[column])
                if text != (printed(key, value) if value is not None else "-"):
                    problems.append(f"{where}: page {text!r}, JSON {value}")
            elif column == "ratio":
                if not versus["judged"]:
                    if text != "-":
                        problems.append(f"{where}: page {text!r} for a comparison not judged")
                elif why := ratio_mismatch(text, versus, key):
                    problems.append(f"{where}: {why}")
            elif column == "rounds":
                if text != "/".join(str(r) for r in versus["rounds"]):
                    problems.append(f"{where}: page {text!r}, JSON {versus['rounds']}")
            elif column == "change":
                expected = versus["change"] + (f": {versus['not_judged']}"
                                               if not versus["judged"] else "")
                if text != expected:
                    problems.append(f"{where}: page {text!r}, JSON {expected!r}")
    for (name, store), cell in cells.items():
        for key in cell.get("versus", {}):
            for column in STORE_COLUMNS:
                if (name, store, key, column) not in seen:
                    problems.append(f"stores: {name} on {store} {key} {column}: in the JSON, "
                                    f"not in the table")
    return problems


class BenchStoresHtmlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        origin = open_page_test(cls, "bench-stores-html")
        proxy = harness.ProxyProcess(origin.url, ["--fault", DELAY])
        proxy.start()
        cls.addClassCleanup(harness.stop_and_check, proxy)
        cls.urls = {"direct": origin.url, "delayed": proxy.url}

        report_json, cls.html = cls.tmp / "stores.json", cls.tmp / "stores.html"
        bench = subprocess.run(
            [str(harness.proxy_binary()), "bench", "--progress", "never",
             "--store", f"direct={origin.url}", "--store", f"delayed={proxy.url}", *BENCH_ARGS,
             "--json", str(report_json), "--html", str(cls.html)],
            capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
            env=harness.clean_client_env())
        # A store slower than the reference is a finding, and --allow-inconclusive lets rounds
        # that could not tell pass: anything but 0 is a failure of the bench itself.
        if bench.returncode != 0:
            raise AssertionError(f"the bench of two stores exited {bench.returncode}:\n"
                                 f"{bench.stdout}{bench.stderr}")
        cls.stdout = bench.stdout
        cls.report = json.loads(report_json.read_text())
        cls.page = MarkedPage(cls.chromium.dump_dom(cls.html))

    def test_the_page_opens_with_the_terminals_verdict(self):
        self.assertEqual(self.page.verdict, terminal_verdict(self.stdout))
        self.assertEqual(self.page.order[0], "verdict")
        headline, *details = self.page.verdict
        self.assertRegex(headline, r"^Verdict: (judged: delayed compared with direct \(the "
                                   r"reference\)|inconclusive, passed with "
                                   r"--allow-inconclusive: .* of delayed compared with direct)")
        self.assertIn("inconclusive" if "inconclusive" in headline else "judged",
                      self.page.verdict_class)
        self.assertRegex(details[0], r"^get MiB/s, delayed against direct: ")

    def test_the_tables_carry_the_json_figures_store_by_store(self):
        self.assertEqual(len(self.page.tables_of("medians")), 2)
        self.assertEqual(median_mismatches(self.page, self.report), [])
        # The store column, after the cell's.
        header = [c["text"] for c in self.page.tables_of("medians")[0]["rows"][0]]
        self.assertEqual(header[:4], ["operation", "size", "conc", "store"])
        self.assertEqual(len(self.page.tables_of("side-by-side")), 1)
        self.assertEqual(len(self.page.tables_of("stores")), 1)
        self.assertEqual(comparison_mismatches(self.page, self.report), [])
        header = [c["text"] for c in self.page.tables_of("side-by-side")[0]["rows"][0]]
        self.assertEqual(header, ["operation", "size", "conc", "figure", "direct", "delayed",
                                  "delayed/direct"])
        header = [c["text"] for c in self.page.tables_of("stores")[0]["rows"][0]]
        self.assertEqual(header, ["cell", "store", "figure", "direct", "median", "ratio",
                                  "rounds", "99.0 % interval", "p", "detectable %", "change"])

    def test_an_altered_or_missing_figure_is_caught(self):
        dom = self.chromium.dump_dom(self.html)
        for table, check in (("medians", median_mismatches), ("stores", comparison_mismatches)):
            with self.subTest(table=table):
                start = dom.index(f'class="{table}"')
                hook = dom.index('data-column="median"', start)
                text_at = dom.index(">", hook) + 1
                altered = dom[:text_at] + "9" + dom[text_at:]
                self.assertEqual(len(check(MarkedPage(altered), self.report)), 1)
                dropped = dom[:hook] + dom[hook + len('data-column="median"'):]
                self.assertGreaterEqual(len(check(MarkedPage(dropped), self.report)), 1)

    def test_each_chart_has_a_series_per_store(self):
        concurrencies = {c["concurrency"] for c in self.report["cells"]}
        for kind, marks_per_cell in (("throughput", 1), ("latency", 3)):
            charts = self.page.charts_of(kind)
            self.assertEqual(len(charts), 1, kind)
            marks = [m for m in charts[0]["marks"] if "mark" in m.get("class", "").split()]
            by_store = {store: [m for m in marks if m.get("data-store") == store]
                        for store in STORES}
            with self.subTest(chart=kind):
                self.assertEqual(len(marks), sum(len(m) for m in by_store.values()),
                                 "a mark of no store")
                for store, own in by_store.items():
                    self.assertEqual(len(own), marks_per_cell * len(concurrencies), store)
                # Each store in a colour of its own, named in the legend.
                colours = {store: {m["fill"] for m in own} for store, own in by_store.items()}
                self.assertEqual(len(colours["direct"]), 1)
                self.assertEqual(len(colours["delayed"]), 1)
                self.assertNotEqual(colours["direct"], colours["delayed"])
        legend = self.html.read_text()
        self.assertIn(">direct (reference)</text>", legend)
        self.assertIn(">delayed</text>", legend)
        # The throughput dots' whiskers: the rounds' min and max, one per dot.
        spreads = self.page.charts_of("throughput")[0]["inside"]["spread"]
        self.assertEqual(spreads, len(STORES) * len(concurrencies))

    def test_the_ratio_chart_says_the_jsons_ratio_and_change(self):
        charts = self.page.charts_of("ratio")
        self.assertEqual(len(charts), 1)
        self.assertEqual(charts[0]["attrs"].get("data-figure"), "mib_per_second")
        # Delayed at c=1 and c=2; 20 ms more per GET: the delayed store is the slower.
        self.assertEqual(len(self.page.marks("ratio-mark")), 2)
        self.assertEqual(ratio_mark_mismatches(self.page.marks("ratio-mark"), self.report, 1), [])
        # The 1x line and the --min-change band it is judged against.
        self.assertEqual(charts[0]["inside"]["one"], 1)
        self.assertEqual(charts[0]["inside"]["min-change-band"], 1)

    def test_the_settings_name_both_stores(self):
        text = self.html.read_text()
        for store, url in self.urls.items():
            self.assertIn(f"{store} ({url}, bucket ", text)

    def test_no_script_and_it_fits_1280_pixels(self):
        text = self.html.read_text()
        for needle in ("<script", "src=", "href=", "url(", "@import"):
            self.assertNotIn(needle, text)
        self.assertEqual(self.page.scripts, 0)
        for table in self.page.tables:
            widest = max(sum(int(c["attrs"].get("colspan") or 1) for c in row)
                         for row in table["rows"])
            self.assertLessEqual(widest, MAX_TABLE_COLUMNS, table["class"])
        fits = layout_probe(self.chromium, self.tmp, self.html, "")
        self.assertEqual(fits["inner"], WINDOW_WIDTH, fits)
        self.assertLessEqual(fits["scroll"], fits["client"], fits)
        self.assertEqual(fits["boxes"], 0, fits)

    def test_the_screenshot_is_a_1280_wide_png(self):
        logs = os.environ.get("S3FAULT_TEST_LOGS")
        png = Path(logs) / "bench-stores.png" if logs else self.tmp / "bench-stores.png"
        png.parent.mkdir(parents=True, exist_ok=True)
        png.unlink(missing_ok=True)
        self.chromium.screenshot(self.html, png)
        data = png.read_bytes()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n", "not a PNG")
        self.assertEqual(int.from_bytes(data[16:20], "big"), WINDOW_WIDTH)


if __name__ == "__main__":
    unittest.main()
