"""Reads Prometheus text on stdin with Debian's python3-prometheus-client parser and prints each
sample as one JSON line, {"name", "labels", "value"}: what a scraper makes of /metrics."""

import json
import sys

from prometheus_client.parser import text_string_to_metric_families

for family in text_string_to_metric_families(sys.stdin.read()):
    for sample in family.samples:
        print(json.dumps({"name": sample.name, "labels": sample.labels, "value": sample.value}))
