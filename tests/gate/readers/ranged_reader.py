#!/usr/bin/python3
"""Test reader for `s3fault gate`: reads an object by parallel byte ranges with boto3.

    ranged_reader.py --trust     HEAD for the size, then 4 MiB ranges on 4 threads, each body
                                 written at its offset as the store framed it: it never compares
                                 a body with the range it asked for or with the total. The gate
                                 must judge it SILENT_CORRUPTION.
    ranged_reader.py --checked   the same reads, each checked: 206, Content-Range (when sent) is
                                 exactly the range asked for, the body is exactly that long, every
                                 GET guarded by If-Match; a read that fails a check is retried (4
                                 attempts). At the end the object's ETag is recomputed (MD5, or the
                                 multipart form with part sizes from HEAD ?partNumber=N). The gate
                                 must pass it.

Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_OUTPUT and the AWS_* keys the gate
sets; exits 0 when it believes it read the object, 1 with a message on stderr otherwise.
"""

import hashlib
import os
import sys
from concurrent.futures import ThreadPoolExecutor

for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "AWS_PROFILE",
             "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE", "AWS_ENDPOINT_URL"):
    os.environ.pop(name, None)
os.environ.update(AWS_CONFIG_FILE="/dev/null", AWS_SHARED_CREDENTIALS_FILE="/dev/null")

import boto3  # noqa: E402
from botocore.config import Config  # noqa: E402

RANGE = 4 * 1024 * 1024
ATTEMPTS = 4


class CheckFailed(Exception):
    pass


def client():
    return boto3.client(
        "s3", endpoint_url=os.environ["S3FAULT_ENDPOINT"],
        region_name=os.environ.get("AWS_REGION") or "us-east-1",
        aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
        config=Config(s3={"addressing_style": "path"}, max_pool_connections=8,
                      read_timeout=20, retries={"max_attempts": 3, "mode": "standard"}))


def read_range(s3, bucket, key, first, last, size, etag, checked):
    """The body of bytes=first-last; checked: exactly that range or CheckFailed."""
    extra = {"IfMatch": etag} if checked else {}
    answer = s3.get_object(Bucket=bucket, Key=key, Range=f"bytes={first}-{last}", **extra)
    body = answer["Body"].read()
    if not checked:
        return body
    status = answer["ResponseMetadata"]["HTTPStatusCode"]
    if status != 206:
        raise CheckFailed(f"bytes={first}-{last}: status {status}, not 206")
    content_range = answer.get("ContentRange")
    if content_range is not None and content_range != f"bytes {first}-{last}/{size}":
        raise CheckFailed(f"bytes={first}-{last}: Content-Range {content_range!r}")
    if len(body) != last - first + 1:
        raise CheckFailed(f"bytes={first}-{last}: {len(body)} bytes")
    return body


def read_checked(s3, bucket, key, first, last, size, etag):
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return read_range(s3, bucket, key, first, last, size, etag, True)
        except Exception as failure:  # noqa: BLE001 - any failed read is retried, then reported
            if "PreconditionFailed" in str(failure) or attempt == ATTEMPTS:
                raise CheckFailed(f"bytes={first}-{last}, attempt {attempt}: {failure}")


def read_trusting(s3, bucket, key, first, last, size, etag):
    return read_range(s3, bucket, key, first, last, size, etag, False)


def expected_etag(s3, bucket, key, etag, data):
    """The ETag `data` should have: MD5, or MD5 of the parts' MD5s with the sizes from HEAD."""
    if "-" not in etag:
        return hashlib.md5(data).hexdigest()
    parts = int(etag.split("-")[1])
    digests, offset = b"", 0
    for number in range(1, parts + 1):
        length = s3.head_object(Bucket=bucket, Key=key, PartNumber=number)["ContentLength"]
        digests += hashlib.md5(data[offset:offset + length]).digest()
        offset += length
    if offset != len(data):
        raise CheckFailed(f"the parts add up to {offset} bytes, the object has {len(data)}")
    return f"{hashlib.md5(digests).hexdigest()}-{parts}"


def main():
    checked = sys.argv[1:] == ["--checked"]
    if not checked and sys.argv[1:] != ["--trust"]:
        sys.exit("usage: ranged_reader.py --trust | --checked")
    bucket, key, output = (os.environ[n] for n in ("S3FAULT_BUCKET", "S3FAULT_KEY",
                                                   "S3FAULT_OUTPUT"))
    s3 = client()
    head = s3.head_object(Bucket=bucket, Key=key)
    size, etag = head["ContentLength"], head["ETag"].strip('"')
    ranges = [(first, min(first + RANGE, size) - 1) for first in range(0, size, RANGE)]
    read = read_checked if checked else read_trusting
    with ThreadPoolExecutor(4) as pool:
        bodies = list(pool.map(lambda r: read(s3, bucket, key, r[0], r[1], size, etag), ranges))
    with open(output, "wb") as out:
        for (first, _), body in zip(ranges, bodies):
            out.seek(first)
            out.write(body)
    if checked:
        with open(output, "rb") as f:
            data = f.read()
        if len(data) != size or expected_etag(s3, bucket, key, etag, data) != etag:
            raise CheckFailed(f"the object read does not match its ETag {etag}")


if __name__ == "__main__":
    try:
        main()
    except CheckFailed as failure:
        sys.exit(f"ranged_reader.py: {failure}")
