#pragma once
// The rules of CompleteMultipartUpload as pure functions: the part list is checked against the
// uploaded parts (order, existence, ETags, checksums, minimum size) and the object's ETag and
// composite checksum are computed from the parts (docs/contract.md, "Multipart upload and writes",
// "ETag" and "Checksums").
#include "conformance/origin/object_record.hpp"
#include "conformance/origin/s3_error.hpp"

#include <map>
#include <string>
#include <variant>
#include <vector>

namespace s3fault::origin {

/// One <Part> of a CompleteMultipartUpload body.
struct completed_part {
  unsigned number = 0;
  std::string etag; // as sent (quotes optional)
  /// ChecksumCRC32 etc.: lower-case algorithm -> base64 value.
  std::map<std::string, std::string> checksums;
};

/// The same part numbers and ETags (quotes aside), in the same order: a Complete sent again.
bool same_part_list(const std::vector<completed_part>& a, const std::vector<completed_part>& b);

/// hex(md5(concat of the binary MD5 of each part)) + "-" + N.
std::string multipart_etag(const std::vector<std::string>& part_md5_raw);

/// base64(checksum(concat of the raw part checksums)) + "-" + N; nullopt when a part checksum
/// is not valid base64 or the algorithm is unknown.
std::optional<std::string> composite_checksum(const std::string& algorithm,
                                              const std::vector<std::string>& part_checksums);

/// The CRC32 or CRC32C of the whole object from its parts' checksums and sizes (base64, no
/// "-N"); nullopt for another algorithm or a malformed part checksum.
std::optional<std::string> full_object_crc(const std::string& algorithm,
                                           const std::vector<part_extent>& parts);

/// Checks the part list and builds the object (without last_modified): InvalidPartOrder when
/// numbers do not strictly ascend, InvalidPart when a part is missing or its ETag or checksum
/// differs, EntityTooSmall when a part other than the last is under `min_part_size`,
/// MalformedXML for an empty list. Parts not named in the list are left out of the object.
/// The object checksum is COMPOSITE, or FULL_OBJECT when the upload asked for it; when the
/// client states the whole object's checksum (`declared`), a mismatch is BadDigest.
std::variant<object_record, s3_error>
assemble_multipart(const upload_record& upload, const std::vector<completed_part>& requested,
                   std::uint64_t min_part_size,
                   const std::optional<std::string>& declared = std::nullopt);

} // namespace s3fault::origin
