"""Several accounts and GetObjectAttributes on `s3fault origin`, with boto3.

    origin --access-key A --account B:SECRET --accounts-file (C:SECRET)
      A, B, C each create a bucket           ListBuckets: each sees only its own, Owner = itself
      B on A's bucket: GET, PUT, HEAD, list, attributes, ACL   403 AccessDenied
      B creates A's bucket name              409 BucketAlreadyExists
      unknown access key                     403 InvalidAccessKeyId
      B's key with a wrong secret            403 SignatureDoesNotMatch
    a bad --accounts-file                    exit 2, the line named

    get_object_attributes
      single PUT                 ETag (no quotes), ObjectSize, StorageClass, no ObjectParts
      3-part upload with CRC32   Checksum (COMPOSITE, -3), ObjectParts: TotalPartsCount 3, Parts
                                 with PartNumber, Size, ChecksumCRC32 equal to what
                                 get_object(PartNumber=N) serves; MaxParts=1 pages one by one
      bad or missing attributes  400 InvalidArgument
"""

import dataclasses
import re
import subprocess

import botocore.exceptions

import harness

PART_SIZES = [6000, 6000, 1234]


def error_of(call) -> tuple[int, str]:
    """(HTTP status, S3 error code) of a call that must fail."""
    try:
        call()
    except botocore.exceptions.ClientError as error:
        return (error.response["ResponseMetadata"]["HTTPStatusCode"],
                error.response["Error"]["Code"])
    raise AssertionError("the call succeeded")


class OriginAccountsTest(harness.OriginTestCase):
    def start_accounts(self):
        """The origin with three accounts: the harness's (first), bob (--account), carol (file)."""
        accounts_file = self.tmp / "accounts.txt"
        accounts_file.write_text("# one account a line\n\ncarol:carol-secret-1\n")
        self.alice = self.start_origin(
            ["--account", "bob:bob:secret", "--accounts-file", str(accounts_file),
             "--min-part-size", "1024"])  # small parts for the multipart attributes
        self.bob = dataclasses.replace(self.alice, access_key="bob", secret_key="bob:secret")
        self.carol = dataclasses.replace(self.alice, access_key="carol",
                                         secret_key="carol-secret-1")
        self.clients = {name: harness.boto3_client(store.endpoint, store)
                        for name, store in (("alice", self.alice), ("bob", self.bob),
                                            ("carol", self.carol))}

    def test_accounts_own_their_buckets(self):
        self.start_accounts()
        alice, bob, carol = self.clients["alice"], self.clients["bob"], self.clients["carol"]
        buckets = {}
        for name, store in (("alice", self.alice), ("bob", self.bob), ("carol", self.carol)):
            buckets[name] = self.new_bucket_name(name, store)
            self.clients[name].create_bucket(Bucket=buckets[name])
        alice.put_object(Bucket=buckets["alice"], Key="k", Body=b"alice's bytes")

        owners = {}
        keys = {"alice": self.alice.access_key, "bob": "bob", "carol": "carol"}
        for name, client in self.clients.items():
            listed = client.list_buckets()
            self.assertEqual([b["Name"] for b in listed["Buckets"]], [buckets[name]])
            self.assertEqual(listed["Owner"]["DisplayName"], keys[name])
            self.assertRegex(listed["Owner"]["ID"], r"^[0-9a-f]{64}$")
            owners[name] = listed["Owner"]["ID"]
        self.assertEqual(len(set(owners.values())), 3, owners)

        acl = alice.get_bucket_acl(Bucket=buckets["alice"])
        self.assertEqual(acl["Owner"]["ID"], owners["alice"])
        self.assertEqual(acl["Grants"][0]["Grantee"]["ID"], owners["alice"])
        self.assertEqual(acl["Grants"][0]["Permission"], "FULL_CONTROL")
        self.assertEqual(alice.get_object_acl(Bucket=buckets["alice"], Key="k")["Owner"]["ID"],
                         owners["alice"])

        target = buckets["alice"]
        denied = {
            "get_object": lambda: bob.get_object(Bucket=target, Key="k"),
            "put_object": lambda: bob.put_object(Bucket=target, Key="new", Body=b"x"),
            "list_objects_v2": lambda: bob.list_objects_v2(Bucket=target),
            "list_objects": lambda: bob.list_objects(Bucket=target),
            "delete_object": lambda: bob.delete_object(Bucket=target, Key="k"),
            "get_bucket_acl": lambda: bob.get_bucket_acl(Bucket=target),
            "get_object_attributes": lambda: bob.get_object_attributes(
                Bucket=target, Key="k", ObjectAttributes=["ETag"]),
            "create_multipart_upload": lambda: carol.create_multipart_upload(Bucket=target,
                                                                             Key="m"),
            "copy_object_from": lambda: bob.copy_object(
                Bucket=buckets["bob"], Key="copy", CopySource={"Bucket": target, "Key": "k"}),
        }
        for name, call in denied.items():
            self.assertEqual(error_of(call), (403, "AccessDenied"), name)
        # HEAD answers carry no body: boto3 reports the status as the code.
        self.assertEqual(error_of(lambda: bob.head_object(Bucket=target, Key="k")), (403, "403"))
        self.assertEqual(error_of(lambda: bob.head_bucket(Bucket=target)), (403, "403"))
        self.assertEqual(error_of(lambda: bob.create_bucket(Bucket=target)),
                         (409, "BucketAlreadyExists"))
        # Nothing the others tried changed alice's bucket.
        self.assertEqual(alice.get_object(Bucket=target, Key="k")["Body"].read(), b"alice's bytes")
        self.assertEqual([o["Key"] for o in alice.list_objects_v2(Bucket=target)["Contents"]],
                         ["k"])

    def test_keys_are_checked(self):
        self.start_accounts()
        stranger = harness.boto3_client(self.alice.endpoint, dataclasses.replace(
            self.alice, access_key="mallory", secret_key="bob:secret"))
        self.assertEqual(error_of(stranger.list_buckets), (403, "InvalidAccessKeyId"))
        wrong = harness.boto3_client(self.alice.endpoint, dataclasses.replace(
            self.bob, secret_key="carol-secret-1"))
        self.assertEqual(error_of(wrong.list_buckets), (403, "SignatureDoesNotMatch"))
        self.assertEqual(self.clients["bob"].list_buckets()["ResponseMetadata"]["HTTPStatusCode"],
                         200)

    def test_bad_accounts_file_names_the_line(self):
        bad = self.tmp / "bad-accounts.txt"
        bad.write_text("good:secret\n# fine\nno-colon-here\n")
        result = subprocess.run(
            [str(harness.proxy_binary()), "origin", "--listen", "127.0.0.1:0",
             "--accounts-file", str(bad)], capture_output=True, text=True, timeout=30)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"--accounts-file '{bad}': line 3: expected KEY:SECRET", result.stderr)
        self.assertEqual(result.stdout, "")

    def test_every_mistake_is_reported_at_once(self):
        """The accounts' mistakes and the region's come out together, one line each (exit 2);
        --access-key without --secret-key is refused by CLI11 as the command line is parsed."""
        bad = self.tmp / "bad-accounts.txt"
        bad.write_text("no-colon-here\n")
        result = subprocess.run(
            [str(harness.proxy_binary()), "origin", "--listen", "127.0.0.1:0",
             "--account", "also-no-colon", "--accounts-file", str(bad), "--region", "Not A Region"],
            capture_output=True, text=True, timeout=30)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(result.stdout, "")
        for mistake in ("--account number 1: ", f"--accounts-file '{bad}': line 1: ",
                        "--region 'Not A Region': must be a region name like us-east-1"):
            self.assertIn("s3fault origin: " + mistake, result.stderr)
        alone = subprocess.run(
            [str(harness.proxy_binary()), "origin", "--listen", "127.0.0.1:0",
             "--access-key", "k"], capture_output=True, text=True, timeout=30)
        self.assertEqual(alone.returncode, 2, alone.stderr)
        self.assertIn("--access-key requires --secret-key", alone.stderr)

    def test_get_object_attributes(self):
        self.start_accounts()
        client = self.clients["alice"]
        bucket = self.new_bucket_name("attributes", self.alice)
        client.create_bucket(Bucket=bucket)

        put = client.put_object(Bucket=bucket, Key="single", Body=b"hello world")
        single = client.get_object_attributes(
            Bucket=bucket, Key="single",
            ObjectAttributes=["ETag", "Checksum", "ObjectParts", "StorageClass", "ObjectSize"])
        self.assertEqual(single["ETag"], put["ETag"].strip('"'))
        self.assertEqual(single["ETag"], "5eb63bbbe01eeed093cb22bb8f5acdc3")
        self.assertEqual(single["ObjectSize"], 11)
        self.assertEqual(single["StorageClass"], "STANDARD")
        self.assertNotIn("ObjectParts", single)
        self.assertNotIn("Checksum", single)
        self.assertEqual(single["LastModified"],
                         client.head_object(Bucket=bucket, Key="single")["LastModified"])

        upload = client.create_multipart_upload(Bucket=bucket, Key="multi",
                                                ChecksumAlgorithm="CRC32")
        completed = []
        for number, size in enumerate(PART_SIZES, start=1):
            part = client.upload_part(Bucket=bucket, Key="multi", UploadId=upload["UploadId"],
                                      PartNumber=number, Body=bytes([number]) * size,
                                      ChecksumAlgorithm="CRC32")
            completed.append({"PartNumber": number, "ETag": part["ETag"],
                              "ChecksumCRC32": part["ChecksumCRC32"]})
        done = client.complete_multipart_upload(Bucket=bucket, Key="multi",
                                                UploadId=upload["UploadId"],
                                                MultipartUpload={"Parts": completed})

        # Debian's botocore (1.29) predates ChecksumType: that one is checked in the raw XML.
        raw_bodies = []
        client.meta.events.register(
            "after-call.s3.GetObjectAttributes",
            lambda http_response, **_: raw_bodies.append(http_response.content.decode()))
        attributes = client.get_object_attributes(
            Bucket=bucket, Key="multi",
            ObjectAttributes=["ETag", "Checksum", "ObjectParts", "StorageClass", "ObjectSize"])
        self.assertEqual(attributes["ETag"], done["ETag"].strip('"'))
        self.assertRegex(attributes["ETag"], r"^[0-9a-f]{32}-3$")
        self.assertEqual(attributes["ObjectSize"], sum(PART_SIZES))
        self.assertEqual(attributes["Checksum"]["ChecksumCRC32"], done["ChecksumCRC32"])
        self.assertRegex(attributes["Checksum"]["ChecksumCRC32"], r"-3$")
        self.assertIn("<ChecksumType>COMPOSITE</ChecksumType></Checksum>", raw_bodies[-1])
        self.assertIn("<PartsCount>3</PartsCount>", raw_bodies[-1])
        parts = attributes["ObjectParts"]
        self.assertEqual(parts["TotalPartsCount"], 3)
        self.assertEqual(parts["MaxParts"], 1000)
        self.assertFalse(parts["IsTruncated"])
        self.assertEqual([p["PartNumber"] for p in parts["Parts"]], [1, 2, 3])
        for part in parts["Parts"]:
            served = client.get_object(Bucket=bucket, Key="multi", PartNumber=part["PartNumber"],
                                       ChecksumMode="ENABLED")
            self.assertEqual(part["Size"], served["ContentLength"])
            self.assertEqual(part["Size"], PART_SIZES[part["PartNumber"] - 1])
            self.assertEqual(part["ChecksumCRC32"], served["ChecksumCRC32"])
            self.assertEqual(part["ChecksumCRC32"], completed[part["PartNumber"] - 1]["ChecksumCRC32"])

        # One part a page: markers walk 0 -> 1 -> 2 -> 3.
        seen, marker = [], 0
        for expected_next in (1, 2, 3):
            page = client.get_object_attributes(Bucket=bucket, Key="multi", MaxParts=1,
                                                PartNumberMarker=marker,
                                                ObjectAttributes=["ObjectParts"])["ObjectParts"]
            self.assertEqual(page["MaxParts"], 1)
            self.assertEqual(page["PartNumberMarker"], marker)
            self.assertEqual(page["NextPartNumberMarker"], expected_next)
            self.assertEqual(page["IsTruncated"], expected_next < 3)
            self.assertEqual(len(page["Parts"]), 1)
            seen.append(page["Parts"][0]["PartNumber"])
            marker = page["NextPartNumberMarker"]
        self.assertEqual(seen, [1, 2, 3])

        self.assertEqual(error_of(lambda: client.get_object_attributes(
            Bucket=bucket, Key="multi", ObjectAttributes=["Bogus"])), (400, "InvalidArgument"))
        self.assertEqual(error_of(lambda: client.get_object_attributes(
            Bucket=bucket, Key="missing", ObjectAttributes=["ETag"])), (404, "NoSuchKey"))

        def drop_attributes_header(request, **_):
            del request.headers["x-amz-object-attributes"]
        client.meta.events.register("before-sign.s3.GetObjectAttributes", drop_attributes_header)
        self.assertEqual(error_of(lambda: client.get_object_attributes(
            Bucket=bucket, Key="multi", ObjectAttributes=["ETag"])), (400, "InvalidArgument"))


if __name__ == "__main__":
    harness.main()
