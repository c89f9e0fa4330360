#include "faults/s3_error_codes.hpp"

#include <array>

namespace s3fault::faults {
namespace {

// Messages are the ones stores put in <Message>, which can differ a little from the
// descriptions in AWS's table of error codes.
constexpr std::array<s3_error_code, 33> known_codes = {{
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
    // Missing things.
    {"NoSuchKey", 404, "The specified key does not exist."},
    {"NoSuchBucket", 404, "The specified bucket does not exist"},
    {"NoSuchUpload", 404,
     "The specified upload does not exist. The upload ID may be invalid, or the upload may have "
     "been aborted or completed."},
    // Reads of parts and ranges, conditions.
    {"InvalidPartNumber", 416, "The requested partnumber is not satisfiable"},
    {"InvalidRange", 416, "The requested range is not satisfiable"},
    {"PreconditionFailed", 412, "At least one of the pre-conditions you specified did not hold"},
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
    // Malformed or unsupported requests.
    {"InvalidArgument", 400, "Invalid Argument"},
    {"InvalidRequest", 400, "Invalid Request"},
    {"MalformedXML", 400,
     "The XML you provided was not well-formed or did not validate against our published "
     "schema"},
    {"MethodNotAllowed", 405, "The specified method is not allowed against this resource."},
    {"NotImplemented", 501, "A header you provided implies functionality that is not implemented"},
    {"BucketNotEmpty", 409, "The bucket you tried to delete is not empty"},
}};

} // namespace

std::span<const s3_error_code> s3_error_codes() {
  return known_codes;
}

const s3_error_code* find_s3_error_code(std::string_view code) {
  for (const auto& entry : known_codes) {
    if (entry.code == code) {
      return &entry;
    }
  }
  return nullptr;
}

} // namespace s3fault::faults
