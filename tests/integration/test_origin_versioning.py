"""Versioning, retried Completes and conditional writes of `s3fault origin`, through boto3 and
raw signed HTTP (every header seen as sent).

    versioned bucket: three versions of one key, listed newest first, each read by versionId
        (GET, HEAD, Range, partNumber of a multipart version); DeleteObject adds a delete marker
        (x-amz-delete-marker, x-amz-version-id): the key answers 404 with both headers, a GET of
        the marker's version 405; older versions stay readable; versioned deletes remove them;
        DeleteObjects with VersionId; CopyObject from an older version
    unversioned bucket: ListObjectVersions shows the one `null` version of each key
    suspended bucket: writes replace the null version only
    restart: a data directory keeps versions, markers and the versioning status
    CompleteMultipartUpload sent again after success: 200 with the same ETag and version id; an
        unknown upload id: 404 NoSuchUpload
    PutObject / CompleteMultipartUpload with If-None-Match: * on an existing key: 412; a
        conditional Complete whose key was deleted while the upload was open: 409
        ConditionalRequestConflict, and the upload is over

Every check asserts exact statuses, headers and bytes, so a store that answers otherwise fails.
"""

import hashlib
import os

import botocore.exceptions

import harness
from harness import MIB

PART = 5 * MIB


def error_of(call) -> tuple[int, str, dict]:
    """Runs a boto3 call that must fail; returns (status, code, response headers)."""
    try:
        call()
    except botocore.exceptions.ClientError as e:
        meta = e.response["ResponseMetadata"]
        return meta["HTTPStatusCode"], e.response["Error"].get("Code", ""), meta["HTTPHeaders"]
    raise AssertionError("the call succeeded")


def with_headers(client, operation: str, headers: dict[str, str], call):
    """Runs `call` with `headers` added to its `operation` request before signing (Debian's
    boto3 1.26 has no IfNoneMatch / IfMatch parameters on writes)."""
    def add(request, **_):
        for name, value in headers.items():
            request.headers[name] = value
    event = f"before-sign.s3.{operation}"
    client.meta.events.register(event, add)
    try:
        return call()
    finally:
        client.meta.events.unregister(event, add)


class OriginVersioningTest(harness.OriginTestCase):
    def setUp(self):
        super().setUp()
        self.origin = self.start_origin()
        self.s3 = harness.boto3_client(self.origin.endpoint, self.origin)
        self.bucket = self.new_bucket_name("versions", self.origin)
        self.s3.create_bucket(Bucket=self.bucket)

    def enable_versioning(self, status: str = "Enabled") -> None:
        self.s3.put_bucket_versioning(Bucket=self.bucket,
                                      VersioningConfiguration={"Status": status})

    def raw(self, method: str, key: str, query: str = "", headers=None) -> harness.RawResponse:
        return harness.signed_raw_request(self.origin.endpoint, self.origin, method,
                                          f"/{self.bucket}/{key}", query, headers)

    def put_multipart(self, key: str, parts: list[bytes]) -> dict:
        upload = self.s3.create_multipart_upload(Bucket=self.bucket, Key=key)
        done = []
        for number, data in enumerate(parts, start=1):
            answer = self.s3.upload_part(Bucket=self.bucket, Key=key, PartNumber=number,
                                         UploadId=upload["UploadId"], Body=data)
            done.append({"PartNumber": number, "ETag": answer["ETag"]})
        return {"UploadId": upload["UploadId"], "Parts": done}

    def test_versions_markers_and_reads_by_version(self):
        self.assertNotIn("Status", self.s3.get_bucket_versioning(Bucket=self.bucket))
        self.enable_versioning()
        self.assertEqual(self.s3.get_bucket_versioning(Bucket=self.bucket)["Status"], "Enabled")
        key = "doc.txt"
        bodies = [b"first version", b"second, longer version", b"third"]
        ids = [self.s3.put_object(Bucket=self.bucket, Key=key, Body=b)["VersionId"]
               for b in bodies]
        self.assertEqual(len(set(ids)), 3, ids)
        self.assertNotIn("null", ids)

        listing = self.s3.list_object_versions(Bucket=self.bucket)
        self.assertEqual([v["VersionId"] for v in listing["Versions"]], ids[::-1],
                         "versions are listed newest first")
        self.assertEqual([v["IsLatest"] for v in listing["Versions"]], [True, False, False])
        self.assertEqual([v["Size"] for v in listing["Versions"]], [len(b) for b in bodies[::-1]])

        for version_id, body in zip(ids, bodies):
            got = self.s3.get_object(Bucket=self.bucket, Key=key, VersionId=version_id)
            self.assertEqual(got["Body"].read(), body)
            self.assertEqual(got["VersionId"], version_id)
            head = self.s3.head_object(Bucket=self.bucket, Key=key, VersionId=version_id)
            self.assertEqual(head["ContentLength"], len(body))
            self.assertEqual(head["ETag"], '"%s"' % hashlib.md5(body).hexdigest())
        ranged = self.raw("GET", key, f"versionId={ids[1]}", {"Range": "bytes=8-13"})
        self.assertEqual((ranged.status, ranged.body), (206, b"longer"), ranged.describe())
        self.assertEqual(ranged.header("x-amz-version-id"), ids[1])

        deleted = self.raw("DELETE", key)
        self.assertEqual(deleted.status, 204, deleted.describe())
        self.assertEqual(deleted.header("x-amz-delete-marker"), "true")
        marker = deleted.header("x-amz-version-id")
        self.assertNotIn(marker, ids + [None, "", "null"])

        hidden = self.raw("GET", key)
        self.assertEqual(hidden.status, 404, hidden.describe())
        self.assertIn(b"<Code>NoSuchKey</Code>", hidden.body)
        self.assertEqual(hidden.header("x-amz-delete-marker"), "true")
        self.assertEqual(hidden.header("x-amz-version-id"), marker)
        head_hidden = self.raw("HEAD", key)
        self.assertEqual((head_hidden.status, head_hidden.header("x-amz-delete-marker")),
                         (404, "true"), head_hidden.describe())
        of_marker = self.raw("GET", key, f"versionId={marker}")
        self.assertEqual(of_marker.status, 405, of_marker.describe())
        self.assertEqual(of_marker.header("x-amz-delete-marker"), "true")
        self.assertEqual(self.s3.get_object(Bucket=self.bucket, Key=key,
                                            VersionId=ids[0])["Body"].read(), bodies[0],
                         "an older version stays readable behind the marker")
        listing = self.s3.list_objects_v2(Bucket=self.bucket)
        self.assertEqual(listing["KeyCount"], 0, "a hidden key is not listed")
        versions = self.s3.list_object_versions(Bucket=self.bucket)
        self.assertEqual([(m["VersionId"], m["IsLatest"]) for m in versions["DeleteMarkers"]],
                         [(marker, True)])
        self.assertEqual(error_of(lambda: self.s3.get_object(Bucket=self.bucket, Key=key,
                                                             VersionId="no-such-version"))[:2],
                         (404, "NoSuchVersion"))

        # Copy an older version back over the marker.
        copied = self.s3.copy_object(Bucket=self.bucket, Key=key,
                                     CopySource={"Bucket": self.bucket, "Key": key,
                                                 "VersionId": ids[1]})
        self.assertEqual(copied["CopySourceVersionId"], ids[1])
        self.assertEqual(self.s3.get_object(Bucket=self.bucket, Key=key)["Body"].read(),
                         bodies[1])

        # Versioned deletes remove versions for good: one by DeleteObject, the rest in a batch.
        gone = self.s3.delete_object(Bucket=self.bucket, Key=key, VersionId=ids[0])
        self.assertEqual(gone["VersionId"], ids[0])
        self.assertEqual(error_of(lambda: self.s3.head_object(Bucket=self.bucket, Key=key,
                                                              VersionId=ids[0]))[0], 404)
        rest = self.s3.list_object_versions(Bucket=self.bucket)
        entries = rest.get("Versions", []) + rest.get("DeleteMarkers", [])
        batch = self.s3.delete_objects(Bucket=self.bucket, Delete={
            "Objects": [{"Key": e["Key"], "VersionId": e["VersionId"]} for e in entries]})
        self.assertEqual(sorted(d["VersionId"] for d in batch["Deleted"]),
                         sorted(e["VersionId"] for e in entries))
        self.assertTrue(any(d.get("DeleteMarker") for d in batch["Deleted"]),
                        "removing a marker says so")
        empty = self.s3.list_object_versions(Bucket=self.bucket)
        self.assertEqual(empty.get("Versions", []) + empty.get("DeleteMarkers", []), [])

    def test_part_reads_of_an_older_multipart_version(self):
        self.enable_versioning()
        key = "big.bin"
        old_parts = [os.urandom(PART), os.urandom(1000)]
        plan = self.put_multipart(key, old_parts)
        first = self.s3.complete_multipart_upload(Bucket=self.bucket, Key=key,
                                                  UploadId=plan["UploadId"],
                                                  MultipartUpload={"Parts": plan["Parts"]})
        self.assertTrue(first["VersionId"])
        self.s3.put_object(Bucket=self.bucket, Key=key, Body=b"newer, single part")
        part2 = self.raw("GET", key, f"partNumber=2&versionId={first['VersionId']}")
        self.assertEqual(part2.status, 206, part2.describe())
        self.assertEqual(part2.body, old_parts[1])
        self.assertEqual(part2.header("x-amz-mp-parts-count"), "2")
        self.assertEqual(part2.header("Content-Range"),
                         f"bytes {PART}-{PART + 999}/{PART + 1000}")
        self.assertEqual(part2.header("x-amz-version-id"), first["VersionId"])
        current = self.raw("GET", key, "partNumber=1")
        self.assertEqual(current.status, 206, current.describe())
        self.assertEqual(current.body, b"newer, single part")
        self.assertIsNone(current.header("x-amz-mp-parts-count"))

    def test_unversioned_bucket_lists_null_versions(self):
        self.s3.put_object(Bucket=self.bucket, Key="a", Body=b"1")
        self.s3.put_object(Bucket=self.bucket, Key="a", Body=b"22")
        self.s3.put_object(Bucket=self.bucket, Key="b/c", Body=b"333")
        listing = self.s3.list_object_versions(Bucket=self.bucket)
        self.assertEqual([(v["Key"], v["VersionId"], v["IsLatest"], v["Size"])
                          for v in listing["Versions"]],
                         [("a", "null", True, 2), ("b/c", "null", True, 3)])
        self.assertNotIn("DeleteMarkers", listing)
        got = self.raw("GET", "a", "versionId=null")
        self.assertEqual((got.status, got.body), (200, b"22"), got.describe())
        self.assertIsNone(got.header("x-amz-version-id"),
                          "a bucket never versioned sends no version id")
        deleted = self.raw("DELETE", "a")
        self.assertEqual(deleted.status, 204)
        self.assertIsNone(deleted.header("x-amz-delete-marker"))
        self.assertEqual([v["Key"] for v in
                          self.s3.list_object_versions(Bucket=self.bucket)["Versions"]], ["b/c"])
        self.assertEqual(self.raw("GET", "a", "versionId=").status, 400)

    def test_suspended_versioning_replaces_the_null_version(self):
        self.enable_versioning()
        kept = self.s3.put_object(Bucket=self.bucket, Key="k", Body=b"kept")["VersionId"]
        self.enable_versioning("Suspended")
        self.assertEqual(self.s3.get_bucket_versioning(Bucket=self.bucket)["Status"],
                         "Suspended")
        self.s3.put_object(Bucket=self.bucket, Key="k", Body=b"null one")
        self.s3.put_object(Bucket=self.bucket, Key="k", Body=b"null two")
        listing = self.s3.list_object_versions(Bucket=self.bucket)["Versions"]
        self.assertEqual([(v["VersionId"], v["Size"]) for v in listing],
                         [("null", len(b"null two")), (kept, 4)])
        got = self.raw("GET", "k")
        self.assertEqual(got.header("x-amz-version-id"), "null", got.describe())

    def test_a_restart_keeps_versions_and_markers(self):
        data_dir = self.tmp / "restart-data"
        data_dir.mkdir()
        first = harness.OriginProcess(data_dir=data_dir, name="origin-restart-1")
        first.start()
        try:
            s3 = harness.boto3_client(first.url, first.store())
            s3.create_bucket(Bucket="kept")
            s3.put_bucket_versioning(Bucket="kept", VersioningConfiguration={"Status": "Enabled"})
            v1 = s3.put_object(Bucket="kept", Key="k", Body=b"one")["VersionId"]
            s3.put_object(Bucket="kept", Key="k", Body=b"two")
            marker = s3.delete_object(Bucket="kept", Key="k")["VersionId"]
        finally:
            harness.stop_and_check(first)
        second = harness.OriginProcess(data_dir=data_dir, name="origin-restart-2")
        second.start()
        self.addCleanup(harness.stop_and_check, second)
        s3 = harness.boto3_client(second.url, second.store())
        self.assertEqual(s3.get_bucket_versioning(Bucket="kept")["Status"], "Enabled")
        self.assertEqual(s3.get_object(Bucket="kept", Key="k", VersionId=v1)["Body"].read(),
                         b"one")
        listing = s3.list_object_versions(Bucket="kept")
        self.assertEqual([m["VersionId"] for m in listing["DeleteMarkers"]], [marker])
        self.assertEqual(len(listing["Versions"]), 2)
        self.assertEqual(error_of(lambda: s3.get_object(Bucket="kept", Key="k"))[:2],
                         (404, "NoSuchKey"))
        harness.delete_bucket_fully(s3, "kept")

    def test_complete_sent_again_after_success(self):
        self.enable_versioning()
        key = "retried.bin"
        plan = self.put_multipart(key, [os.urandom(PART), b"tail"])
        request = dict(Bucket=self.bucket, Key=key, UploadId=plan["UploadId"],
                       MultipartUpload={"Parts": plan["Parts"]})
        first = self.s3.complete_multipart_upload(**request)
        again = self.s3.complete_multipart_upload(**request)
        self.assertEqual(again["ResponseMetadata"]["HTTPStatusCode"], 200)
        self.assertEqual(again["ETag"], first["ETag"])
        self.assertRegex(first["ETag"], r'^"[0-9a-f]{32}-2"$')
        self.assertEqual(again["VersionId"], first["VersionId"])
        versions = self.s3.list_object_versions(Bucket=self.bucket)["Versions"]
        self.assertEqual(len(versions), 1, "the retry made no second version")
        self.assertEqual(error_of(lambda: self.s3.complete_multipart_upload(
            Bucket=self.bucket, Key=key, UploadId="no-such-upload",
            MultipartUpload={"Parts": plan["Parts"]}))[:2], (404, "NoSuchUpload"))
        self.assertEqual(error_of(lambda: self.s3.abort_multipart_upload(
            Bucket=self.bucket, Key=key, UploadId=plan["UploadId"]))[:2], (404, "NoSuchUpload"))

    def test_conditional_writes(self):
        self.s3.put_object(Bucket=self.bucket, Key="k", Body=b"there")
        only_new = {"If-None-Match": "*"}

        def put(key):
            return with_headers(self.s3, "PutObject", only_new,
                                lambda: self.s3.put_object(Bucket=self.bucket, Key=key,
                                                           Body=b"x"))
        self.assertEqual(error_of(lambda: put("k"))[:2], (412, "PreconditionFailed"))
        self.assertEqual(put("new")["ResponseMetadata"]["HTTPStatusCode"], 200)
        plan = self.put_multipart("k", [b"multipart over an existing key"])
        status, code, _ = error_of(lambda: with_headers(
            self.s3, "CompleteMultipartUpload", only_new,
            lambda: self.s3.complete_multipart_upload(
                Bucket=self.bucket, Key="k", UploadId=plan["UploadId"],
                MultipartUpload={"Parts": plan["Parts"]})))
        self.assertEqual((status, code), (412, "PreconditionFailed"))
        self.assertEqual(self.s3.get_object(Bucket=self.bucket, Key="k")["Body"].read(),
                         b"there", "a refused conditional write changed nothing")

    def test_a_delete_during_a_conditional_upload_is_a_conflict(self):
        self.s3.put_object(Bucket=self.bucket, Key="k", Body=b"old")
        plan = self.put_multipart("k", [b"new bytes"])
        self.s3.delete_object(Bucket=self.bucket, Key="k")
        if_old = {"If-Match": '"%s"' % hashlib.md5(b"old").hexdigest()}
        status, code, _ = error_of(lambda: with_headers(
            self.s3, "CompleteMultipartUpload", if_old,
            lambda: self.s3.complete_multipart_upload(
                Bucket=self.bucket, Key="k", UploadId=plan["UploadId"],
                MultipartUpload={"Parts": plan["Parts"]})))
        self.assertEqual((status, code), (409, "ConditionalRequestConflict"))
        self.assertEqual(error_of(lambda: self.s3.list_parts(
            Bucket=self.bucket, Key="k", UploadId=plan["UploadId"]))[:2], (404, "NoSuchUpload"),
            "after a 409 the upload is over: the client starts another")
        self.assertEqual(error_of(lambda: self.s3.head_object(Bucket=self.bucket, Key="k"))[0],
                         404)


if __name__ == "__main__":
    harness.main()
