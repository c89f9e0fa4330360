"""Six real S3 clients against `s3fault origin`, directly and through `s3fault proxy`.

    client --------------------------------> s3fault origin     (test_<client>_direct)
    client --> s3fault proxy (port 0) -----> s3fault origin     (test_<client>_proxy)
                                                    ^
    checks: boto3 straight to the origin -----------+

Each test starts its own origin (port 0, fresh random keys, objects in the test's temp dir) and,
for the proxy variant, its own proxy. The client creates a bucket, uploads a 20 MiB random file
as a multipart upload in 8 MiB parts (the origin must then hold an object whose ETag ends in
`-3`), downloads it (same sha256), lists it (key present, right size), deletes the object and the
bucket. The origin verifies SigV4, so the proxy variants also prove that the proxy leaves every
signature valid.

Clients: aws cli 2.9 (/usr/bin/aws), boto3 (Debian), rclone, s3cmd, the AWS SDK for JavaScript v3
(@aws-sdk/client-s3, whose part uploads go out aws-chunked with a CRC32 trailer) and the MinIO
JavaScript client (tests/node). CTest runs every method as its own test,
integration.origin.<client>.<direct|proxy>.
"""

import boto3.s3.transfer
import botocore.exceptions

import harness
from harness import MIB

OBJECT_SIZE = 20 * MIB
PART_SIZE = 8 * MIB
EXPECTED_PARTS = 3  # 8 + 8 + 4 MiB
KEY = "dir/sub dir/object-20MiB.bin"  # a space and slashes: exercises URL encoding end to end


class OriginClientsTest(harness.OriginTestCase):
    def setUp(self):
        super().setUp()
        self.source = self.tmp / "upload.bin"
        self.source_sha = harness.make_random_file(self.source, OBJECT_SIZE)
        self.source_etag = harness.multipart_etag(self.source, PART_SIZE)
        self.downloaded = self.tmp / "download.bin"

    def endpoint_for(self, mode: str) -> str:
        """Starts the origin (and, for "proxy", a proxy in front of it); returns the URL the
        client under test talks to. self.origin / self.checker reach the origin directly."""
        self.origin = self.start_origin()
        self.checker = harness.boto3_client(self.origin.endpoint, self.origin)
        if mode == "direct":
            return self.origin.endpoint
        if mode == "proxy":
            return self.start_proxy(self.origin).url
        raise ValueError(mode)

    # ---- checks shared by the six clients, made directly on the origin ---------------------------

    def assert_bucket_exists(self, bucket: str) -> None:
        head = self.checker.head_bucket(Bucket=bucket)
        self.assertEqual(head["ResponseMetadata"]["HTTPStatusCode"], 200)

    def assert_stored_as_multipart(self, bucket: str) -> str:
        """The origin holds the object at full size, with the ETag of a 3-part upload (the
        md5-of-part-md5s value, ending in -3); returns that ETag (quoted, as on the wire)."""
        head = self.checker.head_object(Bucket=bucket, Key=KEY)
        self.assertEqual(head["ContentLength"], OBJECT_SIZE)
        self.assertRegex(head["ETag"], rf'^"[0-9a-f]{{32}}-{EXPECTED_PARTS}"$',
                         f"ETag {head['ETag']} is not that of a {EXPECTED_PARTS}-part upload")
        self.assertEqual(head["ETag"], self.source_etag,
                         "multipart ETag is not md5(part md5s)-3 of 8 MiB parts")
        return head["ETag"]

    def assert_downloaded_intact(self) -> None:
        self.assertEqual(self.downloaded.stat().st_size, OBJECT_SIZE)
        self.assertEqual(harness.sha256_file(self.downloaded), self.source_sha,
                         "downloaded bytes differ from uploaded bytes")

    def assert_object_gone(self, bucket: str) -> None:
        with self.assertRaises(botocore.exceptions.ClientError) as ctx:
            self.checker.head_object(Bucket=bucket, Key=KEY)
        self.assertEqual(ctx.exception.response["ResponseMetadata"]["HTTPStatusCode"], 404)

    def assert_bucket_gone(self, bucket: str) -> None:
        with self.assertRaises(botocore.exceptions.ClientError) as ctx:
            self.checker.head_bucket(Bucket=bucket)
        self.assertEqual(ctx.exception.response["ResponseMetadata"]["HTTPStatusCode"], 404)

    # ---- one round trip per client --------------------------------------------------------------

    def roundtrip_aws_cli(self, mode: str) -> None:
        endpoint = self.endpoint_for(mode)
        bucket = self.new_bucket_name("awscli", self.origin)
        cli = harness.AwsCli(endpoint, self.origin, self.tmp / "aws", multipart_mib=8)
        url = f"s3://{bucket}/{KEY}"

        cli.run("s3", "mb", f"s3://{bucket}")
        self.assert_bucket_exists(bucket)
        cli.run("s3", "cp", "--only-show-errors", str(self.source), url)
        self.assert_stored_as_multipart(bucket)

        cli.run("s3", "cp", "--only-show-errors", url, str(self.downloaded))
        self.assert_downloaded_intact()

        self.assertEqual(cli.list_objects(bucket), {KEY: OBJECT_SIZE})

        cli.run("s3", "rm", "--only-show-errors", url)
        self.assert_object_gone(bucket)
        self.assertEqual(cli.list_objects(bucket), {})
        cli.run("s3", "rb", f"s3://{bucket}")
        self.assert_bucket_gone(bucket)

    def roundtrip_boto3(self, mode: str) -> None:
        endpoint = self.endpoint_for(mode)
        bucket = self.new_bucket_name("boto3", self.origin)
        client = harness.boto3_client(endpoint, self.origin)
        transfer = boto3.s3.transfer.TransferConfig(
            multipart_threshold=PART_SIZE, multipart_chunksize=PART_SIZE, max_concurrency=4)

        created = client.create_bucket(Bucket=bucket)
        self.assertEqual(created["ResponseMetadata"]["HTTPStatusCode"], 200)
        client.upload_file(str(self.source), bucket, KEY, Config=transfer)
        self.assert_stored_as_multipart(bucket)

        client.download_file(bucket, KEY, str(self.downloaded), Config=transfer)
        self.assert_downloaded_intact()

        listing = client.list_objects_v2(Bucket=bucket)
        self.assertEqual(listing["ResponseMetadata"]["HTTPStatusCode"], 200)
        self.assertEqual({o["Key"]: o["Size"] for o in listing.get("Contents", [])},
                         {KEY: OBJECT_SIZE})

        deleted = client.delete_object(Bucket=bucket, Key=KEY)
        self.assertEqual(deleted["ResponseMetadata"]["HTTPStatusCode"], 204)
        self.assert_object_gone(bucket)
        self.assertEqual(client.list_objects_v2(Bucket=bucket).get("KeyCount"), 0)
        removed = client.delete_bucket(Bucket=bucket)
        self.assertEqual(removed["ResponseMetadata"]["HTTPStatusCode"], 204)
        self.assert_bucket_gone(bucket)

    def roundtrip_rclone(self, mode: str) -> None:
        endpoint = self.endpoint_for(mode)
        bucket = self.new_bucket_name("rclone", self.origin)
        rclone = harness.Rclone(endpoint, self.origin, self.tmp / "rclone")
        chunking = ["--s3-chunk-size", "8M", "--s3-upload-cutoff", "8M",
                    "--s3-upload-concurrency", "4"]

        rclone.run("mkdir", rclone.path(bucket))
        self.assert_bucket_exists(bucket)
        rclone.run("copyto", *chunking, str(self.source), rclone.path(bucket, KEY))
        self.assert_stored_as_multipart(bucket)

        rclone.run("copyto", rclone.path(bucket, KEY), str(self.downloaded))
        self.assert_downloaded_intact()

        self.assertEqual(rclone.list_objects(bucket), {KEY: OBJECT_SIZE})

        rclone.run("deletefile", rclone.path(bucket, KEY))
        self.assert_object_gone(bucket)
        self.assertEqual(rclone.list_objects(bucket), {})
        rclone.run("rmdir", rclone.path(bucket))
        self.assert_bucket_gone(bucket)

    def roundtrip_s3cmd(self, mode: str) -> None:
        endpoint = self.endpoint_for(mode)
        bucket = self.new_bucket_name("s3cmd", self.origin)
        s3cmd = harness.S3cmd(endpoint, self.origin, self.tmp / "s3cmd", multipart_mib=8)
        url = f"s3://{bucket}/{KEY}"

        s3cmd.run("mb", f"s3://{bucket}")
        self.assert_bucket_exists(bucket)
        s3cmd.run("put", str(self.source), url)
        self.assert_stored_as_multipart(bucket)

        s3cmd.run("get", "--force", url, str(self.downloaded))
        self.assert_downloaded_intact()

        self.assertEqual(s3cmd.list_objects(bucket), {KEY: OBJECT_SIZE})

        s3cmd.run("del", url)
        self.assert_object_gone(bucket)
        self.assertEqual(s3cmd.list_objects(bucket), {})
        s3cmd.run("rb", f"s3://{bucket}")
        self.assert_bucket_gone(bucket)

    def roundtrip_aws_sdk_js(self, mode: str) -> None:
        endpoint = self.endpoint_for(mode)
        bucket = self.new_bucket_name("awssdkjs", self.origin)
        sdk = harness.NodeS3Client("client-aws-sdk.mjs", endpoint, self.origin,
                                   required_package="@aws-sdk/client-s3")

        self.assertEqual(sdk.run("make-bucket", bucket)["status"], 200)
        self.assert_bucket_exists(bucket)

        upload = sdk.run("upload", bucket, KEY, str(self.source), str(PART_SIZE))
        self.assertEqual(upload["createStatus"], 200)
        self.assertEqual([p["status"] for p in upload["parts"]], [200] * EXPECTED_PARTS)
        self.assertEqual(upload["completeStatus"], 200)
        self.assert_parts_went_aws_chunked(upload["sentUploadPartHeaders"])
        stored_etag = self.assert_stored_as_multipart(bucket)
        self.assertEqual(upload["etag"], stored_etag,
                         "CompleteMultipartUpload's ETag differs from HeadObject's")
        if not all("ChecksumCRC32" in p for p in upload["parts"]):
            print(f"NOTE: UploadPart responses carried no x-amz-checksum-crc32: {upload['parts']}")

        download = sdk.run("download", bucket, KEY, str(self.downloaded))
        self.assertEqual(download["status"], 200)
        self.assertEqual(download["contentLength"], OBJECT_SIZE)
        self.assertEqual(download["bytes"], OBJECT_SIZE)
        self.assertEqual(download["sha256"], self.source_sha)
        self.assertEqual(download["etag"], stored_etag)
        self.assert_downloaded_intact()

        listing = sdk.run("list", bucket)
        self.assertEqual(listing["statuses"], [200])
        self.assertEqual(listing["objects"], {KEY: OBJECT_SIZE})

        self.assertEqual(sdk.run("delete-object", bucket, KEY)["status"], 204)
        self.assert_object_gone(bucket)
        self.assertEqual(sdk.run("list", bucket)["objects"], {})
        self.assertEqual(sdk.run("remove-bucket", bucket)["status"], 204)
        self.assert_bucket_gone(bucket)

    def assert_parts_went_aws_chunked(self, sent_headers: list[dict[str, str]]) -> None:
        """Every UploadPart went out the way current AWS SDKs send streams by default:
        aws-chunked, HTTP chunked, unsigned payload with a CRC32 trailer."""
        self.assertEqual(len(sent_headers), EXPECTED_PARTS)
        part_lengths = [PART_SIZE, PART_SIZE, OBJECT_SIZE - 2 * PART_SIZE]
        for number, (headers, length) in enumerate(zip(sent_headers, part_lengths), start=1):
            with self.subTest(part=number):
                headers = {k.lower(): v for k, v in headers.items()}
                self.assertIn("aws-chunked", headers.get("content-encoding", ""), headers)
                self.assertEqual(headers.get("transfer-encoding"), "chunked", headers)
                self.assertNotIn("content-length", headers)
                self.assertEqual(headers.get("x-amz-content-sha256"),
                                 "STREAMING-UNSIGNED-PAYLOAD-TRAILER", headers)
                self.assertEqual(headers.get("x-amz-trailer"), "x-amz-checksum-crc32", headers)
                self.assertEqual(headers.get("x-amz-decoded-content-length"), str(length), headers)
                self.assertIn("Signature=", headers.get("authorization", ""), headers)

    def roundtrip_minio_js(self, mode: str) -> None:
        endpoint = self.endpoint_for(mode)
        bucket = self.new_bucket_name("miniojs", self.origin)
        minio = harness.NodeS3Client("client-minio.mjs", endpoint, self.origin,
                                     required_package="minio")

        minio.run("make-bucket", bucket)
        self.assert_bucket_exists(bucket)

        upload = minio.run("upload", bucket, KEY, str(self.source), str(PART_SIZE))
        stored_etag = self.assert_stored_as_multipart(bucket)
        self.assertEqual(upload["etag"], stored_etag.strip('"'),
                         "the ETag fPutObject returned differs from HeadObject's")

        download = minio.run("download", bucket, KEY, str(self.downloaded))
        self.assertEqual(download["sha256"], self.source_sha)
        self.assert_downloaded_intact()

        self.assertEqual(minio.run("list", bucket)["objects"], {KEY: OBJECT_SIZE})

        minio.run("delete-object", bucket, KEY)
        self.assert_object_gone(bucket)
        self.assertEqual(minio.run("list", bucket)["objects"], {})
        minio.run("remove-bucket", bucket)
        self.assert_bucket_gone(bucket)

    # ---- the tests CTest runs one by one ------------------------------------------------------

    def test_aws_cli_direct(self):
        self.roundtrip_aws_cli("direct")

    def test_aws_cli_proxy(self):
        self.roundtrip_aws_cli("proxy")

    def test_boto3_direct(self):
        self.roundtrip_boto3("direct")

    def test_boto3_proxy(self):
        self.roundtrip_boto3("proxy")

    def test_rclone_direct(self):
        self.roundtrip_rclone("direct")

    def test_rclone_proxy(self):
        self.roundtrip_rclone("proxy")

    def test_s3cmd_direct(self):
        self.roundtrip_s3cmd("direct")

    def test_s3cmd_proxy(self):
        self.roundtrip_s3cmd("proxy")

    def test_aws_sdk_js_direct(self):
        self.roundtrip_aws_sdk_js("direct")

    def test_aws_sdk_js_proxy(self):
        self.roundtrip_aws_sdk_js("proxy")

    def test_minio_js_direct(self):
        self.roundtrip_minio_js("direct")

    def test_minio_js_proxy(self):
        self.roundtrip_minio_js("proxy")


if __name__ == "__main__":
    harness.main()
