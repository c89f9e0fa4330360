#!/usr/bin/python3
"""Writer for `s3fault gate --writer`: a deliberately naive multipart uploader, to show the
failure the gate exists to catch.

It uploads the input in 5 MiB parts (one PutObject when smaller) with no retries, and takes
CompleteMultipartUpload's 200 status as success without reading its body: botocore's check for
"200 OK with an Error body" is switched off, so a Complete that failed with 200 is reported as an
upload that succeeded, while the store holds nothing under the key.

Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_INPUT, AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION; exits 0 when it believes the upload
succeeded, 1 on an error it saw. Uses Debian's /usr/bin/python3 (python3-boto3).
"""

import os

for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
             "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE",
             "AWS_ENDPOINT_URL"):
    os.environ.pop(name, None)
os.environ.update(AWS_CONFIG_FILE="/dev/null", AWS_SHARED_CREDENTIALS_FILE="/dev/null",
                  AWS_EC2_METADATA_DISABLED="true")

import boto3  # noqa: E402
import botocore.handlers  # noqa: E402
from botocore.config import Config  # noqa: E402

PART = 5 * 1024 * 1024

s3 = boto3.client(
    "s3",
    endpoint_url=os.environ["S3FAULT_ENDPOINT"],
    region_name=os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1",
    aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
    aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
    # Debian's botocore 1.29 counts max_attempts as retries; total_max_attempts is the total.
    config=Config(s3={"addressing_style": "path"}, retries={"total_max_attempts": 1}),
)
# The naive part: a 200 is success, whatever the body says.
s3.meta.events.unregister("needs-retry.s3.CompleteMultipartUpload",
                          botocore.handlers.check_for_200_error)

bucket, key = os.environ["S3FAULT_BUCKET"], os.environ["S3FAULT_KEY"]
with open(os.environ["S3FAULT_INPUT"], "rb") as f:
    data = f.read()
if len(data) <= PART:
    s3.put_object(Bucket=bucket, Key=key, Body=data)
else:
    upload = s3.create_multipart_upload(Bucket=bucket, Key=key)["UploadId"]
    parts = []
    for number, offset in enumerate(range(0, len(data), PART), start=1):
        answer = s3.upload_part(Bucket=bucket, Key=key, UploadId=upload, PartNumber=number,
                                Body=data[offset:offset + PART])
        parts.append({"PartNumber": number, "ETag": answer["ETag"]})
    s3.complete_multipart_upload(Bucket=bucket, Key=key, UploadId=upload,
                                 MultipartUpload={"Parts": parts})
