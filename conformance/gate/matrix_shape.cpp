// Shape entries of a matrix file: a size, and the part layout checked against S3's multipart
// rules so that the gate's upload cannot be refused by a store.
#include "conformance/gate/matrix_entries.hpp"
#include "conformance/gate/matrix_fields.hpp"

#include "faults/values.hpp"

#include <limits>

namespace s3fault::gate {
namespace {

using nlohmann::json;

const std::vector<std::string_view> shape_fields = {"name",  "description", "size",
                                                    "parts", "checksum",    "content_type"};

constexpr std::string_view size_what = "a size in bytes like 8388609, or like 12MiB";

/// A size field or a part: nullopt (and a mistake) when it is not a size.
std::optional<std::uint64_t> read_byte_count(item_fields& fields, const std::string& field,
                                             const json& value) {
  auto bytes = faults::parse_size(value);
  if (!bytes) {
    fields.must_be(field, size_what, value);
  }
  return bytes;
}

std::optional<std::uint64_t> read_total_size(item_fields& fields) {
  if (!fields.has("size")) {
    fields.fail("size", "missing (" + std::string(size_what) + ")");
    return std::nullopt;
  }
  const auto size = read_byte_count(fields, "size", fields.get("size"));
  if (size && *size > max_shape_size) {
    fields.must_be("size", "at most 1GiB (the gate holds each object in memory)",
                   fields.get("size"));
    return std::nullopt;
  }
  return size;
}

/// Part `index` (0-based) of `count`: not empty, and at least S3's minimum unless it is the last.
std::optional<std::uint64_t> read_part(item_fields& fields, const json& value, std::size_t index,
                                       std::size_t count) {
  const std::string field = "parts[" + std::to_string(index + 1) + "]";
  const auto bytes = read_byte_count(fields, field, value);
  if (bytes && *bytes == 0) {
    fields.must_be(field, "at least 1 byte (only a whole object may be empty)", value);
    return std::nullopt;
  }
  if (bytes && *bytes < min_part_size && index + 1 < count) {
    fields.must_be(field, "at least 5MiB: S3's minimum for every part but the last", value);
    return std::nullopt;
  }
  return bytes;
}

/// The part sizes, when every one is valid; empty after a mistake.
std::vector<std::uint64_t> read_parts(item_fields& fields) {
  const json& list = fields.get("parts");
  if (!list.is_array() || list.empty()) {
    fields.must_be("parts",
                   "a list of part sizes like [5MiB, 5MiB, 2MiB] (leave it out for one PUT)", list);
    return {};
  }
  if (list.size() > max_part_count) {
    fields.fail("parts", std::to_string(list.size()) +
                             " parts: S3 allows at most 10000 parts in one upload");
    return {};
  }
  std::vector<std::uint64_t> parts;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (const auto bytes = read_part(fields, list[i], i, list.size())) {
      parts.push_back(*bytes);
    }
  }
  return parts.size() == list.size() ? parts : std::vector<std::uint64_t>{};
}

void check_parts_add_up(item_fields& fields, const std::vector<std::uint64_t>& parts,
                        std::uint64_t size) {
  std::uint64_t total = 0;
  for (const auto part : parts) {
    // Saturates instead of wrapping, so a huge part cannot make the sum look right.
    total = part > std::numeric_limits<std::uint64_t>::max() - total
                ? std::numeric_limits<std::uint64_t>::max()
                : total + part;
  }
  if (total != size) {
    fields.fail("parts", "add up to " + std::to_string(total) + " bytes, but size is " +
                             std::to_string(size));
  }
}

} // namespace

object_shape read_shape(const matrix_item& item, const std::string& file, std::size_t number,
                        std::vector<std::string>& errors) {
  item_fields fields(item, file, "shape", number, errors);
  object_shape shape;
  shape.origin = fields.origin();
  if (!fields.is_mapping()) {
    fields.must_be("", "a mapping with name, description and size", item.fields);
    return shape;
  }
  fields.check_known(shape_fields);
  shape.name = fields.name().value_or("");
  shape.description = fields.description().value_or("");
  const auto size = read_total_size(fields);
  shape.size = size.value_or(0);
  if (fields.has("parts")) {
    shape.part_sizes = read_parts(fields);
    if (size && !shape.part_sizes.empty()) {
      check_parts_add_up(fields, shape.part_sizes, *size);
    }
  }
  shape.checksum = fields.choice("checksum", {"crc32", "crc32c", "sha1", "sha256", "none"})
                       .value_or(shape.checksum);
  shape.content_type =
      fields.text("content_type", "a media type like application/octet-stream").value_or("");
  return shape;
}

} // namespace s3fault::gate
