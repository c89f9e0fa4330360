#include "proxy/fault_application.hpp"

#include "faults/rule_set.hpp"
#include "faults/s3_error_body.hpp"
#include "text/content_range.hpp"
#include "text/http_date.hpp"
#include "text/text.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <array>
#include <cstring>
#include <random>

namespace s3fault::proxy {

faults::header_lookup request_header_lookup(const request_parser& request) {
  const auto* head = &request.get();
  return [head](std::string_view name) -> std::optional<std::string_view> {
    const auto it = head->find(boost::beast::string_view(name.data(), name.size()));
    if (it == head->end()) {
      return std::nullopt;
    }
    return std::string_view(it->value().data(), it->value().size());
  };
}

void response_head_fields::set_status(unsigned status) {
  head_.result(status);
  const auto reason = reason_phrase(status);
  head_.reason(boost::beast::string_view(reason.data(), reason.size()));
}

std::optional<std::string> response_head_fields::header(std::string_view name) const {
  const auto it = head_.find(boost::beast::string_view(name.data(), name.size()));
  if (it == head_.end()) {
    return std::nullopt;
  }
  return std::string(it->value());
}

bool response_head_fields::remove_header(std::string_view name) {
  return head_.erase(boost::beast::string_view(name.data(), name.size())) > 0;
}

void response_head_fields::set_header(std::string_view name, std::string_view value) {
  head_.set(boost::beast::string_view(name.data(), name.size()),
            boost::beast::string_view(value.data(), value.size()));
}

void announce_body_length(http::response_header<>& head,
                          const faults::length_announcement& announced) {
  const std::uint64_t length = announced.length;
  head.set(http::field::content_length, std::to_string(length));
  const auto range = head.find(http::field::content_range);
  if (range == head.end() || !announced.range_follows) {
    return; // length-only: the range still claims what the store sent
  }
  if (length == 0) {
    // No Content-Range names zero bytes ("bytes S-E" has E >= S): the consistent answer with an
    // empty body is a whole, empty object.
    head.erase(http::field::content_range);
    response_head_fields(head).set_status(200);
    return;
  }
  // "bytes S-E/T": keep S and T, move E.
  const auto parsed =
      text::parse_content_range(std::string_view(range->value().data(), range->value().size()));
  if (!parsed) {
    return; // not a form we can rewrite: leave it as the store sent it
  }
  head.set(http::field::content_range,
           text::format_content_range(parsed->first, parsed->first + length - 1, parsed->total));
}

void frame_edited_body(http::response_header<>& head, std::uint64_t length) {
  head.erase(http::field::transfer_encoding);
  head.erase(http::field::content_md5);
  for (auto it = head.begin(); it != head.end();) {
    constexpr std::string_view checksum_prefix = "x-amz-checksum-";
    const std::string_view name(it->name_string().data(), it->name_string().size());
    if (name.size() > checksum_prefix.size() &&
        text::iequal(name.substr(0, checksum_prefix.size()), checksum_prefix)) {
      it = head.erase(it);
    } else {
      ++it;
    }
  }
  head.set(http::field::content_length, std::to_string(length));
}

std::string make_host_id() {
  // Random like S3's (base64 of 48 bytes); it identifies nothing, but clients log it.
  thread_local std::mt19937_64 random(std::random_device{}());
  std::array<unsigned char, 48> raw;
  for (std::size_t i = 0; i < raw.size(); i += 8) {
    const std::uint64_t word = random();
    std::memcpy(raw.data() + i, &word, 8);
  }
  std::array<unsigned char, 65> text{};
  EVP_EncodeBlock(text.data(), raw.data(), static_cast<int>(raw.size()));
  return reinterpret_cast<const char*>(text.data());
}

std::string serialize_local_response(const faults::local_response& response, bool head_request,
                                     bool close, std::string_view server) {
  std::string out =
      fmt::format("HTTP/1.1 {} {}\r\n", response.status, reason_phrase(response.status));
  bool has_request_id = false;
  for (const auto& [name, value] : response.headers) {
    has_request_id = has_request_id || text::iequal(name, "x-amz-request-id");
    out += fmt::format("{}: {}\r\n", name, value);
  }
  if (!has_request_id) {
    out += fmt::format("x-amz-request-id: {}\r\n", make_request_id());
  }
  out += fmt::format("x-amz-id-2: {}\r\nDate: {}\r\n", make_host_id(),
                     text::format_http_date(std::chrono::system_clock::now()));
  if (!server.empty()) {
    out += fmt::format("Server: {}\r\n", server);
  }
  // A status without a body gets no body and no length; HEAD gets the length of none.
  const bool bodyless = status_forbids_body(response.status);
  const bool send_body = !head_request && !bodyless;
  if (!bodyless) {
    out += fmt::format("Content-Length: {}\r\n", send_body ? response.body.size() : 0);
  }
  if (close) {
    out += "Connection: close\r\n";
  }
  out += "\r\n";
  if (send_body) {
    out += response.body;
  }
  return out;
}

std::string describe_injections(const std::vector<faults::injection>& injected) {
  std::string out;
  for (const auto& item : injected) {
    if (!out.empty()) {
      out += ',';
    }
    out += item.rule;
    out += ':';
    out += item.action;
  }
  return out;
}

} // namespace s3fault::proxy
