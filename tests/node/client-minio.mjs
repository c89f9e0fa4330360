// S3 operations with the MinIO JavaScript client (minio), for the integration tests
// (tests/integration/harness.py: NodeS3Client). Same interface as client-aws-sdk.mjs:
//
//   node client-minio.mjs make-bucket BUCKET
//   node client-minio.mjs upload BUCKET KEY FILE PART_SIZE     fPutObject, client partSize
//   node client-minio.mjs download BUCKET KEY FILE             fGetObject
//   node client-minio.mjs list BUCKET
//   node client-minio.mjs delete-object BUCKET KEY
//   node client-minio.mjs remove-bucket BUCKET
//
// Endpoint and keys come from S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_REGION. Prints one
// JSON object on stdout and exits 0, or prints {"error": ...} and exits 1.
//
// Over plain HTTP the client signs the SHA-256 of every body (no UNSIGNED-PAYLOAD) and sends
// Content-MD5 with every part. fPutObject makes a multipart upload when the file is bigger than
// the part size; it first looks for an unfinished upload of the same key (ListMultipartUploads).
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import * as Minio from "minio";

function env(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set`);
  }
  return value;
}

// The client object depends on the part size, which only `upload` sets.
function makeClient(partSize) {
  const endpoint = new URL(env("S3_ENDPOINT"));
  return new Minio.Client({
    endPoint: endpoint.hostname,
    port: Number(endpoint.port),
    useSSL: endpoint.protocol === "https:",
    accessKey: env("S3_ACCESS_KEY"),
    secretKey: env("S3_SECRET_KEY"),
    region: process.env.S3_REGION || "us-east-1",
    pathStyle: true,
    ...(partSize && { partSize }),
  });
}

async function sha256File(file) {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk);
  }
  return hash.digest("hex");
}

async function makeBucket(bucket) {
  await makeClient().makeBucket(bucket, process.env.S3_REGION || "us-east-1");
  return { created: true };
}

async function upload(bucket, key, file, partSizeText) {
  const result = await makeClient(Number(partSizeText)).fPutObject(bucket, key, file, {
    "Content-Type": "application/octet-stream",
  });
  return { etag: result.etag };
}

async function download(bucket, key, file) {
  await makeClient().fGetObject(bucket, key, file);
  return { sha256: await sha256File(file) };
}

async function list(bucket) {
  const objects = {};
  const stream = makeClient().listObjectsV2(bucket, "", true);
  for await (const item of stream) {
    if (item.name !== undefined) {
      objects[item.name] = item.size;
    }
  }
  return { objects };
}

async function deleteObject(bucket, key) {
  await makeClient().removeObject(bucket, key);
  return { deleted: true };
}

async function removeBucket(bucket) {
  await makeClient().removeBucket(bucket);
  return { removed: true };
}

const operations = {
  "make-bucket": makeBucket,
  upload,
  download,
  list,
  "delete-object": deleteObject,
  "remove-bucket": removeBucket,
};

const [operation, ...args] = process.argv.slice(2);
try {
  if (!operations[operation]) {
    throw new Error(`unknown operation ${operation}; one of ${Object.keys(operations).join(", ")}`);
  }
  const result = await operations[operation](...args);
  process.stdout.write(JSON.stringify({ operation, ...result }) + "\n");
} catch (error) {
  const report = {
    operation,
    error: {
      name: error.name,
      message: error.message,
      code: error.code ?? null,
      status: error.statusCode ?? null,
      requestId: error.amzRequestid ?? null,
    },
  };
  process.stdout.write(JSON.stringify(report) + "\n");
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
}
