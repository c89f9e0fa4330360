#!/usr/bin/env node
// Reader for `s3fault gate`: the AWS SDK for JavaScript v3 (@aws-sdk/client-s3), one
// GetObjectCommand for the whole object, its body streamed to the output file
// (stream.pipeline: an error or a connection cut short mid-body rejects, and the script fails).
//
//   s3fault gate --reader examples/readers/aws-sdk-js.mjs
//
// Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_OUTPUT, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); writes the
// object to $S3FAULT_OUTPUT; exits 0 on success, 1 on any error (its last line on stderr says
// which). By hand, against
// `s3fault origin --listen 127.0.0.1:9000`:
//
//   S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
//   S3FAULT_OUTPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
//   AWS_REGION=us-east-1 examples/readers/aws-sdk-js.mjs
//
// The SDK is the one tests/deps.sh installs in tests/node/node_modules (version pinned in
// tests/node/package.json), found relative to this script, so it runs from any directory. Needs
// Node.js 20 or later. Path-style URLs and explicit keys, as in tests/node/client-aws-sdk.mjs;
// no shared config or credentials file is read. Retries (maxAttempts 3, standard mode) and
// response checksum validation are left at the SDK's defaults on purpose: the gate shows how the
// real client behaves, retries included.
import { createRequire } from "node:module";
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";

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
const { S3Client, GetObjectCommand } = require("@aws-sdk/client-s3");

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
  const out = await client.send(
    new GetObjectCommand({ Bucket: env("S3FAULT_BUCKET"), Key: env("S3FAULT_KEY") }),
  );
  await pipeline(out.Body, createWriteStream(env("S3FAULT_OUTPUT")));
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
