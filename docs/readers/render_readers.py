#!/usr/bin/env python3
"""Renders docs/readers.md from the gate reports in docs/readers/.

    python3 docs/readers/render_readers.py [--results DIR] [--output FILE] [--check]

Reads DIR/<reader>.json (the JSON report of `s3fault gate`) and DIR/<reader>.meta.json (written by
tests/gate/gate-readers.sh: reader name, client and its version, the gate command, the date...)
for every reader, in the order of examples/readers/ (aws-cli, boto3-download-file,
boto3-naive-parts, rclone, s3cmd, aws-sdk-js, minio-js), then any others alphabetically, and
writes FILE: one section per reader, one table of verdicts (rows: scenarios, columns: readers,
cells: the verdicts over the object shapes, failing ones marked ✗), the scenarios and shapes the
gate used, and per reader every run that failed, with why and its traffic.
Defaults: DIR is the directory of this script, FILE is DIR.md (docs/readers.md).
--check writes nothing: exits 1 and prints a diff when FILE differs from what would be written.
The output depends only on the files read (no clock, stable ordering). Standard library only.
"""

import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from render_support import write_or_check  # noqa: E402

# What differs between the documents of readers (docs/readers.md) and writers (docs/writers.md,
# docs/writers/render_writers.py): names, verdicts and their meanings, the words of the text.
READER = {
    "role": "reader",
    "known_order": ["aws-cli", "boto3-download-file", "boto3-naive-parts", "rclone", "s3cmd",
                    "aws-sdk-js", "minio-js"],
    # the client's own verdicts first (counted in the summary), then the gate's
    "verdicts": ["CORRECT", "REJECTED", "SILENT_CORRUPTION", "HUNG", "NOT_EXERCISED",
                 "NOT_JUDGED"],
    "own_verdicts": 4,
    "verdict_meaning": {
        "CORRECT": "exit 0 and exactly the object's bytes",
        "REJECTED": "non-zero exit: the reader noticed something was wrong",
        "SILENT_CORRUPTION": "exit 0 with bytes that are not the object's",
        "HUNG": "still running at the timeout, stopped by the gate",
        "NOT_EXERCISED": "the scenario's fault never reached the reader (it read in a way no rule "
                         "matched): not a pass, not a failure",
        "NOT_JUDGED": "not run, because the reader did not read the shape correctly without "
                      "faults",
    },
    # What the gate's expectations accept (the reports' `passed` counts; this is the legend).
    "expectation_meaning": {
        "must-recover": "only CORRECT passes: the reader must get the object despite the fault",
        "must-not-corrupt": "CORRECT or REJECTED pass: failing is fine, exit 0 with wrong bytes "
                            "is not",
        "informational": "CORRECT or REJECTED pass: timing only",
    },
    "never_pass": "SILENT_CORRUPTION and HUNG never pass.",
    "title": "How S3 readers cope with a faulty store",
    "script": "tests/gate/gate-readers.sh",
    "renderer": "docs/readers/render_readers.py",
    "examples": "examples/readers/",
    "how": "The gate reads every object shape through a fault-injecting proxy once per scenario, "
           "with the reader, and compares what the reader wrote with the object.",
    "gate_examples": "gate every example reader, then render",
    "plural": "readers",
    "bytes_field": "bytes_to_reader",
    "bytes_words": "to the reader",
}
WRITER = {
    "role": "writer",
    "known_order": ["aws-cli", "boto3-upload-file", "boto3-naive", "rclone", "s3cmd",
                    "aws-sdk-js", "minio-js", "builtin-naive", "builtin-careful"],
    "verdicts": ["STORED", "REJECTED", "SILENT_LOSS", "TORN", "HUNG", "NOT_EXERCISED",
                 "NOT_JUDGED"],
    "own_verdicts": 5,
    "verdict_meaning": {
        "STORED": "exit 0 and the store holds exactly the input under the key",
        "REJECTED": "non-zero exit, and the key holds nothing, or the input (the upload had "
                    "landed)",
        "SILENT_LOSS": "exit 0, but the key holds nothing or other bytes",
        "TORN": "non-zero exit, and the key holds bytes that are not the input",
        "HUNG": "still running at the timeout, stopped by the gate",
        "NOT_EXERCISED": "the scenario's fault never reached the writer (it wrote in a way no "
                         "rule matched): not a pass, not a failure",
        "NOT_JUDGED": "not run, because the writer did not store the shape without faults",
    },
    "expectation_meaning": {
        "must-recover": "only STORED passes: the writer must store the input despite the fault",
        "must-not-corrupt": "STORED or REJECTED pass: failing is fine, reporting success for "
                            "bytes the store does not hold is not",
        "informational": "STORED or REJECTED pass: timing only",
    },
    "never_pass": "SILENT_LOSS, TORN and HUNG never pass.",
    "title": "How S3 writers cope with a faulty store",
    "script": "tests/gate/gate-writers.sh",
    "renderer": "docs/writers/render_writers.py",
    "examples": "examples/writers/",
    "how": "The gate has the writer upload every object shape through a fault-injecting proxy "
           "once per scenario, then reads the key straight from the store and compares it with "
           "the input.",
    "gate_examples": "gate every example writer, then render",
    "plural": "writers",
    "bytes_field": "bytes_from_reader",
    "bytes_words": "from the writer",
}
FOR_ROLE = {"reader": READER, "writer": WRITER}
FAIL_MARK = "✗"
MAX_VALUE = 200  # characters of a why / stderr line before it is cut


def one_line(text):
    """Whitespace runs (newlines included) become one space; other control characters (terminal
    colour escapes in a reader's stderr) are dropped."""
    text = re.sub(r"[\x00-\x08\x0e-\x1f\x7f]", "", str(text))
    return re.sub(r"\s+", " ", text).strip()


def shorten(text, limit=MAX_VALUE):
    if len(text) <= limit:
        return text
    return text[:limit].rstrip() + f"… ({len(text) - limit} more characters)"


def code(text, in_table=False):
    """Text as a markdown code span: a fence longer than any run of backticks inside it."""
    text = one_line(text)
    if text == "":
        return "*(empty)*"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    if text.startswith("`") or text.endswith("`"):
        text = f" {text} "
    if in_table:
        # GFM splits table cells at | even inside code spans, unless escaped.
        text = text.replace("|", r"\|")
    return f"{fence}{text}{fence}"


def prose(text, in_table=False):
    """Text shown as is, with what markdown would interpret escaped."""
    text = one_line(text)
    text = re.sub(r"([\\`*_\[\]<>])", r"\\\1", text)
    if in_table:
        text = text.replace("|", r"\|")
    return text


def plural(n, word, words=None):
    return f"{n} {word if n == 1 else (words or word + 's')}"


def size_text(size):
    """Bytes, with the binary unit when it is a whole number of KiB/MiB."""
    if not isinstance(size, int):
        return prose(size)
    for unit, factor in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit}"
    return plural(size, "byte")


def reader_order(keys, role=READER):
    known = [k for k in role["known_order"] if k in keys]
    return known + sorted(k for k in keys if k not in role["known_order"])


def load(results):
    """{key: (report, meta)} for every DIR/<key>.json; meta is {} without a .meta.json."""
    readers = {}
    for name in sorted(os.listdir(results)):
        if not name.endswith(".json") or name.endswith(".meta.json"):
            continue
        key = name[: -len(".json")]
        with open(os.path.join(results, name), encoding="utf-8") as f:
            report = json.load(f)
        meta = {}
        meta_path = os.path.join(results, key + ".meta.json")
        if os.path.exists(meta_path):
            with open(meta_path, encoding="utf-8") as f:
                meta = json.load(f)
        readers[key] = (report, meta)
    return readers


def client_text(meta):
    """'NAME: `VERSION`' from meta's client and client_version (either may be missing)."""
    client, version = one_line(meta.get("client") or ""), one_line(meta.get("client_version") or "")
    if client and version:
        return f"{prose(client)}: {code(version)}"
    return prose(client) if client else (code(version) if version else "")


def display_name(key, meta):
    return meta.get("reader") or key


def outcome_of(run):
    """passed, failed, not exercised or not judged (older reports: from `passed`)."""
    return run.get("outcome") or ("passed" if run.get("passed") else "failed")


def verdict_order(verdicts, role=READER):
    """Known verdicts first in their usual order, then any others alphabetically."""
    known = role["verdicts"]
    return [v for v in known if v in verdicts] + sorted(v for v in verdicts if v not in known)


def summary_of(report, role=READER):
    """The report's summary, with what it lacks counted from its runs."""
    runs = report.get("runs", [])
    counted = {v: 0 for v in role["verdicts"]}
    for run in runs:
        counted[run.get("verdict", "?")] = counted.get(run.get("verdict", "?"), 0) + 1
    summary = dict(report.get("summary") or {})
    summary.setdefault("runs", len(runs))
    summary.setdefault("passed", sum(1 for r in runs if r.get("passed")))
    summary.setdefault("failed", sum(1 for r in runs if outcome_of(r) == "failed"))
    summary.setdefault("not_exercised", sum(1 for r in runs if outcome_of(r) == "not exercised"))
    summary.setdefault("not_judged", sum(1 for r in runs if outcome_of(r) == "not judged"))
    verdicts = dict(summary.get("verdicts") or counted)
    for v in role["verdicts"][:role["own_verdicts"]]:  # NOT_EXERCISED, NOT_JUDGED: counted apart
        verdicts.setdefault(v, 0)
    summary["verdicts"] = verdicts
    return summary


def verdict_text(verdict, in_table=False, role=READER):
    """A verdict as shown: the known ones as they are (GFM does not emphasize inside words)."""
    return verdict if verdict in role["verdicts"] else prose(verdict, in_table)


def exit_status_of(summary, meta):
    status = summary.get("exit_status")
    return meta.get("gate_exit_status") if status is None else status


def judged_verdicts(report, role):
    """The verdicts of the passed and failed runs only, as the gate's closing line counts them: a
    not-exercised run's verdict says nothing of its fault, and counted it would read as coverage.
    From the runs, so that reports written before the gate kept `judged_verdicts` count alike."""
    verdicts = {v: 0 for v in report["summary"]["verdicts"]}
    for run in report.get("runs", []):
        if run.get("outcome") in ("passed", "failed"):
            verdicts[run["verdict"]] = verdicts.get(run["verdict"], 0) + 1
    return verdicts


def counts(report, role=READER):
    summary = report["summary"]
    verdicts = judged_verdicts(report, role)
    judged = summary["passed"] + summary["failed"]
    return (f"{plural(summary['runs'], 'run')}: {summary['passed']} passed, "
            f"{summary['failed']} failed, {summary['not_exercised']} not exercised, "
            f"{summary['not_judged']} not judged ({role['plural']}' verdicts of the "
            f"{plural(judged, 'judged run')}: "
            + ", ".join(f"{verdicts[v]} {v}" for v in verdict_order(verdicts, role)) + ")")


def exit_meaning(status, summary=None):
    if summary and summary.get("exit_reason"):
        return summary["exit_reason"]
    if status == 0:
        return "every run had a verdict its scenario accepts"
    if status == 1:
        return "some run had a verdict its scenario does not accept"
    if status == 2:
        return "the gate could not run"
    return "unexpected"


def traffic_text(traffic, role=READER):
    """requests (by operation), retries, faults injected, errors, bytes to the reader (from the
    writer)."""
    if not traffic:
        return "no traffic recorded"
    requests = traffic.get("requests", 0)
    text = plural(requests, "request")
    by_op = traffic.get("by_operation") or {}
    if by_op:
        text += " (" + ", ".join(f"{prose(op)} {n}" for op, n in sorted(by_op.items())) + ")"
    text += (f", {plural(traffic.get('retries', 0), 'retry', 'retries')}"
             f", {plural(traffic.get('faults_injected', 0), 'fault')} injected"
             f", {plural(traffic.get('errors', 0), 'error')}")
    if role["bytes_field"] in traffic:
        text += f", {plural(traffic[role['bytes_field']], 'byte')} {role['bytes_words']}"
    return text


def last_line(text):
    lines = [line for line in str(text or "").splitlines() if line.strip()]
    return lines[-1] if lines else ""


def open_uploads_text(value):
    """A writer run's open uploads: a count, or {"unknown": why} when the store cannot list."""
    if isinstance(value, dict):
        return f"open uploads unknown: {prose(value.get('unknown', ''))}"
    return f"{plural(value or 0, 'open upload')} left"


def cell(runs, role=READER):
    """Verdicts of one reader in one scenario over the shapes: 'CORRECT 6/6',
    '**SILENT_CORRUPTION 3/6** ✗' when a run with that verdict failed."""
    if not runs:
        return "—"
    total = len(runs)
    by_verdict = {}
    for run in runs:
        by_verdict.setdefault(run.get("verdict", "?"), []).append(run)
    parts = []
    for verdict in verdict_order(by_verdict, role):
        group = by_verdict[verdict]
        text = f"{verdict_text(verdict, True, role)} {len(group)}/{total}"
        if any(outcome_of(r) == "failed" for r in group):
            text = f"**{text}** {FAIL_MARK}"
        parts.append(text)
    return "<br>".join(parts)


def union(readers, order, field, key="name"):
    """Items of report[field] by name, in order of first appearance (readers in order)."""
    items = {}
    for reader in order:
        for item in readers[reader][0].get(field) or []:
            items.setdefault(item.get(key), item)
    return items


def render(results, output, role=READER):
    readers = load(results)
    order = reader_order(readers.keys(), role)
    who = role["role"]  # "reader" or "writer"
    link_dir = os.path.relpath(results, os.path.dirname(os.path.abspath(output)) or ".")

    lines = []
    add = lines.append
    script, renderer = role["script"], role["renderer"]
    add(f"<!-- Generated by {script} and {renderer}: do not edit by hand. -->")
    add("")
    add(f"# {role['title']}")
    add("")
    add(f"> **Generated file: do not edit by hand.** It is written by `{script}` "
        f"(which runs `s3fault gate` once per example {who} in `{role['examples']}`) and "
        f"`{renderer}` (which renders the reports); a test checks that it "
        "matches what they would write.")
    add("")
    add("To regenerate it:")
    add("")
    add("```sh")
    width = max(len(script), len("python3 " + renderer)) + 3
    add(f"{script:<{width}}# {role['gate_examples']}")
    add(f"{'python3 ' + renderer:<{width}}# render again from "
        f"{os.path.dirname(renderer)}/*.json")
    add("```")
    add("")
    add(f"{role['how']} Verdicts: "
        + "; ".join(f"{v} ({role['verdict_meaning'][v]})" for v in role["verdicts"])
        + ". Each scenario's expectation says which verdicts pass; a verdict that does not is "
        f"marked **bold** and {FAIL_MARK}. Every gate starts with the baseline on every shape. The full reports, with every run, are the JSON files "
        f"in [`{link_dir}/`]({link_dir}/).")
    add("")

    if not order:
        add(f"No reports found in `{link_dir}/`.")
        add("")

    # --- one section per reader ---
    summaries = {key: summary_of(readers[key][0], role) for key in order}
    if order:
        add(f"## {role['plural'].capitalize()}")
        add("")
    for key in order:
        report, meta = readers[key]
        summary = summaries[key]
        add(f"### {prose(display_name(key, meta))}")
        add("")
        add(f"- Report: [`{link_dir}/{key}.json`]({link_dir}/{key}.json)")
        reader_cmd = report.get(who) or meta.get(f"{who}_command")
        if reader_cmd:
            add(f"- {who.capitalize()}: {code(reader_cmd)}")
        client = client_text(meta)
        if client:
            add(f"- Client: {client}")
        if report.get("upstream"):
            add(f"- Upstream: {prose(report['upstream'])}")
        if report.get("timeout_seconds") is not None:
            add(f"- Timeout per run: {report['timeout_seconds']} s")
        if report.get("tool") or report.get("version"):
            gate = " ".join(str(x) for x in (report.get("tool"), report.get("version")) if x)
            add(f"- Gate: {code(gate)}")
        date = meta.get("date") or report.get("started_at")
        if date:
            add(f"- Date: {prose(date)}")
        add(f"- Result: {counts(report, role)}")
        status = exit_status_of(summary, meta)
        if status is not None:
            add(f"- Exit status: {status} ({exit_meaning(status, summary)})")
        if report.get("interrupted"):
            add("- Interrupted: yes (stopped before every run was made)")
        if report.get("error"):
            add(f"- Error: {prose(shorten(one_line(report['error'])))}")
        if meta.get("command"):
            add("- Command:")
            add("")
            add("  ```sh")
            add("  " + one_line(meta["command"]))
            add("  ```")
        add("")

    # --- the verdict table: scenarios (first report's order, then the rest) x readers ---
    scenarios = union(readers, order, "scenarios")
    for key in order:  # scenarios that only appear in runs
        for run in readers[key][0].get("runs", []):
            scenarios.setdefault(run.get("scenario"), {"name": run.get("scenario"),
                                                      "expectation": run.get("expectation", "")})
    shapes = union(readers, order, "shapes")
    runs_by = {key: {} for key in order}
    for key in order:
        for run in readers[key][0].get("runs", []):
            runs_by[key].setdefault(run.get("scenario"), []).append(run)

    if order and scenarios:
        add("## Verdicts by scenario")
        add("")
        add(f"Each cell counts the {who}'s verdicts over the object shapes of the scenario "
            f"({plural(len(shapes), 'shape')}, listed below).")
        add("")
        header = ["Scenario", "Expectation"] + [prose(display_name(k, readers[k][1]), True)
                                                for k in order]
        add("| " + " | ".join(header) + " |")
        add("|" + "|".join(["---"] * len(header)) + "|")
        for name, scenario in scenarios.items():
            row = [code(name, True), prose(scenario.get("expectation", ""), True)]
            row += [cell(runs_by[key].get(name, []), role) for key in order]
            add("| " + " | ".join(row) + " |")
        add("")
        totals = [f"{prose(display_name(k, readers[k][1]))}: {summaries[k]['passed']} of "
                  f"{plural(summaries[k]['runs'], 'run')} passed" for k in order]
        add("Totals: " + "; ".join(totals) + ".")
        add("")

        add("### Scenarios")
        add("")
        expectations = []
        for scenario in scenarios.values():
            e = scenario.get("expectation")
            if e and e not in expectations:
                expectations.append(e)
        meaning = role["expectation_meaning"]
        known = [e for e in expectations if e in meaning]
        if known:
            add("Expectations: " + "; ".join(f"{e} ({meaning[e]})" for e in known)
                + ". " + role["never_pass"])
            add("")
        for name, scenario in scenarios.items():
            item = f"- {code(name)}"
            title = scenario.get("description") or scenario.get("title")
            if title:
                item += f": {prose(title)}"
            if scenario.get("expectation"):
                item += f" (expectation: {prose(scenario['expectation'])})"
            add(item)
            if scenario.get("why"):
                add(f"  - {prose(scenario['why'])}")
            rules = scenario.get("rules") or []
            if rules:
                add("  - rules: " + ", ".join(code(r) for r in rules))
            else:
                add("  - rules: none")
        add("")

    if shapes:
        add("### Object shapes")
        add("")
        for name, shape in shapes.items():
            item = f"- {code(name)}"
            title = shape.get("description") or shape.get("title")
            if title:
                item += f": {prose(title)}"
            details = []
            if "size" in shape:
                details.append(plural(shape["size"], "byte"))
            parts = shape.get("parts") or []
            if parts:
                details.append(f"{plural(len(parts), 'part')} of "
                               + " + ".join(size_text(p) for p in parts))
            if details:
                item += " (" + ", ".join(details) + ")"
            add(item)
        add("")

    # --- every failing run, per reader ---
    for key in order:
        report, meta = readers[key]
        add(f"## Failing runs: {prose(display_name(key, meta))}")
        add("")
        runs = report.get("runs", [])
        bad = [r for r in runs if outcome_of(r) == "failed"]
        if not runs:
            status = exit_status_of(summaries[key], meta)
            add("No runs" + (f" (exit status {status}: {exit_meaning(status)})."
                             if status is not None else "."))
            add("")
            continue
        if not bad:
            add("Every run passed.")
            add("")
            continue
        for run in bad:
            item = (f"- {code(run.get('scenario', '?'))} × {code(run.get('shape', '?'))}: "
                    f"**{verdict_text(run.get('verdict', '?'), role=role)}**")
            why = one_line(run.get("why", ""))
            if why:
                item += f" — {prose(shorten(why))}"
            add(item)
            details = []
            if run.get("exit_code") is not None:
                details.append(f"exit code {run['exit_code']}")
            if not why and "expected_bytes" in run and "actual_bytes" in run:
                details.append(f"{run['actual_bytes']} of {plural(run['expected_bytes'], 'byte')}")
            details.append(f"traffic: {traffic_text(run.get('traffic'), role)}")
            if "open_uploads" in run:
                details.append(open_uploads_text(run["open_uploads"]))
            add("  - " + "; ".join(details))
            stderr = last_line(run.get(f"{who}_stderr_tail", ""))
            if stderr:
                add(f"  - stderr (last line): {code(shorten(one_line(stderr)))}")
        add("")

    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def main(role=READER, here=None):
    here = here or os.path.dirname(os.path.abspath(__file__))
    who = role["role"]
    parser = argparse.ArgumentParser(
        description=f"Render docs/{role['plural']}.md from the gate reports.")
    parser.add_argument("--results", default=here,
                        help=f"directory of <{who}>.json and <{who}>.meta.json "
                             "(default: %(default)s)")
    parser.add_argument("--output", help="markdown file to write (default: RESULTS.md)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 with a diff when the file differs")
    args = parser.parse_args()
    results = args.results.rstrip("/") or "/"
    output = args.output or results + ".md"
    if not os.path.isdir(results):
        print(f"{os.path.basename(role['renderer'])}: {results} is not a directory",
              file=sys.stderr)
        return 2
    text = render(results, output, role)

    return write_or_check(text, output, args.check, role["renderer"],
                          f"{role['script']} and {role['renderer']}")


if __name__ == "__main__":
    sys.exit(main())
