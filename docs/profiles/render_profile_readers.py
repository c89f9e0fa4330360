#!/usr/bin/env python3
"""Renders docs/profiles/readers.md: the gate's example readers against real Ceph RGW beside the
same readers against `s3fault origin` behind `s3fault proxy --profile rgw-16.2`.

    python3 docs/profiles/render_profile_readers.py [--check]

Reads the gate reports that tests/gate/gate-profile.sh writes in docs/profiles/readers-rgw/,
docs/profiles/readers-rgw-16.2/ and docs/profiles/readers-origin/ (<reader>.json and
<reader>.meta.json) and writes, per reader, how many runs got the same verdict and outcome on RGW
and behind the profile, every run where they differ or that only one side has, and the runs where
the plain origin (no profile) differs from RGW: what the profile had to reproduce. --check writes nothing: exits 1 with a diff when the file differs from what
would be written. The output depends only on the files read. Standard library only.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from render_support import write_or_check  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "readers-rgw")
PROFILED = os.path.join(HERE, "readers-rgw-16.2")
PLAIN = os.path.join(HERE, "readers-origin")
OUTPUT = os.path.join(HERE, "readers.md")
ORDER = ["aws-cli", "boto3-download-file", "boto3-naive-parts", "rclone", "s3cmd", "aws-sdk-js",
         "minio-js"]
OUTCOMES = ["passed", "failed", "not_exercised", "not_judged"]


def load(directory: str) -> dict:
    """{reader: (report, meta)} for every <reader>.json in `directory` (none when it is absent)."""
    reports = {}
    if not os.path.isdir(directory):
        return reports
    for name in sorted(os.listdir(directory)):
        if name.endswith(".json") and not name.endswith(".meta.json"):
            key = name[:-len(".json")]
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                report = json.load(f)
            with open(os.path.join(directory, key + ".meta.json"), encoding="utf-8") as f:
                meta = json.load(f)
            reports[key] = (report, meta)
    return reports


def runs(report: dict) -> dict:
    return {(r["scenario"], r["shape"]): r for r in report["runs"]}


def judged(run: dict) -> tuple:
    """What must match for a run to count as the same on both stores."""
    return (run["verdict"], run["outcome"])


def cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def counts(report: dict) -> str:
    summary = report["summary"]
    return " / ".join(str(summary.get(k, 0)) for k in OUTCOMES)


def describe(run: dict) -> str:
    return f"{run['verdict']}, {run['outcome'].replace('_', ' ')}"


def plain_section(ours: dict, theirs: dict, plain) -> tuple:
    """(the summary's "without the profile" cell, lines) for the runs where the plain origin's
    verdict or outcome differs from RGW's, and whether the profile's matches RGW's there."""
    if plain is None:
        return "(not gated)", []
    bare, meta = runs(plain[0]), plain[1]
    command = [f"- plain origin: `{meta['command']}` ({meta['date']}, gate exit "
               f"{meta['gate_exit_status']})", ""]
    differ = [k for k in ours if k in bare and judged(ours[k]) != judged(bare[k])]
    if not differ:
        return "0", command + ["Without the profile, the plain origin gives every run RGW's "
                               "verdict and outcome.", ""]
    matched = [k for k in differ if k in theirs and judged(theirs[k]) == judged(ours[k])]
    runs_differ = "1 run differs" if len(differ) == 1 else f"{len(differ)} runs differ"
    lines = command + [
             f"Without the profile, {runs_differ} from RGW; behind the profile, "
             f"{len(matched)} of them match RGW:", "",
             "| scenario | shape | on RGW | plain origin | behind rgw-16.2 |", "|---|---|---|---|---|"]
    for k in differ:
        behind = describe(theirs[k]) if k in theirs else "(not run)"
        mark = "" if k in matched else " ✗"
        lines.append(f"| `{k[0]}` | `{k[1]}` | {describe(ours[k])} | {describe(bare[k])} | "
                     f"{behind}{mark} |")
    return str(len(differ)), lines + [""]


def reader_section(key: str, real: tuple, profiled: tuple, plain) -> tuple:
    """(the summary table's row, the reader's section) for one reader gated on both stores;
    `plain` is its report against the plain origin, or None."""
    (report, meta), (other, other_meta) = real, profiled
    ours, theirs = runs(report), runs(other)
    both = [k for k in ours if k in theirs]
    differ = [k for k in both if judged(ours[k]) != judged(theirs[k])]
    missing = sorted(set(ours) ^ set(theirs))
    plain_cell, plain_lines = plain_section(ours, theirs, plain)
    row = (f"| `{key}` | {cell(meta['client_version'])} | {len(both)} | "
           f"{len(both) - len(differ)} | {len(differ) + len(missing)} | {plain_cell} | "
           f"{counts(report)} | {counts(other)} |")
    section = [f"## `{key}`", "",
               f"- RGW: `{meta['command']}` ({meta['date']}, gate exit "
               f"{meta['gate_exit_status']})",
               f"- behind rgw-16.2: `{other_meta['command']}` ({other_meta['date']}, gate exit "
               f"{other_meta['gate_exit_status']})", ""]
    if not differ and not missing:
        section.append("Every run got the same verdict and outcome on RGW and behind the profile.")
    else:
        section.append("| scenario | shape | on RGW | behind rgw-16.2 | why (RGW) | why (behind) |")
        section.append("|---|---|---|---|---|---|")
        for k in differ:
            section.append(f"| `{k[0]}` | `{k[1]}` | {describe(ours[k])} | "
                           f"{describe(theirs[k])} | {cell(ours[k]['why'])} | "
                           f"{cell(theirs[k]['why'])} |")
        for k in missing:
            where = ("run on RGW only" if k in ours else "run behind the profile only")
            section.append(f"| `{k[0]}` | `{k[1]}` | {where} | | | |")
    section.append("")
    return row, section + plain_lines


def render(real_dir: str = REAL, profiled_dir: str = PROFILED, plain_dir: str = PLAIN) -> str:
    real, profiled, plain = load(real_dir), load(profiled_dir), load(plain_dir)
    names = set(real) | set(profiled)
    keys = [k for k in ORDER if k in names] + sorted(k for k in names if k not in ORDER)
    lines = [
        "<!-- Generated by tests/gate/gate-profile.sh and docs/profiles/render_profile_readers.py:"
        " do not edit by hand. -->",
        "",
        "# The example readers against Ceph RGW and against the origin behind `--profile rgw-16.2`",
        "",
        "> **Generated file: do not edit by hand.** `tests/gate/gate-profile.sh` gates every "
        "example reader of `examples/readers/` twice, with `s3fault gate --upstream`: against the "
        "Ceph RGW that `tests/stores/start-rgw.sh` starts, and against `s3fault origin` behind "
        "`s3fault proxy --profile rgw-16.2`. A profile that imitates a store should leave each "
        "reader's verdicts as the store does; every run whose verdict or outcome differs, or that "
        "only one side has, is listed below. The readers are also gated against the plain "
        "origin, without the profile: the runs where it differs from RGW are what the profile "
        "had to reproduce (✗: the profile did not).",
        "",
        "Columns: runs gated on both; how many got the same verdict and outcome on RGW and behind "
        "the profile; how many differ (or ran on one side only); how many differ between RGW and "
        "the plain origin; the outcomes on RGW and behind the profile, as passed / failed / not "
        "exercised / not judged.",
        "",
        "| reader | client | runs on both | same | differ | differ without the profile | on RGW "
        "| behind rgw-16.2 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    details = []
    for key in keys:
        if key not in real or key not in profiled:
            report, meta = real.get(key) or profiled[key]
            side = "only on RGW" if key in real else "only behind the profile"
            lines.append(f"| `{key}` | {cell(meta['client_version'])} | 0 | | "
                         f"(gated {side}) | | | |")
            continue
        row, section = reader_section(key, real[key], profiled[key], plain.get(key))
        lines.append(row)
        details.extend(section)
    return "\n".join(lines + [""] + details).rstrip("\n") + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    return write_or_check(render(), OUTPUT, args.check, "docs/profiles/render_profile_readers.py",
                          "tests/gate/gate-profile.sh and docs/profiles/render_profile_readers.py")


if __name__ == "__main__":
    sys.exit(main())
