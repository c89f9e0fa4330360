// Fixture bytes and the arithmetic every part check relies on.
#include "conformance/audit/check_context.hpp"
#include "conformance/audit/fixtures.hpp"
#include "conformance/s3/hashing.hpp"

#include <gtest/gtest.h>

namespace s3fault::audit {
namespace {

TEST(SeededBytes, SameSeedSameBytesOtherSeedOtherBytes) {
  EXPECT_EQ(seeded_bytes(1001, 5), seeded_bytes(1001, 5));
  EXPECT_NE(seeded_bytes(1001, 5), seeded_bytes(1001, 6));
  EXPECT_EQ(seeded_bytes(1001, 5).substr(0, 17), seeded_bytes(17, 5));
  EXPECT_EQ(seeded_bytes(0, 5), "");
  // Not a constant fill: a byte histogram of 64 KiB touches most values.
  const auto bytes = seeded_bytes(65536, 9);
  std::set<char> values(bytes.begin(), bytes.end());
  EXPECT_GT(values.size(), 250u);
}

fixture three_parts() {
  fixture object;
  object.name = "mp";
  object.data = seeded_bytes(25, 1);
  object.part_sizes = {10, 10, 5};
  return object;
}

TEST(Fixture, PartOffsetsAndBytes) {
  const auto object = three_parts();
  EXPECT_EQ(object.part_offset(1), 0u);
  EXPECT_EQ(object.part_offset(2), 10u);
  EXPECT_EQ(object.part_offset(3), 20u);
  EXPECT_EQ(object.part_bytes(3), object.data.substr(20, 5));
  EXPECT_EQ(std::string(object.part_bytes(1)) + std::string(object.part_bytes(2)) +
                std::string(object.part_bytes(3)),
            object.data);
}

TEST(Fixture, MultipartEtagIsMd5OfPartMd5s) {
  const auto object = three_parts();
  const std::string digests = s3::md5_raw(object.data.substr(0, 10)) +
                              s3::md5_raw(object.data.substr(10, 10)) +
                              s3::md5_raw(object.data.substr(20, 5));
  EXPECT_EQ(multipart_etag(object), "\"" + s3::md5_hex(digests) + "-3\"");
  EXPECT_EQ(md5_etag(""), "\"d41d8cd98f00b204e9800998ecf8427e\"");
}

TEST(DescribeRequest, NamesQueryAndConditions) {
  client::get_options options;
  options.part_number = 2;
  options.if_match = "\"abc\"";
  options.range = "bytes=0-9";
  EXPECT_EQ(describe_request("GET", "b", "k", options),
            "GET /b/k?partNumber=2 [Range: bytes=0-9, If-Match: \"abc\"]");
  client::get_options odd;
  odd.extra_query.push_back({"partNumber", "abc"});
  EXPECT_EQ(describe_request("HEAD", "b", "k", odd), "HEAD /b/k?partNumber=abc");
}

} // namespace
} // namespace s3fault::audit
