#!/usr/bin/python3
"""Reader for `s3fault gate`: a hand-written part-wise download with boto3 - and a deliberately
NAIVE one, the kind the gate exists to catch.

Algorithm: GetObject with PartNumber=1; take the part count from its x-amz-mp-parts-count header
(boto3: `PartsCount`) and, when that header is missing, assume the object has a single part; then
GetObject parts 2..N and concatenate them in order. Uses Debian's /usr/bin/python3 (python3-boto3).

THE BUG: a store that omits x-amz-mp-parts-count (RustFS did; `s3fault proxy --preset
rustfs-parts-count` strips it) makes a multipart object look like a one-part object, so this
reader writes only part 1 - the first 8 MiB of a 20 MiB object - and still exits 0: silent
truncation. A robust reader checks what it got against the object's size (Content-Range of part 1
says "bytes 0-N/TOTAL"), or falls back to ranged GETs when the part count is missing.

    s3fault gate --reader examples/readers/boto3-naive-parts.py     # expect SILENT_CORRUPTION

Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_OUTPUT, AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); writes the
object to $S3FAULT_OUTPUT; exits 0 when it believes it succeeded, non-zero (an uncaught exception:
1) on any error it notices. By hand, against `s3fault origin --listen 127.0.0.1:9000`:

    S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
    S3FAULT_OUTPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
    AWS_REGION=us-east-1 examples/readers/boto3-naive-parts.py

No configuration file is read and no proxy is used; retries are botocore's defaults.
"""

import os
import shutil

for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
             "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE",
             "AWS_ENDPOINT_URL"):
    os.environ.pop(name, None)
os.environ.update(AWS_CONFIG_FILE="/dev/null", AWS_SHARED_CREDENTIALS_FILE="/dev/null",
                  AWS_EC2_METADATA_DISABLED="true")

import boto3  # noqa: E402
from botocore.config import Config  # noqa: E402

s3 = boto3.client(
    "s3",
    endpoint_url=os.environ["S3FAULT_ENDPOINT"],
    region_name=os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1",
    aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
    aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
    config=Config(s3={"addressing_style": "path"}),
)
bucket, key = os.environ["S3FAULT_BUCKET"], os.environ["S3FAULT_KEY"]

with open(os.environ["S3FAULT_OUTPUT"], "wb") as out:
    first = s3.get_object(Bucket=bucket, Key=key, PartNumber=1)
    parts = first.get("PartsCount", 1)  # the naive part: no header -> "one part"
    shutil.copyfileobj(first["Body"], out, 1024 * 1024)
    for number in range(2, parts + 1):
        part = s3.get_object(Bucket=bucket, Key=key, PartNumber=number)
        shutil.copyfileobj(part["Body"], out, 1024 * 1024)
