#!/usr/bin/env node
// Reader for `s3fault gate`: the MinIO JavaScript client (minio), `fGetObject`. It makes a
// HeadObject (statObject), one GetObject of the whole object into OUTPUT.<etag>.part.minio,
// checks that file's size against the HeadObject's Content-Length ("Size mismatch between
// downloaded file and the object" when not) and renames it to the output. A .part.minio file
// left beside the output by an earlier failed run is resumed from its end (a ranged GET).
//
//   s3fault gate --reader examples/readers/minio-js.mjs
//
// Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_OUTPUT, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); writes the
// object to $S3FAULT_OUTPUT; exits 0 on success, 1 on any error (its last line on stderr says
// which). By hand, against
// `s3fault origin --listen 127.0.0.1:9000`:
//
//   S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
//   S3FAULT_OUTPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
//   AWS_REGION=us-east-1 examples/readers/minio-js.mjs
//
// The client is the one tests/deps.sh installs in tests/node/node_modules (version pinned in
// tests/node/package.json), found relative to this script, so it runs from any directory. Needs
// Node.js 20 or later. Path-style URLs and the region given (so no GetBucketLocation), as in
// tests/node/client-minio.mjs. The client retries a request once on a retryable status (503
// among them; minio 8.0.7, MAX_RETRIES = 1 in dist/esm/internal/request.mjs).
import { createRequire } from "node:module";

function env(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set`);
  }
  return value;
}

const require = createRequire(new URL("../../tests/node/package.json", import.meta.url));
const Minio = require("minio");

const endpoint = new URL(env("S3FAULT_ENDPOINT"));
const useSSL = endpoint.protocol === "https:";
const client = new Minio.Client({
  endPoint: endpoint.hostname,
  port: Number(endpoint.port) || (useSSL ? 443 : 80),
  useSSL,
  accessKey: env("AWS_ACCESS_KEY_ID"),
  secretKey: env("AWS_SECRET_ACCESS_KEY"),
  region: process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || "us-east-1",
  pathStyle: true,
});

try {
  await client.fGetObject(env("S3FAULT_BUCKET"), env("S3FAULT_KEY"), env("S3FAULT_OUTPUT"));
} catch (error) {
  // The stack, then one line that says what failed (the gate shows the end of stderr).
  process.stderr.write(`${error.stack ?? error}\n`);
  process.stderr.write(
    `minio-js.mjs: failed: ${error.name}: ${error.message}` +
      (error.code ? ` (${error.code})` : "") + "\n",
  );
  process.exitCode = 1;
}
