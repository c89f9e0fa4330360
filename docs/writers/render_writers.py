#!/usr/bin/env python3
"""Renders docs/writers.md from the gate reports in docs/writers/.

    python3 docs/writers/render_writers.py [--results DIR] [--output FILE] [--check]

The same document as docs/readers.md (docs/readers/render_readers.py renders both), for the
example writers gated by tests/gate/gate-writers.sh: DIR/<writer>.json (`s3fault gate --writer`
reports) and DIR/<writer>.meta.json, in the order of examples/writers/ (aws-cli,
boto3-upload-file, boto3-naive, rclone, s3cmd, aws-sdk-js, minio-js), then the built-in writers,
then any others alphabetically. Verdicts: STORED, REJECTED, SILENT_LOSS, TORN, HUNG,
NOT_EXERCISED, NOT_JUDGED; failing runs list the open uploads the writer left.
Defaults: DIR is the directory of this script, FILE is DIR.md (docs/writers.md).
--check writes nothing: exits 1 and prints a diff when FILE differs from what would be written.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "readers"))
import render_readers  # noqa: E402

if __name__ == "__main__":
    sys.exit(render_readers.main(render_readers.WRITER,
                                 os.path.dirname(os.path.abspath(__file__))))
