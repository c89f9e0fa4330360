// The origin over HTTP on 127.0.0.1 (port 0), with signed requests: raw statuses, headers and
// bodies as a client sees them.
#include "origin_test_support.hpp"

#include "conformance/s3/hashing.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>

namespace s3fault::origin {
namespace {

using testing::raw_request;
using testing::raw_response;
using testing::running_origin;

constexpr std::size_t mib = 1024 * 1024;

std::string random_bytes(std::size_t size, unsigned seed) {
  std::mt19937_64 engine(seed);
  std::string out(size, '\0');
  for (std::size_t i = 0; i < size; i += 8) {
    const std::uint64_t value = engine();
    std::memcpy(out.data() + i, &value, std::min<std::size_t>(8, size - i));
  }
  return out;
}

std::string between(const std::string& text, const std::string& open, const std::string& close) {
  const auto from = text.find(open);
  if (from == std::string::npos) {
    return "";
  }
  const auto to = text.find(close, from + open.size());
  return text.substr(from + open.size(), to - from - open.size());
}

class OriginHttp : public ::testing::Test {
protected:
  void SetUp() override { ASSERT_EQ(origin_.send({"PUT", "/bucket"}).status, 200u); }

  raw_response put(const std::string& key, const std::string& body, s3::header_list headers = {}) {
    return origin_.send({"PUT", "/bucket/" + key, std::move(headers), body});
  }
  raw_response get(const std::string& target, s3::header_list headers = {}) {
    return origin_.send({"GET", target, std::move(headers)});
  }

  /// CreateMultipartUpload, one UploadPart per piece, CompleteMultipartUpload (as aws cli does).
  raw_response upload_in_parts(const std::string& key, const std::string& data,
                               std::size_t part_size) {
    const auto created = origin_.send({"POST", "/bucket/" + key + "?uploads"});
    EXPECT_EQ(created.status, 200u) << created.body;
    const std::string upload_id = between(created.body, "<UploadId>", "</UploadId>");
    std::string complete = "<CompleteMultipartUpload>";
    unsigned number = 1;
    for (std::size_t offset = 0; offset < data.size(); offset += part_size, ++number) {
      const std::string piece = data.substr(offset, part_size);
      const auto part = origin_.send(
          {"PUT",
           "/bucket/" + key + "?partNumber=" + std::to_string(number) + "&uploadId=" + upload_id,
           {{"Content-MD5", s3::base64_encode(s3::md5_raw(piece))}},
           piece});
      EXPECT_EQ(part.status, 200u) << part.body;
      complete += "<Part><PartNumber>" + std::to_string(number) + "</PartNumber><ETag>" +
                  part.header("ETag").value_or("") + "</ETag></Part>";
    }
    complete += "</CompleteMultipartUpload>";
    return origin_.send({"POST", "/bucket/" + key + "?uploadId=" + upload_id, {}, complete});
  }

  running_origin origin_;
};

TEST_F(OriginHttp, AwsCliStyleMultipartThenPartReads) {
  const std::string data = random_bytes(20 * mib, 1);
  const auto completed = upload_in_parts("big.bin", data, 8 * mib);
  ASSERT_EQ(completed.status, 200u) << completed.body;
  const std::string etag = between(completed.body, "<ETag>", "</ETag>");
  EXPECT_TRUE(etag.ends_with("-3\"")) << etag;

  const auto part1 = get("/bucket/big.bin?partNumber=1");
  EXPECT_EQ(part1.status, 206u);
  EXPECT_EQ(part1.header("x-amz-mp-parts-count"), "3");
  EXPECT_EQ(part1.header("Content-Range"), "bytes 0-8388607/20971520");
  EXPECT_EQ(part1.header("Content-Length"), "8388608");
  EXPECT_EQ(part1.header("ETag"), etag);
  EXPECT_TRUE(part1.header("ETag")->ends_with("-3\""));
  EXPECT_EQ(part1.header("Accept-Ranges"), "bytes");
  EXPECT_TRUE(part1.body == data.substr(0, 8 * mib));

  const auto part3 = get("/bucket/big.bin?partNumber=3");
  EXPECT_EQ(part3.status, 206u);
  EXPECT_EQ(part3.header("Content-Range"), "bytes 16777216-20971519/20971520");
  EXPECT_TRUE(part3.body == data.substr(16 * mib));

  const auto head2 = origin_.send({"HEAD", "/bucket/big.bin?partNumber=2"});
  EXPECT_EQ(head2.status, 206u);
  EXPECT_EQ(head2.header("Content-Length"), "8388608");
  EXPECT_EQ(head2.header("Content-Range"), "bytes 8388608-16777215/20971520");
  EXPECT_EQ(head2.header("x-amz-mp-parts-count"), "3");

  const auto part4 = get("/bucket/big.bin?partNumber=4");
  EXPECT_EQ(part4.status, 416u);
  EXPECT_EQ(part4.error_code(), "InvalidPartNumber");
  EXPECT_EQ(part4.header("Content-Type"), "application/xml");

  const auto with_range = get("/bucket/big.bin?partNumber=1", {{"Range", "bytes=0-9"}});
  EXPECT_EQ(with_range.status, 400u);
  EXPECT_EQ(with_range.error_code(), "InvalidRequest");

  const auto bad_number = get("/bucket/big.bin?partNumber=0");
  EXPECT_EQ(bad_number.status, 400u);
  EXPECT_EQ(bad_number.error_code(), "InvalidArgument");

  const auto plain = get("/bucket/big.bin");
  EXPECT_EQ(plain.status, 200u);
  EXPECT_FALSE(plain.header("x-amz-mp-parts-count").has_value());
  EXPECT_FALSE(plain.header("Content-Range").has_value());
  EXPECT_EQ(plain.header("ETag"), etag);
  EXPECT_TRUE(plain.body == data);

  // The counters saw it all: 3 parts in; 6 GETs (2 part reads, 3 errors, 1 whole read). A
  // request is counted once its answer is written, which may be just after the client read it.
  auto& counters = origin_.server().service().counters();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (counters.of(s3_operation::GetObject).requests < 6 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  EXPECT_EQ(counters.of(s3_operation::UploadPart).requests, 3u);
  EXPECT_EQ(counters.of(s3_operation::UploadPart).bytes_in, 20 * mib);
  EXPECT_EQ(counters.of(s3_operation::GetObject).requests, 6u);
  EXPECT_EQ(counters.of(s3_operation::GetObject).errors, 3u);
  EXPECT_GE(counters.of(s3_operation::GetObject).bytes_out, 32 * mib);
  EXPECT_EQ(counters.of(s3_operation::HeadObject).requests, 1u);
  EXPECT_EQ(counters.of(s3_operation::CompleteMultipartUpload).errors, 0u);
}

TEST_F(OriginHttp, SinglePutPartReadsAndRanges) {
  ASSERT_EQ(put("small", "0123456789").status, 200u);
  const auto part1 = get("/bucket/small?partNumber=1");
  EXPECT_EQ(part1.status, 206u);
  EXPECT_EQ(part1.header("Content-Range"), "bytes 0-9/10");
  EXPECT_FALSE(part1.header("x-amz-mp-parts-count").has_value());
  EXPECT_EQ(get("/bucket/small?partNumber=2").error_code(), "InvalidPartNumber");

  const auto ranged = get("/bucket/small", {{"Range", "bytes=-3"}});
  EXPECT_EQ(ranged.status, 206u);
  EXPECT_EQ(ranged.body, "789");
  EXPECT_EQ(ranged.header("Content-Range"), "bytes 7-9/10");
  const auto beyond = get("/bucket/small", {{"Range", "bytes=10-"}});
  EXPECT_EQ(beyond.status, 416u);
  EXPECT_EQ(beyond.error_code(), "InvalidRange");

  ASSERT_EQ(put("empty", "").status, 200u);
  const auto empty_part = get("/bucket/empty?partNumber=1");
  EXPECT_EQ(empty_part.status, 200u);
  EXPECT_FALSE(empty_part.header("Content-Range").has_value());
  EXPECT_EQ(empty_part.header("Content-Length"), "0");
  EXPECT_EQ(get("/bucket/empty", {{"Range", "bytes=0-"}}).status, 416u);
}

TEST_F(OriginHttp, EveryResponseHasRequestIdsAndHeadErrorsNoBody) {
  const auto missing = origin_.send({"HEAD", "/bucket/nope"});
  EXPECT_EQ(missing.status, 404u);
  EXPECT_TRUE(missing.header("x-amz-request-id").has_value());
  EXPECT_TRUE(missing.header("x-amz-id-2").has_value());
  EXPECT_EQ(missing.header("Content-Length"), "0");

  const auto get_missing = get("/bucket/nope");
  EXPECT_EQ(get_missing.status, 404u);
  EXPECT_EQ(get_missing.error_code(), "NoSuchKey");
  EXPECT_EQ(between(get_missing.body, "<Resource>", "</Resource>"), "/bucket/nope");
  EXPECT_EQ(between(get_missing.body, "<RequestId>", "</RequestId>"),
            get_missing.header("x-amz-request-id"));
  EXPECT_EQ(get("/nobucket/k").error_code(), "NoSuchBucket");
}

TEST_F(OriginHttp, SignaturesAreChecked) {
  const auto unsigned_get = origin_.send_unsigned({"GET", "/bucket/k"});
  EXPECT_EQ(unsigned_get.status, 403u);
  EXPECT_EQ(unsigned_get.error_code(), "AccessDenied");

  auto signed_request = origin_.sign({"GET", "/bucket"});
  for (auto& [name, value] : signed_request.headers) {
    if (name == "Authorization") {
      value.back() = value.back() == '0' ? '1' : '0';
    }
  }
  const auto tampered = origin_.send_raw(testing::serialize(signed_request, ""));
  EXPECT_EQ(tampered.status, 403u);
  EXPECT_EQ(tampered.error_code(), "SignatureDoesNotMatch");

  ASSERT_EQ(put("k", "presigned!").status, 200u);
  const std::string target =
      s3::presign_target("GET", origin_.host(), "/bucket/k", testing::test_credentials, "us-east-1",
                         std::chrono::seconds(300), std::chrono::system_clock::now());
  const auto presigned = origin_.send_unsigned({"GET", target});
  EXPECT_EQ(presigned.status, 200u) << presigned.body;
  EXPECT_EQ(presigned.body, "presigned!");
}

TEST_F(OriginHttp, PayloadDigestsAreChecked) {
  const auto bad_md5 =
      put("k", "hello", {{"Content-MD5", s3::base64_encode(s3::md5_raw("other"))}});
  EXPECT_EQ(bad_md5.status, 400u);
  EXPECT_EQ(bad_md5.error_code(), "BadDigest");
  EXPECT_EQ(put("k", "hello", {{"Content-MD5", "not base64!"}}).error_code(), "InvalidDigest");
  EXPECT_EQ(get("/bucket/k").status, 404u) << "a failed upload must leave nothing";

  raw_request lying{"PUT", "/bucket/k", {}, "hello"};
  lying.payload_hash = s3::sha256_hex("other");
  EXPECT_EQ(origin_.send(lying).error_code(), "XAmzContentSHA256Mismatch");

  const auto good = put("k", "hello", {{"Content-MD5", s3::base64_encode(s3::md5_raw("hello"))}});
  EXPECT_EQ(good.status, 200u);
  EXPECT_EQ(good.header("ETag"), "\"" + s3::md5_hex("hello") + "\"");
}

/// A STREAMING-AWS4-HMAC-SHA256-PAYLOAD body in 64 KiB chunks, signed from the request's seed
/// signature; with `trailer_line`, the -TRAILER form with a signed trailer.
std::string signed_chunked_body(const s3::signing_context& context, const std::string& data,
                                const std::string& trailer_line = "") {
  std::string body;
  std::string previous = context.seed_signature;
  for (std::size_t offset = 0; offset < data.size(); offset += 65536) {
    const std::string chunk = data.substr(offset, 65536);
    const std::string signature = s3::chunk_signature(context, previous, chunk);
    char size[16];
    std::snprintf(size, sizeof size, "%zx", chunk.size());
    body += std::string(size) + ";chunk-signature=" + signature + "\r\n" + chunk + "\r\n";
    previous = signature;
  }
  const std::string final_signature = s3::chunk_signature(context, previous, "");
  body += "0;chunk-signature=" + final_signature + "\r\n";
  if (trailer_line.empty()) {
    return body + "\r\n";
  }
  return body + trailer_line + "\r\nx-amz-trailer-signature:" +
         s3::trailer_signature(context, final_signature, trailer_line + "\n") + "\r\n\r\n";
}

TEST_F(OriginHttp, SignedAwsChunkedUpload) {
  const std::string data = random_bytes(150000, 5);
  raw_request request{"PUT",
                      "/bucket/streamed",
                      {{"Content-Encoding", "aws-chunked"},
                       {"x-amz-decoded-content-length", std::to_string(data.size())}}};
  request.payload_hash = std::string(s3::streaming_signed_payload);
  const auto signed_request = origin_.sign(request);
  const auto body = signed_chunked_body(testing::context_of(signed_request), data);
  const auto response = origin_.send_raw(testing::serialize(signed_request, body));
  ASSERT_EQ(response.status, 200u) << response.body;
  EXPECT_EQ(response.header("ETag"), "\"" + s3::md5_hex(data) + "\"");
  EXPECT_TRUE(get("/bucket/streamed").body == data);

  // A body shorter than x-amz-decoded-content-length announced is refused.
  raw_request longer = request;
  longer.headers[1].second = std::to_string(data.size() + 1);
  const auto signed_longer = origin_.sign(longer);
  const auto short_body = signed_chunked_body(testing::context_of(signed_longer), data);
  EXPECT_EQ(origin_.send_raw(testing::serialize(signed_longer, short_body)).error_code(),
            "IncompleteBody");
}

TEST_F(OriginHttp, SignedAwsChunkedUploadWithTrailer) {
  const std::string data = random_bytes(200000, 2);
  auto crc = s3::checksum::create("crc32");
  crc->update(data);
  raw_request request{"PUT",
                      "/bucket/chunked",
                      {{"Content-Encoding", "aws-chunked"},
                       {"x-amz-decoded-content-length", std::to_string(data.size())},
                       {"x-amz-trailer", "x-amz-checksum-crc32"}}};
  request.payload_hash = std::string(s3::streaming_signed_payload_trailer);
  const auto signed_request = origin_.sign(request);
  const auto body = signed_chunked_body(testing::context_of(signed_request), data,
                                        "x-amz-checksum-crc32:" + crc->base64_digest());
  const auto response = origin_.send_raw(testing::serialize(signed_request, body));
  ASSERT_EQ(response.status, 200u) << response.body;
  EXPECT_EQ(response.header("x-amz-checksum-crc32"), crc->base64_digest());

  const auto back = get("/bucket/chunked", {{"x-amz-checksum-mode", "ENABLED"}});
  EXPECT_TRUE(back.body == data);
  EXPECT_EQ(back.header("x-amz-checksum-crc32"), crc->base64_digest());
  EXPECT_FALSE(back.header("Content-Encoding").has_value()) << "aws-chunked is not stored";
  EXPECT_FALSE(get("/bucket/chunked").header("x-amz-checksum-crc32").has_value());

  // The same body with one payload byte changed fails its chunk signature.
  std::string tampered = body;
  tampered[tampered.find("\r\n") + 10] ^= 1;
  const auto rejected = origin_.send_raw(testing::serialize(signed_request, tampered));
  EXPECT_EQ(rejected.status, 403u);
  EXPECT_EQ(rejected.error_code(), "SignatureDoesNotMatch");
  EXPECT_TRUE(get("/bucket/chunked").body == data) << "the failed upload changed nothing";

  // A correctly signed trailer whose checksum does not match the data.
  const auto wrong_sum = signed_chunked_body(testing::context_of(signed_request), data,
                                             "x-amz-checksum-crc32:AAAAAA==");
  const auto bad_digest = origin_.send_raw(testing::serialize(signed_request, wrong_sum));
  EXPECT_EQ(bad_digest.status, 400u);
  EXPECT_EQ(bad_digest.error_code(), "BadDigest");
}

TEST_F(OriginHttp, UnsignedTrailerChecksumIsVerified) {
  auto upload = [&](const std::string& checksum) {
    raw_request request{"PUT",
                        "/bucket/trailer",
                        {{"Content-Encoding", "aws-chunked"},
                         {"x-amz-decoded-content-length", "5"},
                         {"x-amz-sdk-checksum-algorithm", "CRC32"},
                         {"x-amz-trailer", "x-amz-checksum-crc32"}}};
    request.payload_hash = std::string(s3::streaming_unsigned_payload_trailer);
    request.body = "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:" + checksum + "\r\n\r\n";
    return origin_.send(request);
  };
  auto crc = s3::checksum::create("crc32");
  crc->update("hello");
  const auto good = upload(crc->base64_digest());
  EXPECT_EQ(good.status, 200u) << good.body;
  EXPECT_EQ(get("/bucket/trailer").body, "hello");
  const auto bad = upload("AAAAAA==");
  EXPECT_EQ(bad.status, 400u);
  EXPECT_EQ(bad.error_code(), "BadDigest");
}

TEST_F(OriginHttp, ConditionalReads) {
  const auto put_response = put("c", "data");
  const std::string etag = put_response.header("ETag").value_or("");
  EXPECT_EQ(get("/bucket/c", {{"If-None-Match", etag}}).status, 304u);
  EXPECT_EQ(get("/bucket/c", {{"If-Match", "\"nope\""}}).status, 412u);
  EXPECT_EQ(get("/bucket/c", {{"If-Match", etag}}).status, 200u);
  const auto last_modified = get("/bucket/c").header("Last-Modified").value_or("");
  EXPECT_EQ(get("/bucket/c", {{"If-Modified-Since", last_modified}}).status, 304u);
  EXPECT_EQ(get("/bucket/c", {{"If-Unmodified-Since", "Mon, 01 Jan 2001 00:00:00 GMT"}}).status,
            412u);
}

TEST_F(OriginHttp, MetadataAndOverridesComeBack) {
  ASSERT_EQ(put("m", "x",
                {{"Content-Type", "text/plain"},
                 {"Cache-Control", "max-age=3"},
                 {"x-amz-meta-Color", "blue"}})
                .status,
            200u);
  const auto back = get("/bucket/m?response-content-type=application/json");
  EXPECT_EQ(back.header("Content-Type"), "application/json");
  EXPECT_EQ(back.header("Cache-Control"), "max-age=3");
  EXPECT_EQ(back.header("x-amz-meta-color"), "blue");
  ASSERT_EQ(put("d", "x").status, 200u);
  EXPECT_EQ(get("/bucket/d").header("Content-Type"), "binary/octet-stream");
  const auto injected = get("/bucket/m?response-content-type=a%0D%0AX-Injected:%201");
  EXPECT_EQ(injected.status, 400u);
  EXPECT_FALSE(injected.header("X-Injected").has_value());
}

TEST_F(OriginHttp, ListingWithDelimiterAndContinuation) {
  for (const std::string key : {"a", "dir/1", "dir/2", "z"}) {
    ASSERT_EQ(put(key, key).status, 200u);
  }
  const auto page1 = get("/bucket?list-type=2&delimiter=/&max-keys=2");
  EXPECT_EQ(page1.status, 200u);
  EXPECT_NE(page1.body.find("<Key>a</Key>"), std::string::npos) << page1.body;
  EXPECT_NE(page1.body.find("<CommonPrefixes><Prefix>dir/</Prefix></CommonPrefixes>"),
            std::string::npos);
  EXPECT_NE(page1.body.find("<KeyCount>2</KeyCount>"), std::string::npos);
  EXPECT_NE(page1.body.find("<IsTruncated>true</IsTruncated>"), std::string::npos);
  const std::string token =
      between(page1.body, "<NextContinuationToken>", "</NextContinuationToken>");
  const auto page2 = get("/bucket?list-type=2&delimiter=/&max-keys=2&continuation-token=" +
                         s3::uri_encode(token, true));
  EXPECT_NE(page2.body.find("<Key>z</Key>"), std::string::npos) << page2.body;
  EXPECT_EQ(page2.body.find("dir/"), std::string::npos);
  EXPECT_NE(page2.body.find("<IsTruncated>false</IsTruncated>"), std::string::npos);

  const auto v1 = get("/bucket?delimiter=/&max-keys=1&marker=a");
  EXPECT_NE(v1.body.find("<NextMarker>dir/</NextMarker>"), std::string::npos) << v1.body;
}

TEST_F(OriginHttp, CopyDeleteAndBucketRules) {
  ASSERT_EQ(put("src", "copy me", {{"x-amz-meta-a", "1"}}).status, 200u);
  const auto copied = origin_.send({"PUT", "/bucket/dst", {{"x-amz-copy-source", "/bucket/src"}}});
  EXPECT_EQ(copied.status, 200u);
  EXPECT_NE(copied.body.find("<CopyObjectResult"), std::string::npos);
  EXPECT_EQ(get("/bucket/dst").body, "copy me");
  EXPECT_EQ(get("/bucket/dst").header("x-amz-meta-a"), "1");
  const auto onto_itself =
      origin_.send({"PUT", "/bucket/src", {{"x-amz-copy-source", "/bucket/src"}}});
  EXPECT_EQ(onto_itself.error_code(), "InvalidRequest");

  EXPECT_EQ(origin_.send({"DELETE", "/bucket"}).error_code(), "BucketNotEmpty");
  const std::string delete_body =
      "<Delete><Object><Key>src</Key></Object><Object><Key>dst</Key></Object>"
      "<Object><Key>never</Key></Object></Delete>";
  const auto deleted = origin_.send({"POST",
                                     "/bucket?delete",
                                     {{"Content-MD5", s3::base64_encode(s3::md5_raw(delete_body))}},
                                     delete_body});
  EXPECT_EQ(deleted.status, 200u);
  EXPECT_NE(deleted.body.find("<Deleted><Key>never</Key></Deleted>"), std::string::npos);
  EXPECT_EQ(origin_.send({"DELETE", "/bucket/gone-already"}).status, 204u);
  EXPECT_EQ(origin_.send({"DELETE", "/bucket"}).status, 204u);
  EXPECT_EQ(origin_.send({"HEAD", "/bucket"}).status, 404u);
  EXPECT_EQ(origin_.send({"PUT", "/Bad_Name"}).error_code(), "InvalidBucketName");
}

TEST_F(OriginHttp, MultipartRulesOverHttp) {
  const std::string data = random_bytes(6 * mib, 3);
  const auto created = origin_.send({"POST", "/bucket/mp?uploads"});
  const std::string id = between(created.body, "<UploadId>", "</UploadId>");
  auto part = [&](unsigned number, const std::string& bytes) {
    return origin_.send(
        {"PUT", "/bucket/mp?partNumber=" + std::to_string(number) + "&uploadId=" + id, {}, bytes});
  };
  const auto p1 = part(1, data.substr(0, 1000)); // too small for a part that is not the last
  const auto p2 = part(2, data.substr(1000));
  const std::string list = "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>" +
                           *p1.header("ETag") +
                           "</ETag></Part><Part><PartNumber>2</PartNumber>"
                           "<ETag>" +
                           *p2.header("ETag") + "</ETag></Part></CompleteMultipartUpload>";
  EXPECT_EQ(origin_.send({"POST", "/bucket/mp?uploadId=" + id, {}, list}).error_code(),
            "EntityTooSmall");
  const auto parts = get("/bucket/mp?uploadId=" + id);
  EXPECT_NE(parts.body.find("<PartNumber>2</PartNumber>"), std::string::npos);
  EXPECT_EQ(get("/bucket/mp?partNumber=1").error_code(), "NoSuchKey")
      << "an upload in progress is not an object";
  EXPECT_EQ(origin_.send({"DELETE", "/bucket/mp?uploadId=" + id}).status, 204u);
  EXPECT_EQ(origin_.send({"POST", "/bucket/mp?uploadId=" + id, {}, list}).error_code(),
            "NoSuchUpload");
}

TEST(OriginHttpDisk, ObjectsSurviveARestart) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("s3fault-origin-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  origin_config config;
  config.data_dir = dir.string();
  const std::string data = random_bytes(3 * mib + 7, 4);
  std::string etag;
  {
    running_origin origin(config);
    ASSERT_EQ(origin.send({"PUT", "/keep"}).status, 200u);
    const auto put = origin.send({"PUT", "/keep/a%20b", {{"x-amz-meta-x", "y"}}, data});
    ASSERT_EQ(put.status, 200u) << put.body;
    etag = *put.header("ETag");
    ASSERT_EQ(origin.send({"PUT", "/keep/replaced", {}, "v1"}).status, 200u);
    ASSERT_EQ(origin.send({"PUT", "/keep/replaced", {}, "v2"}).status, 200u);
  }
  {
    running_origin origin(config);
    const auto back = origin.send({"GET", "/keep/a%20b"});
    EXPECT_EQ(back.status, 200u);
    EXPECT_EQ(back.header("ETag"), etag);
    EXPECT_EQ(back.header("x-amz-meta-x"), "y");
    EXPECT_TRUE(back.body == data);
    const auto ranged = origin.send({"GET", "/keep/a%20b", {{"Range", "bytes=1048575-1048584"}}});
    EXPECT_EQ(ranged.body, data.substr(1048575, 10));
    EXPECT_EQ(origin.send({"GET", "/keep/replaced"}).body, "v2");
  }
  // Two objects, two blob files: the replaced version's file is gone.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir / "blobs")) {
    ++files;
  }
  EXPECT_EQ(files, 2u);
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace s3fault::origin
