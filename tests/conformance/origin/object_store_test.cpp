// The index: conditional writes, uploads and their listing, bucket rules, the access log line.
#include "conformance/origin/access_log.hpp"
#include "conformance/origin/object_store.hpp"

#include <gtest/gtest.h>

namespace s3fault::origin {
namespace {

const time_point now = std::chrono::system_clock::from_time_t(1700000000);

std::shared_ptr<object_record> record_with_etag(const std::string& etag) {
  auto record = std::make_shared<object_record>();
  record->etag = etag;
  return record;
}

class ObjectStore : public ::testing::Test {
protected:
  void SetUp() override { store_.create_bucket("b", now); }
  object_store store_{make_memory_backend()};
};

TEST_F(ObjectStore, IfNoneMatchStarRefusesToOverwrite) {
  write_condition only_new;
  only_new.if_none_match = "*";
  EXPECT_FALSE(store_.put_object("b", "k", record_with_etag("e1"), only_new).has_value());
  const auto second = store_.put_object("b", "k", record_with_etag("e2"), only_new);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->status, 412u);
  EXPECT_EQ(std::get<object_ptr>(store_.find_object("b", "k"))->etag, "e1");
}

TEST_F(ObjectStore, IfMatchNeedsTheCurrentEtag) {
  write_condition match_e1;
  match_e1.if_match = "\"e1\"";
  EXPECT_EQ(store_.put_object("b", "k", record_with_etag("e0"), match_e1)->code, "NoSuchKey");
  EXPECT_FALSE(store_.put_object("b", "k", record_with_etag("e1")).has_value());
  EXPECT_FALSE(store_.put_object("b", "k", record_with_etag("e2"), match_e1).has_value());
  EXPECT_EQ(store_.put_object("b", "k", record_with_etag("e3"), match_e1)->code,
            "PreconditionFailed");
}

TEST_F(ObjectStore, MissingBucketAndKey) {
  EXPECT_EQ(std::get<s3_error>(store_.find_object("nope", "k")).code, "NoSuchBucket");
  EXPECT_EQ(std::get<s3_error>(store_.find_object("b", "k")).code, "NoSuchKey");
  EXPECT_TRUE(std::holds_alternative<delete_result>(store_.delete_object("b", "never", now)));
  EXPECT_EQ(std::get<s3_error>(store_.delete_object("nope", "k", now)).code, "NoSuchBucket");
}

TEST_F(ObjectStore, BucketRules) {
  EXPECT_EQ(store_.create_bucket("b", now), object_store::create_outcome::already_exists);
  store_.put_object("b", "k", record_with_etag("e"));
  EXPECT_EQ(store_.delete_bucket("b")->code, "BucketNotEmpty");
  store_.delete_object("b", "k", now);
  store_.create_upload("b", "pending", {}, "", "COMPOSITE", now);
  EXPECT_FALSE(store_.delete_bucket("b").has_value()) << "uploads in progress go with the bucket";
  EXPECT_FALSE(store_.has_bucket("b"));
}

TEST_F(ObjectStore, UploadsAreTiedToTheirKey) {
  const auto id = std::get<std::string>(store_.create_upload("b", "k", {}, "crc32", "", now));
  EXPECT_EQ(std::get<std::string>(store_.find_upload("b", "k", id)), "crc32");
  EXPECT_EQ(std::get<s3_error>(store_.find_upload("b", "other", id)).code, "NoSuchUpload");
  EXPECT_FALSE(store_.abort_upload("b", "k", id).has_value());
  EXPECT_EQ(store_.abort_upload("b", "k", id)->code, "NoSuchUpload");
}

TEST_F(ObjectStore, ListUploadsByKeyThenCreationWithMarkers) {
  const auto a1 = std::get<std::string>(store_.create_upload("b", "a", {}, "", "", now));
  const auto z1 = std::get<std::string>(store_.create_upload("b", "z", {}, "", "", now));
  const auto a2 = std::get<std::string>(store_.create_upload("b", "a", {}, "", "", now));
  const auto d1 = std::get<std::string>(store_.create_upload("b", "d/x", {}, "", "", now));
  upload_listing_request request;
  request.max_uploads = 2;
  auto page = std::get<upload_listing>(store_.list_uploads("b", request));
  ASSERT_EQ(page.uploads.size(), 2u);
  EXPECT_EQ(page.uploads[0].upload_id, a1);
  EXPECT_EQ(page.uploads[1].upload_id, a2);
  EXPECT_TRUE(page.truncated);
  request.key_marker = page.next_key_marker;
  request.upload_id_marker = page.next_upload_id_marker;
  request.delimiter = "/";
  page = std::get<upload_listing>(store_.list_uploads("b", request));
  EXPECT_EQ(page.common_prefixes, std::vector<std::string>{"d/"});
  ASSERT_EQ(page.uploads.size(), 1u);
  EXPECT_EQ(page.uploads[0].upload_id, z1);
  EXPECT_FALSE(page.truncated);
  (void)d1;
}

TEST_F(ObjectStore, ListPartsPages) {
  const auto id = std::get<std::string>(store_.create_upload("b", "k", {}, "", "", now));
  for (unsigned n : {3u, 1u, 2u}) {
    part_record part;
    part.size = n;
    part.md5_raw = std::string(16, static_cast<char>(n));
    EXPECT_FALSE(store_.add_part("b", "k", id, n, part).has_value());
  }
  auto page = std::get<part_listing>(store_.list_parts("b", "k", id, 0, 2));
  ASSERT_EQ(page.parts.size(), 2u);
  EXPECT_EQ(page.parts[0].number, 1u);
  EXPECT_TRUE(page.truncated);
  EXPECT_EQ(page.next_marker, 2u);
  page = std::get<part_listing>(store_.list_parts("b", "k", id, 2, 2));
  ASSERT_EQ(page.parts.size(), 1u);
  EXPECT_EQ(page.parts[0].number, 3u);
  EXPECT_FALSE(page.truncated);
}

TEST(AccessLog, RedactsPresignedCredentials) {
  request_record record;
  record.client = "127.0.0.1:1";
  record.method = "GET";
  record.target = "/b/k?X-Amz-Signature=abc";
  record.operation = "GetObject";
  record.status = 404;
  record.error_code = "NoSuchKey";
  const auto line = format_request(record, log_format::text);
  EXPECT_NE(line.find("GET /b/k?X-Amz-Signature=REDACTED 404 GetObject NoSuchKey"),
            std::string::npos)
      << line;
  EXPECT_EQ(format_request(record, log_format::json).find("abc"), std::string::npos);
}

} // namespace
} // namespace s3fault::origin
