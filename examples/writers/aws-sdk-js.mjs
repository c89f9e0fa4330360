#!/usr/bin/env node
// Writer for `s3fault gate --writer`: the AWS SDK for JavaScript v3's managed upload, `Upload`
// of @aws-sdk/lib-storage, the input file given as a stream. A file of one part (5 MiB, the
// default and minimum partSize, or less) goes up as one PutObject; a bigger one as a
// CreateMultipartUpload, UploadParts of 5 MiB, 4 at a time (queueSize), and a
// CompleteMultipartUpload; on any error the upload is aborted (AbortMultipartUpload) and done()
// rejects. Over http:// every body's SHA-256 is signed (x-amz-content-sha256), and the SDK's
// default request checksums add a CRC32 of it (x-amz-checksum-crc32) and ask for a CRC32
// multipart upload; a body the store finds altered is a 400, not retried. A
// CompleteMultipartUpload answered 200 with an Error body is an error (retried like a 503).
//
//   s3fault gate --writer examples/writers/aws-sdk-js.mjs
//
// Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_INPUT, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); uploads the
// file $S3FAULT_INPUT to s3://$S3FAULT_BUCKET/$S3FAULT_KEY; exits 0 when the SDK says it
// succeeded, 1 on any error (its last line on stderr says which). By hand, against
// `s3fault origin --listen 127.0.0.1:9000` (bucket demo created):
//
//   S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
//   S3FAULT_INPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
//   AWS_REGION=us-east-1 examples/writers/aws-sdk-js.mjs
//
// The SDK (@aws-sdk/client-s3 and @aws-sdk/lib-storage of the same version) is the one
// tests/deps.sh installs in tests/node/node_modules (versions pinned in tests/node/package.json),
// found relative to this script, so it runs from any directory. Needs Node.js 20 or later.
// The client is configured as in examples/readers/aws-sdk-js.mjs: path-style URLs and explicit
// keys; no shared config or credentials file is read. Retries (maxAttempts 3, standard mode),
// request checksums and the Upload's part size and concurrency are left at the SDK's defaults on
// purpose: the gate shows how the real client behaves, retries included.
import { createRequire } from "node:module";
import { createReadStream } from "node:fs";

function env(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set`);
  }
  return value;
}

// Before the SDK reads its configuration: no files from the machine, no Node-version notice.
process.env.AWS_CONFIG_FILE = "/dev/null";
process.env.AWS_SHARED_CREDENTIALS_FILE = "/dev/null";
process.env.AWS_EC2_METADATA_DISABLED = "true";
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
for (const name of ["AWS_PROFILE", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE", "AWS_ENDPOINT_URL"]) {
  delete process.env[name];
}

const require = createRequire(new URL("../../tests/node/package.json", import.meta.url));
const { S3Client } = require("@aws-sdk/client-s3");
const { Upload } = require("@aws-sdk/lib-storage");

const client = new S3Client({
  endpoint: env("S3FAULT_ENDPOINT"),
  region: process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || "us-east-1",
  forcePathStyle: true,
  credentials: {
    accessKeyId: env("AWS_ACCESS_KEY_ID"),
    secretAccessKey: env("AWS_SECRET_ACCESS_KEY"),
  },
});

try {
  const upload = new Upload({
    client,
    params: {
      Bucket: env("S3FAULT_BUCKET"),
      Key: env("S3FAULT_KEY"),
      Body: createReadStream(env("S3FAULT_INPUT")),
    },
  });
  await upload.done();
} catch (error) {
  // The stack, then one line that says what failed (the gate shows the end of stderr).
  const status = error.$metadata?.httpStatusCode;
  process.stderr.write(`${error.stack ?? error}\n`);
  process.stderr.write(
    `aws-sdk-js.mjs: failed: ${error.name}: ${error.message}` +
      (status ? ` (HTTP ${status})` : "") + "\n",
  );
  process.exitCode = 1;
}
