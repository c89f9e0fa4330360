#include "conformance/origin/http_message.hpp"

#include "text/text.hpp"

namespace s3fault::origin {

std::optional<std::string_view> request_head::header(std::string_view name) const {
  for (const auto& [field, value] : headers) {
    if (text::iequal(field, name)) {
      return std::string_view(value);
    }
  }
  return std::nullopt;
}

std::optional<std::string> request_head::header_copy(std::string_view name) const {
  if (auto value = header(name)) {
    return std::string(*value);
  }
  return std::nullopt;
}

origin_response error_response(s3_error error, std::string resource) {
  origin_response response;
  response.status = error.status;
  response.error = std::move(error);
  response.resource = std::move(resource);
  return response;
}

} // namespace s3fault::origin
