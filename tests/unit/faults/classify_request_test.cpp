#include "faults/s3_request.hpp"

#include <gtest/gtest.h>

using namespace s3fault::faults;

namespace {

struct classify_case {
  const char* method;
  const char* target;
  const char* host;
  bool copy_source;
  s3_operation operation;
  const char* bucket;
  const char* key;
  int part_number; // -1: none
};

std::ostream& operator<<(std::ostream& out, const classify_case& c) {
  return out << c.method << " " << c.target << " (Host: " << c.host << ")";
}

class ClassifyRequest : public ::testing::TestWithParam<classify_case> {};

constexpr const char* path_host = "127.0.0.1:9000";
using op = s3_operation;

} // namespace

TEST_P(ClassifyRequest, Table) {
  const auto& c = GetParam();
  const auto request = classify_request(
      {c.method, c.target, c.host,
       c.copy_source ? std::vector<std::string>{"x-amz-copy-source"} : std::vector<std::string>{}},
      {"s3.example.test"});
  EXPECT_EQ(operation_name(request.operation), operation_name(c.operation));
  EXPECT_EQ(request.bucket, c.bucket);
  EXPECT_EQ(request.key, c.key);
  if (c.part_number < 0) {
    EXPECT_FALSE(request.part_number.has_value());
  } else {
    ASSERT_TRUE(request.part_number.has_value());
    EXPECT_EQ(*request.part_number, static_cast<std::uint32_t>(c.part_number));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Requests, ClassifyRequest,
    ::testing::Values(
        // Service level.
        classify_case{"GET", "/", path_host, false, op::ListBuckets, "", "", -1},
        classify_case{"POST", "/", path_host, false, op::Other, "", "", -1},
        // Bucket level, path style.
        classify_case{"GET", "/b", path_host, false, op::ListObjects, "b", "", -1},
        classify_case{"GET", "/b/", path_host, false, op::ListObjects, "b", "", -1},
        classify_case{"GET", "/b?list-type=2", path_host, false, op::ListObjectsV2, "b", "", -1},
        classify_case{"GET", "/b?prefix=a%2F&list-type=2&delimiter=%2F", path_host, false,
                      op::ListObjectsV2, "b", "", -1},
        classify_case{"GET", "/b?list-type=1", path_host, false, op::ListObjects, "b", "", -1},
        classify_case{"GET", "/b?uploads", path_host, false, op::ListMultipartUploads, "b", "", -1},
        classify_case{"GET", "/b?acl", path_host, false, op::GetBucketAcl, "b", "", -1},
        classify_case{"GET", "/b?location", path_host, false, op::GetBucketLocation, "b", "", -1},
        classify_case{"PUT", "/b", path_host, false, op::CreateBucket, "b", "", -1},
        classify_case{"PUT", "/b?policy", path_host, false, op::PutBucketPolicy, "b", "", -1},
        classify_case{"DELETE", "/b", path_host, false, op::DeleteBucket, "b", "", -1},
        classify_case{"DELETE", "/b?cors", path_host, false, op::DeleteBucketCors, "b", "", -1},
        classify_case{"HEAD", "/b", path_host, false, op::HeadBucket, "b", "", -1},
        classify_case{"POST", "/b?delete", path_host, false, op::DeleteObjects, "b", "", -1},
        classify_case{"POST", "/b?delete=", path_host, false, op::DeleteObjects, "b", "", -1},
        classify_case{"POST", "/b", path_host, false, op::Other, "b", "", -1},
        // Object level, path style.
        classify_case{"GET", "/b/k", path_host, false, op::GetObject, "b", "k", -1},
        classify_case{"GET", "/b/dir/sub/k.bin", path_host, false, op::GetObject, "b",
                      "dir/sub/k.bin", -1},
        classify_case{"GET", "/b/a%20b%2Fc", path_host, false, op::GetObject, "b", "a b/c", -1},
        classify_case{"GET", "/b/caf%C3%A9", path_host, false, op::GetObject, "b", "caf\xc3\xa9",
                      -1},
        classify_case{"GET", "/b/a+b", path_host, false, op::GetObject, "b", "a+b", -1},
        classify_case{"GET", "/b/100%25", path_host, false, op::GetObject, "b", "100%", -1},
        classify_case{"GET", "/b/bad%zzescape", path_host, false, op::GetObject, "b",
                      "bad%zzescape", -1},
        classify_case{"GET", "/b/k?partNumber=1", path_host, false, op::GetObject, "b", "k", 1},
        classify_case{"GET", "/b/k?x-id=GetObject&partNumber=2", path_host, false, op::GetObject,
                      "b", "k", 2},
        classify_case{"GET", "/b/k?partNumber=abc", path_host, false, op::GetObject, "b", "k", -1},
        classify_case{"GET", "/b/k?response-content-type=text%2Fplain", path_host, false,
                      op::GetObject, "b", "k", -1},
        classify_case{"GET", "/b/k?uploadId=u1", path_host, false, op::ListParts, "b", "k", -1},
        classify_case{"GET", "/b/k?uploadId=u1&max-parts=10", path_host, false, op::ListParts, "b",
                      "k", -1},
        classify_case{"GET", "/b/k?tagging", path_host, false, op::GetObjectTagging, "b", "k", -1},
        classify_case{"GET", "/b/k?acl", path_host, false, op::GetObjectAcl, "b", "k", -1},
        classify_case{"GET", "/b/k?attributes", path_host, false, op::GetObjectAttributes, "b", "k",
                      -1},
        classify_case{"GET", "/b/k?attributes&versionId=v1", path_host, false,
                      op::GetObjectAttributes, "b", "k", -1},
        classify_case{"GET", "/b/k?attributes&tagging", path_host, false, op::Other, "b", "k", -1},
        classify_case{"PUT", "/b/k?attributes", path_host, false, op::Other, "b", "k", -1},
        classify_case{"GET", "/b?versions", path_host, false, op::ListObjectVersions, "b", "", -1},
        classify_case{"GET", "/b?versions&prefix=a%2F", path_host, false, op::ListObjectVersions,
                      "b", "", -1},
        classify_case{"GET", "/b?versioning", path_host, false, op::GetBucketVersioning, "b", "",
                      -1},
        classify_case{"PUT", "/b?versioning", path_host, false, op::PutBucketVersioning, "b", "",
                      -1},
        classify_case{"DELETE", "/b?versioning", path_host, false, op::Other, "b", "", -1},
        classify_case{"GET", "/b/k?versions", path_host, false, op::Other, "b", "k", -1},
        classify_case{"HEAD", "/b/k", path_host, false, op::HeadObject, "b", "k", -1},
        classify_case{"HEAD", "/b/k?partNumber=3", path_host, false, op::HeadObject, "b", "k", 3},
        classify_case{"PUT", "/b/k", path_host, false, op::PutObject, "b", "k", -1},
        classify_case{"PUT", "/b/k", path_host, true, op::CopyObject, "b", "k", -1},
        classify_case{"PUT", "/b/k?partNumber=4&uploadId=u1", path_host, false, op::UploadPart, "b",
                      "k", 4},
        classify_case{"PUT", "/b/k?uploadId=u1&partNumber=5", path_host, false, op::UploadPart, "b",
                      "k", 5},
        classify_case{"PUT", "/b/k?partNumber=1&uploadId=u1", path_host, true, op::UploadPartCopy,
                      "b", "k", 1},
        classify_case{"PUT", "/b/k?tagging", path_host, false, op::PutObjectTagging, "b", "k", -1},
        classify_case{"POST", "/b/k?uploads", path_host, false, op::CreateMultipartUpload, "b", "k",
                      -1},
        classify_case{"POST", "/b/k?uploads=", path_host, false, op::CreateMultipartUpload, "b",
                      "k", -1},
        classify_case{"POST", "/b/k?uploadId=u1", path_host, false, op::CompleteMultipartUpload,
                      "b", "k", -1},
        classify_case{"POST", "/b/k?restore", path_host, false, op::RestoreObject, "b", "k", -1},
        classify_case{"POST", "/b/k", path_host, false, op::Other, "b", "k", -1},
        classify_case{"DELETE", "/b/k", path_host, false, op::DeleteObject, "b", "k", -1},
        classify_case{"DELETE", "/b/k?uploadId=u1", path_host, false, op::AbortMultipartUpload, "b",
                      "k", -1},
        classify_case{"PATCH", "/b/k", path_host, false, op::Other, "b", "k", -1},
        // Absolute-form target.
        classify_case{"GET", "http://127.0.0.1:9000/b/k?partNumber=1", path_host, false,
                      op::GetObject, "b", "k", 1},
        // Virtual-host style.
        classify_case{"GET", "/k", "b.s3.example.test", false, op::GetObject, "b", "k", -1},
        classify_case{"GET", "/dir/k", "b.s3.example.test:9000", false, op::GetObject, "b", "dir/k",
                      -1},
        classify_case{"GET", "/?list-type=2", "b.s3.example.test", false, op::ListObjectsV2, "b",
                      "", -1},
        classify_case{"PUT", "/", "b.s3.example.test", false, op::CreateBucket, "b", "", -1},
        classify_case{"GET", "/k?partNumber=2", "my.bucket.s3.example.test", false, op::GetObject,
                      "my.bucket", "k", 2},
        classify_case{"GET", "/k", "b.localhost:9000", false, op::GetObject, "b", "k", -1},
        classify_case{"GET", "/k", "b.s3.amazonaws.com", false, op::GetObject, "b", "k", -1},
        classify_case{"GET", "/k", "b.s3.eu-west-1.amazonaws.com", false, op::GetObject, "b", "k",
                      -1},
        classify_case{"GET", "/k", "b.s3-us-west-2.amazonaws.com", false, op::GetObject, "b", "k",
                      -1},
        classify_case{"GET", "/b/k", "s3.amazonaws.com", false, op::GetObject, "b", "k", -1},
        classify_case{"GET", "/b/k", "s3.example.test", false, op::GetObject, "b", "k", -1},
        classify_case{"GET", "/b/k", "localhost:9000", false, op::GetObject, "b", "k", -1},
        classify_case{"GET", "/b/k", "[::1]:9000", false, op::GetObject, "b", "k", -1},
        classify_case{"GET", "/b/k", "", false, op::GetObject, "b", "k", -1}));

TEST(Operations, NamesRoundTrip) {
  for (auto operation : all_operations()) {
    EXPECT_EQ(parse_operation(operation_name(operation)), operation);
  }
  EXPECT_EQ(parse_operation("getobject"), s3_operation::GetObject);
  EXPECT_FALSE(parse_operation("GetObjects"));
}

// Found by fuzz_classify_request: "//key" gave a key without a bucket.
TEST(ClassifyRequest, AnEmptyBucketSegmentNamesNoObject) {
  const auto request = classify_request({"PUT", "//kap?partNumber=3&uploadId=u", "h", {}});
  EXPECT_EQ(request.bucket, "");
  EXPECT_EQ(request.key, "");
  EXPECT_EQ(request.operation, s3_operation::Other);
  EXPECT_EQ(classify_request({"GET", "//k", "h", {}}).operation, s3_operation::ListBuckets);
}

TEST(ClassifyRequestRange, TheRangeHeaderIsKept) {
  const auto ranged = classify_request({"GET", "/b/k", "h", {}, "bytes=0-9"});
  ASSERT_TRUE(ranged.range.has_value());
  EXPECT_EQ(*ranged.range, "bytes=0-9");
  EXPECT_FALSE(classify_request({"GET", "/b/k", "h", {}}).range.has_value());
}

TEST(ClassifyRequestQuery, ValuesAreDecodedAndOrdered) {
  const auto request = classify_request({"GET", "/b?prefix=a%20b&delimiter=%2F&uploads", "h", {}});
  ASSERT_EQ(request.query.size(), 3u);
  EXPECT_EQ(request.query[0].second, "a b");
  EXPECT_EQ(request.query_value("delimiter"), "/");
  EXPECT_EQ(request.query_value("uploads"), "");
  EXPECT_FALSE(request.query_value("marker"));
}
