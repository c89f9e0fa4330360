#!/usr/bin/python3
"""Writer for `s3fault gate --writer`: boto3's managed upload, `S3.Client.upload_file`.

Above its multipart threshold (8 MiB by default) s3transfer makes a CreateMultipartUpload,
UploadParts of 8 MiB on up to 10 threads and a CompleteMultipartUpload; botocore retries a
Complete answered 200 with an Error body. Uses Debian's /usr/bin/python3 (python3-boto3).

Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_INPUT, AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION; uploads the file $S3FAULT_INPUT to
s3://$S3FAULT_BUCKET/$S3FAULT_KEY; exits 0 when boto3 says it succeeded, non-zero (an uncaught
exception: 1) otherwise. By hand, against `s3fault origin --listen 127.0.0.1:9000`:

    S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
    S3FAULT_INPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
    AWS_REGION=us-east-1 examples/writers/boto3-upload-file.py

No configuration file is read and no proxy is used; retries are botocore's defaults on purpose.
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
s3.upload_file(os.environ["S3FAULT_INPUT"], os.environ["S3FAULT_BUCKET"],
               os.environ["S3FAULT_KEY"])
