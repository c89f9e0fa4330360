#pragma once
// The plain reading of a response head against Beast's, for the unit test and the fuzz target
// (tests/unit/plain_response_head_test.cpp, tests/fuzz/fuzz_response_head.cpp).
//
// grouped_head: an HTTP head with its field lines stably sorted by name, one line per "\n". Beast
// files a repeated field name after the last field of that name, so the Beast path forwards "A: 1,
// B: 2, A: 3" as "A: 1, A: 3, B: 2" where the plain path keeps the store's order; both keep the
// order of one name's values, which is all HTTP gives meaning to (RFC 9110 5.3). Comparing grouped
// heads compares the two paths on everything else.
#include "proxy/plain_response_head.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::testing {

inline std::string grouped_head(std::string_view head) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < head.size();) {
    std::size_t end = head.find("\r\n", at);
    end = end == std::string_view::npos ? head.size() : end;
    lines.push_back(head.substr(at, end - at));
    at = end + 2;
  }
  const auto name_of = [](std::string_view line) {
    std::string name(line.substr(0, line.find(':')));
    for (char& c : name) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return name;
  };
  if (!lines.empty()) {
    std::stable_sort(lines.begin() + 1, lines.end(), [&](std::string_view a, std::string_view b) {
      return name_of(a) < name_of(b);
    });
  }
  std::string out;
  for (const auto line : lines) {
    out.append(line).append("\n");
  }
  return out;
}

/// How `plain` (what read_plain_response_head accepted from `wire`) differs from Beast's reading
/// of `wire` as the proxy's Beast path uses it: status, keep-alive, framing, head size and the
/// head forwarded to the client (`close`: with Connection: close). Empty when they agree.
inline std::string plain_vs_beast(std::string_view wire, bool head_request, bool close,
                                  std::size_t head_limit, proxy::plain_response_head plain) {
  proxy::response_parser parser;
  proxy::configure_head_parser(parser, head_limit);
  parser.skip(head_request);
  boost::system::error_code ec;
  const std::size_t used = parser.put(boost::asio::buffer(wire.data(), wire.size()), ec);
  if (ec || !parser.is_header_done()) {
    return "accepted, but Beast cannot read it: " + (ec ? ec.message() : "head not done");
  }
  const auto framing = proxy::response_body_framing(parser, head_request);
  std::string differences;
  if (plain.status != parser.get().result_int()) {
    differences += "status; ";
  }
  if (plain.keep_alive != parser.keep_alive()) {
    differences += "keep-alive; ";
  }
  if (plain.framing.how != framing.how || plain.framing.length != framing.length) {
    differences += "framing; ";
  }
  if (plain.size != used) {
    differences += "head size; ";
  }
  const std::string forwarded = grouped_head(proxy::finish_response_head(plain, close));
  const std::string beast = grouped_head(proxy::serialize_response_head(parser, close));
  if (forwarded != beast) {
    differences += "forwarded head:\n" + forwarded + "against Beast's:\n" + beast;
  }
  return differences;
}

} // namespace s3fault::testing
