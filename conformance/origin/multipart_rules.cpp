#include "conformance/origin/multipart_rules.hpp"

#include <algorithm>

#include "conformance/origin/crc_combine.hpp"

#include "conformance/s3/hashing.hpp"

namespace s3fault::origin {
namespace {

std::string_view unquote(std::string_view etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
    etag = etag.substr(1, etag.size() - 2);
  }
  return etag;
}

} // namespace

bool same_part_list(const std::vector<completed_part>& a, const std::vector<completed_part>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.number == y.number && unquote(x.etag) == unquote(y.etag);
  });
}

std::string multipart_etag(const std::vector<std::string>& part_md5_raw) {
  std::string joined;
  joined.reserve(part_md5_raw.size() * 16);
  for (const auto& md5 : part_md5_raw) {
    joined += md5;
  }
  return s3::md5_hex(joined) + "-" + std::to_string(part_md5_raw.size());
}

std::optional<std::string> composite_checksum(const std::string& algorithm,
                                              const std::vector<std::string>& part_checksums) {
  auto sum = s3::checksum::create(algorithm);
  if (!sum) {
    return std::nullopt;
  }
  for (const auto& encoded : part_checksums) {
    const auto raw = s3::base64_decode(encoded);
    if (!raw) {
      return std::nullopt;
    }
    sum->update(*raw);
  }
  return sum->base64_digest() + "-" + std::to_string(part_checksums.size());
}

std::optional<std::string> full_object_crc(const std::string& algorithm,
                                           const std::vector<part_extent>& parts) {
  if (algorithm != "crc32" && algorithm != "crc32c") {
    return std::nullopt;
  }
  const std::uint32_t polynomial = algorithm == "crc32" ? crc32_polynomial : crc32c_polynomial;
  std::uint32_t whole = 0;
  for (const auto& part : parts) {
    const auto raw = s3::base64_decode(part.checksum);
    if (!raw || raw->size() != 4) {
      return std::nullopt;
    }
    // S3 sends CRCs big-endian.
    std::uint32_t crc = 0;
    for (unsigned char byte : *raw) {
      crc = (crc << 8) | byte;
    }
    whole = crc_combine(polynomial, whole, crc, part.size);
  }
  const std::string bytes = {static_cast<char>(whole >> 24), static_cast<char>(whole >> 16),
                             static_cast<char>(whole >> 8), static_cast<char>(whole)};
  return s3::base64_encode(bytes);
}

std::variant<object_record, s3_error>
assemble_multipart(const upload_record& upload, const std::vector<completed_part>& requested,
                   std::uint64_t min_part_size, const std::optional<std::string>& declared) {
  if (requested.empty()) {
    return errors::malformed_xml();
  }
  for (std::size_t i = 1; i < requested.size(); ++i) {
    if (requested[i].number <= requested[i - 1].number) {
      return errors::invalid_part_order();
    }
  }
  std::vector<const part_record*> parts;
  parts.reserve(requested.size());
  for (const auto& entry : requested) {
    const auto found = upload.parts.find(entry.number);
    if (found == upload.parts.end() || unquote(entry.etag) != s3::to_hex(found->second.md5_raw)) {
      return errors::invalid_part(
          "One or more of the specified parts could not be found. The part may not have been "
          "uploaded, or the specified entity tag may not match the part's entity tag.");
    }
    for (const auto& [algorithm, value] : entry.checksums) {
      if (found->second.checksum_algorithm != algorithm || found->second.checksum != value) {
        return errors::invalid_part("The " + algorithm + " checksum of part " +
                                    std::to_string(entry.number) +
                                    " does not match the checksum given at upload.");
      }
    }
    parts.push_back(&found->second);
  }
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i]->size < min_part_size) {
      return errors::entity_too_small(requested[i].number, parts[i]->size, min_part_size);
    }
  }

  object_record object;
  object.content_headers = upload.metadata.content_headers;
  object.user_metadata = upload.metadata.user_metadata;
  std::vector<std::string> md5s;
  std::vector<std::string> checksums;
  // A composite checksum exists when every part carried one of the same algorithm (the one the
  // upload announced, if it announced one).
  std::string algorithm = upload.checksum_algorithm;
  bool all_checksummed = true;
  for (const part_record* part : parts) {
    object.size += part->size;
    md5s.push_back(part->md5_raw);
    object.parts.push_back(part_extent{part->size, part->checksum});
    object.segments.push_back(part->data);
    if (algorithm.empty()) {
      algorithm = part->checksum_algorithm;
    }
    if (part->checksum.empty() || part->checksum_algorithm != algorithm) {
      all_checksummed = false;
    } else {
      checksums.push_back(part->checksum);
    }
  }
  object.etag = multipart_etag(md5s);
  if (all_checksummed && !algorithm.empty()) {
    const bool full_object = upload.checksum_type == "FULL_OBJECT";
    const auto value = full_object ? full_object_crc(algorithm, object.parts)
                                   : composite_checksum(algorithm, checksums);
    if (value) {
      object.checksum =
          checksum_value{algorithm, *value, full_object ? "FULL_OBJECT" : "COMPOSITE"};
    }
  }
  if (declared && (!object.checksum || object.checksum->value != *declared)) {
    return errors::bad_digest("The " + algorithm +
                              " you specified for the whole object did not "
                              "match the checksum of its parts.");
  }
  if (!all_checksummed) {
    for (auto& part : object.parts) {
      part.checksum.clear();
    }
  }
  return object;
}

} // namespace s3fault::origin
