#!/usr/bin/python3
"""Test writer for `s3fault gate --writer`: boto3's upload_file in 5 MiB parts, one request at a
time, with one flaw a test can point the gate at.

    multipart_writer.py                 waits for an answer up to an hour (as a client without a
                                        response timeout: aws-sdk-go-v2's Uploader waited past
                                        100 s): a store that never answers hangs it, and a hung
                                        part leaves its multipart upload open
    multipart_writer.py --timeout S     gives up on an answer after S seconds and sends the
                                        request again (botocore's standard retries)

Objects under 5 MiB go in one PutObject. Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY,
S3FAULT_INPUT and the AWS_* keys the gate sets; exits 0 when boto3 says the upload succeeded.
"""

import argparse
import os

for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
             "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE",
             "AWS_ENDPOINT_URL"):
    os.environ.pop(name, None)
os.environ.update(AWS_CONFIG_FILE="/dev/null", AWS_SHARED_CREDENTIALS_FILE="/dev/null",
                  AWS_EC2_METADATA_DISABLED="true")

import boto3  # noqa: E402
from boto3.s3.transfer import TransferConfig  # noqa: E402
from botocore.config import Config  # noqa: E402

MIB = 1024 * 1024

parser = argparse.ArgumentParser()
parser.add_argument("--timeout", type=float, default=3600,
                    help="seconds to wait for an answer before sending the request again")
timeout = parser.parse_args().timeout

s3 = boto3.client(
    "s3",
    endpoint_url=os.environ["S3FAULT_ENDPOINT"],
    region_name=os.environ.get("AWS_REGION") or "us-east-1",
    aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
    aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
    config=Config(s3={"addressing_style": "path"}, read_timeout=timeout,
                  retries={"mode": "standard", "max_attempts": 3}),
)
s3.upload_file(os.environ["S3FAULT_INPUT"], os.environ["S3FAULT_BUCKET"],
               os.environ["S3FAULT_KEY"],
               Config=TransferConfig(multipart_threshold=5 * MIB, multipart_chunksize=5 * MIB,
                                     max_concurrency=1, use_threads=False))
