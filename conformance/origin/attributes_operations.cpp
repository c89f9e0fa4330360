// GetObjectAttributes: what HeadObject and ListParts tell, in one XML document
// (object_attributes.hpp), for the object GET would serve.
#include "conformance/origin/http_date.hpp"
#include "conformance/origin/object_attributes.hpp"
#include "conformance/origin/operations.hpp"

namespace s3fault::origin {
operation_start get_object_attributes(const request_context& context) {
  // Argument errors come before the lookup, as for GetObject.
  const auto parsed = parse_attributes_request(context.head);
  if (const auto* error = std::get_if<s3_error>(&parsed)) {
    return answer_error(*error, context);
  }
  const auto found = find_requested_object(context);
  if (const auto* error = std::get_if<s3_error>(&found)) {
    return answer_error(*error, context);
  }
  const object_ptr& object = std::get<object_ptr>(found);
  origin_response response =
      xml_answer(render_object_attributes(std::get<attributes_request>(parsed), *object));
  response.add("Last-Modified", format_http_date(object->last_modified));
  add_version_header(response, context, *object);
  return answer(std::move(response));
}

} // namespace s3fault::origin
