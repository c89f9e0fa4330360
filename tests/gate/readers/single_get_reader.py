#!/usr/bin/python3
"""Test reader for `s3fault gate`: the object in one GET (`Range: bytes=0-`), with two flaws
a test can point the gate at.

    single_get_reader.py                 waits for an answer as long as it takes (no response
                                         timeout, as several SDKs' default HTTP clients): a store
                                         that never answers hangs it
    single_get_reader.py --timeout S     gives up on an answer after S seconds and asks again
                                         (3 attempts in all)

Either way it takes any 416 for "the object is empty" without a look at the answer's body: it
passes every body fault on the empty object, whose GET answers 416 whatever the fault does to
that error body, so the gate must call those runs NOT_EXERCISED, never passes. On other objects
it writes what a 2xx answer carried.

Signs the request with botocore's SigV4 and reads the answer with http.client, so a cut or
garbled error body cannot get in the way of the status. Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET,
S3FAULT_KEY, S3FAULT_OUTPUT and the AWS_* keys the gate sets; exits 0 when it believes it read
the object, 1 otherwise.
"""

import argparse
import http.client
import os
import socket
import sys
import urllib.parse

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

ATTEMPTS = 3


def signed_headers(endpoint: str, path: str) -> dict:
    request = AWSRequest(method="GET", url=endpoint + path, headers={"Range": "bytes=0-"})
    credentials = Credentials(os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"])
    S3SigV4Auth(credentials, "s3", os.environ.get("AWS_REGION") or "us-east-1").add_auth(request)
    return dict(request.headers.items())


def get_once(endpoint: str, path: str, timeout: float | None) -> tuple[int, bytes]:
    where = urllib.parse.urlsplit(endpoint)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=timeout)
    try:
        connection.request("GET", path, headers=signed_headers(endpoint, path))
        answer = connection.getresponse()
        if answer.status == 416:
            return 416, b""  # its body is never read
        return answer.status, answer.read()
    finally:
        connection.close()


def main() -> int:
    options = argparse.ArgumentParser()
    options.add_argument("--timeout", type=float, default=None)
    timeout = options.parse_args().timeout
    endpoint = os.environ["S3FAULT_ENDPOINT"]
    path = "/" + urllib.parse.quote(os.environ["S3FAULT_BUCKET"]) + "/" + \
        urllib.parse.quote(os.environ["S3FAULT_KEY"], safe="/")
    for attempt in range(1, ATTEMPTS + 1):
        try:
            status, body = get_once(endpoint, path, timeout)
            break
        except socket.timeout:
            print(f"single_get_reader.py: no answer in {timeout} s (attempt {attempt})",
                  file=sys.stderr)
    else:
        return 1
    if status == 416:
        body = b""
    elif status // 100 != 2:
        print(f"single_get_reader.py: status {status}", file=sys.stderr)
        return 1
    with open(os.environ["S3FAULT_OUTPUT"], "wb") as out:
        out.write(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
