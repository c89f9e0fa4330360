#!/usr/bin/python3
"""Writes the seed corpora of the fuzz targets into corpus/<target>/ (run it again after
changing a seed here; the files are committed). Inputs of targets that read several fields use
libFuzzer's FuzzedDataProvider layout, which `Provided` below builds."""

import datetime
import hashlib
import sys
from pathlib import Path

import botocore.auth
import botocore.awsrequest
import botocore.credentials

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


class Provided:
    """Bytes laid out the way FuzzedDataProvider reads them: strings from the front (a
    backslash is doubled, a backslash + another byte ends the string), integers from the back."""

    def __init__(self):
        self.front = b""
        self.back = b""  # in the order the target consumes them

    def string(self, value):
        value = value.encode() if isinstance(value, str) else value
        self.front += value.replace(b"\\", b"\\\\") + b"\\E"
        return self

    def byte(self, value):
        self.back += bytes([value])
        return self

    def rest(self, value):
        value = value.encode() if isinstance(value, str) else value
        self.front += value
        return self

    def bytes(self):
        return self.front + self.back[::-1]


def fault_spec():
    return [
        "strip-header x-amz-mp-parts-count op=GetObject,HeadObject query=partNumber",
        "error SlowDown op=GetObject first=2 per-key",
        "truncate 50% mode=consistent op=GetObject part=2",
        "delay 200ms jitter=50ms p=0.3",
        "set-header x-amz-mp-parts-count 1 op=GetObject query=partNumber=1",
        "reset-after 1MiB key=*.parquet",
        "set-header x-note 'two words' name=note",
        "error InternalError error.status=503 status=5xx every=3 times=2",
        "corrupt offsets=0,7,1KiB header='x-amz-checksum-mode~^enabled$' bucket=data-*",
        "throttle 1MiB/s after=30s until=5m skip=1 disabled",
        "stall after=10 duration=1s match.key=a/\"b\\\\c\"",
        "forward-then-error SlowDown retry_after=2s method=PUT",
        "first-byte-delay 1s p=30%",
        "request-reset-after 10 op=PutObject,UploadPart",
    ]


def rule_file():
    seeds = []
    for path in sorted((REPO / "examples" / "faults").glob("*.yaml")):
        seeds.append(b"\x01" + path.read_bytes())
    seeds.append(b"\x02" + b'{"seed": 5, "rules": [{"name": "a", "match": {"operations": '
                 b'["GetObject"], "key": "k*", "part": "1-3"}, "schedule": {"first": 2}, '
                 b'"actions": [{"type": "truncate", "at": "50%", "mode": "consistent"}]}]}')
    seeds.append(b"\x00" + b'[{"actions": "error SlowDown", "enabled": false}]')
    seeds.append(b"\x01" + b"rules:\n  - actions: {hang: }\n    match: {status: [5xx, 404]}\n"
                 b"  - actions: [{strip-header: content-range}, 'delay 1s']\n")
    return seeds


def admin_api():
    def request(method_index, target, body):
        return (method_index, target, body)

    sequences = [
        [request(1, "/rules", '{"fault":"error SlowDown op=GetObject first=2 per-key name=s2"}'),
         request(0, "/rules/s2", ""), request(1, "/rules/s2/disable", "")],
        [request(2, "/rules", '{"rules":[{"actions":[{"truncate":[10,"close"]}]}], "seed": 3}'),
         request(3, "/rules/slow", ""), request(0, "/health", "")],
        [request(1, "/rules", '[{"name":"slow","actions":"reset"}]'),
         request(4, "/rules", ""), request(3, "/rules", ""), request(0, "/version", "")],
        [request(1, "/rules/slow/enable", ""), request(2, "/rules", "{not json")],
    ]
    seeds = []
    for sequence in sequences:
        provided = Provided()
        for method_index, target, body in sequence:
            provided.byte(method_index).string(target).string(body)
        seeds.append(provided.bytes())
    return seeds


def classify_request():
    cases = [
        ("GET", "", "", False, "/bucket/key?partNumber=1"),
        ("GET", "bucket.s3.example.test", "bytes=0-9", False, "/a%20b/c?versionId=x"),
        ("PUT", "s3.amazonaws.com", "", True, "/b/k"),
        ("PUT", "h", "", False, "/b/k?partNumber=3&uploadId=u"),
        ("POST", "b.localhost", "", False, "/?delete"),
        ("POST", "h", "", False, "/b/k?uploads"),
        ("GET", "h", "", False, "/b?list-type=2&prefix=a%2F&continuation-token=t"),
        ("HEAD", "b.s3.us-east-1.amazonaws.com:443", "", False, "/"),
        ("GET", "h", "", False, "/"),
        ("DELETE", "h", "", False, "/b/k?uploadId=u"),
    ]
    seeds = []
    for method, host, rng, copy_source, target in cases:
        seeds.append(Provided().string(method).string(host).string(rng)
                     .byte(1 if copy_source else 0).rest(target).bytes())
    return seeds


class SigningTime(datetime.datetime):
    """The fuzz target verifies at 2015-08-30T12:36:00Z; botocore signs at "now"."""

    @classmethod
    def utcnow(cls):
        return cls(2015, 8, 30, 12, 36, 0)


def signed(method, target, headers, presign=False):
    """A request signed by botocore with the target's key at its fixed time."""
    botocore.auth.datetime.datetime = SigningTime  # older botocore (Debian 12's)
    if hasattr(botocore.auth, "get_current_datetime"):  # newer botocore
        botocore.auth.get_current_datetime = lambda *args, **kwargs: SigningTime.utcnow()
    credentials = botocore.credentials.Credentials(
        "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "token" if presign else None)
    request = botocore.awsrequest.AWSRequest(method=method, url="http://h.test" + target,
                                             headers=headers)
    if presign:
        botocore.auth.S3SigV4QueryAuth(credentials, "s3", "us-east-1", expires=3600) \
            .add_auth(request)
    else:
        botocore.auth.S3SigV4Auth(credentials, "s3", "us-east-1").add_auth(request)
    prepared = request.prepare()
    wire_target = prepared.url[len("http://h.test"):]
    return method, wire_target, [("host", "h.test")] + list(prepared.headers.items())


def sigv4():
    requests = [
        signed("GET", "/b/k%20x?partNumber=1&a=b", {"x-amz-content-sha256": "UNSIGNED-PAYLOAD",
                                                    "Range": "bytes=0-9"}),
        signed("PUT", "/b/k", {"x-amz-content-sha256": hashlib.sha256(b"").hexdigest(),
                               "Content-Length": "0"}),
        signed("GET", "/b/k", {}, presign=True),
        ("GET", "/b/k", [("host", "h"), ("authorization", "AWS4-HMAC-SHA256 Credential=A/2/r/s3/"
                                         "aws4_request, SignedHeaders=host, Signature=00")]),
    ]
    seeds = []
    for method, target, headers in requests:
        provided = Provided().string(method).string(target).byte(len(headers))
        for name, value in headers:
            provided.string(name).string(value)
        seeds.append(provided.bytes())
    return seeds


def origin_xml():
    return [
        b'<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUpload xmlns="http://s3.amazonaws'
        b'.com/doc/2006-03-01/"><Part><PartNumber>1</PartNumber><ETag>"a54357aff0632cce46d942af68'
        b'356b38"</ETag><ChecksumCRC32>AAAAAA==</ChecksumCRC32></Part><Part><PartNumber>2'
        b'</PartNumber><ETag>0c78aef83f66abc1fa1e8477f296d394</ETag></Part>'
        b'</CompleteMultipartUpload>',
        b'<Delete><Quiet>true</Quiet><Object><Key>a/b</Key><VersionId>v</VersionId></Object>'
        b'<Object><Key>c&amp;d</Key></Object></Delete>',
        b'<CreateBucketConfiguration><LocationConstraint>eu-west-1</LocationConstraint>'
        b'</CreateBucketConfiguration>',
        b'<Delete><Object><Key></Key></Object></Delete>',
        b'<VersioningConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>'
        b'Enabled</Status></VersioningConfiguration>',
    ]


def aws_chunked():
    unsigned = b"5\r\nhello\r\n0\r\nx-amz-checksum-crc32:NhCmhg==\r\n\r\n"
    signed_body = (b"5;chunk-signature=" + b"0" * 64 + b"\r\nhello\r\n0;chunk-signature=" +
                   b"1" * 64 + b"\r\n\r\n")
    signed_trailer = (b"3;chunk-signature=" + b"0" * 64 + b"\r\nabc\r\n0;chunk-signature=" +
                      b"1" * 64 + b"\r\nx-amz-checksum-crc32c:AAAAAA==\r\nx-amz-trailer-signature:"
                      + b"2" * 64 + b"\r\n\r\n")
    return [
        Provided().byte(0).byte(1).byte(5).rest(unsigned).bytes(),
        Provided().byte(0).byte(0).byte(1).rest(b"a\r\n0123456789\r\n0\r\n\r\n").bytes(),
        Provided().byte(1).byte(0).byte(0).byte(7).rest(signed_body).bytes(),
        Provided().byte(1).byte(1).byte(1).byte(3).rest(signed_trailer).bytes(),
    ]


def exchange(rules, client, store, client_piece=255, store_piece=255):
    return bytes([rules, client_piece, store_piece, len(client) >> 8, len(client) & 0xFF]) + \
        client + store


def proxy_exchange():
    get = b"GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n"
    ok = b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\nETag: \"e\"\r\n\r\n0123456789"
    part = (b"HTTP/1.1 206 Partial Content\r\nContent-Length: 4\r\nContent-Range: bytes 0-3/10"
            b"\r\nx-amz-mp-parts-count: 3\r\n\r\nabcd")
    chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwxyz\r\n0\r\n\r\n"
    put = (b"PUT /b/k HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
           b"hello")
    put_chunked = (b"PUT /b/k?partNumber=2&uploadId=u HTTP/1.1\r\nHost: h\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
    slowdown = (b"HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: 37"
                b"\r\n\r\n<Error><Code>SlowDown</Code></Error>\n")
    chunked_error = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-MD5: x\r\n\r\n"
                     b"10\r\n<Error><Message>\r\n22\r\nm</Message><Resource>/b</Resource>\r\n"
                     b"9\r\n</Error>\n\r\n0\r\n\r\n")
    return [
        exchange(0, get, ok),
        exchange(2, get + get, ok + ok, 7, 3),
        exchange(1, b"GET /b/k?partNumber=1 HTTP/1.1\r\nHost: h\r\nRange: bytes=0-3\r\n\r\n",
                 part),
        exchange(4, get, chunked, 1, 1),
        exchange(0, put, b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
        exchange(10, put_chunked, b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
        exchange(7, get + b"HEAD /b/k HTTP/1.1\r\nHost: h\r\n\r\n", ok +
                 b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"),
        exchange(13, get, slowdown),
        exchange(3, get, b"HTTP/1.0 200 OK\r\n\r\nread until close"),
        exchange(8, b"DELETE /b/k HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
                 b"HTTP/1.1 204 No Content\r\n\r\n"),
        exchange(0, b"GET /b/k HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", b""),
        exchange(5, get, b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123"),
        # Document actions: the store's whole body read before the head goes out.
        exchange(15, get + get, slowdown + chunked_error, 7, 5),
        exchange(16, get, chunked_error.replace(b"200 OK", b"404 Not Found"), 255, 3),
        exchange(17, b"HEAD /b/k HTTP/1.1\r\nHost: h\r\n\r\n" + get,
                 b"HTTP/1.1 404 Not Found\r\nContent-Length: 37\r\n\r\n" +
                 b"HTTP/1.1 404 Not Found\r\n\r\n<Error><Resource>/b/k</Resource></Error>"),
    ]


def response_head():
    get = (b"HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 4096\r\nConnection: keep-alive"
           b"\r\nETag: \"e\"\r\nx-amz-mp-parts-count: 3\r\n\r\nbody")
    return [
        b"\x00" + get,
        b"\x01" + get,
        b"\x02HTTP/1.1 204 No Content\r\nConnection: close\r\nx-amz-id-2: a b\r\n\r\n",
        b"\x00HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n",
        b"\x00HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
        b"\x03HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    ]


TARGETS = {
    "fault_spec": fault_spec,
    "rule_file": rule_file,
    "admin_api": admin_api,
    "classify_request": classify_request,
    "sigv4": sigv4,
    "origin_xml": origin_xml,
    "aws_chunked": aws_chunked,
    "proxy_exchange": proxy_exchange,
    "response_head": response_head,
}


def main():
    for name, make in TARGETS.items():
        folder = HERE / "corpus" / name
        # Keep regression inputs (crash-*, named by what they found); remake the seeds.
        for old in folder.glob("seed-*"):
            old.unlink()
        folder.mkdir(parents=True, exist_ok=True)
        for index, seed in enumerate(make()):
            data = seed.encode() if isinstance(seed, str) else seed
            (folder / f"seed-{index:02d}").write_bytes(data)
        print(f"{name}: {len(list(folder.iterdir()))} inputs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
