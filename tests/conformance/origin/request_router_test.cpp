// Routing: operation, bucket and key from method, Host, path and sub-resources.
#include "conformance/origin/request_router.hpp"

#include <gtest/gtest.h>

namespace s3fault::origin {
namespace {

request_head request(std::string method, std::string target, std::string host = "127.0.0.1:9000",
                     header_list extra = {}) {
  request_head head;
  head.method = std::move(method);
  head.target = std::move(target);
  head.headers = {{"Host", std::move(host)}};
  head.headers.insert(head.headers.end(), extra.begin(), extra.end());
  return head;
}

struct route_case {
  const char* name;
  const char* method;
  const char* target;
  s3_operation op;
  const char* bucket;
  const char* key;
};

// Test names say which case failed; gtest need not dump the bytes.
void PrintTo(const route_case& c, std::ostream* out) {
  *out << c.name;
}

class Routing : public ::testing::TestWithParam<route_case> {};

TEST_P(Routing, PathStyle) {
  const auto& c = GetParam();
  const auto routed = route_request(request(c.method, c.target), "");
  EXPECT_EQ(routed.op, c.op) << operation_name(routed.op);
  EXPECT_EQ(routed.bucket, c.bucket);
  EXPECT_EQ(routed.key, c.key);
}

INSTANTIATE_TEST_SUITE_P(
    Operations, Routing,
    ::testing::Values(
        route_case{"list_buckets", "GET", "/", s3_operation::ListBuckets, "", ""},
        route_case{"create_bucket", "PUT", "/b", s3_operation::CreateBucket, "b", ""},
        route_case{"create_bucket_slash", "PUT", "/b/", s3_operation::CreateBucket, "b", ""},
        route_case{"delete_bucket", "DELETE", "/b", s3_operation::DeleteBucket, "b", ""},
        route_case{"head_bucket", "HEAD", "/b", s3_operation::HeadBucket, "b", ""},
        route_case{"location", "GET", "/b?location", s3_operation::GetBucketLocation, "b", ""},
        route_case{"versioning", "GET", "/b?versioning", s3_operation::GetBucketVersioning, "b",
                   ""},
        route_case{"list_v1", "GET", "/b?prefix=x", s3_operation::ListObjects, "b", ""},
        route_case{"list_v2", "GET", "/b?list-type=2", s3_operation::ListObjectsV2, "b", ""},
        route_case{"list_uploads", "GET", "/b?uploads", s3_operation::ListMultipartUploads, "b",
                   ""},
        route_case{"delete_objects", "POST", "/b?delete", s3_operation::DeleteObjects, "b", ""},
        route_case{"get", "GET", "/b/k", s3_operation::GetObject, "b", "k"},
        route_case{"get_part", "GET", "/b/k?partNumber=2", s3_operation::GetObject, "b", "k"},
        route_case{"head", "HEAD", "/b/dir/k", s3_operation::HeadObject, "b", "dir/k"},
        route_case{"put", "PUT", "/b/k", s3_operation::PutObject, "b", "k"},
        route_case{"delete", "DELETE", "/b/k", s3_operation::DeleteObject, "b", "k"},
        route_case{"create_upload", "POST", "/b/k?uploads", s3_operation::CreateMultipartUpload,
                   "b", "k"},
        route_case{"upload_part", "PUT", "/b/k?partNumber=1&uploadId=u", s3_operation::UploadPart,
                   "b", "k"},
        route_case{"complete", "POST", "/b/k?uploadId=u", s3_operation::CompleteMultipartUpload,
                   "b", "k"},
        route_case{"abort", "DELETE", "/b/k?uploadId=u", s3_operation::AbortMultipartUpload, "b",
                   "k"},
        route_case{"list_parts", "GET", "/b/k?uploadId=u", s3_operation::ListParts, "b", "k"},
        route_case{"encoded_key", "GET", "/b/a%20b%2Bc/%C3%A9", s3_operation::GetObject, "b",
                   "a b+c/\xc3\xa9"},
        route_case{"plus_stays_plus", "GET", "/b/a+b", s3_operation::GetObject, "b", "a+b"},
        route_case{"double_slash_kept", "GET", "/b/a//b/", s3_operation::GetObject, "b", "a//b/"},
        route_case{"null_version", "GET", "/b/k?versionId=null", s3_operation::GetObject, "b", "k"},
        route_case{"get_object_acl", "GET", "/b/k?acl", s3_operation::GetObjectAcl, "b", "k"},
        route_case{"get_bucket_acl", "GET", "/b?acl", s3_operation::GetBucketAcl, "b", ""},
        route_case{"put_acl", "PUT", "/b/k?acl", s3_operation::PutObjectAcl, "b", "k"},
        route_case{"get_tagging", "GET", "/b/k?tagging", s3_operation::GetObjectTagging, "b", "k"},
        route_case{"get_attributes", "GET", "/b/dir/k?attributes",
                   s3_operation::GetObjectAttributes, "b", "dir/k"},
        route_case{"get_attributes_null_version", "GET", "/b/k?attributes&versionId=null",
                   s3_operation::GetObjectAttributes, "b", "k"},
        route_case{"get_attributes_version", "GET", "/b/k?attributes&versionId=3",
                   s3_operation::GetObjectAttributes, "b", "k"},
        route_case{"put_attributes", "PUT", "/b/k?attributes", s3_operation::Other, "b", "k"},
        route_case{"bucket_attributes", "GET", "/b?attributes", s3_operation::Other, "b", ""},
        route_case{"bucket_policy", "GET", "/b?policy", s3_operation::GetBucketPolicy, "b", ""},
        route_case{"tagging", "PUT", "/b/k?tagging", s3_operation::PutObjectTagging, "b", "k"},
        route_case{"version", "GET", "/b/k?versionId=3", s3_operation::GetObject, "b", "k"},
        route_case{"versions", "GET", "/b?versions", s3_operation::ListObjectVersions, "b", ""},
        route_case{"put_versioning", "PUT", "/b?versioning", s3_operation::PutBucketVersioning, "b",
                   ""},
        route_case{"versioning_on_key", "PUT", "/b/k?versioning", s3_operation::Other, "b", "k"},
        route_case{"post_bucket", "POST", "/b", s3_operation::Other, "b", ""},
        route_case{"delete_service", "DELETE", "/", s3_operation::Other, "", ""}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Routing, CopyHeaderMakesCopyOperations) {
  const header_list copy = {{"x-amz-copy-source", "/src/k"}};
  EXPECT_EQ(route_request(request("PUT", "/b/k", "h", copy), "").op, s3_operation::CopyObject);
  EXPECT_EQ(route_request(request("PUT", "/b/k?partNumber=1&uploadId=u", "h", copy), "").op,
            s3_operation::UploadPartCopy);
}

TEST(Routing, ASubresourceNewerThanTheModelIsNamedNotGuessed) {
  const auto rename = route_request(request("PUT", "/b/k?renameObject"), "");
  EXPECT_EQ(rename.op, s3_operation::Other);
  EXPECT_EQ(rename.unknown_subresource, "renameObject");
  EXPECT_EQ(route_request(request("PUT", "/b/k"), "").unknown_subresource, "");
}

TEST(Routing, GetObjectAttributesIsNamedAndTakesVersions) {
  EXPECT_EQ(operation_name(s3_operation::GetObjectAttributes), "GetObjectAttributes");
  const auto routed = route_request(request("GET", "/b/k?attributes&versionId=abc"), "");
  EXPECT_EQ(routed.op, s3_operation::GetObjectAttributes);
}

TEST(Routing, VirtualHostedBucketWithDomain) {
  const auto routed = route_request(request("GET", "/dir/k", "Photos.s3.local:9000"), "s3.local");
  EXPECT_EQ(routed.op, s3_operation::GetObject);
  EXPECT_EQ(routed.bucket, "Photos");
  EXPECT_EQ(routed.key, "dir/k");
  EXPECT_EQ(routed.resource, "/Photos/dir/k");
}

TEST(Routing, DomainItselfIsPathStyle) {
  const auto routed = route_request(request("GET", "/b/k", "s3.local:9000"), "s3.local");
  EXPECT_EQ(routed.bucket, "b");
  EXPECT_EQ(routed.key, "k");
}

TEST(Routing, WithoutDomainHostIsIgnored) {
  const auto routed = route_request(request("GET", "/b/k", "x.s3.local"), "");
  EXPECT_EQ(routed.bucket, "b");
}

TEST(Routing, QueryIsDecoded) {
  const auto routed =
      route_request(request("GET", "/b?list-type=2&prefix=a%2Fb%20c&delimiter=%2F"), "");
  EXPECT_EQ(routed.query.get("prefix"), "a/b c");
  EXPECT_EQ(routed.query.get("delimiter"), "/");
  EXPECT_FALSE(routed.query.get("marker").has_value());
}

TEST(Routing, ResourceNamesBucketAndKey) {
  EXPECT_EQ(route_request(request("GET", "/b/k%20x"), "").resource, "/b/k x");
  EXPECT_EQ(route_request(request("GET", "/"), "").resource, "/");
}

} // namespace
} // namespace s3fault::origin
