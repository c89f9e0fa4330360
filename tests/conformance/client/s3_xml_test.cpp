// Parsing the S3 XML documents as real stores send them, and building request documents.
#include "conformance/client/s3_xml.hpp"

#include <gtest/gtest.h>

namespace s3fault::client {
namespace {

TEST(ErrorXml, ParsesCodeMessageResourceRequestId) {
  const auto error = parse_error_xml(
      R"(<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>
<Resource>/b/k</Resource><RequestId>tx000001</RequestId><HostId>h1</HostId></Error>)");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code, "NoSuchKey");
  EXPECT_EQ(error->message, "The specified key does not exist.");
  EXPECT_EQ(error->resource, "/b/k");
  EXPECT_EQ(error->request_id, "tx000001");
  EXPECT_EQ(error->host_id, "h1");
}

TEST(ErrorXml, RejectsOtherDocumentsAndNonXml) {
  EXPECT_FALSE(parse_error_xml("<ListBucketResult/>"));
  EXPECT_FALSE(parse_error_xml("not xml at all"));
  EXPECT_FALSE(parse_error_xml(""));
  // RGW sends errors without RequestId sometimes: still an error.
  const auto minimal = parse_error_xml("<Error><Code>AccessDenied</Code></Error>");
  ASSERT_TRUE(minimal);
  EXPECT_EQ(minimal->code, "AccessDenied");
  EXPECT_EQ(minimal->request_id, "");
}

TEST(ListObjectsV2, ParsesContentsPrefixesAndContinuation) {
  const char* xml = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>bucket</Name><Prefix>dir/</Prefix><MaxKeys>2</MaxKeys><Delimiter>/</Delimiter>
  <IsTruncated>true</IsTruncated>
  <Contents><Key>dir/a b</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified>
    <ETag>&quot;d41d8cd98f00b204e9800998ecf8427e&quot;</ETag><Size>0</Size>
    <StorageClass>STANDARD</StorageClass></Contents>
  <Contents><Key>dir/big</Key><ETag>"abc-2"</ETag><Size>10485760</Size></Contents>
  <CommonPrefixes><Prefix>dir/sub/</Prefix></CommonPrefixes>
  <KeyCount>3</KeyCount>
  <ContinuationToken>tok0</ContinuationToken>
  <NextContinuationToken>tok1</NextContinuationToken>
</ListBucketResult>)";
  std::string error;
  const auto result = parse_list_objects_v2(xml, error);
  ASSERT_TRUE(result) << error;
  EXPECT_EQ(result->bucket, "bucket");
  EXPECT_EQ(result->prefix, "dir/");
  EXPECT_EQ(result->delimiter, "/");
  EXPECT_EQ(result->max_keys, 2u);
  EXPECT_EQ(result->key_count, 3u);
  EXPECT_TRUE(result->is_truncated);
  EXPECT_EQ(result->continuation_token, "tok0");
  EXPECT_EQ(result->next_continuation_token, "tok1");
  ASSERT_EQ(result->contents.size(), 2u);
  EXPECT_EQ(result->contents[0].key, "dir/a b");
  EXPECT_EQ(result->contents[0].etag, "\"d41d8cd98f00b204e9800998ecf8427e\"");
  EXPECT_EQ(result->contents[0].last_modified, "2024-01-01T00:00:00.000Z");
  EXPECT_EQ(result->contents[0].storage_class, "STANDARD");
  EXPECT_EQ(result->contents[1].size, 10485760u);
  EXPECT_EQ(result->common_prefixes, std::vector<std::string>{"dir/sub/"});
}

TEST(ListObjectsV2, WrongRootOrBrokenXmlIsAnError) {
  std::string error;
  EXPECT_FALSE(parse_list_objects_v2("<Error><Code>x</Code></Error>", error));
  EXPECT_NE(error.find("expected <ListBucketResult>"), std::string::npos) << error;
  EXPECT_FALSE(parse_list_objects_v2("<ListBucketResult><Name>", error));
  EXPECT_NE(error.find("not XML"), std::string::npos) << error;
}

TEST(ListBuckets, ParsesOwnerAndBuckets) {
  std::string error;
  const auto result = parse_list_buckets(
      R"(<ListAllMyBucketsResult><Owner><ID>id1</ID><DisplayName>me</DisplayName></Owner>
<Buckets><Bucket><Name>a</Name><CreationDate>2024-01-01T00:00:00Z</CreationDate></Bucket>
<Bucket><Name>b</Name></Bucket></Buckets></ListAllMyBucketsResult>)",
      error);
  ASSERT_TRUE(result) << error;
  EXPECT_EQ(result->owner_id, "id1");
  ASSERT_EQ(result->buckets.size(), 2u);
  EXPECT_EQ(result->buckets[0].name, "a");
  EXPECT_EQ(result->buckets[0].creation_date, "2024-01-01T00:00:00Z");
  EXPECT_EQ(result->buckets[1].name, "b");
}

TEST(InitiateMultipart, ParsesTheUploadId) {
  std::string error;
  const auto result = parse_initiate_multipart(
      R"(<?xml version="1.0"?><InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
<Bucket>b</Bucket><Key>dir/k</Key><UploadId>2~abc</UploadId></InitiateMultipartUploadResult>)",
      error);
  ASSERT_TRUE(result) << error;
  EXPECT_EQ(result->bucket, "b");
  EXPECT_EQ(result->key, "dir/k");
  EXPECT_EQ(result->upload_id, "2~abc");
  EXPECT_FALSE(parse_initiate_multipart(
      "<InitiateMultipartUploadResult><Bucket>b</Bucket></InitiateMultipartUploadResult>", error));
  EXPECT_NE(error.find("UploadId"), std::string::npos);
}

TEST(CompleteMultipart, ParsesTheResult) {
  std::string error;
  const auto result = parse_complete_multipart(
      R"(<CompleteMultipartUploadResult><Location>http://h/b/k</Location><Bucket>b</Bucket>
<Key>k</Key><ETag>"3858f62230ac3c915f300c664312c11f-2"</ETag></CompleteMultipartUploadResult>)",
      error);
  ASSERT_TRUE(result) << error;
  EXPECT_EQ(result->location, "http://h/b/k");
  EXPECT_EQ(result->etag, "\"3858f62230ac3c915f300c664312c11f-2\"");
  // A 200 whose body is an <Error> is not a result.
  EXPECT_FALSE(parse_complete_multipart("<Error><Code>InternalError</Code></Error>", error));
}

TEST(ListParts, ParsesParts) {
  std::string error;
  const auto result = parse_list_parts(
      R"(<ListPartsResult><Bucket>b</Bucket><Key>k</Key><UploadId>u</UploadId>
<IsTruncated>false</IsTruncated><NextPartNumberMarker>2</NextPartNumberMarker>
<Part><PartNumber>1</PartNumber><ETag>"e1"</ETag><Size>5242880</Size><LastModified>t</LastModified></Part>
<Part><PartNumber>2</PartNumber><ETag>"e2"</ETag><Size>1</Size></Part></ListPartsResult>)",
      error);
  ASSERT_TRUE(result) << error;
  EXPECT_EQ(result->upload_id, "u");
  EXPECT_FALSE(result->is_truncated);
  ASSERT_EQ(result->parts.size(), 2u);
  EXPECT_EQ(result->parts[0].part_number, 1);
  EXPECT_EQ(result->parts[0].size, 5242880u);
  EXPECT_EQ(result->parts[1].etag, "\"e2\"");
}

TEST(ListMultipartUploads, ParsesUploadsWithNamespaceAndMarkers) {
  std::string error;
  const auto result = parse_list_multipart_uploads(
      R"(<?xml version="1.0" encoding="UTF-8"?>
<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>b</Bucket>
<IsTruncated>true</IsTruncated><NextKeyMarker>k2</NextKeyMarker><NextUploadIdMarker>u2</NextUploadIdMarker>
<Upload><Key>k1</Key><UploadId>u1</UploadId><Initiated>2026-12-01T00:00:00.000Z</Initiated></Upload>
<Upload><Key>k2</Key><UploadId>u2</UploadId></Upload></ListMultipartUploadsResult>)",
      error);
  ASSERT_TRUE(result) << error;
  EXPECT_EQ(result->bucket, "b");
  EXPECT_TRUE(result->is_truncated);
  EXPECT_EQ(result->next_key_marker, "k2");
  EXPECT_EQ(result->next_upload_id_marker, "u2");
  ASSERT_EQ(result->uploads.size(), 2u);
  EXPECT_EQ(result->uploads[0].key, "k1");
  EXPECT_EQ(result->uploads[0].upload_id, "u1");
  EXPECT_EQ(result->uploads[0].initiated, "2026-12-01T00:00:00.000Z");
  EXPECT_EQ(result->uploads[1].upload_id, "u2");
  EXPECT_FALSE(parse_list_multipart_uploads("<ListPartsResult/>", error));
}

TEST(CopyAndDelete, ParseResults) {
  std::string error;
  const auto copy = parse_copy_object(
      "<CopyObjectResult><LastModified>t</LastModified><ETag>\"e\"</ETag></CopyObjectResult>",
      error);
  ASSERT_TRUE(copy) << error;
  EXPECT_EQ(copy->etag, "\"e\"");
  const auto deleted = parse_delete_objects(
      R"(<DeleteResult><Deleted><Key>a</Key></Deleted><Deleted><Key>b</Key><VersionId>v</VersionId></Deleted>
<Error><Key>c</Key><Code>AccessDenied</Code><Message>no</Message></Error></DeleteResult>)",
      error);
  ASSERT_TRUE(deleted) << error;
  ASSERT_EQ(deleted->deleted.size(), 2u);
  EXPECT_EQ(deleted->deleted[1].version_id, "v");
  ASSERT_EQ(deleted->errors.size(), 1u);
  EXPECT_EQ(deleted->errors[0].code, "AccessDenied");
}

TEST(RequestDocuments, CompleteMultipartListsPartsInOrderWithChecksums) {
  const auto xml =
      complete_multipart_xml({{1, "\"e1\"", "", ""}, {2, "\"e2\"", "AAAAAA==", "crc32c"}});
  EXPECT_NE(xml.find("<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                     "<Part><PartNumber>1</PartNumber><ETag>\"e1\"</ETag></Part>"
                     "<Part><PartNumber>2</PartNumber><ETag>\"e2\"</ETag>"
                     "<ChecksumCRC32C>AAAAAA==</ChecksumCRC32C></Part></CompleteMultipartUpload>"),
            std::string::npos)
      << xml;
}

TEST(RequestDocuments, DeleteObjectsEscapesKeys) {
  const auto xml = delete_objects_xml({"a&b", "<c>"}, true);
  EXPECT_NE(xml.find("<Quiet>true</Quiet><Object><Key>a&amp;b</Key></Object>"
                     "<Object><Key>&lt;c&gt;</Key></Object>"),
            std::string::npos)
      << xml;
  EXPECT_NE(
      create_bucket_xml("eu-west-3").find("<LocationConstraint>eu-west-3</LocationConstraint>"),
      std::string::npos);
}

TEST(ListObjectVersions, ParsesVersionsAndDeleteMarkersInDocumentOrder) {
  const char* xml = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>b</Name><Prefix>k</Prefix><KeyMarker></KeyMarker><VersionIdMarker></VersionIdMarker>
  <NextKeyMarker>k</NextKeyMarker><NextVersionIdMarker>v1</NextVersionIdMarker>
  <MaxKeys>3</MaxKeys><IsTruncated>true</IsTruncated>
  <DeleteMarker><Key>k</Key><VersionId>m3</VersionId><IsLatest>true</IsLatest>
    <LastModified>2024-01-01T00:00:02.000Z</LastModified></DeleteMarker>
  <Version><Key>k</Key><VersionId>v2</VersionId><IsLatest>false</IsLatest>
    <ETag>&quot;abc&quot;</ETag><Size>4096</Size><StorageClass>STANDARD</StorageClass></Version>
  <Version><Key>k</Key><VersionId>null</VersionId><IsLatest>false</IsLatest>
    <ETag>"def-2"</ETag><Size>5242880</Size></Version>
</ListVersionsResult>)";
  std::string error;
  const auto result = parse_list_object_versions(xml, error);
  ASSERT_TRUE(result) << error;
  EXPECT_TRUE(result->is_truncated);
  EXPECT_EQ(result->next_key_marker, "k");
  EXPECT_EQ(result->next_version_id_marker, "v1");
  ASSERT_EQ(result->versions.size(), 3u);
  EXPECT_TRUE(result->versions[0].delete_marker);
  EXPECT_TRUE(result->versions[0].is_latest);
  EXPECT_EQ(result->versions[0].version_id, "m3");
  EXPECT_FALSE(result->versions[1].delete_marker);
  EXPECT_EQ(result->versions[1].etag, "\"abc\"");
  EXPECT_EQ(result->versions[1].size, 4096u);
  EXPECT_EQ(result->versions[2].version_id, "null");
  EXPECT_FALSE(parse_list_object_versions("<ListBucketResult/>", error));
  EXPECT_NE(error.find("expected <ListVersionsResult>"), std::string::npos) << error;
}

TEST(ObjectAttributes, ParsesPartsCountPartsChecksumsAndPaging) {
  // As AWS sends it: the count is <PartsCount>, parts are repeated <Part>, the ETag unquoted.
  const char* xml = R"(<?xml version="1.0" encoding="UTF-8"?>
<GetObjectAttributesResponse xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <ETag>0123456789abcdef0123456789abcdef-2</ETag>
  <Checksum><ChecksumCRC32>AAAAAA==</ChecksumCRC32><ChecksumType>COMPOSITE</ChecksumType></Checksum>
  <ObjectParts>
    <PartsCount>2</PartsCount><PartNumberMarker>0</PartNumberMarker>
    <NextPartNumberMarker>1</NextPartNumberMarker><MaxParts>1</MaxParts>
    <IsTruncated>true</IsTruncated>
    <Part><PartNumber>1</PartNumber><Size>5242880</Size><ChecksumCRC32>BBBBBB==</ChecksumCRC32></Part>
  </ObjectParts>
  <StorageClass>STANDARD</StorageClass>
  <ObjectSize>5550091</ObjectSize>
</GetObjectAttributesResponse>)";
  std::string error;
  const auto result = parse_object_attributes(xml, error);
  ASSERT_TRUE(result) << error;
  EXPECT_EQ(result->etag, "0123456789abcdef0123456789abcdef-2");
  EXPECT_EQ(result->object_size, 5550091u);
  EXPECT_EQ(result->storage_class, "STANDARD");
  ASSERT_EQ(result->checksums.size(), 1u) << "ChecksumType is not a checksum";
  EXPECT_EQ(result->checksums[0].first, "ChecksumCRC32");
  EXPECT_TRUE(result->has_object_parts);
  EXPECT_EQ(result->parts_count, 2u);
  EXPECT_EQ(result->parts_count_element, "PartsCount");
  EXPECT_EQ(result->max_parts, 1u);
  EXPECT_TRUE(result->is_truncated);
  EXPECT_EQ(result->part_number_marker, "0");
  EXPECT_EQ(result->next_part_number_marker, "1");
  ASSERT_EQ(result->parts.size(), 1u);
  EXPECT_EQ(result->parts[0].part_number, 1);
  EXPECT_EQ(result->parts[0].size, 5242880u);
  ASSERT_EQ(result->parts[0].checksums.size(), 1u);
  EXPECT_EQ(result->parts[0].checksums[0].second, "BBBBBB==");
}

TEST(ObjectAttributes, OptionalElementsStayEmptyAndTotalPartsCountIsNamed) {
  std::string error;
  const auto bare = parse_object_attributes(
      "<GetObjectAttributesResponse><ETag>e</ETag></GetObjectAttributesResponse>", error);
  ASSERT_TRUE(bare) << error;
  EXPECT_FALSE(bare->object_size);
  EXPECT_FALSE(bare->has_object_parts);
  EXPECT_FALSE(bare->parts_count);
  EXPECT_TRUE(bare->parts.empty());
  // Without checksums AWS sends the count alone; some stores name it as the SDKs do.
  const auto total = parse_object_attributes(
      "<GetObjectAttributesResponse><ObjectParts><TotalPartsCount>3</TotalPartsCount>"
      "</ObjectParts></GetObjectAttributesResponse>",
      error);
  ASSERT_TRUE(total) << error;
  EXPECT_TRUE(total->has_object_parts);
  EXPECT_EQ(total->parts_count, 3u);
  EXPECT_EQ(total->parts_count_element, "TotalPartsCount");
  EXPECT_TRUE(total->parts.empty());
  EXPECT_FALSE(parse_object_attributes("object bytes, not XML", error));
}

TEST(RequestDocuments, VersioningConfigurationHasTheStatus) {
  EXPECT_NE(versioning_configuration_xml("Enabled").find(
                "<VersioningConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                "<Status>Enabled</Status></VersioningConfiguration>"),
            std::string::npos);
}

} // namespace
} // namespace s3fault::client
