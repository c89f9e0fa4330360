// The readers' shared pieces on plain values: the catalog, the checks of bodies against
// x-amz-checksum-* and of objects against MD5 ETags, and output files that cannot be written.
// (Content-Range and header numbers are text/'s, tested in tests/unit/text.)
#include "conformance/readers/reader_support.hpp"
#include "conformance/s3/hashing.hpp"
#include "tests/conformance/readers/readers_test_support.hpp"

#include <algorithm>
#include <sstream>

namespace s3fault::readers {
namespace {

client::response answer(unsigned status, std::string code = "") {
  client::response response;
  response.status = status;
  if (!code.empty()) {
    response.error = client::s3_error{code, "", "", "", ""};
  }
  return response;
}

/// A runner over scripted responses: each attempt takes the next one.
struct scripted_run {
  std::vector<client::response> script;
  std::size_t sent = 0;

  request_runner::outcome run(request_runner& runner) {
    return runner.run(
        "GET partNumber=1", [&] { return script.at(sent++); },
        [](const client::response& response) { return judge_transport(response, nullptr); });
  }
};

TEST(RequestRunner, RetriesA503AndCountsEveryAttempt) {
  std::ostringstream out;
  request_log log(out, "test");
  read_request request;
  request.backoff = std::chrono::milliseconds(0);
  request_runner runner(request, log);
  scripted_run script{{answer(503, "SlowDown"), answer(500, "InternalError"), answer(200)}};
  const auto outcome = script.run(runner);
  EXPECT_TRUE(outcome.ok()) << outcome.error;
  EXPECT_EQ(outcome.response.status, 200u);
  EXPECT_EQ(runner.requests(), 3u);
  EXPECT_EQ(runner.retries(), 2u);
  EXPECT_NE(out.str().find("test: GET partNumber=1 -> 503 SlowDown, 0 bytes [attempt 1/5]; "
                           "retrying in 0ms\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("test: GET partNumber=1 -> 200, 0 bytes [attempt 3/5]\n"),
            std::string::npos)
      << out.str();
}

TEST(RequestRunner, GivesUpAfterMaxAttempts) {
  std::ostringstream out;
  request_log log(out, "test");
  read_request request;
  request.max_attempts = 2;
  request.backoff = std::chrono::milliseconds(0);
  request_runner runner(request, log);
  scripted_run script{{answer(503, "SlowDown"), answer(503, "SlowDown"), answer(200)}};
  const auto outcome = script.run(runner);
  EXPECT_EQ(outcome.error, "GET partNumber=1: gave up after 2 attempts, last: 503 SlowDown");
  EXPECT_EQ(script.sent, 2u);
  EXPECT_NE(out.str().find("; giving up"), std::string::npos) << out.str();
}

TEST(RequestRunner, A412OrA404IsFinal) {
  std::ostringstream out;
  request_log log(out, "test");
  read_request request;
  request_runner runner(request, log);
  scripted_run changed{{answer(412, "PreconditionFailed"), answer(200)}};
  EXPECT_EQ(changed.run(runner).error,
            "GET partNumber=1: the object changed since the first read (If-Match refused: 412 "
            "PreconditionFailed)");
  scripted_run missing{{answer(404, "NoSuchKey"), answer(200)}};
  // Not judge_transport's business: accepted, for the reader to decide.
  EXPECT_TRUE(missing.run(runner).ok());
  EXPECT_EQ(runner.retries(), 0u);
}

client::response with_headers(client::header_list headers) {
  client::response response = answer(206);
  response.headers = std::move(headers);
  return response;
}

/// An output file holding "hello, world" at offset 0.
struct written_file {
  testing::scratch_dir dir;
  output_file file;
  const std::string bytes = "hello, world";

  written_file() {
    std::string error;
    EXPECT_TRUE(file.open(dir.file("out"), error)) << error;
    EXPECT_TRUE(file.write_at(0, bytes, error)) << error;
  }
  std::string crc32() const {
    auto sum = s3::checksum::create("crc32");
    sum->update(bytes);
    return sum->base64_digest();
  }
};

TEST(BodyChecksums, AMatchingChecksumIsCheckedAndSaidSo) {
  written_file out;
  const auto verdict = verify_body_checksums(with_headers({{"x-amz-checksum-crc32", out.crc32()}}),
                                             out.file, 0, out.bytes.size());
  EXPECT_EQ(verdict.what, attempt_verdict::kind::accept);
  EXPECT_EQ(verdict.reason, "x-amz-checksum-crc32 checked");
}

TEST(BodyChecksums, AMismatchIsRetriedNamingBothValues) {
  written_file out;
  // The checksum of other bytes: "hello, world" read one byte short.
  const auto verdict = verify_body_checksums(with_headers({{"X-Amz-Checksum-CRC32", out.crc32()}}),
                                             out.file, 0, out.bytes.size() - 1);
  EXPECT_EQ(verdict.what, attempt_verdict::kind::retry);
  auto sum = s3::checksum::create("crc32");
  sum->update("hello, worl");
  EXPECT_EQ(verdict.reason, "x-amz-checksum-crc32 mismatch: expected " + out.crc32() + ", got " +
                                sum->base64_digest() + " over the 11 bytes received");
}

TEST(BodyChecksums, WhatDoesNotDescribeTheseBytesIsNotChecked) {
  written_file out;
  const auto size = out.bytes.size();
  const auto composite = verify_body_checksums(
      with_headers({{"x-amz-checksum-crc32", "AAAAAA==-3"}, {"x-amz-checksum-type", "COMPOSITE"}}),
      out.file, 0, size);
  EXPECT_EQ(composite.what, attempt_verdict::kind::accept);
  EXPECT_EQ(composite.reason, "x-amz-checksum-crc32 AAAAAA==-3 is a checksum of part checksums, "
                              "not of these bytes: not checked");
  const auto whole_object =
      verify_body_checksums(with_headers({{"Content-Range", "bytes 0-11/100"},
                                          {"x-amz-checksum-crc32", "AAAAAA=="},
                                          {"x-amz-checksum-type", "FULL_OBJECT"}}),
                            out.file, 0, size);
  EXPECT_EQ(whole_object.what, attempt_verdict::kind::accept);
  EXPECT_NE(whole_object.reason.find("is the whole object's (FULL_OBJECT)"), std::string::npos)
      << whole_object.reason;
  const auto garbled =
      verify_body_checksums(with_headers({{"x-amz-checksum-sha256", "%%%"}}), out.file, 0, size);
  EXPECT_EQ(garbled.what, attempt_verdict::kind::accept);
  EXPECT_EQ(garbled.reason, "x-amz-checksum-sha256 %%% is not a base64 digest: not checked");
  const auto none = verify_body_checksums(with_headers({}), out.file, 0, size);
  EXPECT_EQ(none.what, attempt_verdict::kind::accept);
  EXPECT_EQ(none.reason, "no x-amz-checksum-* in the response: bytes not checked");
}

TEST(BodyChecksums, AFullObjectChecksumOfTheWholeObjectIsChecked) {
  written_file out;
  const auto verdict = verify_body_checksums(with_headers({{"Content-Range", "bytes 0-11/12"},
                                                           {"x-amz-checksum-crc32", "AAAAAA=="},
                                                           {"x-amz-checksum-type", "FULL_OBJECT"}}),
                                             out.file, 0, out.bytes.size());
  EXPECT_EQ(verdict.what, attempt_verdict::kind::retry);
}

TEST(BodyChecksums, BytesThatCannotBeReadBackFailTheRead) {
  written_file out;
  const auto verdict = verify_body_checksums(with_headers({{"x-amz-checksum-crc32", out.crc32()}}),
                                             out.file, 5, out.bytes.size());
  EXPECT_EQ(verdict.what, attempt_verdict::kind::fail);
  EXPECT_NE(verdict.reason.find("cannot read back"), std::string::npos) << verdict.reason;
}

TEST(EtagMd5, OnlyAQuotedDigestOfAPlainObjectIsAnMd5) {
  std::string why_not;
  EXPECT_EQ(etag_md5(with_headers({{"ETag", "\"5D41402ABC4B2A76B9719D911017C592\""}}), why_not),
            "5d41402abc4b2a76b9719d911017c592");
  const std::vector<std::pair<client::header_list, std::string>> refused = {
      {{}, "no ETag"},
      {{{"ETag", "\"5d41402abc4b2a76b9719d911017c592-3\""}}, "is a multipart ETag"},
      {{{"ETag", "5d41402abc4b2a76b9719d911017c592"}}, "is not a quoted MD5"},
      {{{"ETag", "W/\"5d41402abc4b2a76b9719d911017c592\""}}, "is not a quoted MD5"},
      {{{"ETag", "\"5d41402abc4b2a76b9719d911017c59\""}}, "is not a quoted MD5"},
      {{{"ETag", "\"5d41402abc4b2a76b9719d911017c59g\""}}, "is not a quoted MD5"},
      {{{"ETag", "\"5d41402abc4b2a76b9719d911017c592\""},
        {"x-amz-server-side-encryption", "aws:kms"}},
       "of an SSE-KMS object is not its MD5"},
      {{{"ETag", "\"5d41402abc4b2a76b9719d911017c592\""},
        {"x-amz-server-side-encryption-customer-algorithm", "AES256"}},
       "of an SSE-C object is not its MD5"},
  };
  for (const auto& [headers, reason] : refused) {
    why_not.clear();
    EXPECT_FALSE(etag_md5(with_headers(headers), why_not)) << reason;
    EXPECT_NE(why_not.find(reason), std::string::npos) << why_not;
  }
  // SSE-S3 keeps the MD5 ETag.
  EXPECT_TRUE(etag_md5(with_headers({{"ETag", "\"5d41402abc4b2a76b9719d911017c592\""},
                                     {"x-amz-server-side-encryption", "AES256"}}),
                       why_not));
}

TEST(EtagMd5, TheOutputIsComparedWithTheEtag) {
  written_file out;
  const auto md5 = s3::md5_hex(out.bytes);
  EXPECT_EQ(compare_md5(out.file, out.bytes.size(), md5, "\"" + md5 + "\""), "");
  const auto other = s3::md5_hex("hello, worl");
  EXPECT_EQ(compare_md5(out.file, out.bytes.size(), other, "\"" + other + "\""),
            "MD5 of the object (" + md5 + ") does not match its ETag \"" + other +
                "\": the bytes were damaged on the way");
}

TEST(ReaderCatalog, FindsEachReaderByName) {
  EXPECT_EQ(reader_names(),
            (std::vector<std::string_view>{"naive-parts", "robust-parts", "ranged"}));
  EXPECT_EQ(find_reader("naive-parts"), &read_naive_parts);
  EXPECT_EQ(find_reader("robust-parts"), &read_robust_parts);
  EXPECT_EQ(find_reader("ranged"), &read_ranged);
  EXPECT_EQ(find_reader("naive"), nullptr);
  EXPECT_EQ(find_reader(""), nullptr);
  for (const auto name : reader_names()) {
    const auto algorithm = reader_algorithm(name);
    EXPECT_EQ(std::count(algorithm.begin(), algorithm.end(), '\n'), 1) << name;
  }
  EXPECT_TRUE(reader_algorithm("nope").empty());
}

TEST(ReaderOutput, AnUncreatableFileFailsBeforeAnyRequest) {
  for (const auto name : reader_names()) {
    auto request =
        testing::request_for("http://127.0.0.1:9", "object", "/nonexistent-dir/s3fault/out");
    const auto run = testing::run_reader(find_reader(name), request);
    EXPECT_FALSE(run.result.ok) << name;
    EXPECT_NE(run.result.error.find("cannot create /nonexistent-dir/s3fault/out"),
              std::string::npos)
        << run.result.error;
    EXPECT_EQ(run.result.requests, 0u) << name;
  }
}

TEST(ReaderOutput, NoStoreListeningIsAFailureAfterTheRetries) {
  std::string url;
  {
    origin::embedded_origin gone;
    url = gone.url();
  }
  testing::scratch_dir dir;
  auto request = testing::request_for(url, "object", dir.file("out"));
  request.max_attempts = 3;
  const auto robust = testing::run_reader(read_robust_parts, request);
  EXPECT_FALSE(robust.result.ok);
  EXPECT_NE(robust.result.error.find("gave up after 3 attempts"), std::string::npos)
      << robust.result.error;
  EXPECT_EQ(robust.result.requests, 3u);
  EXPECT_EQ(robust.result.retries, 2u);
  const auto naive = testing::run_reader(read_naive_parts, request);
  EXPECT_FALSE(naive.result.ok);
  EXPECT_EQ(naive.result.requests, 1u);
}

TEST(ReaderOutput, AMissingObjectFailsEveryReaderWithoutRetries) {
  testing::test_store store;
  testing::scratch_dir dir;
  for (const auto name : reader_names()) {
    const auto run = testing::run_reader(
        find_reader(name), testing::request_for(store.url(), "missing", dir.file("out")));
    EXPECT_FALSE(run.result.ok) << name;
    EXPECT_NE(run.result.error.find("404"), std::string::npos) << name << ": " << run.result.error;
    EXPECT_EQ(run.result.requests, 1u) << name;
  }
}

} // namespace
} // namespace s3fault::readers
