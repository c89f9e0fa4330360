// The rule that picks an operation, at its edges: what is no operation, what wins a tie of
// method and path, what a missing required member does, the sets and the names.
#include "faults/operations/operation_match.hpp"
#include "faults/s3_request.hpp"

#include <gtest/gtest.h>

namespace {

using namespace s3fault::faults;

std::string classified(std::string method, std::string target,
                       std::vector<std::string> headers = {}, std::string host = "127.0.0.1:9000") {
  return std::string(
      operation_name(classify_request({method, target, host, std::move(headers)}).operation));
}

TEST(OperationMatch, TheMostRequirementsWin) {
  EXPECT_EQ(classified("PUT", "/b/k"), "PutObject");
  EXPECT_EQ(classified("PUT", "/b/k", {"x-amz-copy-source"}), "CopyObject");
  EXPECT_EQ(classified("PUT", "/b/k?partNumber=2&uploadId=u"), "UploadPart");
  EXPECT_EQ(classified("PUT", "/b/k?partNumber=2&uploadId=u", {"x-amz-copy-source"}),
            "UploadPartCopy");
  EXPECT_EQ(classified("GET", "/b?analytics"), "ListBucketAnalyticsConfigurations");
  EXPECT_EQ(classified("GET", "/b?analytics&id=a"), "GetBucketAnalyticsConfiguration");
  EXPECT_EQ(classified("GET", "/b?list-type=2&prefix=p"), "ListObjectsV2");
  EXPECT_EQ(classified("GET", "/b?list-type=1"), "ListObjects");
}

TEST(OperationMatch, ParametersNoOperationRequiresChangeNothing) {
  // The SDKs' x-id, presigned query signatures and optional members.
  EXPECT_EQ(classified("GET", "/b/k?x-id=GetObject&X-Amz-Signature=s&partNumber=1"), "GetObject");
  EXPECT_EQ(classified("PUT", "/b/k?x-id=PutObject"), "PutObject");
  EXPECT_EQ(classified("PUT", "/b/k?uploadId=u"), "PutObject"); // UploadPart needs partNumber too
}

TEST(OperationMatch, ASubresourceOfAnotherOperationIsNoOperation) {
  const auto request = classify_request({"GET", "/b/k?uploads", "h", {}});
  EXPECT_EQ(request.operation, s3_operation::Other);
  EXPECT_EQ(request.why_other, "no S3 operation is a GET on an object with this query");
  EXPECT_EQ(classified("GET", "/b?acl&tagging"), "Other");
  EXPECT_EQ(classified("POST", "/b/k"), "Other");
  EXPECT_EQ(classified("PATCH", "/b"), "Other");
  EXPECT_EQ(classified("DELETE", "/"), "Other");
}

TEST(OperationMatch, ASubresourceNewerThanTheModelIsNoOperation) {
  // S3 Express's RenameObject (PUT ?renameObject) is not in Debian's model: never a PutObject.
  const auto rename = classify_request({"PUT", "/b/k?renameObject", "h", {}});
  EXPECT_EQ(rename.operation, s3_operation::Other);
  EXPECT_EQ(rename.why_other, "?renameObject is a sub-resource of no S3 operation in the model");
  EXPECT_EQ(classified("GET", "/b?session"), "Other");
  // With a value it is a parameter, which changes nothing; the model's own names stay known.
  EXPECT_EQ(classified("GET", "/b?session=1"), "ListObjects");
  EXPECT_EQ(classified("POST", "/b/k?uploads"), "CreateMultipartUpload");
  EXPECT_EQ(classified("GET", "/b/k?uploadId"), "ListParts");
  EXPECT_EQ(classified("POST", "/b/k?select&select-type=2"), "SelectObjectContent");
}

TEST(OperationMatch, ASubresourceNamesItsOperationEvenWithoutARequiredMember) {
  // The store refuses it (400): it is still the operation the client asked for.
  EXPECT_EQ(classified("GET", "/b/k?attributes"), "GetObjectAttributes");
  EXPECT_EQ(classified("GET", "/b/k?attributes", {"x-amz-object-attributes"}),
            "GetObjectAttributes");
  EXPECT_EQ(classified("POST", "/b/k?select"), "SelectObjectContent");
  // Without a sub-resource nothing is guessed: a POST on an object is no operation.
  EXPECT_EQ(classified("POST", "/b/k?partNumber=1"), "Other");
}

TEST(OperationMatch, WriteGetObjectResponseIsItsPathAndHeadersOnItsOwnHost) {
  const std::vector<std::string> route = {"x-amz-request-route", "x-amz-request-token"};
  const auto request = classify_request(
      {"POST", "/WriteGetObjectResponse", "r1.s3-object-lambda.us-east-1.amazonaws.com", route});
  EXPECT_EQ(request.operation, s3_operation::WriteGetObjectResponse);
  EXPECT_EQ(request.bucket, "");
  EXPECT_EQ(request.key, "");
  EXPECT_EQ(classified("POST", "/WriteGetObjectResponse", route), "WriteGetObjectResponse");
  // Without its headers it is a POST on a bucket of that name: no operation.
  EXPECT_EQ(classified("POST", "/WriteGetObjectResponse"), "Other");
}

TEST(OperationNames, AliasesParseToTheCurrentName) {
  EXPECT_EQ(parse_operation("GetBucketLifecycle"), s3_operation::GetBucketLifecycleConfiguration);
  EXPECT_EQ(parse_operation("putbucketnotification"),
            s3_operation::PutBucketNotificationConfiguration);
  EXPECT_EQ(classified("PUT", "/b?lifecycle"), "PutBucketLifecycleConfiguration");
  EXPECT_EQ(parse_operation("ListMultipartUpload"), std::nullopt);
  for (const auto operation : all_operations()) {
    EXPECT_EQ(parse_operation(operation_name(operation)), operation);
  }
}

TEST(OperationSets, MultipartIsTheSevenCallsOfAnUpload) {
  std::vector<std::string> names;
  const auto multipart = operation_set("@multipart").value();
  for (const auto operation : multipart) {
    names.emplace_back(operation_name(operation));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"AbortMultipartUpload", "CompleteMultipartUpload",
                                             "CreateMultipartUpload", "ListMultipartUploads",
                                             "ListParts", "UploadPart", "UploadPartCopy"}));
  EXPECT_EQ(operation_set("@MULTIPART"), operation_set("@multipart"));
  EXPECT_FALSE(operation_set("@multi").has_value());
}

TEST(OperationSets, ReadAndWriteSplitTheCatalogueByMethod) {
  const auto reads = operation_set("@read").value();
  const auto writes = operation_set("@write").value();
  EXPECT_EQ(reads.size() + writes.size(), all_operations().size() - 1); // all but Other
  for (const auto operation : reads) {
    const auto method = shape_of(operation)->method;
    EXPECT_TRUE(method == "GET" || method == "HEAD") << operation_name(operation);
  }
  EXPECT_NE(std::find(reads.begin(), reads.end(), s3_operation::HeadObject), reads.end());
  EXPECT_NE(std::find(writes.begin(), writes.end(), s3_operation::UploadPartCopy), writes.end());
}

TEST(OperationCatalogue, DistinguishingHeadersAreTheRequiredOnes) {
  EXPECT_EQ(distinguishing_headers(),
            (std::vector<std::string_view>{"x-amz-copy-source", "x-amz-object-attributes",
                                           "x-amz-request-route", "x-amz-request-token"}));
  EXPECT_EQ(request_form(*shape_of(s3_operation::UploadPartCopy)),
            "PUT /BUCKET/KEY?partNumber=&uploadId= + x-amz-copy-source");
}

} // namespace
