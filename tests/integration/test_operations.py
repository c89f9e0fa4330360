"""Every S3 operation by its own name, from the outside: Debian's aws cli through
`s3fault proxy` in front of `s3fault origin`, with `error SlowDown` rules on
ListMultipartUploads, UploadPartCopy and GetBucketLocation. Those three calls get 503 SlowDown
while their neighbours (ListObjectsV2, UploadPart, HeadBucket) pass, /metrics counts each under
its own name, and the origin answers the three itself, and an operation it does not serve with
501 NotImplemented naming it."""

import json
import unittest

import harness

RULES = ["error SlowDown op=ListMultipartUploads name=slow-uploads-list",
         "error SlowDown op=UploadPartCopy name=slow-part-copy",
         "error SlowDown op=getbucketlocation name=slow-location"]


def metric(text: str, operation: str, status_class: str) -> float:
    return harness.prometheus_value(text, "s3fault_requests_total", operation=operation,
                                    status_class=status_class)


class OperationsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = harness.scratch_root() / harness.unique_bucket_name("operations")
        self.tmp.mkdir(parents=True)
        self.origin = harness.OriginProcess()
        self.origin.start()
        self.addCleanup(harness.stop_and_check, self.origin)
        args = ["--admin", "127.0.0.1:0"]
        for rule in RULES:
            args += ["--fault", rule]
        self.proxy = harness.ProxyProcess(self.origin.url, args)
        self.proxy.start()
        self.addCleanup(self.proxy.stop)
        self.admin = next(line.split(" ", 2)[2] for line in self.proxy.stdout_lines
                          if line.startswith("admin on "))
        store = self.origin.store()
        self.through = harness.AwsCli(self.proxy.url, store, self.tmp / "aws-proxy")
        self.direct = harness.AwsCli(self.origin.url, store, self.tmp / "aws-direct")
        self.bucket = harness.unique_bucket_name("ops")
        self.direct.run("s3api", "create-bucket", "--bucket", self.bucket)
        body = self.tmp / "src.bin"
        body.write_bytes(b"s" * 1024)
        self.direct.run("s3api", "put-object", "--bucket", self.bucket, "--key", "src",
                        "--body", str(body))
        created = self.direct.run("s3api", "create-multipart-upload", "--bucket", self.bucket,
                                  "--key", "k").stdout
        self.upload_id = json.loads(created)["UploadId"]

    def s3api(self, cli: harness.AwsCli, *args: str):
        return cli.run("s3api", *args, check=False)

    def assert_slowdown(self, *args: str):
        result = self.s3api(self.through, *args)
        self.assertNotEqual(result.returncode, 0, result.stdout)
        self.assertIn("SlowDown", result.stderr)

    def assert_passes(self, cli: harness.AwsCli, *args: str):
        result = self.s3api(cli, *args)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def test_each_named_operation_gets_its_fault_and_its_neighbours_pass(self):
        part_copy = ["upload-part-copy", "--bucket", self.bucket, "--key", "k", "--upload-id",
                     self.upload_id, "--part-number", "1", "--copy-source", f"{self.bucket}/src"]
        self.assert_slowdown("list-multipart-uploads", "--bucket", self.bucket)
        self.assert_slowdown(*part_copy)
        self.assert_slowdown("get-bucket-location", "--bucket", self.bucket)
        self.assert_passes(self.through, "list-objects-v2", "--bucket", self.bucket)
        self.assert_passes(self.through, "head-bucket", "--bucket", self.bucket)
        part = self.tmp / "part.bin"
        part.write_bytes(b"p" * 1024)
        self.assert_passes(self.through, "upload-part", "--bucket", self.bucket, "--key", "k",
                           "--upload-id", self.upload_id, "--part-number", "2", "--body",
                           str(part))

        text = harness.metrics_once_counted(self.admin, operation="UploadPart", status_class="2xx")
        for operation in ("ListMultipartUploads", "UploadPartCopy", "GetBucketLocation"):
            self.assertEqual(metric(text, operation, "5xx"), 1, operation)
            self.assertEqual(metric(text, operation, "2xx"), 0, operation)
        for operation in ("ListObjectsV2", "HeadBucket", "UploadPart"):
            self.assertEqual(metric(text, operation, "2xx"), 1, operation)
        self.assertNotIn('operation="Other"', text)
        for rule in ("slow-uploads-list", "slow-part-copy", "slow-location"):
            self.assertEqual(harness.prometheus_value(text, "s3fault_faults_injected_total",
                                                      rule=rule), 1, rule)

        # The origin serves all three itself: the faults were the proxy's.
        uploads = json.loads(self.assert_passes(self.direct, "list-multipart-uploads",
                                                "--bucket", self.bucket))
        self.assertEqual([u["UploadId"] for u in uploads["Uploads"]], [self.upload_id])
        copied = json.loads(self.assert_passes(self.direct, *part_copy))
        self.assertIn("ETag", copied["CopyPartResult"])
        self.assert_passes(self.direct, "get-bucket-location", "--bucket", self.bucket)

    def test_the_origin_names_an_operation_it_does_not_serve(self):
        rules = self.tmp / "cors.json"
        rules.write_text(json.dumps({"CORSRules": [{"AllowedMethods": ["GET"],
                                                     "AllowedOrigins": ["*"]}]}))
        result = self.s3api(self.direct, "put-bucket-cors", "--bucket", self.bucket,
                            "--cors-configuration", f"file://{rules}")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("NotImplemented", result.stderr)
        self.assertIn("PutBucketCors", result.stderr)


if __name__ == "__main__":
    unittest.main()
