#!/usr/bin/python3
"""Reader for `s3fault gate`: boto3's managed download, `S3.Client.download_file`.

For an object above its multipart threshold (8 MiB by default) s3transfer makes a HeadObject, then
ranged GetObjects of 8 MiB on up to 10 threads, into a temporary file renamed to the output at
the end. Uses Debian's /usr/bin/python3 (python3-boto3).

    s3fault gate --reader examples/readers/boto3-download-file.py

Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_OUTPUT, AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); writes the
object to $S3FAULT_OUTPUT; exits 0 on success, non-zero (an uncaught exception: 1) on any error.
By hand, against `s3fault origin --listen 127.0.0.1:9000`:

    S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
    S3FAULT_OUTPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
    AWS_REGION=us-east-1 examples/readers/boto3-download-file.py

No configuration file is read and no proxy is used; retries are botocore's defaults on purpose
(the gate shows how the real client behaves, retries included).
"""

import os

# Before boto3 reads its configuration: only the given endpoint, no files from the machine.
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
s3.download_file(os.environ["S3FAULT_BUCKET"], os.environ["S3FAULT_KEY"],
                 os.environ["S3FAULT_OUTPUT"])
