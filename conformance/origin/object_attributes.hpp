#pragma once
// GetObjectAttributes (GET /b/k?attributes; docs/contract.md, "Multipart upload and writes") as
// pure functions: which attributes the request asks
// for (x-amz-object-attributes, x-amz-max-parts, x-amz-part-number-marker) and the
// GetObjectAttributesResponse document for a stored object, with AWS's element names:
//
//   <GetObjectAttributesResponse>
//     <ETag>abc-3</ETag>                              (no quotes)
//     <Checksum><ChecksumCRC32>..</ChecksumCRC32><ChecksumType>COMPOSITE</ChecksumType></Checksum>
//     <ObjectParts>                                   (multipart objects only)
//       <PartsCount>3</PartsCount>                    (boto3: TotalPartsCount)
//       <PartNumberMarker/><NextPartNumberMarker/><MaxParts/><IsTruncated/>
//       <Part><PartNumber>1</PartNumber><Size>..</Size><ChecksumCRC32>..</ChecksumCRC32></Part>
//     </ObjectParts>
//     <StorageClass>STANDARD</StorageClass><ObjectSize>..</ObjectSize>
//   </GetObjectAttributesResponse>
//
// Part N is the object record's parts[N-1], the bytes GET ?partNumber=N serves.
#include "conformance/origin/http_message.hpp"
#include "conformance/origin/object_record.hpp"
#include "conformance/origin/s3_error.hpp"

#include <string>
#include <variant>

namespace s3fault::origin {

struct attributes_request {
  bool etag = false;
  bool checksum = false;
  bool object_parts = false;
  bool storage_class = false;
  bool object_size = false;
  unsigned max_parts = 1000;       // x-amz-max-parts, capped at 1000
  unsigned part_number_marker = 0; // x-amz-part-number-marker: parts after this one
};

/// The request headers. 400 InvalidArgument when x-amz-object-attributes is missing or empty,
/// names something else than ETag, Checksum, ObjectParts, StorageClass, ObjectSize (as
/// written, comma separated, blanks allowed around names), or when x-amz-max-parts or
/// x-amz-part-number-marker is not a non-negative integer.
std::variant<attributes_request, s3_error> parse_attributes_request(const request_head& head);

/// The response body for `object`. ObjectParts only for an object from a multipart upload; as
/// in S3, its Part entries only when the object has a checksum (otherwise PartsCount alone).
std::string render_object_attributes(const attributes_request& request,
                                     const object_record& object);

} // namespace s3fault::origin
