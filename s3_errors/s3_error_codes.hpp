#pragma once
// The S3 error codes s3fault knows by name, with the HTTP status and the message a store sends
// for each (AWS's ErrorResponses reference; SlowDownRead/SlowDownWrite are MinIO's). The `error`
// action answers `error SlowDown` with them exactly as S3 would; the origin takes the status of
// every error it sends from here, and the message unless it has a more precise one.
#include <array>
#include <span>
#include <string_view>

namespace s3fault::s3_errors {

struct s3_error_code {
  std::string_view code;    // "SlowDown"
  unsigned status;          // 503
  std::string_view message; // "Please reduce your request rate."
};

// Messages are the ones stores put in <Message>, which can differ a little from the
// descriptions in AWS's table of error codes.
inline constexpr std::array<s3_error_code, 45> known_codes = {{
    // Throttling and server-side trouble: clients are expected to back off and retry.
    {"SlowDown", 503, "Please reduce your request rate."},
    {"SlowDownRead", 503, "Resource requested is unreadable, please reduce your request rate"},
    {"SlowDownWrite", 503, "Resource requested is unwritable, please reduce your request rate"},
    {"ServiceUnavailable", 503, "Please reduce your request rate."},
    {"InternalError", 500, "We encountered an internal error. Please try again."},
    {"RequestTimeout", 400,
     "Your socket connection to the server was not read from or written to within the timeout "
     "period."},
    {"OperationAborted", 409,
     "A conflicting conditional operation is currently in progress against this resource. "
     "Try again."},
    // Authentication and authorisation.
    {"AccessDenied", 403, "Access Denied"},
    {"InvalidAccessKeyId", 403,
     "The AWS Access Key Id you provided does not exist in our records."},
    {"SignatureDoesNotMatch", 403,
     "The request signature we calculated does not match the signature you provided. Check your "
     "key and signing method."},
    {"RequestTimeTooSkewed", 403,
     "The difference between the request time and the current time is too large."},
    {"ExpiredToken", 400, "The provided token has expired."},
    {"AuthorizationHeaderMalformed", 400, "The authorization header you provided is invalid."},
    {"AuthorizationQueryParametersError", 400,
     "Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, "
     "X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters."},
    // Missing things.
    {"NoSuchKey", 404, "The specified key does not exist."},
    {"NoSuchBucket", 404, "The specified bucket does not exist"},
    {"NoSuchUpload", 404,
     "The specified upload does not exist. The upload ID may be invalid, or the upload may have "
     "been aborted or completed."},
    {"NoSuchVersion", 404, "The specified version does not exist."},
    // Reads of parts and ranges, conditions.
    {"InvalidPartNumber", 416, "The requested partnumber is not satisfiable"},
    {"InvalidRange", 416, "The requested range is not satisfiable"},
    {"PreconditionFailed", 412, "At least one of the pre-conditions you specified did not hold"},
    {"ConditionalRequestConflict", 409,
     "A conflicting operation occurred. If using PutObject you can retry the request. If using "
     "multipart upload you should initiate another CreateMultipartUpload request and re-upload "
     "each part."},
    // Uploads.
    {"InvalidPart", 400,
     "One or more of the specified parts could not be found. The part may not have been "
     "uploaded, or the specified entity tag may not match the part's entity tag."},
    {"InvalidPartOrder", 400,
     "The list of parts was not in ascending order. Parts must be ordered by part number."},
    {"EntityTooSmall", 400,
     "Your proposed upload is smaller than the minimum allowed object size."},
    {"EntityTooLarge", 400, "Your proposed upload exceeds the maximum allowed size"},
    {"BadDigest", 400, "The Content-MD5 you specified did not match what we received."},
    {"InvalidDigest", 400, "The Content-MD5 you specified is not valid."},
    {"IncompleteBody", 400,
     "You did not provide the number of bytes specified by the Content-Length HTTP header"},
    {"XAmzContentSHA256Mismatch", 400,
     "The provided 'x-amz-content-sha256' header does not match what was computed."},
    {"MissingContentLength", 411, "You must provide the Content-Length HTTP header."},
    {"KeyTooLongError", 400, "Your key is too long"},
    {"MetadataTooLarge", 400, "Your metadata headers exceed the maximum allowed metadata size"},
    {"MaxMessageLengthExceeded", 400, "Your request was too big."},
    // Malformed or unsupported requests.
    {"InvalidArgument", 400, "Invalid Argument"},
    {"InvalidRequest", 400, "Invalid Request"},
    {"MalformedXML", 400,
     "The XML you provided was not well-formed or did not validate against our published "
     "schema"},
    {"MethodNotAllowed", 405, "The specified method is not allowed against this resource."},
    {"NotImplemented", 501, "A header you provided implies functionality that is not implemented"},
    // Buckets.
    {"BucketNotEmpty", 409, "The bucket you tried to delete is not empty"},
    {"BucketAlreadyExists", 409,
     "The requested bucket name is not available. The bucket namespace is shared by all users "
     "of the system. Please select a different name and try again."},
    {"BucketAlreadyOwnedByYou", 409,
     "Your previous request to create the named bucket succeeded and you already own it."},
    {"InvalidBucketName", 400, "The specified bucket is not valid."},
    {"InvalidLocationConstraint", 400, "The specified location-constraint is not valid"},
    {"IllegalLocationConstraintException", 400,
     "The unspecified location constraint is incompatible for the region specific endpoint this "
     "request was sent to."},
}};

/// Every known code, in a stable order (for help texts and error messages).
constexpr std::span<const s3_error_code> s3_error_codes() {
  return known_codes;
}

/// nullptr for a code not in the table (codes are case-sensitive, as in S3).
constexpr const s3_error_code* find_s3_error_code(std::string_view code) {
  for (const auto& entry : known_codes) {
    if (entry.code == code) {
      return &entry;
    }
  }
  return nullptr;
}

/// The entry of a code the program names itself (the origin's errors): a code missing from the
/// table does not compile, so every error the origin sends has a status from here.
consteval const s3_error_code& known_s3_error(std::string_view code) {
  for (const auto& entry : known_codes) {
    if (entry.code == code) {
      return entry;
    }
  }
  throw "not an S3 error code in s3_errors/s3_error_codes.hpp";
}

} // namespace s3fault::s3_errors
