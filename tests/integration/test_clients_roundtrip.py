"""Real clients through the proxy: aws cli, boto3 and rclone each create a bucket, upload a 40 MiB
file as a multipart upload (8 MiB parts), download it, list it, and delete object and bucket.

The downloaded bytes must hash like the uploaded ones; the store itself (asked directly, not
through the proxy) must hold an object of the right size.
"""

import boto3.s3.transfer
import botocore.exceptions

import harness
from harness import MIB

OBJECT_SIZE = 40 * MIB
PART_SIZE = 8 * MIB  # RGW rejects parts under 5 MiB (EntityTooSmall)
EXPECTED_PARTS = OBJECT_SIZE // PART_SIZE
KEY = "dir/sub dir/object-40MiB.bin"  # a space and slashes: exercises URL encoding end to end


class ClientsRoundtripTest(harness.ProxyTestCase):
    def setUp(self):
        super().setUp()
        self.proxy = self.start_proxy()
        self.source = self.tmp / "upload.bin"
        self.source_sha = harness.make_random_file(self.source, OBJECT_SIZE)
        self.downloaded = self.tmp / "download.bin"

    # ---- checks shared by the three clients ---------------------------------------------------

    def assert_stored_as_multipart(self, bucket: str) -> None:
        """The store (asked directly) holds the object with the full size; on RGW and Swift its
        ETag shows it was assembled from EXPECTED_PARTS parts (s3rver gives multipart objects a
        plain MD5)."""
        head = self.direct.head_object(Bucket=bucket, Key=KEY)
        self.assertEqual(head["ContentLength"], OBJECT_SIZE)
        if self.store.name in ("rgw", "swift"):
            self.assertTrue(head["ETag"].strip('"').endswith(f"-{EXPECTED_PARTS}"),
                            f"ETag {head['ETag']} is not that of a {EXPECTED_PARTS}-part upload")

    def assert_downloaded_intact(self) -> None:
        self.assertEqual(self.downloaded.stat().st_size, OBJECT_SIZE)
        self.assertEqual(harness.sha256_file(self.downloaded), self.source_sha,
                         "downloaded bytes differ from uploaded bytes")

    def assert_bucket_gone(self, bucket: str) -> None:
        with self.assertRaises(botocore.exceptions.ClientError) as ctx:
            self.direct.head_bucket(Bucket=bucket)
        self.assertEqual(ctx.exception.response["ResponseMetadata"]["HTTPStatusCode"], 404)

    # ---- one test per client --------------------------------------------------------------------

    def test_aws_cli(self):
        bucket = self.new_bucket("awscli", create=False)
        cli = harness.AwsCli(self.proxy.url, self.store, self.tmp / "aws", multipart_mib=8)
        url = f"s3://{bucket}/{KEY}"

        cli.run("s3", "mb", f"s3://{bucket}")
        cli.run("s3", "cp", "--only-show-errors", str(self.source), url)
        self.assert_stored_as_multipart(bucket)

        cli.run("s3", "cp", "--only-show-errors", url, str(self.downloaded))
        self.assert_downloaded_intact()

        self.assertEqual(cli.list_objects(bucket), {KEY: OBJECT_SIZE})

        cli.run("s3", "rm", "--only-show-errors", url)
        self.assertEqual(cli.list_objects(bucket), {})
        cli.run("s3", "rb", f"s3://{bucket}")
        self.assert_bucket_gone(bucket)

    def test_boto3(self):
        bucket = self.new_bucket("boto3", create=False)
        client = harness.boto3_client(self.proxy.url, self.store)
        transfer = boto3.s3.transfer.TransferConfig(
            multipart_threshold=PART_SIZE, multipart_chunksize=PART_SIZE, max_concurrency=4)

        created = client.create_bucket(Bucket=bucket)
        self.assertEqual(created["ResponseMetadata"]["HTTPStatusCode"], 200)
        client.upload_file(str(self.source), bucket, KEY, Config=transfer)
        self.assert_stored_as_multipart(bucket)

        client.download_file(bucket, KEY, str(self.downloaded), Config=transfer)
        self.assert_downloaded_intact()

        listing = client.list_objects_v2(Bucket=bucket)
        self.assertEqual({o["Key"]: o["Size"] for o in listing.get("Contents", [])},
                         {KEY: OBJECT_SIZE})

        deleted = client.delete_object(Bucket=bucket, Key=KEY)
        self.assertEqual(deleted["ResponseMetadata"]["HTTPStatusCode"], 204)
        self.assertEqual(client.list_objects_v2(Bucket=bucket).get("KeyCount"), 0)
        removed = client.delete_bucket(Bucket=bucket)
        self.assertEqual(removed["ResponseMetadata"]["HTTPStatusCode"], 204)
        self.assert_bucket_gone(bucket)

    def test_rclone(self):
        bucket = self.new_bucket("rclone", create=False)
        rclone = harness.Rclone(self.proxy.url, self.store, self.tmp / "rclone")
        chunking = ["--s3-chunk-size", "8M", "--s3-upload-cutoff", "8M", "--s3-upload-concurrency", "4"]

        rclone.run("mkdir", rclone.path(bucket))
        self.direct.head_bucket(Bucket=bucket)  # raises if mkdir did not create it
        rclone.run("copyto", *chunking, str(self.source), rclone.path(bucket, KEY))
        self.assert_stored_as_multipart(bucket)

        rclone.run("copyto", str(rclone.path(bucket, KEY)), str(self.downloaded))
        self.assert_downloaded_intact()

        self.assertEqual(rclone.list_objects(bucket), {KEY: OBJECT_SIZE})

        rclone.run("deletefile", rclone.path(bucket, KEY))
        self.assertEqual(rclone.list_objects(bucket), {})
        rclone.run("rmdir", rclone.path(bucket))
        self.assert_bucket_gone(bucket)


if __name__ == "__main__":
    harness.main()
