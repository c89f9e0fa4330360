// GetObjectAttributes: the request headers and the response document (object_attributes.hpp),
// and the operation through origin_service.
#include "conformance/origin/object_attributes.hpp"
#include "conformance/origin/origin_service.hpp"
#include "conformance/s3/hashing.hpp"

#include <gtest/gtest.h>

namespace s3fault::origin {
namespace {

request_head attributes_head(header_list headers) {
  request_head head;
  head.method = "GET";
  head.target = "/b/k?attributes";
  head.headers = {{"Host", "127.0.0.1"}};
  head.headers.insert(head.headers.end(), headers.begin(), headers.end());
  return head;
}

s3_error parse_error(header_list headers) {
  const auto parsed = parse_attributes_request(attributes_head(std::move(headers)));
  return std::holds_alternative<s3_error>(parsed) ? std::get<s3_error>(parsed) : s3_error{};
}

attributes_request parse_ok(header_list headers) {
  const auto parsed = parse_attributes_request(attributes_head(std::move(headers)));
  EXPECT_TRUE(std::holds_alternative<attributes_request>(parsed))
      << std::get<s3_error>(parsed).message;
  return std::holds_alternative<attributes_request>(parsed) ? std::get<attributes_request>(parsed)
                                                            : attributes_request{};
}

TEST(AttributesRequest, NamesAreCommaSeparated) {
  const auto all = parse_ok(
      {{"x-amz-object-attributes", "ETag, Checksum,ObjectParts ,StorageClass,ObjectSize"}});
  EXPECT_TRUE(all.etag && all.checksum && all.object_parts && all.storage_class && all.object_size);
  const auto one = parse_ok({{"x-amz-object-attributes", "ObjectSize"}});
  EXPECT_TRUE(one.object_size);
  EXPECT_FALSE(one.etag || one.checksum || one.object_parts || one.storage_class);
  EXPECT_EQ(one.max_parts, 1000u);
  EXPECT_EQ(one.part_number_marker, 0u);
}

TEST(AttributesRequest, MissingOrUnknownNamesAreInvalidArgument) {
  for (const header_list& headers : {header_list{}, header_list{{"x-amz-object-attributes", ""}},
                                     header_list{{"x-amz-object-attributes", "ETag,Size"}},
                                     header_list{{"x-amz-object-attributes", "etag"}},
                                     header_list{{"x-amz-object-attributes", "ETag,"}}}) {
    const auto error = parse_error(headers);
    EXPECT_EQ(error.status, 400u);
    EXPECT_EQ(error.code, "InvalidArgument");
  }
  EXPECT_EQ(parse_error({}).message, "The x-amz-object-attributes header specifying the "
                                     "attributes to be retrieved is either missing or empty");
  EXPECT_EQ(parse_error({{"x-amz-object-attributes", "ETag,Size"}}).message,
            "Invalid attribute name specified.");
}

TEST(AttributesRequest, PaginationHeaders) {
  const auto page = parse_ok({{"x-amz-object-attributes", "ObjectParts"},
                              {"x-amz-max-parts", "2"},
                              {"x-amz-part-number-marker", "3"}});
  EXPECT_EQ(page.max_parts, 2u);
  EXPECT_EQ(page.part_number_marker, 3u);
  EXPECT_EQ(
      parse_ok({{"x-amz-object-attributes", "ObjectParts"}, {"x-amz-max-parts", "5000"}}).max_parts,
      1000u);
  for (const char* bad : {"-1", "two", "", "1.5"}) {
    EXPECT_EQ(
        parse_error({{"x-amz-object-attributes", "ObjectParts"}, {"x-amz-max-parts", bad}}).code,
        "InvalidArgument")
        << bad;
    EXPECT_EQ(
        parse_error({{"x-amz-object-attributes", "ObjectParts"}, {"x-amz-part-number-marker", bad}})
            .code,
        "InvalidArgument")
        << bad;
  }
}

object_record multipart_object(bool with_checksums) {
  object_record object;
  object.size = 25;
  object.etag = "0123456789abcdef0123456789abcdef-3";
  for (std::uint64_t size : {10u, 10u, 5u}) {
    part_extent part;
    part.size = size;
    part.checksum = with_checksums ? "part" + std::to_string(object.parts.size() + 1) + "==" : "";
    object.parts.push_back(part);
  }
  if (with_checksums) {
    checksum_value checksum;
    checksum.algorithm = "crc32c";
    checksum.value = "AAAAAA==-3";
    checksum.type = "COMPOSITE";
    object.checksum = checksum;
  }
  return object;
}

attributes_request everything() {
  attributes_request request;
  request.etag = request.checksum = request.object_parts = request.storage_class =
      request.object_size = true;
  return request;
}

TEST(AttributesDocument, SinglePutObject) {
  object_record object;
  object.size = 5;
  object.etag = "5d41402abc4b2a76b9719d911017c592";
  EXPECT_EQ(render_object_attributes(everything(), object),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><GetObjectAttributesResponse "
            "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            "<ETag>5d41402abc4b2a76b9719d911017c592</ETag><StorageClass>STANDARD</StorageClass>"
            "<ObjectSize>5</ObjectSize></GetObjectAttributesResponse>");
}

TEST(AttributesDocument, MultipartWithChecksumsListsParts) {
  const std::string body = render_object_attributes(everything(), multipart_object(true));
  EXPECT_NE(body.find("<ETag>0123456789abcdef0123456789abcdef-3</ETag>"), std::string::npos);
  EXPECT_NE(body.find("<Checksum><ChecksumCRC32C>AAAAAA==-3</ChecksumCRC32C>"
                      "<ChecksumType>COMPOSITE</ChecksumType></Checksum>"),
            std::string::npos);
  EXPECT_NE(body.find("<ObjectParts><PartsCount>3</PartsCount><PartNumberMarker>0</"
                      "PartNumberMarker><NextPartNumberMarker>3</NextPartNumberMarker>"
                      "<MaxParts>1000</MaxParts><IsTruncated>false</IsTruncated>"
                      "<Part><PartNumber>1</PartNumber><Size>10</Size>"
                      "<ChecksumCRC32C>part1==</ChecksumCRC32C></Part>"
                      "<Part><PartNumber>2</PartNumber><Size>10</Size>"
                      "<ChecksumCRC32C>part2==</ChecksumCRC32C></Part>"
                      "<Part><PartNumber>3</PartNumber><Size>5</Size>"
                      "<ChecksumCRC32C>part3==</ChecksumCRC32C></Part></ObjectParts>"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("<ObjectSize>25</ObjectSize>"), std::string::npos);
}

TEST(AttributesDocument, PartsArePaged) {
  attributes_request request;
  request.object_parts = true;
  request.max_parts = 1;
  request.part_number_marker = 1;
  EXPECT_EQ(render_object_attributes(request, multipart_object(true)),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><GetObjectAttributesResponse "
            "xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><ObjectParts>"
            "<PartsCount>3</PartsCount><PartNumberMarker>1</PartNumberMarker>"
            "<NextPartNumberMarker>2</NextPartNumberMarker><MaxParts>1</MaxParts>"
            "<IsTruncated>true</IsTruncated><Part><PartNumber>2</PartNumber><Size>10</Size>"
            "<ChecksumCRC32C>part2==</ChecksumCRC32C></Part></ObjectParts>"
            "</GetObjectAttributesResponse>");
  request.part_number_marker = 3;
  const std::string past_end = render_object_attributes(request, multipart_object(true));
  EXPECT_NE(past_end.find("<NextPartNumberMarker>3</NextPartNumberMarker><MaxParts>1</MaxParts>"
                          "<IsTruncated>false</IsTruncated></ObjectParts>"),
            std::string::npos)
      << past_end;
}

TEST(AttributesDocument, MultipartWithoutChecksumsHasOnlyThePartsCount) {
  attributes_request request;
  request.object_parts = true;
  request.checksum = true;
  const std::string body = render_object_attributes(request, multipart_object(false));
  EXPECT_NE(body.find("<ObjectParts><PartsCount>3</PartsCount></ObjectParts>"), std::string::npos)
      << body;
  EXPECT_EQ(body.find("<Checksum>"), std::string::npos);
}

TEST(AttributesOperation, AnswersForAStoredObject) {
  origin_settings settings; // anonymous: the operation alone
  origin_service service(settings, make_memory_backend());
  service.store().create_bucket("b", std::chrono::system_clock::now());
  auto record = std::make_shared<object_record>();
  record->size = 5;
  record->etag = "5d41402abc4b2a76b9719d911017c592";
  record->last_modified = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));
  ASSERT_FALSE(service.store().put_object("b", "k", record));

  auto answered = service.begin(attributes_head({{"x-amz-object-attributes", "ETag,ObjectSize"}}));
  EXPECT_EQ(answered.op, s3_operation::GetObjectAttributes);
  const origin_response& ok = answered.start.response;
  EXPECT_EQ(ok.status, 200u);
  EXPECT_NE(ok.body.find("<ETag>5d41402abc4b2a76b9719d911017c592</ETag><ObjectSize>5</"
                         "ObjectSize>"),
            std::string::npos)
      << ok.body;
  bool last_modified = false;
  for (const auto& [name, value] : ok.headers) {
    last_modified =
        last_modified || (name == "Last-Modified" && value == "Tue, 14 Nov 2023 22:13:20 GMT");
  }
  EXPECT_TRUE(last_modified);

  const auto missing_header = service.begin(attributes_head({})).start.response;
  ASSERT_TRUE(missing_header.error);
  EXPECT_EQ(missing_header.error->code, "InvalidArgument");

  auto other_key = attributes_head({{"x-amz-object-attributes", "ETag"}});
  other_key.target = "/b/nope?attributes";
  const auto no_key = service.begin(other_key).start.response;
  ASSERT_TRUE(no_key.error);
  EXPECT_EQ(no_key.error->status, 404u);
  EXPECT_EQ(no_key.error->code, "NoSuchKey");

  auto version = attributes_head({{"x-amz-object-attributes", "ETag"}});
  version.target = "/b/k?attributes&versionId=abc";
  const auto versioned = service.begin(version).start.response;
  ASSERT_TRUE(versioned.error);
  EXPECT_EQ(versioned.error->code, "NoSuchVersion");
  auto null_version = attributes_head({{"x-amz-object-attributes", "ObjectSize"}});
  null_version.target = "/b/k?attributes&versionId=null";
  const auto of_null = service.begin(null_version).start.response;
  EXPECT_FALSE(of_null.error) << "the one version of a bucket never versioned is null";
}

} // namespace
} // namespace s3fault::origin
