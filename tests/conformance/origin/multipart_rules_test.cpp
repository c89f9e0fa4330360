// CompleteMultipartUpload rules: part order, existence and ETags, EntityTooSmall, the
// multipart ETag and composite checksums.
#include "conformance/origin/crc_combine.hpp"
#include "conformance/origin/multipart_rules.hpp"
#include "conformance/s3/hashing.hpp"

#include <gtest/gtest.h>

namespace s3fault::origin {
namespace {

constexpr std::uint64_t mib = 1024 * 1024;

part_record part_of(std::uint64_t size, const std::string& seed) {
  part_record part;
  part.size = size;
  part.md5_raw = s3::md5_raw(seed);
  return part;
}

upload_record upload_with(std::vector<std::uint64_t> sizes) {
  upload_record upload;
  upload.key = "k";
  upload.upload_id = "u";
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    upload.parts[static_cast<unsigned>(i + 1)] = part_of(sizes[i], "part" + std::to_string(i + 1));
  }
  return upload;
}

completed_part entry(const upload_record& upload, unsigned number, bool quoted = true) {
  const std::string hex = s3::to_hex(upload.parts.at(number).md5_raw);
  return completed_part{number, quoted ? "\"" + hex + "\"" : hex, {}};
}

TEST(MultipartEtag, IsMd5OfConcatenatedBinaryMd5sWithPartCount) {
  // Known value: parts "a" and "b".
  const std::string joined = s3::md5_raw("a") + s3::md5_raw("b");
  EXPECT_EQ(multipart_etag({s3::md5_raw("a"), s3::md5_raw("b")}), s3::md5_hex(joined) + "-2");
  EXPECT_EQ(multipart_etag({s3::md5_raw("a")}), s3::md5_hex(s3::md5_raw("a")) + "-1");
}

TEST(AssembleMultipart, BuildsObjectFromListedParts) {
  const auto upload = upload_with({5 * mib, 5 * mib, 1});
  const auto result = assemble_multipart(
      upload, {entry(upload, 1), entry(upload, 2, false), entry(upload, 3)}, 5 * mib);
  ASSERT_TRUE(std::holds_alternative<object_record>(result));
  const auto& object = std::get<object_record>(result);
  EXPECT_EQ(object.size, 10 * mib + 1);
  ASSERT_EQ(object.parts.size(), 3u);
  EXPECT_EQ(object.parts[2].size, 1u);
  EXPECT_TRUE(object.etag.ends_with("-3"));
  EXPECT_EQ(object.etag, multipart_etag({upload.parts.at(1).md5_raw, upload.parts.at(2).md5_raw,
                                         upload.parts.at(3).md5_raw}));
}

TEST(AssembleMultipart, UnlistedPartsAreLeftOut) {
  const auto upload = upload_with({5 * mib, 5 * mib, 5 * mib});
  const auto result = assemble_multipart(upload, {entry(upload, 1), entry(upload, 3)}, 5 * mib);
  ASSERT_TRUE(std::holds_alternative<object_record>(result));
  EXPECT_EQ(std::get<object_record>(result).parts.size(), 2u);
  EXPECT_TRUE(std::get<object_record>(result).etag.ends_with("-2"));
}

s3_error expect_error(const std::variant<object_record, s3_error>& result) {
  if (!std::holds_alternative<s3_error>(result)) {
    ADD_FAILURE() << "expected an error";
    return {};
  }
  return std::get<s3_error>(result);
}

TEST(AssembleMultipart, DescendingOrderIsInvalidPartOrder) {
  const auto upload = upload_with({5 * mib, 5 * mib});
  const auto error =
      expect_error(assemble_multipart(upload, {entry(upload, 2), entry(upload, 1)}, 5 * mib));
  EXPECT_EQ(error.code, "InvalidPartOrder");
  EXPECT_EQ(error.status, 400u);
}

TEST(AssembleMultipart, DuplicatePartIsInvalidPartOrder) {
  const auto upload = upload_with({5 * mib, 5 * mib});
  EXPECT_EQ(
      expect_error(assemble_multipart(upload, {entry(upload, 1), entry(upload, 1)}, 5 * mib)).code,
      "InvalidPartOrder");
}

TEST(AssembleMultipart, MissingPartIsInvalidPart) {
  const auto upload = upload_with({5 * mib});
  const auto error = expect_error(
      assemble_multipart(upload, {entry(upload, 1), completed_part{2, "\"x\"", {}}}, 5 * mib));
  EXPECT_EQ(error.code, "InvalidPart");
}

TEST(AssembleMultipart, WrongEtagIsInvalidPart) {
  const auto upload = upload_with({5 * mib});
  auto wrong = entry(upload, 1);
  wrong.etag = "\"0123456789abcdef0123456789abcdef\"";
  EXPECT_EQ(expect_error(assemble_multipart(upload, {wrong}, 5 * mib)).code, "InvalidPart");
}

TEST(AssembleMultipart, SmallPartBeforeTheLastIsEntityTooSmall) {
  const auto upload = upload_with({5 * mib, 5 * mib - 1, 5 * mib});
  const auto error = expect_error(
      assemble_multipart(upload, {entry(upload, 1), entry(upload, 2), entry(upload, 3)}, 5 * mib));
  EXPECT_EQ(error.code, "EntityTooSmall");
  EXPECT_EQ(error.status, 400u);
}

TEST(AssembleMultipart, SmallLastPartIsFine) {
  const auto upload = upload_with({5 * mib, 1});
  EXPECT_TRUE(std::holds_alternative<object_record>(
      assemble_multipart(upload, {entry(upload, 1), entry(upload, 2)}, 5 * mib)));
}

TEST(AssembleMultipart, MinimumPartSizeIsConfigurable) {
  const auto upload = upload_with({100, 100, 5});
  const std::vector<completed_part> all = {entry(upload, 1), entry(upload, 2), entry(upload, 3)};
  EXPECT_TRUE(std::holds_alternative<object_record>(assemble_multipart(upload, all, 100)));
  EXPECT_EQ(expect_error(assemble_multipart(upload, all, 101)).code, "EntityTooSmall");
}

TEST(AssembleMultipart, EmptyListIsMalformedXml) {
  const auto upload = upload_with({5 * mib});
  EXPECT_EQ(expect_error(assemble_multipart(upload, {}, 5 * mib)).code, "MalformedXML");
}

upload_record checksummed_upload() {
  auto upload = upload_with({5 * mib, 3});
  for (auto& [number, part] : upload.parts) {
    auto sum = s3::checksum::create("crc32");
    sum->update("data" + std::to_string(number));
    part.checksum_algorithm = "crc32";
    part.checksum = sum->base64_digest();
  }
  return upload;
}

TEST(CompositeChecksum, IsChecksumOfRawPartChecksumsWithCount) {
  const auto upload = checksummed_upload();
  const auto result = assemble_multipart(upload, {entry(upload, 1), entry(upload, 2)}, 5 * mib);
  ASSERT_TRUE(std::holds_alternative<object_record>(result));
  const auto& object = std::get<object_record>(result);
  ASSERT_TRUE(object.checksum.has_value());
  auto expected = s3::checksum::create("crc32");
  expected->update(*s3::base64_decode(upload.parts.at(1).checksum));
  expected->update(*s3::base64_decode(upload.parts.at(2).checksum));
  EXPECT_EQ(object.checksum->value, expected->base64_digest() + "-2");
  EXPECT_EQ(object.checksum->type, "COMPOSITE");
  EXPECT_EQ(object.checksum->algorithm, "crc32");
  EXPECT_EQ(object.parts[1].checksum, upload.parts.at(2).checksum);
}

TEST(CompositeChecksum, AbsentWhenAPartHasNone) {
  auto upload = checksummed_upload();
  upload.parts.at(2).checksum.clear();
  upload.parts.at(2).checksum_algorithm.clear();
  const auto result = assemble_multipart(upload, {entry(upload, 1), entry(upload, 2)}, 5 * mib);
  ASSERT_TRUE(std::holds_alternative<object_record>(result));
  EXPECT_FALSE(std::get<object_record>(result).checksum.has_value());
}

TEST(CompositeChecksum, ListedChecksumMustMatchTheUploadedOne) {
  const auto upload = checksummed_upload();
  auto first = entry(upload, 1);
  first.checksums["crc32"] = upload.parts.at(2).checksum;
  EXPECT_EQ(expect_error(assemble_multipart(upload, {first, entry(upload, 2)}, 5 * mib)).code,
            "InvalidPart");
  first.checksums["crc32"] = upload.parts.at(1).checksum;
  EXPECT_TRUE(std::holds_alternative<object_record>(
      assemble_multipart(upload, {first, entry(upload, 2)}, 5 * mib)));
}

} // namespace
} // namespace s3fault::origin

namespace s3fault::origin {
namespace {

std::uint32_t crc_value(const std::string& algorithm, const std::string& data) {
  auto sum = s3::checksum::create(algorithm);
  sum->update(data);
  const auto raw = *s3::base64_decode(sum->base64_digest());
  return (std::uint32_t(std::uint8_t(raw[0])) << 24) | (std::uint32_t(std::uint8_t(raw[1])) << 16) |
         (std::uint32_t(std::uint8_t(raw[2])) << 8) | std::uint32_t(std::uint8_t(raw[3]));
}

TEST(CrcCombine, GivesTheCrcOfTheConcatenation) {
  const std::string a = "The quick brown fox ", b = "jumps over the lazy dog, twice over.";
  for (const auto& [name, polynomial] :
       {std::pair{"crc32", crc32_polynomial}, std::pair{"crc32c", crc32c_polynomial}}) {
    EXPECT_EQ(crc_combine(polynomial, crc_value(name, a), crc_value(name, b), b.size()),
              crc_value(name, a + b))
        << name;
    EXPECT_EQ(crc_combine(polynomial, crc_value(name, a), crc_value(name, ""), 0),
              crc_value(name, a));
  }
}

TEST(FullObjectChecksum, IsTheCrcOfTheWholeObject) {
  const std::vector<std::string> pieces = {std::string(1000, 'x'), "middle", std::string(77, 'z')};
  for (const std::string algorithm : {"crc32", "crc32c"}) {
    upload_record upload;
    upload.checksum_algorithm = algorithm;
    upload.checksum_type = "FULL_OBJECT";
    std::vector<completed_part> list;
    std::string whole;
    for (unsigned i = 0; i < pieces.size(); ++i) {
      auto sum = s3::checksum::create(algorithm);
      sum->update(pieces[i]);
      part_record part;
      part.size = pieces[i].size();
      part.md5_raw = s3::md5_raw(pieces[i]);
      part.checksum_algorithm = algorithm;
      part.checksum = sum->base64_digest();
      upload.parts[i + 1] = part;
      list.push_back(completed_part{i + 1, s3::md5_hex(pieces[i]), {}});
      whole += pieces[i];
    }
    auto expected = s3::checksum::create(algorithm);
    expected->update(whole);
    const auto result = assemble_multipart(upload, list, 1);
    ASSERT_TRUE(std::holds_alternative<object_record>(result));
    const auto& object = std::get<object_record>(result);
    ASSERT_TRUE(object.checksum.has_value());
    EXPECT_EQ(object.checksum->value, expected->base64_digest()) << algorithm;
    EXPECT_EQ(object.checksum->type, "FULL_OBJECT");
    // A declared whole-object checksum must match.
    EXPECT_TRUE(std::holds_alternative<object_record>(
        assemble_multipart(upload, list, 1, expected->base64_digest())));
    const auto wrong = assemble_multipart(upload, list, 1, std::string("AAAAAA=="));
    ASSERT_TRUE(std::holds_alternative<s3_error>(wrong));
    EXPECT_EQ(std::get<s3_error>(wrong).code, "BadDigest");
  }
}

} // namespace
} // namespace s3fault::origin
