"""`?partNumber=N` reads on `s3fault origin`, seen as raw HTTP, directly and through the proxy.

The aws cli uploads a 20 MiB random object in 8 MiB parts (3 parts: 8 + 8 + 4 MiB). Then
requests signed with botocore's SigV4 signer and sent with http.client (so every status line and
header is seen as sent) check the contract of docs/contract.md ("partNumber"):

    HEAD                         200, ETag "md5(part md5s)-3", no x-amz-mp-parts-count
    GET                          200, the whole object, no x-amz-mp-parts-count
    GET  ?partNumber=1..3        206, Content-Range bytes S-E/20971520, x-amz-mp-parts-count: 3,
                                 the whole object's ETag; the three bodies reassemble the object
    HEAD ?partNumber=1           206, the same headers as the GET, no body
    GET  ?partNumber=4           416 InvalidPartNumber
    GET  ?partNumber=1 + Range   400 InvalidRequest
    GET  signed with a wrong secret  403 SignatureDoesNotMatch (the origin really verifies SigV4)

test_through_proxy makes the same requests (signed for the proxy's address) through
`s3fault proxy` and also requires every answer to equal the direct one, apart from per-response
values (Date, x-amz-request-id, x-amz-id-2, connection management, error bodies' RequestId).
"""

import hashlib
import re

import harness
from harness import MIB, RawResponse

OBJECT_SIZE = 20 * MIB
PART_SIZE = 8 * MIB
PART_SPANS = [(0, 8 * MIB - 1), (8 * MIB, 16 * MIB - 1), (16 * MIB, 20 * MIB - 1)]
KEY = "parts/object-20MiB.bin"

# Header fields whose values belong to one response (or one connection), not to the object.
PER_RESPONSE_HEADERS = {"date", "x-amz-request-id", "x-amz-id-2", "connection", "keep-alive"}


class OriginPartNumbersTest(harness.OriginTestCase):
    def setUp(self):
        super().setUp()
        self.origin = self.start_origin()
        self.bucket = self.new_bucket_name("parts", self.origin)
        source = self.tmp / "upload.bin"
        self.source_sha = harness.make_random_file(source, OBJECT_SIZE)
        self.source_etag = harness.multipart_etag(source, PART_SIZE)
        self.source = source.read_bytes()
        cli = harness.AwsCli(self.origin.endpoint, self.origin, self.tmp / "aws", multipart_mib=8)
        cli.run("s3", "mb", f"s3://{self.bucket}")
        cli.run("s3", "cp", "--only-show-errors", str(source), f"s3://{self.bucket}/{KEY}")
        self.path = f"/{self.bucket}/{KEY}"

    # ---- helpers ------------------------------------------------------------------------------

    def assert_response(self, label: str, response: RawResponse, status: int,
                        headers: dict[str, str] = None, absent: tuple[str, ...] = (),
                        error_code: str = None, body_sha: str = None) -> None:
        """Fails with every mismatch of one response at once, and the response itself."""
        problems = []
        if response.status != status:
            problems.append(f"status {response.status}, expected {status}")
        for name, expected in (headers or {}).items():
            actual = response.header(name)
            if actual != expected:
                problems.append(f"{name}: {actual!r}, expected {expected!r}")
        for name in absent:
            if response.header(name) is not None:
                problems.append(f"{name}: {response.header(name)!r}, expected no such header")
        if error_code is not None and response.error_code() != error_code:
            problems.append(f"error code {response.error_code()!r}, expected {error_code!r}")
        if body_sha is not None and hashlib.sha256(response.body).hexdigest() != body_sha:
            problems.append(f"body ({len(response.body)} bytes) differs from the expected bytes")
        if problems:
            self.fail(f"{label}: " + "; ".join(problems) + "\n" + response.describe())

    def check_part_reads(self, endpoint: str, where: str) -> dict[str, RawResponse]:
        """Makes every request of the module docstring against endpoint, checks each answer
        (one subTest per request, so one run reports every deviation) and returns them by
        name."""
        responses: dict[str, RawResponse] = {}

        def send(name: str, method: str, query: str = "", headers: dict = None,
                 secret_key: str = None) -> RawResponse:
            response = harness.signed_raw_request(endpoint, self.origin, method, self.path,
                                                  query, headers, secret_key)
            responses[name] = response
            return response

        head = send("HEAD", "HEAD")
        etag = head.header("ETag")
        with self.subTest(where=where, request="HEAD"):
            self.assertRegex(etag or "", r'^"[0-9a-f]{32}-3"$',
                             f"HEAD ETag is not that of a 3-part upload\n{head.describe()}")
            self.assertEqual(etag, self.source_etag,
                             f"HEAD ETag is not md5(part md5s)-3\n{head.describe()}")
            self.assert_response(f"{where} HEAD", head, 200,
                                 {"Content-Length": str(OBJECT_SIZE)},
                                 absent=("x-amz-mp-parts-count",),
                                 body_sha=hashlib.sha256().hexdigest())

        with self.subTest(where=where, request="GET"):
            self.assert_response(f"{where} GET", send("GET", "GET"), 200,
                                 {"Content-Length": str(OBJECT_SIZE), "ETag": etag},
                                 absent=("x-amz-mp-parts-count", "Content-Range"),
                                 body_sha=self.source_sha)

        reassembled = hashlib.sha256()
        for number, (start, end) in enumerate(PART_SPANS, start=1):
            part = self.source[start:end + 1]
            response = send(f"GET partNumber={number}", "GET", f"partNumber={number}")
            reassembled.update(response.body)
            with self.subTest(where=where, request=f"GET ?partNumber={number}"):
                self.assert_response(
                    f"{where} GET ?partNumber={number}", response, 206,
                    {"Content-Range": f"bytes {start}-{end}/{OBJECT_SIZE}",
                     "Content-Length": str(len(part)),
                     "x-amz-mp-parts-count": "3",
                     "ETag": etag,
                     "Accept-Ranges": "bytes"},
                    body_sha=hashlib.sha256(part).hexdigest())
        with self.subTest(where=where, request="parts 1..3 reassembled"):
            self.assertEqual(reassembled.hexdigest(), self.source_sha,
                             "parts 1..3 do not reassemble to the uploaded object")

        with self.subTest(where=where, request="HEAD ?partNumber=1"):
            self.assert_response(
                f"{where} HEAD ?partNumber=1", send("HEAD partNumber=1", "HEAD", "partNumber=1"),
                206,
                {"Content-Range": f"bytes 0-{PART_SIZE - 1}/{OBJECT_SIZE}",
                 "Content-Length": str(PART_SIZE),
                 "x-amz-mp-parts-count": "3",
                 "ETag": etag},
                body_sha=hashlib.sha256().hexdigest())

        with self.subTest(where=where, request="GET ?partNumber=4"):
            self.assert_response(f"{where} GET ?partNumber=4",
                                 send("GET partNumber=4", "GET", "partNumber=4"), 416,
                                 error_code="InvalidPartNumber")

        with self.subTest(where=where, request="GET ?partNumber=1 with Range"):
            self.assert_response(
                f"{where} GET ?partNumber=1 + Range: bytes=0-9",
                send("GET partNumber=1 + Range", "GET", "partNumber=1", {"Range": "bytes=0-9"}),
                400, error_code="InvalidRequest")

        with self.subTest(where=where, request="GET signed with a wrong secret"):
            self.assert_response(
                f"{where} GET signed with a wrong secret",
                send("GET wrong secret", "GET", secret_key=self.origin.secret_key + "x"),
                403, error_code="SignatureDoesNotMatch")
        return responses

    def assert_same_answer(self, name: str, direct: RawResponse, proxied: RawResponse) -> None:
        """The proxy relayed the origin's answer unchanged: status line, header fields (order,
        spelling, values) and body, apart from per-response values."""
        is_error = direct.status >= 400
        # Error bodies carry a RequestId (and a wrong-signature error the request's own
        # string-to-sign), so their length is per response too.
        ignored = PER_RESPONSE_HEADERS | ({"content-length"} if is_error else set())

        def comparable(response: RawResponse) -> list[tuple[str, str]]:
            return [(k, v) for k, v in response.headers if k.lower() not in ignored]

        self.assertEqual((proxied.status, proxied.reason), (direct.status, direct.reason),
                         f"{name}: status line differs through the proxy")
        self.assertEqual(comparable(proxied), comparable(direct),
                         f"{name}: header fields differ through the proxy")
        if is_error:
            self.assertEqual(proxied.error_code(), direct.error_code(), name)
            if name != "GET wrong secret":
                self.assertEqual(self.without_request_ids(proxied.body),
                                 self.without_request_ids(direct.body), name)
        else:
            self.assertEqual(hashlib.sha256(proxied.body).hexdigest(),
                             hashlib.sha256(direct.body).hexdigest(),
                             f"{name}: body differs through the proxy")

    @staticmethod
    def without_request_ids(body: bytes) -> bytes:
        return re.sub(rb"<(RequestId|HostId)>[^<]*</\1>", b"", body)

    # ---- tests --------------------------------------------------------------------------------

    def test_direct(self):
        self.check_part_reads(self.origin.endpoint, "direct")

    def test_through_proxy(self):
        proxy = self.start_proxy(self.origin)
        direct = self.check_part_reads(self.origin.endpoint, "direct")
        proxied = self.check_part_reads(proxy.url, "proxy")
        self.assertEqual(list(proxied), list(direct))
        for name in direct:
            with self.subTest(compare=name):
                self.assert_same_answer(name, direct[name], proxied[name])


if __name__ == "__main__":
    harness.main()
