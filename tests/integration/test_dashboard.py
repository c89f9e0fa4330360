"""The dashboard at the admin port's GET /: loaded in headless Chromium (Debian `chromium`)
after real boto3 traffic through a proxy with fault rules, its numbers must equal /stats and
/rules: per operation and status the requests, bytes, retries and latency/TTFB percentiles,
the errors by S3 code, each rule's counters and switch, the last exchanges, the totals. The
page must have been filled from a /stats read while Chromium ran (its `seconds`), and reach
nothing but the admin port. A screenshot is written (S3FAULT_DASHBOARD_SCREENSHOT, or the test's
scratch directory). Fails, does not skip, without Chromium."""

import decimal
import html.parser
import json
import urllib.error
import os
import shutil
import subprocess
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


def to_fixed(value: float, digits: int) -> str:
    """What the page's Number.prototype.toFixed shows: the double's exact value rounded, a tie
    going up. Python's format rounds a tie to even, so a 2625 us midpoint (2.625 ms, exact in
    binary) would read 2.62 here and 2.63 in the page."""
    step = decimal.Decimal(1).scaleb(-digits)
    return str(decimal.Decimal(value).quantize(step, rounding=decimal.ROUND_HALF_UP))


class KeyedText(html.parser.HTMLParser):
    """The text of every element with a data-key, the checkboxes of the rules, and <body>'s
    attributes."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.values: dict[str, str] = {}
        self.switches: dict[str, bool] = {}
        self.body: dict[str, str] = {}
        self._open: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "body":
            self.body = a
        if tag == "input" and "data-rule" in a:
            self.switches[a["data-rule"]] = "checked" in a
        if "data-key" in a:
            self._open.append(a["data-key"])
            self.values.setdefault(a["data-key"], "")

    def handle_endtag(self, tag):
        if tag in ("td", "div", "span") and self._open:
            self._open.pop()

    def handle_data(self, data):
        if self._open:
            self.values[self._open[-1]] += data


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
        self.proxy = harness.ProxyProcess(self.origin.url, [
            "--admin", "127.0.0.1:0", "--admin-token", TOKEN,
            "--fault", "error SlowDown op=GetObject key=slow name=slow",
            "--fault", "delay 1ms op=PutObject name=put-delay",
            "--fault", "error InternalError op=DeleteObject name=off"])
        self.proxy.start()
        self.addCleanup(lambda: self.assertEqual(self.proxy.stop(), 0, "proxy exit code"))
        self.admin = next(line.split()[-1] for line in self.proxy.stdout_lines
                          if line.startswith("admin on "))

    def admin_call(self, method: str, path: str):
        request = urllib.request.Request(self.admin + path, method=method,
                                         headers={"Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def drive_traffic(self) -> int:
        client = harness.boto3_client(self.proxy.url, self.store)
        bucket = harness.unique_bucket_name("dashboard")
        client.create_bucket(Bucket=bucket)
        for i in range(PUTS):
            client.put_object(Bucket=bucket, Key=f"k{i}", Body=b"d" * (1000 + i))
        for i in range(GETS):
            client.get_object(Bucket=bucket, Key=f"k{i % PUTS}")["Body"].read()
        for key, count in (("slow", SLOW), ("missing", MISSING)):
            for _ in range(count):
                with self.assertRaises(botocore.exceptions.ClientError):
                    client.get_object(Bucket=bucket, Key=key)
        return 1 + PUTS + GETS + SLOW + MISSING

    def settled_stats(self, requests: int) -> dict:
        """/stats once every exchange is counted (each is, once its last write completed) and
        recorded whole: an exchange's request count goes up before its histograms, and it joins
        the recent list last, so the list's length is what says it is all there."""
        deadline = time.monotonic() + 30
        while True:
            stats = self.admin_call("GET", "/stats")
            if len(stats["recent"]) >= requests:
                return stats
            self.assertLess(time.monotonic(), deadline, stats)
            time.sleep(0.05)

    def chromium(self, url: str, *args: str) -> str:
        command = [self.chromium_binary, "--headless", "--no-sandbox", "--disable-gpu",
                   "--window-size=1280,1500", f"--user-data-dir={self.tmp / 'profile'}",
                   "--virtual-time-budget=4000", *CHROMIUM_ISOLATION, *args, url]
        return harness.run_command(command, env=harness.clean_client_env(), timeout=180).stdout

    def test_the_page_shows_what_stats_and_rules_say(self):
        requests = self.drive_traffic()
        self.admin_call("POST", "/rules/off/disable")
        before = self.settled_stats(requests)
        page_url = f"{self.admin}/#token={TOKEN}"
        dom = self.chromium(page_url, "--dump-dom")
        screenshot = Path(os.environ.get("S3FAULT_DASHBOARD_SCREENSHOT")
                          or self.tmp / "dashboard.png")
        self.chromium(page_url, f"--screenshot={screenshot}")
        stats = self.admin_call("GET", "/stats")
        rules = self.admin_call("GET", "/rules")["rules"]
        page = KeyedText(dom)

        refreshed_at = float(page.body.get("data-stats-seconds", "-1"))
        self.assertTrue(before["seconds"] <= refreshed_at <= stats["seconds"],
                        (before["seconds"], refreshed_at, stats["seconds"], page.body))
        checked = 0
        for s in stats["operations"]:
            key = f"{s['operation']}/{s['status_class']}/"
            for field in ("requests", "bytes_in", "bytes_out", "retries"):
                self.assertEqual(page.values[key + field], str(s[field]), key + field)
                checked += 1
            shown = {"recent_latency_ms": ("p50", "p90", "p99"), "recent_ttfb_ms": ("p50",),
                     "recent_store_ttfb_ms": ("p50",), "latency_ms": ("p99",),
                     "ttfb_ms": ("p99",)}
            for histogram, quantiles in shown.items():
                for q in quantiles:
                    # The store's column is "-" where the store sent no head (a fault answered).
                    none = histogram == "recent_store_ttfb_ms" and s[histogram]["count"] == 0
                    self.assertEqual(page.values[f"{key}{histogram}.{q}"],
                                     "-" if none else to_fixed(s[histogram][q], 2),
                                     key + histogram + q)
                    checked += 1
            self.assertEqual(page.values[key + "recent_latency_ms.count"],
                             str(s["recent_latency_ms"]["count"]))
            # The proxy has run for seconds: its last minute is the whole run.
            self.assertEqual(s["recent_latency_ms"]["count"], s["requests"])
            checked += 1
        self.assertEqual({k.split("/")[1]: int(v) for k, v in page.values.items()
                          if k.startswith("errors/")}, stats["errors_by_code"])
        self.assertEqual(stats["errors_by_code"], {"SlowDown": SLOW, "NoSuchKey": MISSING})
        for r in rules:
            for counter in ("matched", "injected", "skipped"):
                self.assertEqual(page.values[f"rule/{r['name']}/{counter}"],
                                 str(r["counters"][counter]), r["name"] + counter)
            self.assertEqual(page.values[f"rule/{r['name']}/faults_applied"],
                             str(stats["faults_by_rule"].get(r["name"], 0)))
            checked += 4
        self.assertEqual(page.switches, {"slow": True, "put-delay": True, "off": False})
        self.assertEqual(rules[0]["counters"]["injected"], SLOW)
        for i, e in enumerate(stats["recent"]):
            for field in ("status", "bytes_in", "bytes_out"):
                self.assertEqual(page.values[f"recent/{i}/{field}"], str(e[field]))
                checked += 1
        self.assertEqual(len(stats["recent"]), requests)
        totals = {"requests": sum(s["requests"] for s in stats["operations"]),
                  "bytes_in": sum(s["bytes_in"] for s in stats["operations"]),
                  "bytes_out": sum(s["bytes_out"] for s in stats["operations"])}
        for field, value in totals.items():
            self.assertEqual(page.values[field], str(value), field)
        self.assertEqual(totals["requests"], requests)
        self.assertTrue(screenshot.is_file() and screenshot.stat().st_size > 10_000, screenshot)
        print(f"dashboard: {checked} numbers in the page equal /stats and /rules; "
              f"screenshot {screenshot} ({screenshot.stat().st_size} bytes)")

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
        self.assertIn("cannot read the admin API: GET /stats: 401", dom)


if __name__ == "__main__":
    unittest.main()
