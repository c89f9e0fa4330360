// What each operation puts on the wire (method, target, headers, body) and how it reads the
// answer, against a scripted server that records requests and replies with canned documents.
#include "conformance/client/s3_client.hpp"
#include "conformance/s3/hashing.hpp"
#include "tests/conformance/client/scripted_server.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <mutex>

namespace s3fault::client {
namespace {

using namespace std::chrono_literals;
using test::http_response;
using test::peer;
using test::scripted_server;

const auto fixed_time = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));

/// A recorded request split into its parts.
struct seen_request {
  std::string request_line;
  header_list headers;
  std::string body;
};

seen_request split(const std::string& raw) {
  seen_request seen;
  const auto head_end = raw.find("\r\n\r\n");
  std::string_view head(raw.data(), head_end);
  seen.body = raw.substr(head_end + 4);
  auto line_end = head.find("\r\n");
  seen.request_line = std::string(head.substr(0, line_end));
  while (line_end != std::string_view::npos) {
    head.remove_prefix(line_end + 2);
    line_end = head.find("\r\n");
    const auto line = head.substr(0, line_end);
    const auto colon = line.find(':');
    seen.headers.emplace_back(std::string(line.substr(0, colon)),
                              std::string(line.substr(colon + 2)));
  }
  return seen;
}

/// Replies to each request with the next canned response (200 with no body when none is left).
class canned_store {
public:
  canned_store()
      : server_([this](peer& connection, int) {
          while (!connection.read_request().empty()) {
            connection.send(next());
          }
        }) {}

  void reply(std::string response) {
    std::lock_guard lock(mutex_);
    replies_.push_back(std::move(response));
  }
  seen_request request(std::size_t index) const { return split(server_.requests().at(index)); }
  std::size_t request_count() const { return server_.requests().size(); }
  s3_client client() const {
    client_config config;
    config.endpoint = server_.url();
    config.credentials = {"AKID", "SECRET", ""};
    config.clock = [] { return fixed_time; };
    return s3_client(config);
  }

private:
  std::string next() {
    std::lock_guard lock(mutex_);
    if (replies_.empty()) {
      return http_response(200, "OK", "");
    }
    auto response = std::move(replies_.front());
    replies_.pop_front();
    return response;
  }

  std::mutex mutex_;
  std::deque<std::string> replies_;
  scripted_server server_;
};

TEST(Operations, PutObjectSendsTypeMetadataMd5AndChecksum) {
  canned_store store;
  auto client = store.client();
  put_options put;
  put.content_type = "text/plain";
  put.metadata = {{"color", "blue"}};
  put.content_md5 = true;
  put.checksum_algorithm = "CRC32C";
  put.extra_headers = {{"x-amz-storage-class", "STANDARD"}};
  ASSERT_TRUE(client.put_object("b", "dir/a b", body_source::from_string("hello"), put).ok());
  const auto seen = store.request(0);
  EXPECT_EQ(seen.request_line, "PUT /b/dir/a%20b HTTP/1.1");
  EXPECT_EQ(seen.body, "hello");
  EXPECT_EQ(find_header(seen.headers, "Content-Type"), "text/plain");
  EXPECT_EQ(find_header(seen.headers, "x-amz-meta-color"), "blue");
  EXPECT_EQ(find_header(seen.headers, "Content-MD5"), s3::base64_encode(s3::md5_raw("hello")));
  auto crc = s3::checksum::create("crc32c");
  crc->update("hello");
  EXPECT_EQ(find_header(seen.headers, "x-amz-checksum-crc32c"), crc->base64_digest());
  EXPECT_EQ(find_header(seen.headers, "x-amz-storage-class"), "STANDARD");
  EXPECT_EQ(find_header(seen.headers, "Content-Length"), "5");
  EXPECT_EQ(find_header(seen.headers, "x-amz-content-sha256"), s3::sha256_hex("hello"));
  EXPECT_TRUE(find_header(seen.headers, "Authorization"));
}

TEST(Operations, GivenChecksumIsSentAsIsAndUnknownAlgorithmsAreRefused) {
  canned_store store;
  auto client = store.client();
  put_options put;
  put.checksum_algorithm = "sha256";
  put.checksum_value = "d3Jvbmc=";
  ASSERT_TRUE(client.put_object("b", "k", body_source::from_string("x"), put).ok());
  EXPECT_EQ(find_header(store.request(0).headers, "x-amz-checksum-sha256"), "d3Jvbmc=");

  put.checksum_algorithm = "md4";
  const auto refused = client.put_object("b", "k", body_source::from_string("x"), put);
  EXPECT_EQ(refused.failure.ec, client_errc::invalid_request);
  EXPECT_EQ(store.request_count(), 1u);
}

TEST(Operations, GetObjectSendsRangePartConditionsAndOverrides) {
  canned_store store;
  auto client = store.client();
  get_options get;
  get.part_number = 3;
  get.version_id = "v1";
  get.response_overrides = {{"response-content-type", "text/plain"}};
  get.range = byte_range(0, 9);
  get.if_match = "\"e\"";
  get.if_none_match = "\"f\"";
  get.if_modified_since = "Wed, 21 Oct 2015 07:28:00 GMT";
  get.if_unmodified_since = "Thu, 22 Oct 2015 07:28:00 GMT";
  get.checksum_mode = true;
  get.extra_query = {{"x-id", "GetObject"}};
  client.get_object("b", "k", get);
  const auto seen = store.request(0);
  EXPECT_EQ(seen.request_line, "GET /b/k?partNumber=3&versionId=v1&response-content-type="
                               "text%2Fplain&x-id=GetObject HTTP/1.1");
  EXPECT_EQ(find_header(seen.headers, "Range"), "bytes=0-9");
  EXPECT_EQ(find_header(seen.headers, "If-Match"), "\"e\"");
  EXPECT_EQ(find_header(seen.headers, "If-None-Match"), "\"f\"");
  EXPECT_EQ(find_header(seen.headers, "If-Modified-Since"), "Wed, 21 Oct 2015 07:28:00 GMT");
  EXPECT_EQ(find_header(seen.headers, "If-Unmodified-Since"), "Thu, 22 Oct 2015 07:28:00 GMT");
  EXPECT_EQ(find_header(seen.headers, "x-amz-checksum-mode"), "ENABLED");
  EXPECT_FALSE(find_header(seen.headers, "Content-Length"));

  client.head_object("b", "k", get);
  EXPECT_TRUE(store.request(1).request_line.starts_with("HEAD /b/k?partNumber=3"));
}

TEST(Operations, ListObjectsV2SendsItsQueryAndParsesTheResult) {
  canned_store store;
  store.reply(
      http_response(200, "OK",
                    "<ListBucketResult><Name>b</Name><IsTruncated>true</IsTruncated>"
                    "<NextContinuationToken>t2</NextContinuationToken>"
                    "<Contents><Key>p/a</Key><Size>3</Size></Contents></ListBucketResult>"));
  auto client = store.client();
  list_objects_options list;
  list.prefix = "p/";
  list.delimiter = "/";
  list.max_keys = 1;
  list.continuation_token = "t1/+=";
  list.start_after = "p/0";
  const auto listed = client.list_objects_v2("b", list);
  ASSERT_TRUE(listed.ok()) << listed.raw.describe() << listed.parse_error;
  EXPECT_EQ(listed.value->contents.at(0).key, "p/a");
  EXPECT_EQ(listed.value->next_continuation_token, "t2");
  EXPECT_EQ(store.request(0).request_line,
            "GET /b?list-type=2&prefix=p%2F&delimiter=%2F&max-keys=1&continuation-token=t1%2F%2B%3D"
            "&start-after=p%2F0 HTTP/1.1");
}

TEST(Operations, AnUnparseableResultIsReportedNotHidden) {
  canned_store store;
  store.reply(http_response(200, "OK", "<ListBucketResult><Name>"));
  auto client = store.client();
  const auto listed = client.list_objects_v2("b");
  EXPECT_TRUE(listed.raw.ok());
  EXPECT_FALSE(listed.ok());
  EXPECT_FALSE(listed.value);
  EXPECT_NE(listed.parse_error.find("not XML"), std::string::npos) << listed.parse_error;
}

TEST(Operations, MultipartUploadRequests) {
  canned_store store;
  store.reply(http_response(200, "OK",
                            "<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key>"
                            "<UploadId>u/1+</UploadId></InitiateMultipartUploadResult>"));
  store.reply(http_response(200, "OK", "", "ETag: \"p1\"\r\n"));
  store.reply(http_response(200, "OK",
                            "<CompleteMultipartUploadResult><ETag>\"e-1\"</ETag>"
                            "</CompleteMultipartUploadResult>"));
  auto client = store.client();
  put_options create;
  create.checksum_algorithm = "crc32";
  const auto created = client.create_multipart_upload("b", "k", create);
  ASSERT_TRUE(created.ok()) << created.raw.describe();
  EXPECT_EQ(created.value->upload_id, "u/1+");
  EXPECT_EQ(store.request(0).request_line, "POST /b/k?uploads HTTP/1.1");
  EXPECT_EQ(find_header(store.request(0).headers, "x-amz-checksum-algorithm"), "CRC32");

  const auto part = client.upload_part("b", "k", created.value->upload_id, 1,
                                       body_source::from_string("part one"));
  ASSERT_TRUE(part.ok()) << part.describe();
  EXPECT_EQ(part.header("etag"), "\"p1\"");
  EXPECT_EQ(store.request(1).request_line, "PUT /b/k?partNumber=1&uploadId=u%2F1%2B HTTP/1.1");
  EXPECT_EQ(store.request(1).body, "part one");

  const auto done =
      client.complete_multipart_upload("b", "k", created.value->upload_id, {{1, "\"p1\"", "", ""}});
  ASSERT_TRUE(done.ok()) << done.raw.describe();
  EXPECT_EQ(done.value->etag, "\"e-1\"");
  EXPECT_EQ(store.request(2).request_line, "POST /b/k?uploadId=u%2F1%2B HTTP/1.1");
  EXPECT_NE(
      store.request(2).body.find("<Part><PartNumber>1</PartNumber><ETag>\"p1\"</ETag></Part>"),
      std::string::npos);

  client.abort_multipart_upload("b", "k", "u");
  EXPECT_EQ(store.request(3).request_line, "DELETE /b/k?uploadId=u HTTP/1.1");
  list_parts_options parts;
  parts.max_parts = 10;
  parts.part_number_marker = "2";
  client.list_parts("b", "k", "u", parts);
  EXPECT_EQ(store.request(4).request_line,
            "GET /b/k?uploadId=u&max-parts=10&part-number-marker=2 HTTP/1.1");
}

TEST(Operations, CompleteWithAnErrorInA200IsAFailure) {
  canned_store store;
  store.reply(http_response(200, "OK",
                            "<?xml version=\"1.0\"?><Error><Code>InternalError</Code>"
                            "<Message>assembly failed</Message></Error>"));
  auto client = store.client();
  const auto done = client.complete_multipart_upload("b", "k", "u", {{1, "\"p1\"", "", ""}});
  EXPECT_EQ(done.raw.status, 200u);
  ASSERT_TRUE(done.raw.error);
  EXPECT_EQ(done.raw.error->code, "InternalError");
  EXPECT_FALSE(done.raw.ok());
  EXPECT_FALSE(done.ok());
}

TEST(Operations, AGetObjectBodyThatLooksLikeAnErrorIsJustABody) {
  const std::string body = "<Error><Code>NoSuchKey</Code></Error>";
  canned_store store;
  store.reply(http_response(200, "OK", body));
  auto client = store.client();
  const auto got = client.get_object("b", "k");
  EXPECT_TRUE(got.ok());
  EXPECT_FALSE(got.error);
  EXPECT_EQ(got.body, body);
}

TEST(Operations, BucketLevelRequestsAndDeleteObjects) {
  canned_store store;
  store.reply(http_response(200, "OK", ""));
  store.reply(http_response(200, "OK", ""));
  store.reply(
      http_response(200, "OK", "<DeleteResult><Deleted><Key>a</Key></Deleted></DeleteResult>"));
  store.reply(http_response(200, "OK",
                            "<ListAllMyBucketsResult><Buckets><Bucket><Name>b</Name></Bucket>"
                            "</Buckets></ListAllMyBucketsResult>"));
  store.reply(http_response(200, "OK", "<CopyObjectResult><ETag>\"c\"</ETag></CopyObjectResult>"));
  auto client = store.client();
  create_bucket_options create;
  create.location_constraint = "eu-west-3";
  client.create_bucket("b", create);
  EXPECT_EQ(store.request(0).request_line, "PUT /b HTTP/1.1");
  EXPECT_NE(store.request(0).body.find("<LocationConstraint>eu-west-3</LocationConstraint>"),
            std::string::npos);
  client.head_bucket("b");
  EXPECT_EQ(store.request(1).request_line, "HEAD /b HTTP/1.1");

  const auto deleted = client.delete_objects("b", {"a", "b"}, true);
  ASSERT_TRUE(deleted.ok()) << deleted.raw.describe();
  const auto seen = store.request(2);
  EXPECT_EQ(seen.request_line, "POST /b?delete HTTP/1.1");
  EXPECT_EQ(find_header(seen.headers, "Content-MD5"), s3::base64_encode(s3::md5_raw(seen.body)));
  EXPECT_NE(seen.body.find("<Quiet>true</Quiet>"), std::string::npos);

  const auto buckets = client.list_buckets();
  ASSERT_TRUE(buckets.ok());
  EXPECT_EQ(buckets.value->buckets.at(0).name, "b");
  EXPECT_EQ(store.request(3).request_line, "GET / HTTP/1.1");

  copy_object_options copy;
  copy.metadata_directive = "REPLACE";
  copy.copy_source_if_match = "\"s\"";
  const auto copied = client.copy_object("src", "a b/c", "b", "d", copy);
  ASSERT_TRUE(copied.ok()) << copied.raw.describe();
  EXPECT_EQ(copied.value->etag, "\"c\"");
  const auto copy_seen = store.request(4);
  EXPECT_EQ(copy_seen.request_line, "PUT /b/d HTTP/1.1");
  EXPECT_EQ(find_header(copy_seen.headers, "x-amz-copy-source"), "/src/a%20b/c");
  EXPECT_EQ(find_header(copy_seen.headers, "x-amz-metadata-directive"), "REPLACE");
  EXPECT_EQ(find_header(copy_seen.headers, "x-amz-copy-source-if-match"), "\"s\"");

  client.delete_bucket("b");
  EXPECT_EQ(store.request(5).request_line, "DELETE /b HTTP/1.1");
  client.delete_object("b", "k");
  EXPECT_EQ(store.request(6).request_line, "DELETE /b/k HTTP/1.1");
}

TEST(Operations, VersioningAndAttributesRequests) {
  canned_store store;
  store.reply(http_response(200, "OK", ""));
  store.reply(http_response(200, "OK",
                            "<ListVersionsResult><Version><Key>k</Key><VersionId>v1</VersionId>"
                            "<IsLatest>true</IsLatest></Version></ListVersionsResult>"));
  store.reply(http_response(204, "No Content", ""));
  store.reply(http_response(200, "OK",
                            "<GetObjectAttributesResponse><ObjectParts><PartsCount>2</PartsCount>"
                            "</ObjectParts><ObjectSize>7</ObjectSize>"
                            "</GetObjectAttributesResponse>"));
  auto client = store.client();
  ASSERT_TRUE(client.put_bucket_versioning("b", "Enabled").ok());
  const auto enabled = store.request(0);
  EXPECT_EQ(enabled.request_line, "PUT /b?versioning HTTP/1.1");
  EXPECT_EQ(find_header(enabled.headers, "Content-MD5"),
            s3::base64_encode(s3::md5_raw(enabled.body)));
  EXPECT_NE(enabled.body.find("<Status>Enabled</Status>"), std::string::npos);

  list_versions_options list;
  list.prefix = "k";
  list.key_marker = "a b";
  const auto versions = client.list_object_versions("b", list);
  ASSERT_TRUE(versions.ok()) << versions.raw.describe();
  EXPECT_EQ(versions.value->versions.at(0).version_id, "v1");
  EXPECT_EQ(store.request(1).request_line, "GET /b?versions&prefix=k&key-marker=a%20b HTTP/1.1");

  EXPECT_TRUE(client.delete_object_version("b", "k", "v1").ok());
  EXPECT_EQ(store.request(2).request_line, "DELETE /b/k?versionId=v1 HTTP/1.1");

  object_attributes_options attributes;
  attributes.max_parts = 1;
  attributes.part_number_marker = "1";
  const auto answer = client.get_object_attributes("b", "k", attributes);
  ASSERT_TRUE(answer.ok()) << answer.raw.describe() << answer.parse_error;
  EXPECT_EQ(answer.value->parts_count, 2u);
  EXPECT_EQ(answer.value->object_size, 7u);
  const auto seen = store.request(3);
  EXPECT_EQ(seen.request_line, "GET /b/k?attributes HTTP/1.1");
  EXPECT_EQ(find_header(seen.headers, "x-amz-object-attributes"),
            "ETag,Checksum,ObjectParts,ObjectSize,StorageClass");
  EXPECT_EQ(find_header(seen.headers, "x-amz-max-parts"), "1");
  EXPECT_EQ(find_header(seen.headers, "x-amz-part-number-marker"), "1");
}

TEST(Operations, SendRawSendsTheTargetAndHeadersAsGiven) {
  canned_store store;
  auto client = store.client();
  client.send_raw("GET", "/b/k?partNumber=abc", {{"X-Test", "1"}});
  auto seen = store.request(0);
  EXPECT_EQ(seen.request_line, "GET /b/k?partNumber=abc HTTP/1.1");
  ASSERT_EQ(seen.headers.size(), 2u);
  EXPECT_EQ(seen.headers[0].first, "Host");
  EXPECT_TRUE(seen.headers[0].second.starts_with("127.0.0.1:")) << seen.headers[0].second;
  EXPECT_EQ(seen.headers[1], (std::pair<std::string, std::string>{"X-Test", "1"}));

  raw_options raw;
  raw.add_host = false;
  raw.add_content_length = false;
  client.send_raw("PUT", "/b/k", {{"Host", "elsewhere"}}, body_source::from_string("abc"), raw);
  seen = store.request(1);
  EXPECT_EQ(seen.headers, (header_list{{"Host", "elsewhere"}}));

  raw = {};
  raw.sign = true;
  client.send_raw("PUT", "/b/k", {}, body_source::from_string("abc"), raw);
  seen = store.request(2);
  EXPECT_EQ(find_header(seen.headers, "Content-Length"), "3");
  EXPECT_EQ(find_header(seen.headers, "x-amz-content-sha256"), s3::sha256_hex("abc"));
  EXPECT_TRUE(find_header(seen.headers, "Authorization"));
  EXPECT_EQ(seen.body, "abc");
}

TEST(Operations, PresignedUrlsAndPresignedRequests) {
  canned_store store;
  auto client = store.client();
  const auto url = client.presign_url("GET", "b", "k", 60s, {{"partNumber", "1"}});
  EXPECT_TRUE(url.starts_with("http://127.0.0.1:")) << url;
  EXPECT_NE(url.find("/b/k?partNumber=1&"), std::string::npos) << url;
  EXPECT_NE(url.find("X-Amz-Signature="), std::string::npos);

  get_options get;
  get.presign_expires = 60s;
  client.get_object("b", "k", get);
  const auto seen = store.request(0);
  EXPECT_NE(seen.request_line.find("X-Amz-Expires=60"), std::string::npos) << seen.request_line;
  EXPECT_FALSE(find_header(seen.headers, "Authorization"));
}

} // namespace
} // namespace s3fault::client
