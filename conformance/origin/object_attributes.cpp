#include "conformance/origin/object_attributes.hpp"

#include "conformance/origin/xml_render.hpp"
#include "text/text.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <sstream>

namespace s3fault::origin {
namespace {

constexpr std::string_view attributes_header = "x-amz-object-attributes";

s3_error invalid_attributes(std::string_view value) {
  return errors::invalid_argument(value.empty() ? "The x-amz-object-attributes header specifying "
                                                  "the attributes to be retrieved is either "
                                                  "missing or empty"
                                                : "Invalid attribute name specified.",
                                  attributes_header, value);
}

/// Sets the flag `name` stands for; false when it names no attribute.
bool select_attribute(attributes_request& request, std::string_view name) {
  if (name == "ETag") {
    request.etag = true;
  } else if (name == "Checksum") {
    request.checksum = true;
  } else if (name == "ObjectParts") {
    request.object_parts = true;
  } else if (name == "StorageClass") {
    request.storage_class = true;
  } else if (name == "ObjectSize") {
    request.object_size = true;
  } else {
    return false;
  }
  return true;
}

/// A non-negative integer header; absent: `absent`.
std::variant<unsigned, s3_error> count_header(const request_head& head, std::string_view name,
                                              unsigned absent) {
  const auto text = head.header(name);
  if (!text) {
    return absent;
  }
  const auto value = text::parse_whole_number<unsigned>(text::trim(*text));
  if (!value || *value > 2147483647) {
    return errors::invalid_argument(
        "Provided " + std::string(name) + " not an integer or within integer range", name, *text);
  }
  return *value;
}

void add_text(pugi::xml_node parent, const char* name, const std::string& value) {
  parent.append_child(name).text().set(value.c_str());
}

void add_number(pugi::xml_node parent, const char* name, std::uint64_t value) {
  add_text(parent, name, std::to_string(value));
}

void add_object_parts(pugi::xml_node root, const attributes_request& request,
                      const object_record& object) {
  auto parts = root.append_child("ObjectParts");
  add_number(parts, "PartsCount", std::uint64_t{object.parts.size()});
  // S3 lists the parts only of objects uploaded with checksums.
  if (!object.checksum) {
    return;
  }
  const std::size_t first = std::min<std::size_t>(request.part_number_marker, object.parts.size());
  const std::size_t end = std::min<std::size_t>(first + request.max_parts, object.parts.size());
  const bool truncated = end < object.parts.size();
  add_number(parts, "PartNumberMarker", std::uint64_t{request.part_number_marker});
  add_number(parts, "NextPartNumberMarker",
             std::uint64_t{end > first ? end : request.part_number_marker});
  add_number(parts, "MaxParts", std::uint64_t{request.max_parts});
  add_text(parts, "IsTruncated", std::string(truncated ? "true" : "false"));
  const std::string checksum_name = checksum_element_name(object.checksum->algorithm);
  for (std::size_t index = first; index < end; ++index) {
    const part_extent& part = object.parts[index];
    auto node = parts.append_child("Part");
    add_number(node, "PartNumber", std::uint64_t{index + 1});
    add_number(node, "Size", part.size);
    if (!part.checksum.empty()) {
      add_text(node, checksum_name.c_str(), part.checksum);
    }
  }
}

} // namespace

std::variant<attributes_request, s3_error> parse_attributes_request(const request_head& head) {
  attributes_request request;
  const std::string_view names = head.header(attributes_header).value_or("");
  if (text::trim(names).empty()) {
    return invalid_attributes("");
  }
  std::string_view rest = names;
  while (true) {
    const auto comma = rest.find(',');
    if (!select_attribute(request, text::trim(rest.substr(0, comma)))) {
      return invalid_attributes(names);
    }
    if (comma == std::string_view::npos) {
      break;
    }
    rest.remove_prefix(comma + 1);
  }
  const auto max_parts = count_header(head, "x-amz-max-parts", 1000);
  if (const auto* error = std::get_if<s3_error>(&max_parts)) {
    return *error;
  }
  const auto marker = count_header(head, "x-amz-part-number-marker", 0);
  if (const auto* error = std::get_if<s3_error>(&marker)) {
    return *error;
  }
  request.max_parts = std::min(std::get<unsigned>(max_parts), 1000u);
  request.part_number_marker = std::get<unsigned>(marker);
  return request;
}

std::string render_object_attributes(const attributes_request& request,
                                     const object_record& object) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  auto root = doc.append_child("GetObjectAttributesResponse");
  root.append_attribute("xmlns") = "http://s3.amazonaws.com/doc/2006-03-01/";
  if (request.etag) {
    add_text(root, "ETag", object.etag);
  }
  if (request.checksum && object.checksum) {
    auto checksum = root.append_child("Checksum");
    add_text(checksum, checksum_element_name(object.checksum->algorithm).c_str(),
             object.checksum->value);
    add_text(checksum, "ChecksumType", object.checksum->type);
  }
  if (request.object_parts && object.multipart()) {
    add_object_parts(root, request, object);
  }
  if (request.storage_class) {
    add_text(root, "StorageClass", std::string("STANDARD"));
  }
  if (request.object_size) {
    add_number(root, "ObjectSize", object.size);
  }
  std::ostringstream out;
  doc.save(out, "", pugi::format_raw);
  return out.str();
}

} // namespace s3fault::origin
