// XML in and out: request bodies parsed leniently about namespaces and strictly about
// structure; results and errors rendered with S3's element names.
#include "conformance/origin/xml_render.hpp"
#include "conformance/origin/xml_requests.hpp"

#include <gtest/gtest.h>

namespace s3fault::origin {
namespace {

TEST(CompleteXml, ParsesPartsWithChecksumsAndNamespace) {
  const auto parsed = parse_complete_multipart(
      R"(<?xml version="1.0"?><CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">)"
      R"(<Part><ETag>"aa"</ETag><PartNumber>1</PartNumber><ChecksumCRC32>AAAAAA==</ChecksumCRC32></Part>)"
      R"(<Part><PartNumber>2</PartNumber><ETag>bb</ETag></Part></CompleteMultipartUpload>)");
  ASSERT_TRUE(std::holds_alternative<std::vector<completed_part>>(parsed));
  const auto& parts = std::get<std::vector<completed_part>>(parsed);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].number, 1u);
  EXPECT_EQ(parts[0].etag, "\"aa\"");
  EXPECT_EQ(parts[0].checksums.at("crc32"), "AAAAAA==");
  EXPECT_EQ(parts[1].etag, "bb");
}

TEST(CompleteXml, MalformedBodiesAreMalformedXml) {
  for (const char* body : {"", "<CompleteMultipartUpload>", "<Other/>",
                           "<CompleteMultipartUpload><Part><ETag>x</ETag></Part>"
                           "</CompleteMultipartUpload>",
                           "<CompleteMultipartUpload><Part><PartNumber>x</PartNumber><ETag>x</ETag>"
                           "</Part></CompleteMultipartUpload>"}) {
    const auto parsed = parse_complete_multipart(body);
    ASSERT_TRUE(std::holds_alternative<s3_error>(parsed)) << body;
    EXPECT_EQ(std::get<s3_error>(parsed).code, "MalformedXML");
  }
}

TEST(DeleteXml, ParsesKeysAndQuiet) {
  const auto parsed = parse_delete_objects(
      "<Delete><Quiet>true</Quiet><Object><Key>a b</Key></Object><Object><Key> </Key>"
      "<VersionId>null</VersionId></Object></Delete>");
  ASSERT_TRUE(std::holds_alternative<delete_request>(parsed));
  const auto& request = std::get<delete_request>(parsed);
  EXPECT_TRUE(request.quiet);
  EXPECT_EQ(request.keys, (std::vector<std::string>{"a b", " "}));
}

TEST(DeleteXml, MoreThanAThousandKeysIsMalformed) {
  std::string body = "<Delete>";
  for (int i = 0; i < 1001; ++i) {
    body += "<Object><Key>k" + std::to_string(i) + "</Key></Object>";
  }
  body += "</Delete>";
  EXPECT_TRUE(std::holds_alternative<s3_error>(parse_delete_objects(body)));
}

TEST(CreateBucketXml, ReadsTheLocationConstraint) {
  EXPECT_EQ(std::get<std::string>(parse_create_bucket_configuration("")), "");
  EXPECT_EQ(std::get<std::string>(parse_create_bucket_configuration(
                "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                "<LocationConstraint>eu-west-1</LocationConstraint></CreateBucketConfiguration>")),
            "eu-west-1");
  EXPECT_TRUE(std::holds_alternative<s3_error>(parse_create_bucket_configuration("<x")));
}

TEST(ErrorXml, HasTheContractElementsInOrder) {
  const auto xml = render_error(
      s3_error{404, "NoSuchKey", "The specified key does not exist.", {{"Key", "a&b"}}, {}},
      "/b/a&b", "REQ1");
  EXPECT_EQ(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>NoSuchKey</Code>"
                 "<Message>The specified key does not exist.</Message><Resource>/b/a&amp;b"
                 "</Resource><RequestId>REQ1</RequestId><Key>a&amp;b</Key></Error>");
}

TEST(ListXml, V2EchoesAndEncodesKeys) {
  listing_echo echo;
  echo.bucket = "b";
  echo.prefix = "p q";
  echo.delimiter = "/";
  echo.url_encoding = true;
  echo.max_keys = 2;
  echo.next_continuation_token = "TOKEN";
  object_listing page;
  page.objects.push_back(object_summary{"p q/a+b", 3, "e", {}, ""});
  page.common_prefixes.push_back("p q/d/");
  page.truncated = true;
  const auto xml = render_list_objects_v2(echo, page);
  EXPECT_NE(xml.find("<Prefix>p%20q</Prefix>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<Key>p%20q/a%2Bb</Key>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<KeyCount>2</KeyCount>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<NextContinuationToken>TOKEN</NextContinuationToken>"), std::string::npos);
  EXPECT_NE(xml.find("<IsTruncated>true</IsTruncated>"), std::string::npos);
  EXPECT_NE(xml.find("<CommonPrefixes><Prefix>p%20q/d/</Prefix></CommonPrefixes>"),
            std::string::npos);
  EXPECT_NE(xml.find("<ETag>\"e\"</ETag>"), std::string::npos);
  EXPECT_NE(xml.find("<EncodingType>url</EncodingType>"), std::string::npos);
}

TEST(ListXml, V1NextMarkerOnlyWithDelimiter) {
  listing_echo echo;
  echo.bucket = "b";
  object_listing page;
  page.truncated = true;
  page.last_entry = "k";
  EXPECT_EQ(render_list_objects_v1(echo, page).find("NextMarker"), std::string::npos);
  echo.delimiter = "/";
  EXPECT_NE(render_list_objects_v1(echo, page).find("<NextMarker>k</NextMarker>"),
            std::string::npos);
}

TEST(LocationXml, UsEast1IsEmpty) {
  EXPECT_NE(render_bucket_location("us-east-1")
                .find("<LocationConstraint xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"/>"),
            std::string::npos);
  EXPECT_NE(render_bucket_location("eu-west-1").find(">eu-west-1</LocationConstraint>"),
            std::string::npos);
}

} // namespace
} // namespace s3fault::origin
