#include "conformance/origin/xml_render.hpp"

#include "conformance/origin/http_date.hpp"
#include "conformance/s3/sigv4.hpp"
#include "text/text.hpp"

#include <pugixml.hpp>

#include <sstream>

namespace s3fault::origin {
namespace {

constexpr const char* s3_namespace = "http://s3.amazonaws.com/doc/2006-03-01/";

class document {
public:
  explicit document(const char* root_name, bool with_namespace = true) {
    auto decl = doc_.append_child(pugi::node_declaration);
    decl.append_attribute("version") = "1.0";
    decl.append_attribute("encoding") = "UTF-8";
    root_ = doc_.append_child(root_name);
    if (with_namespace) {
      root_.append_attribute("xmlns") = s3_namespace;
    }
  }
  pugi::xml_node root() { return root_; }
  std::string text() const {
    std::ostringstream out;
    doc_.save(out, "", pugi::format_raw);
    return out.str();
  }

private:
  pugi::xml_document doc_;
  pugi::xml_node root_;
};

pugi::xml_node add(pugi::xml_node parent, const char* name, std::string_view value) {
  auto node = parent.append_child(name);
  node.text().set(std::string(value).c_str());
  return node;
}

pugi::xml_node add(pugi::xml_node parent, const char* name, std::uint64_t value) {
  return add(parent, name, std::string_view(std::to_string(value)));
}

pugi::xml_node add_bool(pugi::xml_node parent, const char* name, bool value) {
  return add(parent, name, std::string_view(value ? "true" : "false"));
}

std::string quoted(std::string_view etag) {
  return "\"" + std::string(etag) + "\"";
}

void add_owner(pugi::xml_node parent, const account_owner& owner, const char* name = "Owner") {
  auto node = parent.append_child(name);
  add(node, "ID", owner.id);
  add(node, "DisplayName", owner.display_name);
}

std::string maybe_encoded(std::string_view text, bool url_encoding) {
  return url_encoding ? s3::uri_encode(text, false) : std::string(text);
}

void add_contents(pugi::xml_node root, const object_summary& object, bool url_encoding,
                  const account_owner* owner) {
  auto contents = root.append_child("Contents");
  add(contents, "Key", maybe_encoded(object.key, url_encoding));
  add(contents, "LastModified", format_iso8601(object.last_modified));
  add(contents, "ETag", quoted(object.etag));
  if (!object.checksum_algorithm.empty()) {
    add(contents, "ChecksumAlgorithm", text::ascii_upper(object.checksum_algorithm));
  }
  add(contents, "Size", object.size);
  if (owner) {
    add_owner(contents, *owner);
  }
  add(contents, "StorageClass", std::string_view("STANDARD"));
}

void add_common_prefixes(pugi::xml_node root, const std::vector<std::string>& prefixes,
                         bool url_encoding) {
  for (const auto& prefix : prefixes) {
    add(root.append_child("CommonPrefixes"), "Prefix", maybe_encoded(prefix, url_encoding));
  }
}

} // namespace

std::string checksum_element_name(std::string_view algorithm) {
  return "Checksum" + text::ascii_upper(algorithm);
}

std::string render_error(const s3_error& error, std::string_view resource,
                         std::string_view request_id) {
  document doc("Error", false);
  auto root = doc.root();
  add(root, "Code", error.code);
  add(root, "Message", error.message);
  add(root, "Resource", resource);
  add(root, "RequestId", request_id);
  for (const auto& [name, value] : error.details) {
    add(root, name.c_str(), value);
  }
  return doc.text();
}

std::string render_list_buckets(const account_owner& owner,
                                const std::vector<bucket_summary>& buckets) {
  document doc("ListAllMyBucketsResult");
  auto root = doc.root();
  add_owner(root, owner);
  auto list = root.append_child("Buckets");
  for (const auto& bucket : buckets) {
    auto node = list.append_child("Bucket");
    add(node, "Name", bucket.name);
    add(node, "CreationDate", format_iso8601(bucket.created));
  }
  return doc.text();
}

std::string render_bucket_location(std::string_view region) {
  document doc("LocationConstraint");
  // us-east-1 is the one region S3 reports as an empty constraint.
  if (region != "us-east-1") {
    doc.root().text().set(std::string(region).c_str());
  }
  return doc.text();
}

std::string render_versioning_configuration(versioning_status status) {
  document doc("VersioningConfiguration");
  if (status != versioning_status::off) {
    add(doc.root(), "Status",
        std::string_view(status == versioning_status::enabled ? "Enabled" : "Suspended"));
  }
  return doc.text();
}

std::string render_list_versions(const versions_echo& echo, const version_listing& page) {
  document doc("ListVersionsResult");
  auto root = doc.root();
  add(root, "Name", echo.bucket);
  add(root, "Prefix", maybe_encoded(echo.prefix, echo.url_encoding));
  add(root, "KeyMarker", maybe_encoded(echo.key_marker, echo.url_encoding));
  add(root, "VersionIdMarker", echo.version_id_marker);
  if (page.truncated) {
    add(root, "NextKeyMarker", maybe_encoded(page.next_key_marker, echo.url_encoding));
    if (!page.next_version_id_marker.empty()) {
      add(root, "NextVersionIdMarker", page.next_version_id_marker);
    }
  }
  add(root, "MaxKeys", std::uint64_t{echo.max_keys});
  if (!echo.delimiter.empty()) {
    add(root, "Delimiter", maybe_encoded(echo.delimiter, echo.url_encoding));
  }
  if (echo.url_encoding) {
    add(root, "EncodingType", std::string_view("url"));
  }
  add_bool(root, "IsTruncated", page.truncated);
  for (const auto& version : page.versions) {
    auto node = root.append_child(version.delete_marker ? "DeleteMarker" : "Version");
    add(node, "Key", maybe_encoded(version.key, echo.url_encoding));
    add(node, "VersionId", version.version_id);
    add_bool(node, "IsLatest", version.latest);
    add(node, "LastModified", format_iso8601(version.last_modified));
    if (!version.delete_marker) {
      add(node, "ETag", quoted(version.etag));
      if (!version.checksum_algorithm.empty()) {
        add(node, "ChecksumAlgorithm", text::ascii_upper(version.checksum_algorithm));
      }
      add(node, "Size", version.size);
      add(node, "StorageClass", std::string_view("STANDARD"));
    }
    add_owner(node, echo.owner);
  }
  add_common_prefixes(root, page.common_prefixes, echo.url_encoding);
  return doc.text();
}

std::string render_empty_tagging() {
  document doc("Tagging");
  doc.root().append_child("TagSet");
  return doc.text();
}

std::string render_owner_acl(const account_owner& owner) {
  document doc("AccessControlPolicy");
  auto root = doc.root();
  add_owner(root, owner);
  auto grant = root.append_child("AccessControlList").append_child("Grant");
  auto grantee = grant.append_child("Grantee");
  grantee.append_attribute("xmlns:xsi") = "http://www.w3.org/2001/XMLSchema-instance";
  grantee.append_attribute("xsi:type") = "CanonicalUser";
  add(grantee, "ID", owner.id);
  add(grantee, "DisplayName", owner.display_name);
  add(grant, "Permission", std::string_view("FULL_CONTROL"));
  return doc.text();
}

std::string render_list_objects_v1(const listing_echo& echo, const object_listing& page) {
  document doc("ListBucketResult");
  auto root = doc.root();
  add(root, "Name", echo.bucket);
  add(root, "Prefix", maybe_encoded(echo.prefix, echo.url_encoding));
  add(root, "Marker", maybe_encoded(echo.marker, echo.url_encoding));
  // S3 sends NextMarker only with a delimiter; without one the last key is the next marker.
  if (page.truncated && !echo.delimiter.empty()) {
    add(root, "NextMarker", maybe_encoded(page.last_entry, echo.url_encoding));
  }
  add(root, "MaxKeys", echo.max_keys);
  if (!echo.delimiter.empty()) {
    add(root, "Delimiter", maybe_encoded(echo.delimiter, echo.url_encoding));
  }
  if (echo.url_encoding) {
    add(root, "EncodingType", std::string_view("url"));
  }
  add_bool(root, "IsTruncated", page.truncated);
  for (const auto& object : page.objects) {
    add_contents(root, object, echo.url_encoding, &echo.owner);
  }
  add_common_prefixes(root, page.common_prefixes, echo.url_encoding);
  return doc.text();
}

std::string render_list_objects_v2(const listing_echo& echo, const object_listing& page) {
  document doc("ListBucketResult");
  auto root = doc.root();
  add(root, "Name", echo.bucket);
  add(root, "Prefix", maybe_encoded(echo.prefix, echo.url_encoding));
  if (echo.start_after) {
    add(root, "StartAfter", maybe_encoded(*echo.start_after, echo.url_encoding));
  }
  if (echo.continuation_token) {
    add(root, "ContinuationToken", *echo.continuation_token);
  }
  if (page.truncated) {
    add(root, "NextContinuationToken", echo.next_continuation_token);
  }
  add(root, "KeyCount",
      static_cast<std::uint64_t>(page.objects.size() + page.common_prefixes.size()));
  add(root, "MaxKeys", echo.max_keys);
  if (!echo.delimiter.empty()) {
    add(root, "Delimiter", maybe_encoded(echo.delimiter, echo.url_encoding));
  }
  if (echo.url_encoding) {
    add(root, "EncodingType", std::string_view("url"));
  }
  add_bool(root, "IsTruncated", page.truncated);
  for (const auto& object : page.objects) {
    add_contents(root, object, echo.url_encoding, echo.fetch_owner ? &echo.owner : nullptr);
  }
  add_common_prefixes(root, page.common_prefixes, echo.url_encoding);
  return doc.text();
}

std::string render_delete_result(const std::vector<delete_outcome>& outcomes, bool quiet) {
  document doc("DeleteResult");
  auto root = doc.root();
  for (const auto& outcome : outcomes) {
    if (outcome.error) {
      auto node = root.append_child("Error");
      add(node, "Key", outcome.key);
      add(node, "Code", outcome.error->code);
      add(node, "Message", outcome.error->message);
    } else if (!quiet) {
      auto node = root.append_child("Deleted");
      add(node, "Key", outcome.key);
      if (!outcome.version_id.empty()) {
        add(node, "VersionId", outcome.version_id);
      }
      if (outcome.delete_marker) {
        add_bool(node, "DeleteMarker", true);
        add(node, "DeleteMarkerVersionId", outcome.marker_version_id);
      }
    }
  }
  return doc.text();
}

std::string render_copy_object_result(std::string_view etag, time_point last_modified,
                                      const std::optional<checksum_value>& checksum) {
  document doc("CopyObjectResult");
  auto root = doc.root();
  add(root, "LastModified", format_iso8601(last_modified));
  add(root, "ETag", quoted(etag));
  if (checksum) {
    add(root, checksum_element_name(checksum->algorithm).c_str(), checksum->value);
  }
  return doc.text();
}

std::string render_copy_part_result(std::string_view etag, time_point last_modified) {
  document doc("CopyPartResult");
  auto root = doc.root();
  add(root, "LastModified", format_iso8601(last_modified));
  add(root, "ETag", quoted(etag));
  return doc.text();
}

std::string render_initiate_multipart(std::string_view bucket, std::string_view key,
                                      std::string_view upload_id) {
  document doc("InitiateMultipartUploadResult");
  auto root = doc.root();
  add(root, "Bucket", bucket);
  add(root, "Key", key);
  add(root, "UploadId", upload_id);
  return doc.text();
}

std::string render_complete_multipart(std::string_view location, std::string_view bucket,
                                      std::string_view key, std::string_view etag,
                                      const std::optional<checksum_value>& checksum) {
  document doc("CompleteMultipartUploadResult");
  auto root = doc.root();
  add(root, "Location", location);
  add(root, "Bucket", bucket);
  add(root, "Key", key);
  add(root, "ETag", quoted(etag));
  if (checksum) {
    add(root, checksum_element_name(checksum->algorithm).c_str(), checksum->value);
    add(root, "ChecksumType", checksum->type);
  }
  return doc.text();
}

std::string render_list_parts(const parts_echo& echo, const part_listing& page) {
  document doc("ListPartsResult");
  auto root = doc.root();
  add(root, "Bucket", echo.bucket);
  add(root, "Key", page.key);
  add(root, "UploadId", page.upload_id);
  add(root, "PartNumberMarker", std::uint64_t{echo.part_number_marker});
  add(root, "NextPartNumberMarker", std::uint64_t{page.next_marker});
  add(root, "MaxParts", std::uint64_t{echo.max_parts});
  add_bool(root, "IsTruncated", page.truncated);
  for (const auto& part : page.parts) {
    auto node = root.append_child("Part");
    add(node, "PartNumber", std::uint64_t{part.number});
    add(node, "LastModified", format_iso8601(part.last_modified));
    add(node, "ETag", quoted(part.etag));
    add(node, "Size", part.size);
    if (!part.checksum.empty()) {
      add(node, checksum_element_name(part.checksum_algorithm).c_str(), part.checksum);
    }
  }
  add_owner(root, echo.owner, "Initiator");
  add_owner(root, echo.owner);
  add(root, "StorageClass", std::string_view("STANDARD"));
  if (!page.checksum_algorithm.empty()) {
    add(root, "ChecksumAlgorithm", text::ascii_upper(page.checksum_algorithm));
  }
  return doc.text();
}

std::string render_list_uploads(const uploads_echo& echo, const upload_listing& page) {
  document doc("ListMultipartUploadsResult");
  auto root = doc.root();
  add(root, "Bucket", echo.bucket);
  add(root, "KeyMarker", maybe_encoded(echo.key_marker, echo.url_encoding));
  add(root, "UploadIdMarker", echo.upload_id_marker);
  add(root, "NextKeyMarker", maybe_encoded(page.next_key_marker, echo.url_encoding));
  add(root, "NextUploadIdMarker", page.next_upload_id_marker);
  if (!echo.prefix.empty()) {
    add(root, "Prefix", maybe_encoded(echo.prefix, echo.url_encoding));
  }
  if (!echo.delimiter.empty()) {
    add(root, "Delimiter", maybe_encoded(echo.delimiter, echo.url_encoding));
  }
  add(root, "MaxUploads", std::uint64_t{echo.max_uploads});
  if (echo.url_encoding) {
    add(root, "EncodingType", std::string_view("url"));
  }
  add_bool(root, "IsTruncated", page.truncated);
  for (const auto& upload : page.uploads) {
    auto node = root.append_child("Upload");
    add(node, "Key", maybe_encoded(upload.key, echo.url_encoding));
    add(node, "UploadId", upload.upload_id);
    add_owner(node, echo.owner, "Initiator");
    add_owner(node, echo.owner);
    add(node, "StorageClass", std::string_view("STANDARD"));
    add(node, "Initiated", format_iso8601(upload.initiated));
  }
  add_common_prefixes(root, page.common_prefixes, echo.url_encoding);
  return doc.text();
}

} // namespace s3fault::origin
