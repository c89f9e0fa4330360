#include "conformance/client/http_types.hpp"

#include "text/text.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace s3fault::client {
namespace {

class client_category_impl final : public boost::system::error_category {
public:
  const char* name() const noexcept override { return "s3fault.client"; }
  std::string message(int value) const override {
    switch (static_cast<client_errc>(value)) {
    case client_errc::short_body:
      return "connection closed before the Content-Length body arrived";
    case client_errc::incomplete_chunked:
      return "connection closed inside a chunked body";
    case client_errc::closed_before_response:
      return "connection closed before any response byte";
    case client_errc::closed_inside_head:
      return "connection closed inside the response head";
    case client_errc::bad_response:
      return "malformed HTTP response";
    case client_errc::body_over_cap:
      return "response body larger than the in-memory cap";
    case client_errc::sink_aborted:
      return "body callback stopped the read";
    case client_errc::local_io:
      return "local file error";
    case client_errc::invalid_request:
      return "invalid request options";
    }
    return "unknown client error";
  }
};

} // namespace

const boost::system::error_category& client_category() {
  static const client_category_impl category;
  return category;
}

std::optional<std::string_view> find_header(const header_list& headers, std::string_view name) {
  for (const auto& [field, value] : headers) {
    if (text::iequal(field, name)) {
      return std::string_view(value);
    }
  }
  return std::nullopt;
}

std::vector<std::string_view> find_headers(const header_list& headers, std::string_view name) {
  std::vector<std::string_view> values;
  for (const auto& [field, value] : headers) {
    if (text::iequal(field, name)) {
      values.emplace_back(value);
    }
  }
  return values;
}

void set_header(header_list& headers, std::string_view name, std::string_view value) {
  bool placed = false;
  for (auto it = headers.begin(); it != headers.end();) {
    if (!text::iequal(it->first, name)) {
      ++it;
    } else if (!placed) {
      it->second = std::string(value);
      placed = true;
      ++it;
    } else {
      it = headers.erase(it);
    }
  }
  if (!placed) {
    headers.emplace_back(std::string(name), std::string(value));
  }
}

body_source body_source::from_string(std::string data) {
  body_source source;
  source.kind_ = kind::memory;
  source.owned_ = std::make_shared<const std::string>(std::move(data));
  source.view_ = *source.owned_;
  return source;
}

body_source body_source::from_view(std::string_view data) {
  body_source source;
  source.kind_ = kind::memory;
  source.view_ = data;
  return source;
}

body_source body_source::from_file(std::string path, std::uint64_t offset,
                                   std::optional<std::uint64_t> length) {
  body_source source;
  source.kind_ = kind::file;
  source.path_ = std::move(path);
  source.offset_ = offset;
  source.length_ = length;
  return source;
}

std::optional<std::uint64_t> body_source::size(std::string& error) const {
  switch (kind_) {
  case kind::none:
    return 0;
  case kind::memory:
    return view_.size();
  case kind::file:
    break;
  }
  struct stat info {};
  if (::stat(path_.c_str(), &info) != 0) {
    error = path_ + ": " + std::strerror(errno);
    return std::nullopt;
  }
  const auto file_size = static_cast<std::uint64_t>(info.st_size);
  if (offset_ > file_size || (length_ && *length_ > file_size - offset_)) {
    error = path_ + ": " + std::to_string(file_size) + " bytes, shorter than the requested range";
    return std::nullopt;
  }
  return length_ ? *length_ : file_size - offset_;
}

body_target body_target::memory(std::size_t cap) {
  body_target target;
  target.kind_ = kind::memory;
  target.cap_ = cap;
  return target;
}

body_target body_target::callback(body_callback sink) {
  body_target target;
  target.kind_ = kind::callback;
  target.sink_ = std::move(sink);
  return target;
}

body_target body_target::file(std::string path) {
  body_target target;
  target.kind_ = kind::file;
  target.path_ = std::move(path);
  return target;
}

body_target body_target::discard() {
  body_target target;
  target.kind_ = kind::discard;
  return target;
}

std::string_view to_string(stage s) {
  switch (s) {
  case stage::none:
    return "none";
  case stage::build_request:
    return "build request";
  case stage::resolve:
    return "resolve";
  case stage::connect:
    return "connect";
  case stage::tls_handshake:
    return "tls handshake";
  case stage::send_request:
    return "send request";
  case stage::wait_first_byte:
    return "wait for first byte";
  case stage::read_head:
    return "read response head";
  case stage::read_body:
    return "read body";
  case stage::local_io:
    return "local file";
  }
  return "unknown";
}

std::string response::describe() const {
  std::string text;
  if (head_received()) {
    text =
        std::to_string(status) + " " + reason + ", " + std::to_string(body_bytes) + " body bytes";
    if (content_length) {
      text += " (Content-Length " + std::to_string(*content_length) + ")";
    }
  } else {
    text = "no response";
  }
  if (error) {
    text += ", S3 error " + error->code;
    if (!error->message.empty()) {
      text += " (" + error->message + ")";
    }
  }
  if (failure) {
    text += ", failed: " + failure.message;
  }
  return text;
}

} // namespace s3fault::client
