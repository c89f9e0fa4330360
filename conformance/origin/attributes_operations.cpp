// GetObjectAttributes: what HeadObject and ListParts tell, in one XML document
// (object_attributes.hpp), for the object GET would serve.
#include "conformance/origin/http_date.hpp"
#include "conformance/origin/object_attributes.hpp"
#include "conformance/origin/operations.hpp"

namespace s3fault::origin {
namespace {

/// The object version the request names. Versioning hook: today the router lets only
/// `versionId=null` (or none) through, which is the current object; once the store keeps
/// versions, look `*version_id` up here (S3 answers 404 NoSuchVersion for an unknown one) and
/// add its id as x-amz-version-id in get_object_attributes.
std::variant<object_ptr, s3_error> find_version(const request_context& context,
                                                const std::optional<std::string>& version_id) {
  static_cast<void>(version_id);
  return context.store.find_object(context.request.bucket, context.request.key);
}

} // namespace

operation_start get_object_attributes(const request_context& context) {
  // Argument errors come before the lookup, as for GetObject.
  const auto parsed = parse_attributes_request(context.head);
  if (const auto* error = std::get_if<s3_error>(&parsed)) {
    return answer_error(*error, context);
  }
  const auto found = find_version(context, context.request.query.get("versionId"));
  if (const auto* error = std::get_if<s3_error>(&found)) {
    return answer_error(*error, context);
  }
  const object_ptr& object = std::get<object_ptr>(found);
  origin_response response =
      xml_answer(render_object_attributes(std::get<attributes_request>(parsed), *object));
  response.add("Last-Modified", format_http_date(object->last_modified));
  return answer(std::move(response));
}

} // namespace s3fault::origin
