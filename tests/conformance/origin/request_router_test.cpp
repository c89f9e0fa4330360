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
  operation op;
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
        route_case{"list_buckets", "GET", "/", operation::list_buckets, "", ""},
        route_case{"create_bucket", "PUT", "/b", operation::create_bucket, "b", ""},
        route_case{"create_bucket_slash", "PUT", "/b/", operation::create_bucket, "b", ""},
        route_case{"delete_bucket", "DELETE", "/b", operation::delete_bucket, "b", ""},
        route_case{"head_bucket", "HEAD", "/b", operation::head_bucket, "b", ""},
        route_case{"location", "GET", "/b?location", operation::get_bucket_location, "b", ""},
        route_case{"versioning", "GET", "/b?versioning", operation::get_bucket_versioning, "b", ""},
        route_case{"list_v1", "GET", "/b?prefix=x", operation::list_objects_v1, "b", ""},
        route_case{"list_v2", "GET", "/b?list-type=2", operation::list_objects_v2, "b", ""},
        route_case{"list_uploads", "GET", "/b?uploads", operation::list_multipart_uploads, "b", ""},
        route_case{"delete_objects", "POST", "/b?delete", operation::delete_objects, "b", ""},
        route_case{"get", "GET", "/b/k", operation::get_object, "b", "k"},
        route_case{"get_part", "GET", "/b/k?partNumber=2", operation::get_object, "b", "k"},
        route_case{"head", "HEAD", "/b/dir/k", operation::head_object, "b", "dir/k"},
        route_case{"put", "PUT", "/b/k", operation::put_object, "b", "k"},
        route_case{"delete", "DELETE", "/b/k", operation::delete_object, "b", "k"},
        route_case{"create_upload", "POST", "/b/k?uploads", operation::create_multipart_upload, "b",
                   "k"},
        route_case{"upload_part", "PUT", "/b/k?partNumber=1&uploadId=u", operation::upload_part,
                   "b", "k"},
        route_case{"complete", "POST", "/b/k?uploadId=u", operation::complete_multipart_upload, "b",
                   "k"},
        route_case{"abort", "DELETE", "/b/k?uploadId=u", operation::abort_multipart_upload, "b",
                   "k"},
        route_case{"list_parts", "GET", "/b/k?uploadId=u", operation::list_parts, "b", "k"},
        route_case{"encoded_key", "GET", "/b/a%20b%2Bc/%C3%A9", operation::get_object, "b",
                   "a b+c/\xc3\xa9"},
        route_case{"plus_stays_plus", "GET", "/b/a+b", operation::get_object, "b", "a+b"},
        route_case{"double_slash_kept", "GET", "/b/a//b/", operation::get_object, "b", "a//b/"},
        route_case{"null_version", "GET", "/b/k?versionId=null", operation::get_object, "b", "k"},
        route_case{"get_object_acl", "GET", "/b/k?acl", operation::get_acl, "b", "k"},
        route_case{"get_bucket_acl", "GET", "/b?acl", operation::get_acl, "b", ""},
        route_case{"put_acl", "PUT", "/b/k?acl", operation::not_implemented, "b", "k"},
        route_case{"get_tagging", "GET", "/b/k?tagging", operation::get_object_tagging, "b", "k"},
        route_case{"get_attributes", "GET", "/b/dir/k?attributes", operation::get_object_attributes,
                   "b", "dir/k"},
        route_case{"get_attributes_null_version", "GET", "/b/k?attributes&versionId=null",
                   operation::get_object_attributes, "b", "k"},
        route_case{"get_attributes_version", "GET", "/b/k?attributes&versionId=3",
                   operation::get_object_attributes, "b", "k"},
        route_case{"put_attributes", "PUT", "/b/k?attributes", operation::not_implemented, "b",
                   "k"},
        route_case{"bucket_attributes", "GET", "/b?attributes", operation::not_implemented, "b",
                   ""},
        route_case{"bucket_policy", "GET", "/b?policy", operation::not_implemented, "b", ""},
        route_case{"tagging", "PUT", "/b/k?tagging", operation::not_implemented, "b", "k"},
        route_case{"version", "GET", "/b/k?versionId=3", operation::get_object, "b", "k"},
        route_case{"versions", "GET", "/b?versions", operation::list_object_versions, "b", ""},
        route_case{"put_versioning", "PUT", "/b?versioning", operation::put_bucket_versioning, "b",
                   ""},
        route_case{"versioning_on_key", "PUT", "/b/k?versioning", operation::not_implemented, "b",
                   "k"},
        route_case{"post_bucket", "POST", "/b", operation::method_not_allowed, "b", ""},
        route_case{"delete_service", "DELETE", "/", operation::method_not_allowed, "", ""}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Routing, CopyHeaderMakesCopyOperations) {
  const header_list copy = {{"x-amz-copy-source", "/src/k"}};
  EXPECT_EQ(route_request(request("PUT", "/b/k", "h", copy), "").op, operation::copy_object);
  EXPECT_EQ(route_request(request("PUT", "/b/k?partNumber=1&uploadId=u", "h", copy), "").op,
            operation::upload_part_copy);
}

TEST(Routing, GetObjectAttributesIsNamedAndTakesVersions) {
  EXPECT_EQ(operation_name(operation::get_object_attributes), "GetObjectAttributes");
  const auto routed = route_request(request("GET", "/b/k?attributes&versionId=abc"), "");
  EXPECT_EQ(routed.op, operation::get_object_attributes);
  EXPECT_EQ(routed.unsupported, "");
}

TEST(Routing, VirtualHostedBucketWithDomain) {
  const auto routed = route_request(request("GET", "/dir/k", "Photos.s3.local:9000"), "s3.local");
  EXPECT_EQ(routed.op, operation::get_object);
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
