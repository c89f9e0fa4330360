#include "conformance/client/s3_xml.hpp"

#include <pugixml.hpp>

#include <cctype>
#include <sstream>

namespace s3fault::client {
namespace {

/// Parses `xml` and returns its root element when it is named `root_name`.
pugi::xml_node load_root(pugi::xml_document& document, std::string_view xml,
                         std::string_view root_name, std::string& error) {
  const auto parsed =
      document.load_buffer(xml.data(), xml.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!parsed) {
    error = std::string("not XML: ") + parsed.description() + " at offset " +
            std::to_string(parsed.offset);
    return {};
  }
  const auto root = document.document_element();
  if (root_name != root.name()) {
    error = "expected <" + std::string(root_name) + ">, got <" + root.name() + ">";
    return {};
  }
  return root;
}

std::string text_of(const pugi::xml_node& node, const char* child) {
  return node.child(child).text().as_string();
}

std::uint64_t number_of(const pugi::xml_node& node, const char* child) {
  return node.child(child).text().as_ullong();
}

bool flag_of(const pugi::xml_node& node, const char* child) {
  return node.child(child).text().as_bool();
}

/// Serialises a document without the XML declaration's indentation noise.
std::string to_text(const pugi::xml_document& document) {
  std::ostringstream out;
  document.save(out, "", pugi::format_raw);
  return out.str();
}

pugi::xml_node add_root(pugi::xml_document& document, const char* name) {
  auto declaration = document.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";
  auto root = document.append_child(name);
  root.append_attribute("xmlns") = "http://s3.amazonaws.com/doc/2006-03-01/";
  return root;
}

void add_text(pugi::xml_node parent, const char* name, std::string_view value) {
  parent.append_child(name).text().set(std::string(value).c_str());
}

} // namespace

std::optional<s3_error> parse_error_xml(std::string_view xml) {
  pugi::xml_document document;
  std::string ignored;
  const auto root = load_root(document, xml, "Error", ignored);
  if (!root) {
    return std::nullopt;
  }
  s3_error error;
  error.code = text_of(root, "Code");
  error.message = text_of(root, "Message");
  error.resource = text_of(root, "Resource");
  error.request_id = text_of(root, "RequestId");
  error.host_id = text_of(root, "HostId");
  return error;
}

std::optional<list_objects_result> parse_list_objects_v2(std::string_view xml, std::string& error) {
  pugi::xml_document document;
  const auto root = load_root(document, xml, "ListBucketResult", error);
  if (!root) {
    return std::nullopt;
  }
  list_objects_result result;
  result.bucket = text_of(root, "Name");
  result.prefix = text_of(root, "Prefix");
  result.delimiter = text_of(root, "Delimiter");
  result.max_keys = number_of(root, "MaxKeys");
  result.key_count = number_of(root, "KeyCount");
  result.is_truncated = flag_of(root, "IsTruncated");
  result.continuation_token = text_of(root, "ContinuationToken");
  result.next_continuation_token = text_of(root, "NextContinuationToken");
  result.start_after = text_of(root, "StartAfter");
  for (const auto& item : root.children("Contents")) {
    object_summary object;
    object.key = text_of(item, "Key");
    object.last_modified = text_of(item, "LastModified");
    object.etag = text_of(item, "ETag");
    object.size = number_of(item, "Size");
    object.storage_class = text_of(item, "StorageClass");
    result.contents.push_back(std::move(object));
  }
  for (const auto& item : root.children("CommonPrefixes")) {
    result.common_prefixes.push_back(text_of(item, "Prefix"));
  }
  return result;
}

std::optional<list_buckets_result> parse_list_buckets(std::string_view xml, std::string& error) {
  pugi::xml_document document;
  const auto root = load_root(document, xml, "ListAllMyBucketsResult", error);
  if (!root) {
    return std::nullopt;
  }
  list_buckets_result result;
  result.owner_id = text_of(root.child("Owner"), "ID");
  result.owner_display_name = text_of(root.child("Owner"), "DisplayName");
  for (const auto& item : root.child("Buckets").children("Bucket")) {
    result.buckets.push_back({text_of(item, "Name"), text_of(item, "CreationDate")});
  }
  return result;
}

std::optional<initiate_multipart_result> parse_initiate_multipart(std::string_view xml,
                                                                  std::string& error) {
  pugi::xml_document document;
  const auto root = load_root(document, xml, "InitiateMultipartUploadResult", error);
  if (!root) {
    return std::nullopt;
  }
  initiate_multipart_result result{text_of(root, "Bucket"), text_of(root, "Key"),
                                   text_of(root, "UploadId")};
  if (result.upload_id.empty()) {
    error = "<InitiateMultipartUploadResult> without an UploadId";
    return std::nullopt;
  }
  return result;
}

std::optional<complete_multipart_result> parse_complete_multipart(std::string_view xml,
                                                                  std::string& error) {
  pugi::xml_document document;
  const auto root = load_root(document, xml, "CompleteMultipartUploadResult", error);
  if (!root) {
    return std::nullopt;
  }
  return complete_multipart_result{text_of(root, "Location"), text_of(root, "Bucket"),
                                   text_of(root, "Key"), text_of(root, "ETag")};
}

std::optional<list_parts_result> parse_list_parts(std::string_view xml, std::string& error) {
  pugi::xml_document document;
  const auto root = load_root(document, xml, "ListPartsResult", error);
  if (!root) {
    return std::nullopt;
  }
  list_parts_result result;
  result.bucket = text_of(root, "Bucket");
  result.key = text_of(root, "Key");
  result.upload_id = text_of(root, "UploadId");
  result.is_truncated = flag_of(root, "IsTruncated");
  result.next_part_number_marker = text_of(root, "NextPartNumberMarker");
  for (const auto& item : root.children("Part")) {
    part_summary part;
    part.part_number = item.child("PartNumber").text().as_int();
    part.etag = text_of(item, "ETag");
    part.size = number_of(item, "Size");
    part.last_modified = text_of(item, "LastModified");
    result.parts.push_back(std::move(part));
  }
  return result;
}

std::optional<list_uploads_result> parse_list_multipart_uploads(std::string_view xml,
                                                                std::string& error) {
  pugi::xml_document document;
  const auto root = load_root(document, xml, "ListMultipartUploadsResult", error);
  if (!root) {
    return std::nullopt;
  }
  list_uploads_result result;
  result.bucket = text_of(root, "Bucket");
  result.is_truncated = flag_of(root, "IsTruncated");
  result.next_key_marker = text_of(root, "NextKeyMarker");
  result.next_upload_id_marker = text_of(root, "NextUploadIdMarker");
  for (const auto& item : root.children("Upload")) {
    result.uploads.push_back(
        {text_of(item, "Key"), text_of(item, "UploadId"), text_of(item, "Initiated")});
  }
  return result;
}

std::optional<copy_object_result> parse_copy_object(std::string_view xml, std::string& error) {
  pugi::xml_document document;
  const auto root = load_root(document, xml, "CopyObjectResult", error);
  if (!root) {
    return std::nullopt;
  }
  return copy_object_result{text_of(root, "ETag"), text_of(root, "LastModified")};
}

std::optional<delete_objects_result> parse_delete_objects(std::string_view xml,
                                                          std::string& error) {
  pugi::xml_document document;
  const auto root = load_root(document, xml, "DeleteResult", error);
  if (!root) {
    return std::nullopt;
  }
  delete_objects_result result;
  for (const auto& item : root.children("Deleted")) {
    result.deleted.push_back({text_of(item, "Key"), text_of(item, "VersionId")});
  }
  for (const auto& item : root.children("Error")) {
    result.errors.push_back(
        {text_of(item, "Key"), text_of(item, "Code"), text_of(item, "Message")});
  }
  return result;
}

std::optional<list_versions_result> parse_list_object_versions(std::string_view xml,
                                                               std::string& error) {
  pugi::xml_document document;
  const auto root = load_root(document, xml, "ListVersionsResult", error);
  if (!root) {
    return std::nullopt;
  }
  list_versions_result result;
  result.is_truncated = flag_of(root, "IsTruncated");
  result.next_key_marker = text_of(root, "NextKeyMarker");
  result.next_version_id_marker = text_of(root, "NextVersionIdMarker");
  for (const auto& item : root.children()) {
    const std::string_view name = item.name();
    if (name != "Version" && name != "DeleteMarker") {
      continue;
    }
    object_version version;
    version.key = text_of(item, "Key");
    version.version_id = text_of(item, "VersionId");
    version.is_latest = flag_of(item, "IsLatest");
    version.delete_marker = name == "DeleteMarker";
    version.etag = text_of(item, "ETag");
    version.size = number_of(item, "Size");
    result.versions.push_back(std::move(version));
  }
  return result;
}

std::optional<object_attributes_result> parse_object_attributes(std::string_view xml,
                                                                std::string& error) {
  pugi::xml_document document;
  const auto root = load_root(document, xml, "GetObjectAttributesResponse", error);
  if (!root) {
    return std::nullopt;
  }
  const auto checksums_of = [](const pugi::xml_node& node) {
    header_list found;
    for (const auto& child : node.children()) {
      const std::string name = child.name();
      if (name.rfind("Checksum", 0) == 0 && name != "ChecksumType") {
        found.emplace_back(name, child.text().as_string());
      }
    }
    return found;
  };
  object_attributes_result result;
  result.etag = text_of(root, "ETag");
  if (root.child("ObjectSize")) {
    result.object_size = number_of(root, "ObjectSize");
  }
  result.storage_class = text_of(root, "StorageClass");
  result.checksums = checksums_of(root.child("Checksum"));
  const auto parts = root.child("ObjectParts");
  result.has_object_parts = static_cast<bool>(parts);
  for (const char* name : {"PartsCount", "TotalPartsCount"}) {
    if (parts.child(name) && !result.parts_count) {
      result.parts_count = number_of(parts, name);
      result.parts_count_element = name;
    }
  }
  if (parts.child("MaxParts")) {
    result.max_parts = number_of(parts, "MaxParts");
  }
  result.is_truncated = flag_of(parts, "IsTruncated");
  result.part_number_marker = text_of(parts, "PartNumberMarker");
  result.next_part_number_marker = text_of(parts, "NextPartNumberMarker");
  for (const auto& item : parts.children("Part")) {
    attributes_part part;
    part.part_number = item.child("PartNumber").text().as_int();
    part.size = number_of(item, "Size");
    part.checksums = checksums_of(item);
    result.parts.push_back(std::move(part));
  }
  return result;
}

std::string complete_multipart_xml(const std::vector<completed_part>& parts) {
  pugi::xml_document document;
  auto root = add_root(document, "CompleteMultipartUpload");
  for (const auto& part : parts) {
    auto node = root.append_child("Part");
    add_text(node, "PartNumber", std::to_string(part.part_number));
    add_text(node, "ETag", part.etag);
    if (!part.checksum.empty()) {
      std::string name = "Checksum";
      for (char c : part.checksum_algorithm) {
        name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      }
      add_text(node, name.c_str(), part.checksum);
    }
  }
  return to_text(document);
}

std::string delete_objects_xml(const std::vector<std::string>& keys, bool quiet) {
  pugi::xml_document document;
  auto root = add_root(document, "Delete");
  if (quiet) {
    add_text(root, "Quiet", "true");
  }
  for (const auto& key : keys) {
    add_text(root.append_child("Object"), "Key", key);
  }
  return to_text(document);
}

std::string versioning_configuration_xml(std::string_view status) {
  pugi::xml_document document;
  auto root = add_root(document, "VersioningConfiguration");
  add_text(root, "Status", status);
  return to_text(document);
}

std::string create_bucket_xml(std::string_view location_constraint) {
  pugi::xml_document document;
  auto root = add_root(document, "CreateBucketConfiguration");
  add_text(root, "LocationConstraint", location_constraint);
  return to_text(document);
}

} // namespace s3fault::client
