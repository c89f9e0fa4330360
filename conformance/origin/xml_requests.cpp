#include "conformance/origin/xml_requests.hpp"

#include "text/text.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cstring>

namespace s3fault::origin {
namespace {

constexpr std::size_t max_delete_keys = 1000;

/// The element name without a namespace prefix ("s3:Part" -> "Part").
std::string_view local_name(const pugi::xml_node& node) {
  std::string_view name = node.name();
  const auto colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

pugi::xml_node child(const pugi::xml_node& parent, std::string_view name) {
  for (auto node : parent.children()) {
    if (node.type() == pugi::node_element && local_name(node) == name) {
      return node;
    }
  }
  return {};
}

bool parse(pugi::xml_document& doc, std::string_view body) {
  // Keys are taken as written: a whitespace-only key survives, CR LF is not folded.
  constexpr unsigned flags =
      (pugi::parse_default | pugi::parse_ws_pcdata_single) & ~pugi::parse_eol;
  return doc.load_buffer(body.data(), body.size(), flags, pugi::encoding_utf8);
}

pugi::xml_node root_element(const pugi::xml_document& doc) {
  for (auto node : doc.children()) {
    if (node.type() == pugi::node_element) {
      return node;
    }
  }
  return {};
}

} // namespace

std::variant<std::vector<completed_part>, s3_error>
parse_complete_multipart(std::string_view body) {
  pugi::xml_document doc;
  if (!parse(doc, body)) {
    return errors::malformed_xml();
  }
  const auto root = root_element(doc);
  if (!root || local_name(root) != "CompleteMultipartUpload") {
    return errors::malformed_xml();
  }
  std::vector<completed_part> parts;
  for (auto node : root.children()) {
    if (node.type() != pugi::node_element || local_name(node) != "Part") {
      continue;
    }
    const auto number = child(node, "PartNumber");
    const auto etag = child(node, "ETag");
    const auto value =
        number ? text::parse_whole_number<unsigned>(number.text().get()) : std::nullopt;
    if (!value || !etag) {
      return errors::malformed_xml();
    }
    completed_part part;
    part.number = *value;
    part.etag = etag.text().get();
    for (auto field : node.children()) {
      const std::string_view name = local_name(field);
      if (field.type() == pugi::node_element && name.starts_with("Checksum") && name.size() > 8 &&
          name != "ChecksumType") {
        part.checksums[text::ascii_lower(name.substr(8))] = field.text().get();
      }
    }
    parts.push_back(std::move(part));
  }
  return parts;
}

std::variant<delete_request, s3_error> parse_delete_objects(std::string_view body) {
  pugi::xml_document doc;
  if (!parse(doc, body)) {
    return errors::malformed_xml();
  }
  const auto root = root_element(doc);
  if (!root || local_name(root) != "Delete") {
    return errors::malformed_xml();
  }
  delete_request request;
  if (const auto quiet = child(root, "Quiet")) {
    const std::string_view text = quiet.text().get();
    request.quiet = text == "true" || text == "True" || text == "TRUE";
  }
  for (auto node : root.children()) {
    if (node.type() != pugi::node_element || local_name(node) != "Object") {
      continue;
    }
    const auto key = child(node, "Key");
    if (!key) {
      return errors::malformed_xml();
    }
    delete_request::object entry;
    entry.key = key.text().get();
    if (const auto version = child(node, "VersionId")) {
      entry.version_id = version.text().get();
    }
    request.objects.push_back(std::move(entry));
  }
  if (request.objects.empty() || request.objects.size() > max_delete_keys) {
    return errors::malformed_xml();
  }
  return request;
}

std::variant<versioning_status, s3_error> parse_versioning_configuration(std::string_view body) {
  pugi::xml_document doc;
  if (!parse(doc, body)) {
    return errors::malformed_xml();
  }
  const auto root = root_element(doc);
  if (!root || local_name(root) != "VersioningConfiguration") {
    return errors::malformed_xml();
  }
  if (child(root, "MfaDelete")) {
    return errors::not_implemented("MfaDelete");
  }
  const std::string_view status = child(root, "Status").text().get();
  if (status == "Enabled") {
    return versioning_status::enabled;
  }
  if (status == "Suspended") {
    return versioning_status::suspended;
  }
  return errors::malformed_xml();
}

std::variant<std::string, s3_error> parse_create_bucket_configuration(std::string_view body) {
  const bool blank = std::all_of(body.begin(), body.end(), [](char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
  });
  if (blank) {
    return std::string();
  }
  pugi::xml_document doc;
  if (!parse(doc, body)) {
    return errors::malformed_xml();
  }
  const auto root = root_element(doc);
  if (!root || local_name(root) != "CreateBucketConfiguration") {
    return errors::malformed_xml();
  }
  const auto constraint = child(root, "LocationConstraint");
  return std::string(constraint ? constraint.text().get() : "");
}

} // namespace s3fault::origin
