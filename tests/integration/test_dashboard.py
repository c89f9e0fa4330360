"""The dashboard at the admin port's GET /: loaded in headless Chromium (Debian `chromium`)
after real boto3 traffic through a proxy with fault rules, its numbers must equal /stats,
/rules, /history and /exchanges: per operation and status the requests, bytes, retries and
latency/TTFB percentiles (exact in data-value, human units in the text), the errors by S3 code,
each rule's one-line form, counters and switch, the last exchanges, the totals, who the proxy
is, and charts with points on a fresh load. Worked as a person would (puppeteer-core), an
opened exchange equals its journal line, a rule added in the page acts on the wire, a bad one
shows `--check`'s words, an edit and a delete go through. With `--timeline`, "whole run" draws
the charts from the GET /timeline answer the page got (a point per interval, the latency
percentiles, the store's threads and memory, the drift verdict as a badge), read at most every
10 s and only while chosen; without it the toggle is disabled and says why. The page must reach
nothing but the admin port. Screenshots are written (S3FAULT_DASHBOARD_SCREENSHOT, or the
test's scratch directory). Fails, does not skip, without Chromium."""

import decimal
import html.parser
import json
import urllib.error
import os
import shutil
import subprocess
import threading
import time
import unittest
import urllib.request
from pathlib import Path

import botocore.exceptions

import harness

# Chromium may reach the admin port and nothing else: no DNS, every other address through a
# closed local port, none of its background fetches.
CHROMIUM_ISOLATION = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                      "--proxy-server=127.0.0.1:9",
                      "--disable-background-networking", "--disable-component-update",
                      "--disable-sync", "--disable-default-apps", "--no-first-run",
                      "--no-default-browser-check", "--metrics-recording-only"]
PUTS, GETS, SLOW, MISSING = 12, 20, 4, 3
TOKEN = "dashboard-test-token-0123456789"
NO_TIMELINE_TITLE = "start the proxy with --timeline INTERVAL to keep the whole run"
TIMELINE_POLL_S = 10
NODE_DIR = Path(__file__).resolve().parents[1] / "node"

# Opens the dashboard (argv: URL, screenshot path), chooses "whole run", waits for the page's
# second read of /timeline (the first is at load) to be drawn, reports what the charts and the
# badge show with that very answer, then goes back to "last 15 min" and watches for longer than
# the poll interval. One JSON line on stdout; times are ms since the page was opened.
WHOLE_RUN_SCRIPT = """
const [url, screenshot] = process.argv.slice(1);
const { click, launchIsolated, requestsOutside } =
  await import(new URL("dashboard-browser.mjs", process.env.NODE_DIR_URL).href);
const browser = await launchIsolated();
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1000 });
  const outside = requestsOutside(page, url);
  const opened = Date.now();
  const asked = { timeline: [], history: [] };
  const answers = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname.slice(1);
    if (path in asked) asked[path].push(Date.now() - opened);
  });
  page.on("response", (r) => {
    if (new URL(r.url()).pathname === "/timeline") answers.push(r.text());
  });
  // When the page itself called fetch("/timeline"), on its own clock: a request's event here
  // can lag by what the page was busy with (the first, at load).
  await page.evaluateOnNewDocument(() => {
    const fetchOf = window.fetch.bind(window);
    window.timelineFetched = [];
    window.fetch = (resource, options) => {
      if (String(resource) === "/timeline") window.timelineFetched.push(performance.now());
      return fetchOf(resource, options);
    };
  });
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.timeline, { timeout: 20000 });
  const toggle = await page.$eval("#chart-span", (f) => ({ disabled: f.disabled, title: f.title }));
  await click(page, '#chart-span input[value="run"]');
  const chosen = Date.now() - opened;
  await page.waitForFunction(() => Number(document.body.dataset.timelineDrawn || 0) >= 2,
    { timeout: 30000 });
  const shown = await page.evaluate(() => ({
    lines: [...document.querySelectorAll(".charts svg path")].map((p) =>
      ({ chart: p.closest("svg").id, ...p.dataset })),
    polylines: document.querySelectorAll(".charts svg polyline").length,
    verdict: document.getElementById("drift-verdict").textContent,
    badgeShown: !document.getElementById("drift").hidden,
    badgeLabel: document.querySelector("#drift .badge-label").textContent,
    title: document.getElementById("charts-title").textContent,
    note: document.getElementById("run-note").textContent,
    storeCharts: [...document.querySelectorAll(".store-only")].map((c) => !c.hidden),
    legend: [...document.querySelectorAll("#legend span")].map((s) => s.textContent),
    drawn: Number(document.body.dataset.timelineDrawn),
    fetched: window.timelineFetched,
  }));
  await page.screenshot({ path: screenshot });
  const timeline = JSON.parse(await answers[shown.drawn - 1]);
  // Taken before the click: choosing "last 15 min" reads /history at once.
  const back = Date.now() - opened;
  await click(page, '#chart-span input[value="recent"]');
  await new Promise((done) => setTimeout(done, 11500));
  const recent = await page.evaluate(() => ({
    polylines: document.querySelectorAll("#chart-requests_per_s polyline").length,
    paths: document.querySelectorAll(
      "#chart-requests_per_s path, #chart-errors_per_s path, #chart-mib_per_s path").length,
    badgeShown: !document.getElementById("drift").hidden,
    title: document.getElementById("charts-title").textContent,
  }));
  console.log(JSON.stringify({ toggle, chosen, back, asked, shown, recent, timeline, outside }));
} finally {
  await browser.close();
}
"""


# Opens the dashboard (argv: URL, then exchange ids) and each exchange in turn; prints one JSON
# line: each id's curl line as the page shows it.
CURL_LINES_SCRIPT = """
const [url, ...ids] = process.argv.slice(1);
const { click, launchIsolated } =
  await import(new URL("dashboard-browser.mjs", process.env.NODE_DIR_URL).href);
const browser = await launchIsolated();
try {
  const page = await browser.newPage();
  await page.goto(url);
  const lines = {};
  for (const id of ids) {
    await click(page, `#recent tr[data-exchange="${id}"]`);
    await page.waitForSelector(`#detail[data-exchange="${id}"]:not([hidden])`);
    lines[id] = await page.$eval("#curl", (pre) => pre.textContent);
  }
  console.log(JSON.stringify(lines));
} finally {
  await browser.close();
}
"""

# Opens the dashboard (argv: URL, screenshot path, window width, an exchange id) once every
# exchange is listed, and reports where the tables end against the window: per table its widths,
# per exchange row the right edges of the cells after the target and the target cell's text and
# title, and the per-operation table's column headings under their group headings; then opens
# the exchange and reports the page's widths again. One JSON line on stdout.
LAYOUT_SCRIPT = """
const [url, screenshot, width, opened] = process.argv.slice(1);
const { click, launchIsolated, requestsOutside } =
  await import(new URL("dashboard-browser.mjs", process.env.NODE_DIR_URL).href);
const browser = await launchIsolated();
try {
  const page = await browser.newPage();
  await page.setViewport({ width: Number(width), height: 1000 });
  const outside = requestsOutside(page, url);
  await page.goto(url);
  await page.waitForFunction(() => Number(document.body.dataset.refreshes || 0) >= 2,
    { timeout: 20000 });
  const shown = await page.evaluate(() => {
    const box = (element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth,
      right: element.getBoundingClientRect().right });
    const header = [...document.querySelectorAll("#recent thead th")].map((th) => th.textContent);
    const rows = [...document.querySelectorAll("#recent tbody tr[data-exchange]")].map((tr) => {
      const cells = [...tr.cells];
      const target = cells[header.indexOf("target")];
      return { id: tr.dataset.exchange, text: target.textContent, title: target.title,
        clipped: target.scrollWidth > target.clientWidth,
        right: Object.fromEntries(cells.map((c, i) => [header[i], c.getBoundingClientRect().right])) };
    });
    // Each heading of the per-operation table with the group heading above it (by position).
    const [groupRow, nameRow] = document.querySelectorAll("#operations thead tr");
    const groups = [...groupRow.cells].map((th) => ({ text: th.textContent.trim(),
      rowSpan: th.rowSpan, left: th.getBoundingClientRect().left, right: th.getBoundingClientRect().right }));
    const columns = [...groups.filter((g) => g.rowSpan === 2).map((g) => ({ group: "", name: g.text })),
      ...[...nameRow.cells].map((th) => {
        const r = th.getBoundingClientRect();
        const over = groups.find((g) => g.rowSpan !== 2 && g.left <= r.left + 1 && r.right <= g.right + 1);
        return { group: over ? over.text : "", name: th.textContent.trim() };
      })];
    return { window: document.documentElement.clientWidth, page: box(document.documentElement),
      recent: box(document.querySelector("#recent").parentElement), recentTable: box(document.querySelector("#recent")),
      operations: box(document.querySelector("#operations").parentElement),
      operationsTable: box(document.querySelector("#operations")), header, rows, columns };
  });
  await page.screenshot({ path: screenshot, fullPage: true });
  await click(page, `#recent tr[data-exchange="${opened}"]`);
  await page.waitForSelector(`#detail[data-exchange="${opened}"]:not([hidden])`);
  const withDetail = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth }));
  console.log(JSON.stringify({ ...shown, withDetail, outside }));
} finally {
  await browser.close();
}
"""


def to_fixed(value: float, digits: int) -> str:
    """What the page's Number.prototype.toFixed shows: the double's exact value rounded, a tie
    going up. Python's format rounds a tie to even, so a 2625 us midpoint (2.625 ms, exact in
    binary) would read 2.62 here and 2.63 in the page."""
    step = decimal.Decimal(1).scaleb(-digits)
    return str(decimal.Decimal(value).quantize(step, rounding=decimal.ROUND_HALF_UP))


def human_bytes(n: int) -> str:
    """The page's humanBytes: B below 1 KiB, else KiB/MiB/GiB with 2 decimals below 10."""
    value, unit = float(n), 0
    units = ["B", "KiB", "MiB", "GiB", "TiB"]
    while value >= 1024 and unit < len(units) - 1:
        value /= 1024
        unit += 1
    if unit == 0:
        return f"{n} B"
    return f"{to_fixed(value, 2 if value < 10 else 1)} {units[unit]}"


def human_ms(ms: float) -> str:
    """The page's humanMs: ms below a second (2 decimals below 10), else seconds."""
    if ms >= 1000:
        return f"{to_fixed(ms / 1000, 2)} s"
    return f"{to_fixed(ms, 2 if ms < 10 else 1)} ms"


class KeyedText(html.parser.HTMLParser):
    """The text and data-value of every element with a data-key, the checkboxes of the rules,
    the chart lines, the charts' span toggle, the header's identity and <body>'s attributes."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.values: dict[str, str] = {}
        self.exact: dict[str, str] = {}
        self.switches: dict[str, bool] = {}
        self.lines: list[dict[str, str]] = []
        self.identity: dict[str, str] = {}
        self.body: dict[str, str] = {}
        self.toggle: dict[str, str] = {}
        self.drift_badge: dict[str, str] = {}
        self.span_inputs: dict[str, bool] = {}
        self._open: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "body":
            self.body = a
        if tag == "input" and "data-rule" in a:
            self.switches[a["data-rule"]] = "checked" in a
        if tag == "polyline":
            self.lines.append(a)
        if tag == "fieldset" and a.get("id") == "chart-span":
            self.toggle = a
        if a.get("id") == "drift":
            self.drift_badge = a
        if tag == "input" and a.get("name") == "chart-span":
            self.span_inputs[a["value"]] = "checked" in a
        if "data-identity" in a:
            self._open.append("identity/" + a["data-identity"])
            self.values.setdefault("identity/" + a["data-identity"], "")
        if "data-key" in a:
            self._open.append(a["data-key"])
            self.values.setdefault(a["data-key"], "")
            if "data-value" in a:
                self.exact[a["data-key"]] = a["data-value"]

    def handle_endtag(self, tag):
        if tag in ("td", "div", "span") and self._open:
            self._open.pop()

    def handle_data(self, data):
        if self._open:
            self.values[self._open[-1]] += data


def requests_in(timeline: dict, operation: str) -> int:
    """An operation's requests over a GET /timeline answer's intervals."""
    return sum(i["operations"].get(operation, {}).get("requests", 0)
               for i in timeline["timeline"]["intervals"])


def journal_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


class DashboardTest(unittest.TestCase):
    def setUp(self):
        self.chromium_binary = shutil.which("chromium")
        if self.chromium_binary is None:
            self.fail("'chromium' is not on PATH: install the Debian package 'chromium' "
                      "(tests/deps.sh does); this test does not skip")
        self.origin = harness.OriginProcess()
        self.origin.start()
        self.addCleanup(harness.stop_and_check, self.origin)
        self.store = self.origin.store()
        self.tmp = harness.scratch_root() / harness.unique_bucket_name("dashboard")
        self.tmp.mkdir(parents=True)
        self.journal = self.tmp / "journal.jsonl"
        self.proxy = harness.ProxyProcess(self.origin.url, [
            "--admin", "127.0.0.1:0", "--admin-token", TOKEN, "--journal", str(self.journal),
            "--fault", "error SlowDown op=GetObject key=slow name=slow",
            "--fault", "delay 1ms op=PutObject name=put-delay",
            "--fault", "error InternalError op=DeleteObject name=off"])
        self.proxy.start()
        self.addCleanup(lambda: self.assertEqual(self.proxy.stop(), 0, "proxy exit code"))
        self.admin = next(line.split()[-1] for line in self.proxy.stdout_lines
                          if line.startswith("admin on "))

    def admin_call(self, method: str, path: str, body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.admin + path, method=method, data=data,
                                         headers={"Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def drive_traffic(self, proxy: harness.ProxyProcess | None = None) -> int:
        client = harness.boto3_client((proxy or self.proxy).url, self.store)
        self.bucket = harness.unique_bucket_name("dashboard")
        client.create_bucket(Bucket=self.bucket)
        for i in range(PUTS):
            client.put_object(Bucket=self.bucket, Key=f"k{i}", Body=b"d" * (1000 + i))
        for i in range(GETS):
            client.get_object(Bucket=self.bucket, Key=f"k{i % PUTS}")["Body"].read()
        # The heads the client got, by request id: what the journal's response_headers must say.
        self.heads_received = {}
        for key, count in (("slow", SLOW), ("missing", MISSING)):
            for _ in range(count):
                with self.assertRaises(botocore.exceptions.ClientError) as refused:
                    client.get_object(Bucket=self.bucket, Key=key)
                metadata = refused.exception.response["ResponseMetadata"]
                self.heads_received[metadata["RequestId"]] = metadata["HTTPHeaders"]
        return 1 + PUTS + GETS + SLOW + MISSING

    def admin_until(self, path: str, done, seconds: float = 30) -> dict:
        """GET `path` on the admin port until `done` holds of the answer; fails past `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            answer = self.admin_call("GET", path)
            if done(answer):
                return answer
            self.assertLess(time.monotonic(), deadline, (path, answer))
            time.sleep(0.05)

    def settled(self, requests: int) -> dict:
        """/exchanges once every exchange is in it: an exchange joins the list after its
        counters, histograms and journal line."""
        return self.admin_until("/exchanges", lambda listed: len(listed["exchanges"]) >= requests)

    def history_covers(self, seconds: float, intervals: int) -> None:
        """Waits, on the proxy's own clock, for /history to hold `intervals` intervals and one
        that ended after `seconds`: the page then draws every request, in lines of that many
        points, however slowly the machine runs."""
        self.admin_until("/history", lambda history: len(history["seconds"]) >= intervals
                         and history["seconds"][-1] >= seconds, seconds=60)

    def chromium(self, url: str, *args: str) -> str:
        command = [self.chromium_binary, "--headless", "--no-sandbox", "--disable-gpu",
                   "--window-size=1280,1500", f"--user-data-dir={self.tmp / 'profile'}",
                   "--virtual-time-budget=4000", *CHROMIUM_ISOLATION, *args, url]
        return harness.run_command(command, env=harness.clean_client_env(), timeout=180).stdout

    def screenshot_path(self, name: str) -> Path:
        folder = os.environ.get("S3FAULT_DASHBOARD_SCREENSHOT")
        return Path(folder).parent / name if folder else self.tmp / name

    def test_the_page_shows_what_stats_rules_history_and_exchanges_say(self):
        requests = self.drive_traffic()
        self.admin_call("POST", "/rules/off/disable")
        listed = self.settled(requests)
        self.history_covers(self.admin_call("GET", "/stats")["seconds"], intervals=3)
        before = self.admin_call("GET", "/stats")
        page_url = f"{self.admin}/#token={TOKEN}"
        dom = self.chromium(page_url, "--dump-dom")
        screenshot = self.screenshot_path("dashboard.png")
        self.chromium(page_url, f"--screenshot={screenshot}")
        stats = self.admin_call("GET", "/stats")
        rules = self.admin_call("GET", "/rules")["rules"]
        history = self.admin_call("GET", "/history")
        page = KeyedText(dom)

        refreshed_at = float(page.body.get("data-stats-seconds", "-1"))
        self.assertTrue(before["seconds"] <= refreshed_at <= stats["seconds"],
                        (before["seconds"], refreshed_at, stats["seconds"], page.body))
        checked = self.check_operations(page, stats)
        self.assertEqual({k.split("/")[1]: int(v) for k, v in page.values.items()
                          if k.startswith("errors/")}, stats["errors_by_code"])
        self.assertEqual(stats["errors_by_code"], {"SlowDown": SLOW, "NoSuchKey": MISSING})
        for r in rules:
            for counter in ("matched", "injected", "skipped"):
                self.assertEqual(page.values[f"rule/{r['name']}/{counter}"],
                                 str(r["counters"][counter]), r["name"] + counter)
            self.assertEqual(page.values[f"rule/{r['name']}/fault"], r["fault"])
            checked += 4
        self.assertEqual(rules[0]["fault"], "error SlowDown name=slow key=slow op=GetObject")
        self.assertEqual(page.switches, {"slow": True, "put-delay": True, "off": False})
        self.assertEqual(rules[0]["counters"]["injected"], SLOW)
        for e in listed["exchanges"]:
            key = f"recent/{e['id']}/"
            self.assertEqual(page.exact[key + "status"], str(e["status"]))
            self.assertEqual(page.exact[key + "request_bytes"], str(e["request_bytes"]))
            self.assertEqual(page.values[key + "response_bytes"], human_bytes(e["response_bytes"]))
            self.assertEqual(float(page.exact[key + "duration_ms"]), e["duration_ms"])
            checked += 4
        self.assertEqual(len(listed["exchanges"]), requests)
        self.assertIn(f"the proxy keeps the last {listed['kept']}", dom)
        totals = {"requests": sum(s["requests"] for s in stats["operations"]),
                  "bytes_in": sum(s["bytes_in"] for s in stats["operations"]),
                  "bytes_out": sum(s["bytes_out"] for s in stats["operations"])}
        for field, value in totals.items():
            self.assertEqual(page.exact[field], str(value), field)
        self.assertEqual(page.values["bytes_out"], human_bytes(totals["bytes_out"]))
        self.assertEqual(totals["requests"], requests)
        checked += self.check_identity(page, stats)
        checked += self.check_charts(page, history)
        self.assertTrue(screenshot.is_file() and screenshot.stat().st_size > 10_000, screenshot)
        print(f"dashboard: {checked} values in the page equal /stats, /rules, /history and "
              f"/exchanges; screenshot {screenshot} ({screenshot.stat().st_size} bytes)")

    def check_operations(self, page: KeyedText, stats: dict) -> int:
        checked = 0
        for s in stats["operations"]:
            key = f"{s['operation']}/{s['status_class']}/"
            for field in ("requests", "bytes_in", "bytes_out", "retries"):
                self.assertEqual(page.exact[key + field], str(s[field]), key + field)
                checked += 1
            self.assertEqual(page.values[key + "bytes_out"], human_bytes(s["bytes_out"]))
            shown = {"recent_latency_ms": ("p50", "p90", "p99"), "recent_ttfb_ms": ("p50",),
                     "recent_store_ttfb_ms": ("p50",), "latency_ms": ("p99",)}
            for histogram, quantiles in shown.items():
                for q in quantiles:
                    name = f"{key}{histogram}.{q}"
                    # Empty where the store sent no head (a fault answered): not 0.
                    if histogram.startswith("recent_") and s[histogram]["count"] == 0:
                        self.assertEqual((page.values[name], page.exact[name]), ("", ""), name)
                    else:
                        self.assertEqual(float(page.exact[name]), s[histogram][q], name)
                        self.assertEqual(page.values[name], human_ms(s[histogram][q]), name)
                    checked += 1
            self.assertEqual(page.values[key + "recent_latency_ms.count"],
                             str(s["recent_latency_ms"]["count"]))
            self.assertEqual(s["recent_latency_ms"]["count"], s["requests"])
            checked += 1
        slow = next(s for s in stats["operations"]
                    if s["operation"] == "GetObject" and s["status_class"] == "5xx")
        self.assertEqual(slow["recent_store_ttfb_ms"]["count"], 0, "the rule answered")
        return checked

    def check_identity(self, page: KeyedText, stats: dict) -> int:
        version = self.admin_call("GET", "/version")["version"]
        self.assertEqual(page.values["identity/proxy"], self.proxy.url)
        self.assertEqual(page.values["identity/store"], self.origin.url)
        self.assertEqual(page.values["identity/version"], version)
        self.assertEqual(page.values["identity/seed"], str(stats["proxy"]["seed"]))
        return 4

    def check_charts(self, page: KeyedText, history: dict) -> int:
        """Full on a fresh load: one line per operation in each chart, with the proxy's points,
        not the one point a page that samples by itself would have."""
        operations = set(history["operations"])
        self.assertEqual(operations, {"CreateBucket", "PutObject", "GetObject"})
        for figure in ("requests_per_s", "errors_per_s", "mib_per_s"):
            lines = {line["data-operation"]: line for line in page.lines
                     if line.get("data-figure") == figure}
            self.assertEqual(set(lines), operations, figure)
            for name, line in lines.items():
                self.assertGreaterEqual(int(line["data-points"]), 3, (figure, name))
        gets = {line["data-figure"]: float(line["data-sum"]) for line in page.lines
                if line["data-operation"] == "GetObject"}
        self.assertGreater(gets["requests_per_s"], 0)
        self.assertGreater(gets["errors_per_s"], 0, "the SlowDown and NoSuchKey answers")
        self.assertLess(gets["errors_per_s"], gets["requests_per_s"])
        return len(operations) * 3

    def test_a_person_opens_an_exchange_and_steers_the_rules(self):
        requests = self.drive_traffic()
        listed = self.settled(requests)
        faulted = next(e for e in listed["exchanges"] if e.get("faults") == "slow:error")
        add = "error AccessDenied op=GetObject key=added name=added"
        bad = "truncate 150% op=GetObjekt"
        edit = "error SlowDown op=GetObject key=edited name=slow"
        shown = self.steer(str(faulted["id"]), add, bad, "slow", edit, "put-delay")
        self.assertEqual(shown["outside"], [], "the page reached beyond the admin port")
        checked = self.check_opened_exchange(shown["exchange"], faulted)

        def ids(keep) -> list[int]:
            """The ids a filter must leave, newest first as the page lists them."""
            return sorted((e["id"] for e in listed["exchanges"] if keep(e)), reverse=True)

        filters = shown["filters"]
        self.assertEqual(filters["faultedOnly"], ids(lambda e: "faults" in e))
        self.assertEqual(len(filters["faultedOnly"]), PUTS + SLOW, "put-delay and slow")
        self.assertEqual(filters["faultedUnderK1"],
                         ids(lambda e: "faults" in e and e.get("key", "").startswith("k1")))
        self.assertEqual(filters["underK1"], ids(lambda e: e.get("key", "").startswith("k1")))
        self.assertGreater(len(filters["underK1"]), len(filters["faultedUnderK1"]), "GETs of k1*")

        self.assertEqual((shown["added"]["status"], shown["added"]["className"]),
                         (201, "message done"), shown["added"])
        client = harness.boto3_client(self.proxy.url, self.store)
        self.assertEqual(self.get_status(client, "added"), 403, "the added rule acts on the wire")

        check = harness.run_command([str(harness.proxy_binary()), "proxy", "--check", "--fault",
                                     bad], env=harness.clean_client_env(), check=False)
        self.assertEqual(check.returncode, 2)
        mistakes = [line.strip() for line in check.stderr.splitlines() if line.startswith("  ")]
        self.assertEqual(len(mistakes), 2, check.stderr)
        self.assertEqual(shown["refused"]["status"], 400)
        self.assertEqual(shown["refused"]["className"], "message failed")
        page_lines = [line.strip() for line in shown["refused"]["text"].splitlines()[1:]]
        self.assertEqual(page_lines, mistakes, "the page shows --check's words")

        self.assertEqual(shown["edit"]["status"], 200)
        self.assertEqual(shown["edit"]["shownForEdit"],
                         "error SlowDown name=slow key=slow op=GetObject")
        rule = self.admin_call("GET", "/rules/slow")
        self.assertEqual(shown["edit"]["shownAfter"], rule["fault"])
        self.assertEqual(rule["fault"], "error SlowDown name=slow key=edited op=GetObject")
        self.assertEqual(rule["counters"]["matched"], 0, "a changed rule starts anew")
        self.assertEqual(self.get_status(client, "slow"), 404, "the old match is gone")
        self.assertEqual(self.get_status(client, "edited"), 503, "the edited rule acts")

        self.assertEqual(shown["deleteStatus"], 200)
        names = [r["name"] for r in self.admin_call("GET", "/rules")["rules"]]
        self.assertEqual(names, ["slow", "off", "added"])
        self.assertEqual(shown["rulesShown"], names)
        print(f"dashboard: the opened exchange equals its journal line ({checked} fields and "
              f"heads); filters left {len(filters['faultedOnly'])} faulted, "
              f"{len(filters['underK1'])} under k1; added, refused (as --check), edited and deleted rules as the wire saw")

    def get_status(self, client, key: str) -> int:
        try:
            client.get_object(Bucket=self.bucket, Key=key)
            return 200
        except botocore.exceptions.ClientError as error:
            return error.response["ResponseMetadata"]["HTTPStatusCode"]

    def check_opened_exchange(self, shown: dict, summary: dict) -> int:
        line = next(entry for entry in journal_lines(self.journal)
                    if entry.get("request_id") == summary["request_id"])
        fields = shown["fields"]
        checked = 0
        for field in ("time", "client", "operation", "outcome", "error_code", "request_id"):
            self.assertEqual(fields[field], line[field], field)
            checked += 1
        for field in ("status", "request_bytes", "response_bytes"):
            self.assertEqual(int(fields[field]), line[field], field)
            checked += 1
        for field in ("duration_ms", "ttfb_ms"):
            self.assertEqual(float(fields[field]), line[field], field)
            checked += 1
        self.assertNotIn("store_ttfb_ms", line, "the rule answered, not the store")
        self.assertEqual(fields["store_ttfb_ms"], "")
        self.assertEqual(fields["fault:slow"], "error")
        self.assertEqual(shown["heads"]["request"], line["request_headers"])
        self.assertEqual(shown["heads"]["response"], line["response_headers"])
        # Against the client's own reading of the same answer (boto3 lower-cases the names).
        self.assertEqual({name.lower(): value for name, value in line["response_headers"]},
                         self.heads_received[line["request_id"]])
        self.assertIn(["Authorization", "REDACTED"], line["request_headers"])
        self.assertIn("x-amz-request-id", [name for name, _ in line["response_headers"]])
        checked += len(line["request_headers"]) + len(line["response_headers"])
        curl = shown["curl"]
        self.assertTrue(curl.startswith(f"curl -X GET '{self.proxy.url}/"), curl)
        self.assertNotIn("REDACTED", curl)
        self.assertNotIn(self.store.secret_key, curl)
        self.assertIn("--aws-sigv4", curl)
        return checked

    def steer(self, *args: str) -> dict:
        script = Path(__file__).resolve().parents[1] / "node" / "dashboard-steer.mjs"
        env = {**harness.clean_client_env(), "CHROMIUM": self.chromium_binary,
               "HOME": str(self.tmp), "SCREENSHOT": str(self.screenshot_path("dashboard-exchange.png"))}
        run = harness.run_command(["node", str(script), f"{self.admin}/#token={TOKEN}", *args],
                                  env=env, timeout=180)
        return json.loads(run.stdout.strip().splitlines()[-1])

    def test_a_switch_clicked_in_the_page_turns_its_rule_off_and_on(self):
        client = harness.boto3_client(self.proxy.url, self.store)
        bucket = harness.unique_bucket_name("dashboard-switch")
        client.create_bucket(Bucket=bucket)

        def slow_status() -> int:
            try:
                client.get_object(Bucket=bucket, Key="slow")
                return 200
            except botocore.exceptions.ClientError as error:
                return error.response["ResponseMetadata"]["HTTPStatusCode"]

        self.assertEqual(slow_status(), 503)
        for expected in (False, True):
            with self.subTest(enabled=expected):
                shown = self.click_switch("slow")
                self.assertEqual((shown["before"], shown["after"]), (not expected, expected))
                self.assertTrue(shown["post"].endswith("/rules/slow/" +
                                                       ("enable" if expected else "disable")))
                self.assertEqual(shown["post_status"], 200)
                self.assertEqual(shown["outside"], [], "the page reached beyond the admin port")
                self.assertTrue(shown["status"].startswith("updated "), shown["status"])
                rule = self.admin_call("GET", "/rules/slow")
                self.assertEqual(rule["enabled"], expected)
                # What the switch says is what the traffic gets: the store's 404 when off.
                self.assertEqual(slow_status(), 503 if expected else 404)

    def click_switch(self, rule: str) -> dict:
        script = Path(__file__).resolve().parents[1] / "node" / "dashboard-switch.mjs"
        env = {**harness.clean_client_env(), "CHROMIUM": self.chromium_binary,
               "HOME": str(self.tmp)}
        run = harness.run_command(["node", str(script), f"{self.admin}/#token={TOKEN}", rule],
                                  env=env, timeout=120)
        return json.loads(run.stdout.strip().splitlines()[-1])

    def test_whole_run_draws_the_timeline_the_page_read(self):
        proxy = harness.ProxyProcess(self.origin.url, [
            "--admin", "127.0.0.1:0", "--admin-token", TOKEN, "--timeline", "200ms",
            "--store-pid", str(self.origin.pid), "--fault", "error SlowDown op=GetObject key=slow"],
            name="timeline-proxy")
        proxy.start()
        self.addCleanup(lambda: self.assertEqual(proxy.stop(), 0, "proxy exit code"))
        admin = next(line.split()[-1] for line in proxy.stdout_lines if line.startswith("admin on "))
        requests = self.drive_traffic(proxy)
        # GETs go on while the page is open, so that its two reads of /timeline differ.
        stop = threading.Event()
        client = harness.boto3_client(proxy.url, self.store)

        def keep_getting() -> None:
            while not stop.wait(0.05):
                client.get_object(Bucket=self.bucket, Key="k0")["Body"].read()

        background = threading.Thread(target=keep_getting)
        background.start()
        self.addCleanup(background.join)
        self.addCleanup(stop.set)
        self.admin_until_at(admin, "/timeline", lambda t: requests_in(t, "PutObject") == PUTS
                            and requests_in(t, "GetObject") >= GETS + SLOW + MISSING)

        shown = self.whole_run(f"{admin}/#token={TOKEN}", self.screenshot_path("dashboard-run.png"))
        stop.set()
        self.assertEqual(shown["outside"], [], "the page reached beyond the admin port")
        self.assertEqual(shown["toggle"], {"disabled": False, "title": ""})
        timeline, page = shown["timeline"], shown["shown"]
        intervals = timeline["timeline"]["intervals"]
        self.assertEqual(timeline["timeline"]["resolution_s"], 0.2, "no merge in a short run")
        self.assertGreater(len(intervals), 30)
        counted = {name: requests_in(timeline, name)
                   for name in sorted({n for i in intervals for n in i["operations"]})}
        self.assertEqual(counted["PutObject"], PUTS)
        self.assertGreaterEqual(counted["GetObject"], requests - PUTS - 1)

        checked = self.check_run_charts(page["lines"], intervals)
        self.assertEqual(page["polylines"], 0, "no /history line left in the whole run's charts")
        self.assertEqual(page["legend"], sorted(counted, key=lambda n: -counted[n]))
        self.assertEqual(page["storeCharts"], [True, True])
        self.assertTrue(page["badgeShown"])
        self.assertEqual(page["badgeLabel"], "drift")
        self.assertEqual(page["verdict"], timeline["drift"]["verdict"])
        self.assertIn("a point per interval of 200 ms", page["title"])
        self.assertTrue(page["note"].startswith(f"{len(intervals)} intervals of 200 ms"),
                        page["note"])
        # What the page drew is what the proxy recorded: the intervals kept since are the same.
        later = self.admin_call_at(admin, "GET", "/timeline")["timeline"]["intervals"]
        self.assertEqual([(i["start"], i["end"]) for i in later[:len(intervals)]],
                         [(i["start"], i["end"]) for i in intervals])

        # At load (whether there is a timeline), then no more often than every 10 s (on the
        # page's clock, within a few ms of Date.now's), and only while "whole run" is chosen.
        fetched = page["fetched"]
        self.assertGreaterEqual(len(fetched), 2, fetched)
        self.assertTrue(all(b - a >= TIMELINE_POLL_S * 1000 - 5
                            for a, b in zip(fetched, fetched[1:])), fetched)
        asked = shown["asked"]["timeline"]
        self.assertEqual(len(asked), len(fetched), (asked, fetched))
        self.assertTrue(all(t < shown["back"] for t in asked), (asked, shown["back"]))
        self.assertEqual([t for t in shown["asked"]["history"]
                          if shown["chosen"] + 1500 < t < shown["back"]], [],
                         "no /history while the whole run is shown")
        self.assertGreater(len([t for t in shown["asked"]["history"] if t > shown["back"]]), 5)
        recent = shown["recent"]
        self.assertEqual((recent["paths"], recent["badgeShown"]), (0, False), recent)
        self.assertEqual(recent["polylines"], len(counted), "back to /history's lines")
        self.assertTrue(recent["title"].startswith("The last 15 minutes"), recent)
        print(f"dashboard: whole run: {checked} lines equal the {len(intervals)} intervals of the "
              f"/timeline answer the page read; drift badge {page['verdict']!r}; /timeline read "
              f"at {asked} ms; screenshot {self.screenshot_path('dashboard-run.png')}")

    def check_run_charts(self, lines: list[dict], intervals: list[dict]) -> int:
        """Each line of the whole run's charts against the intervals: rates from the counts over
        each interval's length, a point per interval; the latency percentiles where the
        operation moved; the store's threads and memory where it was read."""
        by = {(line["chart"], line["figure"], line.get("operation")): line for line in lines}
        self.assertEqual(len(by), len(lines), "one line per chart, figure and operation")
        operations = {name for i in intervals for name in i["operations"]}
        self.assertEqual(operations, {"CreateBucket", "PutObject", "GetObject"})
        rates = {"requests_per_s": lambda t: t["requests"], "errors_per_s": lambda t: t["errors"],
                 "mib_per_s": lambda t: t["bytes"] / 1048576}
        for name in operations:
            for figure, count in rates.items():
                line = by[(f"chart-{figure}", figure, name)]
                values = [count(i["operations"][name]) / (i["end"] - i["start"])
                          if name in i["operations"] else 0 for i in intervals]
                self.assertEqual(int(line["points"]), len(intervals), (figure, name))
                self.assertAlmostEqual(float(line["sum"]), sum(values), places=6,
                                       msg=(figure, name))
            for q in ("p50", "p90"):
                line = by[("chart-latency_ms", f"latency_{q}_ms", name)]
                values = [i["operations"][name]["latency_ms"][q] for i in intervals
                          if i["operations"].get(name, {}).get("requests", 0) > 0]
                self.assertEqual(int(line["points"]), len(values), (q, name))
                self.assertEqual(float(line["max"]), max(values), (q, name))
        errors = by[("chart-errors_per_s", "errors_per_s", "GetObject")]
        self.assertGreater(float(errors["sum"]), 0, "the SlowDown and NoSuchKey answers")
        sampled = [i["store"] for i in intervals if "store" in i]
        self.assertEqual(len(sampled), len(intervals), "the origin read in every interval")
        for chart, figure, field in (("chart-store_threads", "store_threads", "threads"),
                                     ("chart-store_memory", "store_memory_bytes", "memory_bytes")):
            line = by[(chart, figure, None)]
            self.assertEqual(int(line["points"]), len(sampled), figure)
            self.assertEqual(float(line["max"]), max(s[field] for s in sampled), figure)
        self.assertGreater(float(by[("chart-store_threads", "store_threads", None)]["max"]), 0)
        return len(lines)

    def whole_run(self, url: str, screenshot: Path) -> dict:
        env = {**harness.clean_client_env(), "CHROMIUM": self.chromium_binary,
               "HOME": str(self.tmp), "NODE_DIR_URL": NODE_DIR.as_uri() + "/"}
        run = harness.run_command(["node", "--input-type=module", "-e", WHOLE_RUN_SCRIPT, url,
                                   str(screenshot)], env=env, timeout=180)
        return json.loads(run.stdout.strip().splitlines()[-1])

    def admin_call_at(self, admin: str, method: str, path: str) -> dict:
        request = urllib.request.Request(admin + path, method=method,
                                         headers={"Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def admin_until_at(self, admin: str, path: str, done, seconds: float = 60) -> dict:
        """GET `path` on the admin port `admin` until `done` holds of the answer."""
        deadline = time.monotonic() + seconds
        while True:
            answer = self.admin_call_at(admin, "GET", path)
            if done(answer):
                return answer
            self.assertLess(time.monotonic(), deadline, (path, answer))
            time.sleep(0.05)

    def node_script(self, script: str, *args: str) -> dict:
        """Runs one of the inline puppeteer scripts above; its JSON line."""
        env = {**harness.clean_client_env(), "CHROMIUM": self.chromium_binary,
               "HOME": str(self.tmp), "NODE_DIR_URL": NODE_DIR.as_uri() + "/"}
        run = harness.run_command(["node", "--input-type=module", "-e", script, *args],
                                  env=env, timeout=180)
        return json.loads(run.stdout.strip().splitlines()[-1])

    def test_the_curl_line_repeats_the_exchange_with_debians_curl(self):
        # Debian 12's curl 7.88 signs with --aws-sigv4 but sends no x-amz-content-sha256, which
        # S3 requires: the line got "400 InvalidRequest: Missing required header".
        client = harness.boto3_client(self.proxy.url, self.store)
        bucket = harness.unique_bucket_name("dashboard-curl")
        client.create_bucket(Bucket=bucket)
        body = bytes(range(256)) * 40 + b"it's the end"
        client.put_object(Bucket=bucket, Key="repeat/me.bin", Body=body)
        self.assertEqual(client.get_object(Bucket=bucket, Key="repeat/me.bin")["Body"].read(), body)
        listed = self.settled(3)
        put, get = (next(e for e in listed["exchanges"] if e["operation"] == operation)
                    for operation in ("PutObject", "GetObject"))
        lines = self.node_script(CURL_LINES_SCRIPT, f"{self.admin}/#token={TOKEN}",
                                 str(put["id"]), str(get["id"]))
        curl = shutil.which("curl", path="/usr/bin")
        version = harness.run_command([curl, "--version"], env={}).stdout.split()[1]
        body_file = self.tmp / "body.bin"
        body_file.write_bytes(body)
        direct = harness.boto3_client(self.origin.url, self.store)
        direct.delete_object(Bucket=bucket, Key="repeat/me.bin")

        def repeat(line: str, out: Path) -> str:
            """Runs the page's line in bash with Debian's curl first on PATH and the credentials
            in the environment, as the page tells; the status curl got."""
            self.assertTrue(line.startswith("curl "), line)
            env = {"PATH": "/usr/bin:/bin", "AWS_ACCESS_KEY_ID": self.store.access_key,
                   "AWS_SECRET_ACCESS_KEY": self.store.secret_key, "BODY_FILE": str(body_file)}
            run = harness.run_command(["bash", "-c", f"{line} -sS -o {out} -w '%{{http_code}}'"],
                                      env=env, timeout=60)
            return run.stdout

        put_line, get_line = lines[str(put["id"])], lines[str(get["id"])]
        put_status = repeat(put_line, self.tmp / "put.out")
        self.assertEqual(put_status, "200", (put_line, (self.tmp / "put.out").read_bytes()))
        stored = direct.get_object(Bucket=bucket, Key="repeat/me.bin")["Body"].read()
        self.assertEqual(stored, body, "the repeated PUT stored the body again")
        get_status = repeat(get_line, self.tmp / "get.out")
        self.assertEqual(get_status, "200", (get_line, (self.tmp / "get.out").read_bytes()))
        self.assertEqual((self.tmp / "get.out").read_bytes(), body)
        for line in (put_line, get_line):
            self.assertNotIn(self.store.secret_key, line)
            self.assertNotIn("REDACTED", line)
        print(f"dashboard: the curl lines of a PUT and a GET repeated with curl {version}: "
              f"{put_status} and {get_status}, {len(body)} bytes stored and read back\n"
              f"  {put_line}\n  {get_line}")

    def test_the_tables_fit_a_1400_pixel_window(self):
        # A long multipart target widened the exchanges table past the window, hiding bytes,
        # duration, TTFB and faults; the per-operation table's two "requests" read as one twice.
        self.drive_traffic()
        client = harness.boto3_client(self.proxy.url, self.store)
        key = "exports/" + "/".join(f"partition-{i:02d}=value-{i:02d}" for i in range(8)) + "/data.parquet"
        upload = client.create_multipart_upload(Bucket=self.bucket, Key=key)["UploadId"]
        part = client.upload_part(Bucket=self.bucket, Key=key, UploadId=upload, PartNumber=1,
                                  Body=b"p" * 1000)
        client.complete_multipart_upload(Bucket=self.bucket, Key=key, UploadId=upload,
                                         MultipartUpload={"Parts": [{"PartNumber": 1,
                                                                     "ETag": part["ETag"]}]})
        listed = self.settled(1 + PUTS + GETS + SLOW + MISSING + 3)
        long_one = next(e for e in listed["exchanges"] if e["operation"] == "UploadPart")
        long_target = long_one["target"]
        self.assertGreater(len(long_target), 200, long_target)
        screenshot = self.screenshot_path("dashboard-tables.png")
        shown = self.node_script(LAYOUT_SCRIPT, f"{self.admin}/#token={TOKEN}", str(screenshot),
                                 "1400", str(long_one["id"]))
        self.assertEqual(shown["outside"], [], "the page reached beyond the admin port")
        window = shown["window"]
        for name in ("page", "recent", "recentTable", "operations", "operationsTable"):
            self.assertLessEqual(shown[name]["scrollWidth"], shown[name]["clientWidth"],
                                 (name, shown[name]))
            self.assertLessEqual(shown[name]["right"], window, (name, shown[name]))
        targets = {str(e["id"]): e["target"] for e in listed["exchanges"]}
        self.assertEqual(len(shown["rows"]), len(targets))
        for row in shown["rows"]:
            self.assertEqual((row["text"], row["title"]), (targets[row["id"]],) * 2, row["id"])
            for column in ("bytes in", "bytes out", "duration", "ttfb", "faults"):
                self.assertLessEqual(row["right"][column], window, (row["id"], column, row))
        long_row = next(r for r in shown["rows"] if r["text"] == long_target)
        self.assertTrue(long_row["clipped"], "the long target ends in an ellipsis")
        # Opened, its heads (a long User-Agent) and curl line wrap inside the window too.
        self.assertLessEqual(shown["withDetail"]["scrollWidth"], shown["withDetail"]["clientWidth"],
                             shown["withDetail"])
        columns = shown["columns"]
        requests = [c for c in columns if c["name"] == "requests"]
        self.assertEqual(len(requests), 2, columns)
        self.assertTrue(all(c["group"] for c in columns if c["name"] not in ("operation", "status")),
                        ("every figure under a group heading", columns))
        self.assertEqual(len({(c["group"], c["name"]) for c in columns}), len(columns), columns)
        print(f"dashboard: at {window} px the exchanges table ({shown['recentTable']['clientWidth']} "
              f"px) and the per-operation table fit; a {len(long_target)}-character target is "
              f"clipped with the whole in its title; columns {columns}; screenshot {screenshot}")

    def test_without_a_timeline_the_whole_run_cannot_be_chosen(self):
        with self.assertRaises(urllib.error.HTTPError) as refused:
            self.admin_call("GET", "/timeline")
        self.assertEqual(refused.exception.code, 404)
        self.assertEqual(json.load(refused.exception)["error"]["code"], "no_timeline")
        self.drive_traffic()
        self.admin_until("/history", lambda history: len(history["operations"]) == 3)
        dom = self.chromium(f"{self.admin}/#token={TOKEN}", "--dump-dom")
        page = KeyedText(dom)
        self.assertEqual(page.body.get("data-timeline"), "none", page.body)
        self.assertEqual(page.body.get("data-chart-span"), None, "never switched")
        self.assertEqual(page.toggle.get("title"), NO_TIMELINE_TITLE, page.toggle)
        self.assertIn("disabled", page.toggle)
        self.assertEqual(page.span_inputs, {"recent": True, "run": False}, "which is checked")
        self.assertIn("hidden", page.drift_badge, "no verdict without a timeline")
        self.assertEqual(len(page.lines), 9, "the last 15 minutes drawn as before")

    def test_the_page_needs_no_token_but_its_data_does(self):
        with urllib.request.urlopen(self.admin + "/", timeout=30) as response:
            page = response.read().decode()
            policy = response.headers["Content-Security-Policy"]
        self.assertIn("<title>s3fault proxy</title>", page)
        self.assertIn("connect-src 'self'", policy)
        self.assertIn("default-src 'none'", policy)
        self.assertNotIn("http://", page.replace("http://www.w3.org", ""), "no outside address")
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(self.admin + "/stats", timeout=30)
        self.assertEqual(refused.exception.code, 401)
        dom = self.chromium(f"{self.admin}/", "--dump-dom")  # no #token=
        self.assertIn("This proxy's admin API needs its token. Open this page as "
                      f"{self.admin}/#token=TOKEN", dom)
        wrong = self.chromium(f"{self.admin}/#token=not-the-token-0123456789", "--dump-dom")
        self.assertIn("The token in this page's address (#token=...) was refused", wrong)


if __name__ == "__main__":
    unittest.main()
