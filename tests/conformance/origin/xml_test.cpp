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
  ASSERT_EQ(request.objects.size(), 2u);
  EXPECT_EQ(request.objects[0].key, "a b");
  EXPECT_EQ(request.objects[1].key, " ");
  EXPECT_FALSE(request.objects[0].version_id.has_value());
  EXPECT_EQ(request.objects[1].version_id, "null");
}

TEST(VersioningXml, StatusEnabledOrSuspendedOnly) {
  const auto xml = [](const std::string& status) {
    return "<VersioningConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
           "<Status>" +
           status + "</Status></VersioningConfiguration>";
  };
  EXPECT_EQ(std::get<versioning_status>(parse_versioning_configuration(xml("Enabled"))),
            versioning_status::enabled);
  EXPECT_EQ(std::get<versioning_status>(parse_versioning_configuration(xml("Suspended"))),
            versioning_status::suspended);
  for (const std::string bad : {"Off", "enabled", ""}) {
    const auto parsed = parse_versioning_configuration(xml(bad));
    ASSERT_TRUE(std::holds_alternative<s3_error>(parsed)) << bad;
    EXPECT_EQ(std::get<s3_error>(parsed).code, "MalformedXML");
  }
  EXPECT_EQ(std::get<s3_error>(parse_versioning_configuration(
                                   "<VersioningConfiguration><Status>Enabled</Status>"
                                   "<MfaDelete>Enabled</MfaDelete></VersioningConfiguration>"))
                .code,
            "NotImplemented");
}

TEST(VersioningXml, RendersStatusOnlyOnceTurnedOn) {
  EXPECT_EQ(render_versioning_configuration(versioning_status::off).find("<Status>"),
            std::string::npos);
  EXPECT_NE(render_versioning_configuration(versioning_status::suspended)
                .find("<Status>Suspended</Status>"),
            std::string::npos);
}

TEST(VersionsXml, VersionsAndDeleteMarkersInOrder) {
  version_listing page;
  version_summary marker;
  marker.key = "k";
  marker.version_id = "v2";
  marker.latest = true;
  marker.delete_marker = true;
  version_summary old;
  old.key = "k";
  old.version_id = "v1";
  old.etag = "abc";
  old.size = 3;
  page.versions = {marker, old};
  page.truncated = true;
  page.next_key_marker = "k";
  page.next_version_id_marker = "v1";
  versions_echo echo;
  echo.bucket = "b";
  echo.max_keys = 2;
  const std::string xml = render_list_versions(echo, page);
  const auto at_marker = xml.find("<DeleteMarker><Key>k</Key><VersionId>v2</VersionId>"
                                  "<IsLatest>true</IsLatest>");
  const auto at_version = xml.find("<Version><Key>k</Key><VersionId>v1</VersionId>"
                                   "<IsLatest>false</IsLatest>");
  ASSERT_NE(at_marker, std::string::npos) << xml;
  ASSERT_NE(at_version, std::string::npos) << xml;
  EXPECT_LT(at_marker, at_version);
  EXPECT_NE(xml.find("<ETag>\"abc\"</ETag><Size>3</Size>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<NextKeyMarker>k</NextKeyMarker><NextVersionIdMarker>v1"), std::string::npos)
      << xml;
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
