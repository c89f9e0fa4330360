"""S3 object versioning through the proxy against OpenStack Swift's s3api (start-swift.sh puts
versioned_writes with allow_object_versioning and symlink in the pipeline, which s3api's
PUT ?versioning needs; without them Swift answers 501 NotImplemented).

boto3 through the proxy: enable versioning, PUT a key twice, read each version by its
VersionId, list the versions, DELETE (a delete marker: GET answers 404, the old versions stay
readable), then delete every version and the bucket.
"""

import botocore.exceptions

import harness


def delete_every_version(client, bucket: str) -> None:
    """Deletes every version and delete marker of bucket, then the bucket; a missing bucket is
    fine (the test may have removed it already)."""
    try:
        listing = client.list_object_versions(Bucket=bucket)
        for entry in listing.get("Versions", []) + listing.get("DeleteMarkers", []):
            client.delete_object(Bucket=bucket, Key=entry["Key"], VersionId=entry["VersionId"])
        client.delete_bucket(Bucket=bucket)
    except botocore.exceptions.ClientError as e:
        if e.response.get("Error", {}).get("Code") != "NoSuchBucket":
            raise


class SwiftVersioningTest(harness.ProxyTestCase):
    def setUp(self):
        super().setUp()
        self.proxy = self.start_proxy()
        self.client = harness.boto3_client(self.proxy.url, self.store)

    def test_versions_through_the_proxy(self):
        bucket = harness.unique_bucket_name("versioning")
        self.client.create_bucket(Bucket=bucket)
        self.addCleanup(delete_every_version, self.direct, bucket)
        key = "versioned/object.txt"

        self.client.put_bucket_versioning(Bucket=bucket,
                                          VersioningConfiguration={"Status": "Enabled"})
        self.assertEqual(self.client.get_bucket_versioning(Bucket=bucket).get("Status"),
                         "Enabled")

        first = self.client.put_object(Bucket=bucket, Key=key, Body=b"first version")
        second = self.client.put_object(Bucket=bucket, Key=key, Body=b"second version")
        self.assertTrue(first.get("VersionId"), first)
        self.assertTrue(second.get("VersionId"), second)
        self.assertNotEqual(first["VersionId"], second["VersionId"])

        latest = self.client.get_object(Bucket=bucket, Key=key)
        self.assertEqual(latest["Body"].read(), b"second version")
        self.assertEqual(latest.get("VersionId"), second["VersionId"])
        old = self.client.get_object(Bucket=bucket, Key=key, VersionId=first["VersionId"])
        self.assertEqual(old["Body"].read(), b"first version")

        listing = self.client.list_object_versions(Bucket=bucket)
        versions = {v["VersionId"]: v["IsLatest"] for v in listing.get("Versions", [])
                    if v["Key"] == key}
        self.assertEqual(versions, {first["VersionId"]: False, second["VersionId"]: True})

        # DELETE without a VersionId leaves a delete marker; the versions stay readable.
        deleted = self.client.delete_object(Bucket=bucket, Key=key)
        self.assertTrue(deleted.get("DeleteMarker"), deleted)
        with self.assertRaises(botocore.exceptions.ClientError) as ctx:
            self.client.get_object(Bucket=bucket, Key=key)
        self.assertEqual(ctx.exception.response["ResponseMetadata"]["HTTPStatusCode"], 404)
        again = self.client.get_object(Bucket=bucket, Key=key, VersionId=second["VersionId"])
        self.assertEqual(again["Body"].read(), b"second version")
        markers = self.client.list_object_versions(Bucket=bucket).get("DeleteMarkers", [])
        self.assertEqual([(m["Key"], m["IsLatest"]) for m in markers], [(key, True)])

        # Every version and marker deleted by VersionId: the bucket is empty and can go.
        delete_every_version(self.client, bucket)
        with self.assertRaises(botocore.exceptions.ClientError) as ctx:
            self.direct.head_bucket(Bucket=bucket)
        self.assertEqual(ctx.exception.response["ResponseMetadata"]["HTTPStatusCode"], 404)


if __name__ == "__main__":
    harness.main()
