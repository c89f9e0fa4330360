#!/usr/bin/python3
"""Signs a table of varied S3 requests with botocore's own SigV4 signers and prints them as JSON
lines, one request per line, for sigv4_botocore_test.cpp to check our signer and verifier against.

botocore is the reference here: S3SigV4Auth (Authorization header) and S3SigV4QueryAuth
(presigned URLs), with the clock pinned the way botocore's own tests pin it (datetime patched in
botocore.auth). Paths are encoded the way botocore's REST serializer encodes an object key
(quote(key, safe='/~')); queries are written strictly encoded, as the serializer writes them.

Run with Debian's /usr/bin/python3 (python3-botocore). Exits non-zero if botocore is missing.
"""
import datetime
import json
import sys
from unittest import mock
from urllib.parse import quote, urlsplit

import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials

SIGNING_TIME = datetime.datetime(2024, 3, 15, 12, 34, 56)
EPOCH = int(SIGNING_TIME.replace(tzinfo=datetime.timezone.utc).timestamp())
ACCESS_KEY = "AKIDEXAMPLEFAULT"
SECRET_KEY = "s3fault/Secret+Key=Example0123456789abcdef"
TOKEN = "IQoJb3JpZ2luX2VjEHoaCXVzLWVhc3QtMSJHMEUCIQD+session/token=="
HOST = "s3fault-bucket.s3.us-east-1.amazonaws.com"


class FixedDatetime(datetime.datetime):
    """datetime with a pinned clock; strptime and friends still work."""

    @classmethod
    def utcnow(cls):
        return SIGNING_TIME

    @classmethod
    def now(cls, tz=None):
        if tz is None:
            return SIGNING_TIME
        return SIGNING_TIME.replace(tzinfo=datetime.timezone.utc).astimezone(tz)


class StreamingSignedAuth(botocore.auth.S3SigV4Auth):
    """S3SigV4Auth for aws-chunked uploads: the payload line is the STREAMING-* marker."""

    marker = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"

    def payload(self, request):
        return self.marker


class StreamingSignedTrailerAuth(StreamingSignedAuth):
    marker = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"


def key_path(bucket, key):
    """The request path botocore's serializer builds for a path-style bucket and key."""
    return "/" + bucket + "/" + quote(key, safe="/~")


# name, method, path, query, headers, body, options
HEADER_CASES = [
    ("get-simple", "GET", key_path("b", "key.txt"), "", [], "", {}),
    ("get-range", "GET", key_path("b", "data.bin"), "", [("Range", "bytes=0-9")], "", {}),
    ("head", "HEAD", key_path("b", "key.txt"), "", [], "", {}),
    ("put-body", "PUT", key_path("b", "hello.txt"), "",
     [("Content-Type", "text/plain"), ("Content-Length", "12")], "Hello, world", {}),
    ("delete", "DELETE", key_path("b", "gone.txt"), "", [], "", {}),
    ("key-space", "GET", key_path("b", "my file.txt"), "", [], "", {}),
    ("key-double-space", "GET", key_path("b", "a  b   c"), "", [], "", {}),
    ("key-unicode", "PUT", key_path("b", "r\u00e9sum\u00e9/\u65e5\u672c\u8a9e.txt"), "", [],
     "unicode body \u00e9", {}),
    ("key-plus", "GET", key_path("b", "a+b+c"), "", [], "", {}),
    ("key-equals", "GET", key_path("b", "k=v=w"), "", [], "", {}),
    ("key-tilde", "GET", key_path("b", "~user/~file~"), "", [], "", {}),
    ("key-percent", "GET", key_path("b", "100%/50%25"), "", [], "", {}),
    ("key-punctuation", "GET", key_path("b", "x!$&'()*,;:@ [].txt"), "", [], "", {}),
    ("key-dot-segments", "GET", key_path("b", "dir//sub/./../file"), "", [], "", {}),
    ("key-encoded-slash", "GET", "/b/a%2Fb", "", [], "", {}),
    ("bucket-root", "GET", "/b/", "", [], "", {}),
    ("query-list-v2", "GET", "/b", "list-type=2&prefix=photos%2F2024&delimiter=%2F&max-keys=100",
     [], "", {}),
    ("query-uploads-bare", "POST", key_path("b", "big.bin"), "uploads", [], "", {}),
    ("query-upload-part", "PUT", key_path("b", "big.bin"), "partNumber=3&uploadId=abc~def-123",
     [("Content-Length", "5")], "parts", {}),
    ("query-complete-upload", "POST", key_path("b", "big.bin"), "uploadId=abc~def-123",
     [("Content-Type", "application/xml")],
     "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part>"
     "</CompleteMultipartUpload>", {}),
    ("query-acl-bare", "GET", key_path("b", "key.txt"), "acl", [], "", {}),
    ("query-bare-and-value", "GET", key_path("b", "key.txt"),
     "versionId=3HL4kqtJlcpXroDTDmJ%2BrmSpXd3dIbrHY&tagging", [], "", {}),
    ("query-unicode-value", "GET", "/b", "prefix=%C3%A9t%C3%A9&encoding-type=url", [], "", {}),
    ("query-repeated-name", "GET", "/b", "a=2&a=1&b=", [], "", {}),
    ("query-empty-value", "POST", "/b", "delete=", [("Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg==")],
     "", {}),
    ("query-reserved-encoded", "GET", "/b", "prefix=a%2Bb%20c%3Dd%26e%25f", [], "", {}),
    ("headers-duplicated", "PUT", key_path("b", "meta.txt"), "",
     [("X-Amz-Meta-Tag", "one"), ("X-Amz-Meta-Tag", "two"), ("X-Amz-Meta-Tag", " three ")],
     "m", {}),
    ("headers-multi-space", "PUT", key_path("b", "meta.txt"), "",
     [("X-Amz-Meta-Note", "  several   inner    spaces  ")], "m", {}),
    ("headers-tab", "PUT", key_path("b", "meta.txt"), "", [("X-Amz-Meta-Tab", "a\tb \t c")],
     "m", {}),
    ("headers-empty-value", "PUT", key_path("b", "meta.txt"), "", [("X-Amz-Meta-Empty", "")],
     "m", {}),
    ("headers-mixed-case", "PUT", key_path("b", "meta.txt"), "",
     [("CONTENT-TYPE", "Application/Octet-Stream"), ("x-AMZ-meta-UPPER", "MiXeD")], "m", {}),
    ("headers-checksum", "PUT", key_path("b", "sum.txt"), "",
     [("x-amz-checksum-crc32c", "yZRlqg=="), ("x-amz-sdk-checksum-algorithm", "CRC32C")],
     "data", {}),
    ("unsigned-payload", "PUT", key_path("b", "unsigned.bin"), "", [("Content-Length", "8")],
     "unsigned", {"unsigned": True}),
    ("session-token", "GET", key_path("b", "key.txt"), "", [], "", {"token": True}),
    ("session-token-put", "PUT", key_path("b", "tok en.txt"), "uploadId=u1&partNumber=1", [],
     "body", {"token": True, "unsigned": True}),
    ("streaming-signed", "PUT", key_path("b", "chunked.bin"), "",
     [("Content-Encoding", "aws-chunked"), ("X-Amz-Decoded-Content-Length", "66560"),
      ("Content-Length", "66824")], "", {"streaming": StreamingSignedAuth}),
    ("streaming-signed-trailer", "PUT", key_path("b", "chunked.bin"), "",
     [("Content-Encoding", "aws-chunked"), ("X-Amz-Decoded-Content-Length", "66560"),
      ("X-Amz-Trailer", "x-amz-checksum-crc32c")], "", {"streaming": StreamingSignedTrailerAuth}),
    ("streaming-unsigned-trailer", "PUT", key_path("b", "chunked.bin"), "",
     [("Content-Encoding", "aws-chunked"), ("X-Amz-Decoded-Content-Length", "4"),
      ("X-Amz-Trailer", "x-amz-checksum-crc32")], "", {"trailer": True}),
    ("host-with-port", "GET", key_path("b", "key.txt"), "", [], "",
     {"host": "127.0.0.1:9000"}),
    ("region-eu-west-3", "GET", key_path("b", "key.txt"), "", [], "", {"region": "eu-west-3"}),
    ("date-header-only", "GET", key_path("b", "key.txt"), "", [("Date", "placeholder")], "",
     {"compare_sign": False}),
]

# name, method, path, query, expires, options
PRESIGN_CASES = [
    ("presign-get", "GET", key_path("b", "key.txt"), "", 3600, {}),
    ("presign-put-odd-key", "PUT", key_path("b", "r\u00e9p 1+1=2 ~%.txt"), "", 604800, {}),
    ("presign-upload-part", "PUT", key_path("b", "big.bin"), "partNumber=2&uploadId=u-1", 900,
     {}),
    ("presign-token", "GET", key_path("b", "key.txt"), "", 60, {"token": True}),
    ("presign-version", "GET", key_path("b", "key.txt"), "versionId=abc%2Bdef%2Fghi", 300, {}),
    ("presign-bare-param", "GET", key_path("b", "key.txt"), "acl", 120, {}),
    ("presign-region", "DELETE", key_path("b", "x y"), "", 1, {"region": "ap-southeast-2"}),
]


def credentials(options):
    return Credentials(ACCESS_KEY, SECRET_KEY, TOKEN if options.get("token") else None)


def sign_header_case(name, method, path, query, headers, body, options):
    host = options.get("host", HOST)
    region = options.get("region", "us-east-1")
    target = path + ("?" + query if query else "")
    # botocore hashes the body over http; over https it may leave it unsigned.
    scheme = "https" if options.get("unsigned") or options.get("trailer") else "http"
    request = AWSRequest(method=method, url=f"{scheme}://{host}{target}",
                         data=body.encode("utf-8"))
    request.headers["Host"] = host
    for header_name, value in headers:
        request.headers[header_name] = value  # HTTPHeaders appends: duplicates are kept
    if options.get("unsigned"):
        request.context["client_config"] = Config(s3={"payload_signing_enabled": False})
    if options.get("trailer"):
        request.context["checksum"] = {
            "request_algorithm": {"in": "trailer", "name": "x-amz-checksum-crc32"}}
    unsigned_headers = [[k, v] for k, v in request.headers.items()]
    signer_class = options.get("streaming", botocore.auth.S3SigV4Auth)
    signer_class(credentials(options), "s3", region).add_auth(request)
    return {
        "name": name,
        "kind": "header",
        "method": method,
        "target": target,
        "region": region,
        "session_token": TOKEN if options.get("token") else "",
        "body": body,
        "payload_hash": request.headers["X-Amz-Content-SHA256"],
        "unsigned_headers": unsigned_headers,
        "signed_headers": [[k, v] for k, v in request.headers.items()],
        "authorization": request.headers["Authorization"],
        "compare_sign": options.get("compare_sign", True),
    }


def sign_presign_case(name, method, path, query, expires, options):
    region = options.get("region", "us-east-1")
    target = path + ("?" + query if query else "")
    request = AWSRequest(method=method, url=f"https://{HOST}{target}")
    botocore.auth.S3SigV4QueryAuth(credentials(options), "s3", region, expires=expires).add_auth(
        request)
    parts = urlsplit(request.url)
    return {
        "name": name,
        "kind": "presign",
        "method": method,
        "host": HOST,
        "target": target,
        "region": region,
        "session_token": TOKEN if options.get("token") else "",
        "expires": expires,
        "presigned_target": parts.path + "?" + parts.query,
    }


def main():
    with mock.patch.object(botocore.auth.datetime, "datetime", FixedDatetime):
        lines = [sign_header_case(*case) for case in HEADER_CASES]
        lines += [sign_presign_case(*case) for case in PRESIGN_CASES]
    for line in lines:
        line.update({"access_key": ACCESS_KEY, "secret_key": SECRET_KEY, "epoch": EPOCH,
                     "botocore": botocore.__version__})
        print(json.dumps(line, ensure_ascii=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
