"""The proxy's traffic measurements from the outside: a client sends a known set of requests
through `s3fault proxy --admin ... --report FILE`, and GET /metrics, GET /stats and the report
written at exit count exactly those requests (per operation and status class, with the faults
injected and the retries)."""

import json
import re
import subprocess
import tempfile
import unittest
import urllib.request
from pathlib import Path

import boto3
import botocore.config

import harness

REPO = Path(__file__).resolve().parents[2]

def fetch(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.headers.get("Content-Type"), response.read().decode()


def proxy_with_client(origin, args: list[str], attempts: int):
    """A started proxy in front of `origin` with `args`, its admin URL, and a boto3 client
    through it making at most `attempts` attempts per request."""
    store = origin.store()
    proxy = harness.ProxyProcess(origin.url, ["--admin", "127.0.0.1:0"] + args)
    proxy.start()
    admin = next(line.split(" ", 2)[2] for line in proxy.stdout_lines
                 if line.startswith("admin on "))
    client = boto3.client(
        "s3", endpoint_url=proxy.url, aws_access_key_id=store.access_key,
        aws_secret_access_key=store.secret_key, region_name=store.region,
        config=botocore.config.Config(retries={"total_max_attempts": attempts},
                                      s3={"addressing_style": "path"}))
    return proxy, admin, client


class ProxyMetricsTest(unittest.TestCase):
    def test_counters_equal_the_requests_sent(self):
        tmp = harness.scratch_root() / harness.unique_bucket_name("metrics")
        tmp.mkdir(parents=True)
        origin = harness.OriginProcess()
        origin.start()
        self.addCleanup(harness.stop_and_check, origin)
        report = tmp / "report.json"
        proxy, admin, client = proxy_with_client(
            origin, ["--report", str(report),
                     "--fault", "error SlowDown op=GetObject first=2 name=slow"], attempts=1)
        bucket = harness.unique_bucket_name("metrics")
        client.create_bucket(Bucket=bucket)
        for i in range(3):
            client.put_object(Bucket=bucket, Key=f"k{i}", Body=b"x" * 1000)
        failures = 0
        for _ in range(5):
            try:
                self.assertEqual(len(client.get_object(Bucket=bucket, Key="k0")["Body"].read()),
                                 1000)
            except client.exceptions.ClientError:
                failures += 1
        self.assertEqual(failures, 2)
        client.head_object(Bucket=bucket, Key="k1")
        client.copy_object(Bucket=bucket, Key="k1-copy", CopySource={"Bucket": bucket, "Key": "k1"})

        kind, _ = fetch(admin + "/metrics")
        self.assertTrue(kind.startswith("text/plain"), kind)
        text = harness.metrics_once_counted(admin, operation="CopyObject", status_class="2xx")
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="CreateBucket",
                                status_class="2xx"), 1)
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="PutObject",
                                status_class="2xx"), 3)
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="GetObject",
                                status_class="2xx"), 3)
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="GetObject",
                                status_class="5xx"), 2)
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="HeadObject",
                                status_class="2xx"), 1)
        # A PUT with x-amz-copy-source: classified once, by the rules, and counted as such.
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="CopyObject",
                                status_class="2xx"), 1)
        self.assertEqual(harness.prometheus_value(text, "s3fault_request_body_bytes_total", operation="PutObject",
                                status_class="2xx"), 3000)
        self.assertEqual(harness.prometheus_value(text, "s3fault_response_body_bytes_total", operation="GetObject",
                                status_class="2xx"), 3000)
        self.assertEqual(harness.prometheus_value(text, "s3fault_faults_injected_total", rule="slow"), 2)
        # GET k0 after a failed GET k0 is a retry: the second 503 and the first 200.
        self.assertEqual(harness.prometheus_value(text, "s3fault_retries_total", operation="GetObject",
                                status_class="5xx"), 1)
        self.assertEqual(harness.prometheus_value(text, "s3fault_retries_total", operation="GetObject",
                                status_class="2xx"), 1)
        self.assertEqual(harness.prometheus_value(text, "s3fault_request_duration_seconds_count",
                                operation="GetObject"), 5)
        self.assertIn('s3fault_request_duration_seconds_bucket{operation="GetObject",le="+Inf"} 5',
                      text)

        kind, body = fetch(admin + "/stats")
        stats = json.loads(body)
        gets = next(o for o in stats["operations"]
                    if o["operation"] == "GetObject" and o["status_class"] == "2xx")
        self.assertEqual(gets["requests"], 3)
        self.assertEqual(gets["latency_ms"]["count"], 3)
        for q in ("p50", "p90", "p99", "max"):
            self.assertGreater(gets["latency_ms"][q], 0)
        self.assertLessEqual(gets["latency_ms"]["p50"], gets["latency_ms"]["max"])
        self.assertEqual(stats["faults_by_rule"], {"slow": 2})

        self.assertEqual(proxy.stop(), 0, proxy.describe_stderr())
        written = json.loads(report.read_text())
        self.assertEqual(sum(o["requests"] for o in written["operations"]), 1 + 3 + 5 + 1 + 1)
        # The report names the proxy it measured, as /stats does (less what only a live proxy
        # has: the exchanges it keeps for the page).
        live_identity = dict(stats["proxy"])
        live_identity.pop("exchanges_kept")
        self.assertEqual(written["proxy"], live_identity)
        self.assertEqual((written["proxy"]["listen"], written["proxy"]["upstream"]),
                         (proxy.url, origin.url))
        self.assertRegex(written["proxy"]["version"], r"^\d+\.\d+")
        self.assertIn("traffic through the proxy", proxy.describe_stderr())

    def test_operations_are_the_same_without_rules(self):
        # Without rules the metrics classify each exchange themselves: a copy is still a copy.
        origin = harness.OriginProcess()
        origin.start()
        self.addCleanup(harness.stop_and_check, origin)
        proxy, admin, client = proxy_with_client(origin, [], attempts=3)
        bucket = harness.unique_bucket_name("metrics")
        client.create_bucket(Bucket=bucket)
        client.put_object(Bucket=bucket, Key="k", Body=b"x" * 10)
        client.copy_object(Bucket=bucket, Key="k-copy", CopySource={"Bucket": bucket, "Key": "k"})
        text = harness.metrics_once_counted(admin, operation="CopyObject", status_class="2xx")
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="PutObject",
                                status_class="2xx"), 1)
        self.assertEqual(harness.prometheus_value(text, "s3fault_requests_total", operation="CopyObject",
                                status_class="2xx"), 1)
        self.assertEqual(proxy.stop(), 0, proxy.describe_stderr())


def promtool_check(text: str) -> subprocess.CompletedProcess:
    return subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True,
                          text=True, timeout=60)


def promtool_check_queries(queries: list[str]) -> subprocess.CompletedProcess:
    """`promtool check rules` on the queries as recording rules: it parses each as PromQL."""
    rules = {"groups": [{"name": "queries", "rules": [
        {"record": f"s3fault:query{i}", "expr": q} for i, q in enumerate(queries)]}]}
    with tempfile.NamedTemporaryFile("w", suffix=".yml") as file:
        json.dump(rules, file)  # JSON is YAML
        file.flush()
        return subprocess.run(["promtool", "check", "rules", file.name], capture_output=True,
                              text=True, timeout=60)


class PromtoolTest(unittest.TestCase):
    """/metrics passes `promtool check metrics` (Debian's prometheus package) with no warning,
    after traffic that fills every family: statuses of each class, an injected fault, a
    load-shaped rule and a retry."""

    def test_promtool_finds_nothing_to_say(self):
        origin = harness.OriginProcess()
        origin.start()
        self.addCleanup(harness.stop_and_check, origin)
        proxy, admin, client = proxy_with_client(
            origin, ["--fault", "error SlowDown op=GetObject first=1 name=slow",
                     "--fault", "error SlowDown op=PutObject in-flight-over=4 name=admission"],
            attempts=2)
        self.addCleanup(proxy.stop)  # also when an assertion below fails
        bucket = harness.unique_bucket_name("promtool")
        client.create_bucket(Bucket=bucket)
        client.put_object(Bucket=bucket, Key="k", Body=b"x" * 100)
        self.assertEqual(client.get_object(Bucket=bucket, Key="k")["Body"].read(), b"x" * 100)
        with self.assertRaises(client.exceptions.NoSuchKey):
            client.get_object(Bucket=bucket, Key="missing")
        _, text = fetch(admin + "/metrics")
        for family in ("s3fault_requests_total", "s3fault_faults_injected_total",
                       "s3fault_rule_in_flight", "s3fault_retries_total"):
            self.assertIn(f"# TYPE {family} ", text)
        self.assertEqual(harness.prometheus_value(text, "s3fault_faults_injected_total",
                                                  rule="slow"), 1)
        checked = promtool_check(text)
        self.assertEqual((checked.returncode, checked.stdout, checked.stderr), (0, "", ""))
        self.assertEqual(proxy.stop(), 0, proxy.describe_stderr())

    def test_the_grafana_example_asks_only_for_what_metrics_serves(self):
        dashboard = json.loads((REPO / "examples/grafana/s3fault-proxy.json").read_text())
        queries = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
        self.assertGreaterEqual(len(queries), 8)
        # Every query parses as PromQL: promtool checks them as recording rules.
        self.assertEqual(promtool_check_queries(queries).returncode, 0,
                         promtool_check_queries(queries))
        self.assertNotEqual(promtool_check_queries(["sum by (rule (rate(x[1m]))"]).returncode, 0)
        # And every series it names is one /metrics serves (a renamed family fails here).
        origin = harness.OriginProcess()
        origin.start()
        self.addCleanup(harness.stop_and_check, origin)
        proxy, admin, _ = proxy_with_client(
            origin, ["--fault", "error SlowDown op=PutObject in-flight-over=4 name=admission"],
            attempts=1)
        self.addCleanup(proxy.stop)  # also when an assertion below fails
        _, text = fetch(admin + "/metrics")
        families = set(re.findall(r"^# TYPE (\S+) ", text, re.MULTILINE))
        for name in {n for q in queries for n in re.findall(r"s3fault_[a-z_]+", q)}:
            family = name.removesuffix("_bucket")
            self.assertIn(family, families, f"{name} in the dashboard, not in /metrics")
        self.assertEqual(proxy.stop(), 0, proxy.describe_stderr())

    def test_promtool_here_does_report_a_mistake(self):
        # The check above means something only if promtool speaks up: a counter without _total
        # and a metric without HELP are both named.
        checked = promtool_check("# TYPE s3fault_bad counter\ns3fault_bad 1\n")
        self.assertNotEqual(checked.stdout + checked.stderr, "", checked)
        self.assertIn("s3fault_bad", checked.stdout + checked.stderr)


if __name__ == "__main__":
    unittest.main()
