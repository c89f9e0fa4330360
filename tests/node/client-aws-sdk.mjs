// S3 operations with the AWS SDK for JavaScript v3 (@aws-sdk/client-s3), for the integration
// tests (tests/integration/harness.py: NodeS3Client).
//
//   node client-aws-sdk.mjs make-bucket BUCKET
//   node client-aws-sdk.mjs upload BUCKET KEY FILE PART_SIZE     multipart, parts as streams
//   node client-aws-sdk.mjs download BUCKET KEY FILE
//   node client-aws-sdk.mjs list BUCKET
//   node client-aws-sdk.mjs delete-object BUCKET KEY
//   node client-aws-sdk.mjs remove-bucket BUCKET
//
// Endpoint and keys come from S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_REGION. Prints one
// JSON object on stdout (HTTP statuses, ETags, the headers the SDK actually sent...) and exits 0,
// or prints {"error": ...} and exits 1. No retries: every failure reaches the test.
//
// The upload does not use @aws-sdk/lib-storage (examples/writers/aws-sdk-js.mjs does): it sends
// CreateMultipartUpload, UploadPart and CompleteMultipartUpload directly, the way lib-storage does. Each part body is a file
// stream, so the SDK's default request checksums (WHEN_SUPPORTED, CRC32) send it with
// `Content-Encoding: aws-chunked`, `Transfer-Encoding: chunked` and a trailing
// `x-amz-checksum-crc32` (x-amz-content-sha256: STREAMING-UNSIGNED-PAYLOAD-TRAILER); the
// headers of every UploadPart as sent are returned, so the test can check that path was taken.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, statSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import {
  S3Client,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
  CompleteMultipartUploadCommand,
  AbortMultipartUploadCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  DeleteObjectCommand,
  DeleteBucketCommand,
} from "@aws-sdk/client-s3";

function env(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set`);
  }
  return value;
}

const client = new S3Client({
  endpoint: env("S3_ENDPOINT"),
  region: process.env.S3_REGION || "us-east-1",
  forcePathStyle: true,
  credentials: { accessKeyId: env("S3_ACCESS_KEY"), secretAccessKey: env("S3_SECRET_KEY") },
  maxAttempts: 1,
  requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
});

// Records the final request head of every UploadPart (after checksum and signing middleware:
// the deserialize step is the last before the HTTP handler).
const sentUploadPartHeaders = [];
client.middlewareStack.add(
  (next, context) => async (args) => {
    if (context.commandName === "UploadPartCommand") {
      sentUploadPartHeaders.push({ ...args.request.headers });
    }
    return next(args);
  },
  { step: "deserialize", name: "recordUploadPartHeaders" },
);

const status = (output) => output.$metadata.httpStatusCode;

async function makeBucket(bucket) {
  const out = await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return { status: status(out) };
}

async function upload(bucket, key, file, partSizeText) {
  const partSize = Number(partSizeText);
  const size = statSync(file).size;
  const created = await client.send(
    new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ChecksumAlgorithm: "CRC32" }),
  );
  const uploadId = created.UploadId;
  const parts = [];
  try {
    for (let start = 0, number = 1; start < size; start += partSize, number++) {
      const length = Math.min(partSize, size - start);
      const out = await client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: number,
          ContentLength: length,
          Body: createReadStream(file, { start, end: start + length - 1 }),
        }),
      );
      parts.push({
        PartNumber: number,
        ETag: out.ETag,
        ...(out.ChecksumCRC32 && { ChecksumCRC32: out.ChecksumCRC32 }),
        status: status(out),
      });
    }
    const completed = await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map(({ status, ...part }) => part) },
      }),
    );
    return {
      createStatus: status(created),
      parts,
      completeStatus: status(completed),
      etag: completed.ETag,
      checksumCRC32: completed.ChecksumCRC32 ?? null,
      sentUploadPartHeaders,
    };
  } catch (error) {
    await client
      .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))
      .catch(() => {});
    error.sentUploadPartHeaders = sentUploadPartHeaders;
    throw error;
  }
}

async function download(bucket, key, file) {
  const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const hash = createHash("sha256");
  let bytes = 0;
  const tap = new Transform({
    transform(chunk, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(out.Body, tap, createWriteStream(file));
  return {
    status: status(out),
    contentLength: out.ContentLength,
    etag: out.ETag,
    bytes,
    sha256: hash.digest("hex"),
  };
}

async function list(bucket) {
  const objects = {};
  let token;
  let statuses = [];
  do {
    const out = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }),
    );
    statuses.push(status(out));
    for (const item of out.Contents ?? []) {
      objects[item.Key] = item.Size;
    }
    token = out.IsTruncated ? out.NextContinuationToken : undefined;
  } while (token);
  return { statuses, objects };
}

async function deleteObject(bucket, key) {
  const out = await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  return { status: status(out) };
}

async function removeBucket(bucket) {
  const out = await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  return { status: status(out) };
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
      code: error.Code ?? error.code ?? null,
      status: error.$metadata?.httpStatusCode ?? null,
      requestId: error.$metadata?.requestId ?? null,
      sentUploadPartHeaders: error.sentUploadPartHeaders ?? null,
    },
  };
  process.stdout.write(JSON.stringify(report) + "\n");
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
}
