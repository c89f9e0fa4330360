#!/usr/bin/env node
// Writer for `s3fault gate --writer`: the MinIO JavaScript client (minio), `fPutObject`. A file
// up to its part size (64 MiB by default, grown by 16 MiB steps to stay under 10,000 parts) is
// read into memory and sent as one PutObject; a bigger one goes up as a multipart upload: a
// ListMultipartUploads first (an upload already open for the key is resumed, its parts listed
// and the ones whose MD5 matches skipped), a CreateMultipartUpload, UploadParts one after the
// other with Content-MD5 (numbered from 2, not 1, in minio 8.0.7), and a
// CompleteMultipartUpload (its 200 with an Error body is an error; a failed multipart upload is
// left open, not aborted). Over http:// the client signs every body's SHA-256
// (x-amz-content-sha256); over https:// it sends Content-MD5 instead. An answer with status 408,
// 429, 499, 500, 502, 503, 504 or 520 is retried once, after a backoff of a few hundred
// milliseconds ("Retrying request" on stderr); a reset connection or any other status is not
// retried.
//
//   s3fault gate --writer examples/writers/minio-js.mjs
//
// Reads S3FAULT_ENDPOINT, S3FAULT_BUCKET, S3FAULT_KEY, S3FAULT_INPUT, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_REGION / AWS_DEFAULT_REGION (the gate sets them all); uploads the
// file $S3FAULT_INPUT to s3://$S3FAULT_BUCKET/$S3FAULT_KEY; exits 0 when the client says it
// succeeded, 1 on any error (its last line on stderr says which). By hand, against
// `s3fault origin --listen 127.0.0.1:9000` (bucket demo created):
//
//   S3FAULT_ENDPOINT=http://127.0.0.1:9000 S3FAULT_BUCKET=demo S3FAULT_KEY=big.bin \
//   S3FAULT_INPUT=/tmp/big.bin AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \
//   AWS_REGION=us-east-1 examples/writers/minio-js.mjs
//
// The client is the one tests/deps.sh installs in tests/node/node_modules (version pinned in
// tests/node/package.json), found relative to this script, so it runs from any directory. Needs
// Node.js 20 or later. Configured as in examples/readers/minio-js.mjs: path-style URLs and the
// region given (so no GetBucketLocation); the client reads no configuration file. Its retries
// (retryOptions: one retry by default in minio 8) are left at the defaults on purpose: the gate
// shows how the real client behaves, retries included.
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
  await client.fPutObject(env("S3FAULT_BUCKET"), env("S3FAULT_KEY"), env("S3FAULT_INPUT"));
} catch (error) {
  // The stack, then one line that says what failed (the gate shows the end of stderr).
  process.stderr.write(`${error.stack ?? error}\n`);
  process.stderr.write(
    `minio-js.mjs: failed: ${error.name}: ${error.message}` +
      (error.code ? ` (${error.code})` : "") + "\n",
  );
  process.exitCode = 1;
}
