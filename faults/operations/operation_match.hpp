#pragma once
// The one rule that picks a request's S3 operation from the catalogue, used by the proxy
// (faults/s3_request.hpp) and by the origin's router alike.
#include "faults/operations/catalogue.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::faults {

/// What the rule reads of a request.
struct operation_request {
  std::string_view method;
  std::string_view path; // as sent, without the query: literal-path operations are matched on it
  path_form form;        // from the bucket and key the request names (never literal)
  const std::vector<std::pair<std::string, std::string>>& query; // decoded
  const std::vector<std::string>& headers; // the distinguishing_headers() it carries, lower case
  std::string_view raw_query = {};         // as sent: "?name" without '=' is a sub-resource
};

struct operation_match {
  s3_operation operation = s3_operation::Other;
  std::string why_other;           // for Other: why no operation of the model matched
  std::string unknown_subresource; // a "?name" the model has no operation for ("renameObject")
};

/// The operation whose shape the request has:
/// - candidates have the request's method and path form, all their sub-resources in the query,
///   and no sub-resource of the model that is not theirs (GET /b/k?uploads is no operation);
/// - of the candidates carrying every required query value (list-type=2), query parameter and
///   header, the one with the
///   most requirements wins: UploadPartCopy (x-amz-copy-source, partNumber, uploadId) over
///   UploadPart (partNumber, uploadId) over PutObject, CopyObject over PutObject,
///   GetBucketAnalyticsConfiguration (?analytics&id=) over ListBucketAnalyticsConfigurations;
/// - failing that, a candidate named by its sub-resource alone is still that operation, sent
///   without a member it requires (GET ?attributes without x-amz-object-attributes is a
///   GetObjectAttributes the store refuses); it is never guessed without a sub-resource.
/// Aliases never win: the current name does. A sub-resource the model does not know (written
/// "?name", without '=': an operation newer than the model) makes the request Other, never the
/// plain operation it would otherwise look like (PUT ?renameObject is no PutObject).
operation_match match_operation(const operation_request& request);

} // namespace s3fault::faults
