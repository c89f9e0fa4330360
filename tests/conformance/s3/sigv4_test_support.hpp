#pragma once
// Small helpers shared by the SigV4 tests: fixed times, header lookup, one-byte tampering.
#include "conformance/s3/request_time.hpp"
#include "conformance/s3/sigv4.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace s3fault::s3::testing {

/// A time from its x-amz-date spelling; throws on a typo (also usable in static initialisers).
inline std::chrono::system_clock::time_point at(std::string_view amz) {
  const auto parsed = parse_amz_date(amz);
  if (!parsed) {
    throw std::invalid_argument("not an x-amz-date: " + std::string(amz));
  }
  return *parsed;
}

/// First value of a header (case-insensitive name), or "" when absent.
inline std::string header(const http_request_view& request, std::string_view name) {
  for (const auto& [header_name, value] : request.headers) {
    if (header_name.size() == name.size() &&
        std::equal(header_name.begin(), header_name.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        })) {
      return value;
    }
  }
  return {};
}

/// The hex after "Signature=" in an Authorization value.
inline std::string signature_of(std::string_view authorization) {
  const auto at = authorization.find("Signature=");
  return at == std::string_view::npos ? std::string() : std::string(authorization.substr(at + 10));
}

/// Replaces the byte at `index` with a different one that is neither whitespace nor a
/// separator: hex digits stay hex digits (so a tampered signature is still well-formed).
inline void flip_byte(std::string& text, std::size_t index) {
  char& c = text.at(index);
  const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  if (hex) {
    c = c == '0' ? '1' : '0';
  } else {
    c = c == 'x' ? 'y' : 'x';
  }
}

/// A lookup that knows exactly one access key.
inline secret_lookup only_key(std::string access_key, std::string secret) {
  return [access_key = std::move(access_key),
          secret = std::move(secret)](std::string_view key) -> std::optional<std::string> {
    if (key == access_key) {
      return secret;
    }
    return std::nullopt;
  };
}

} // namespace s3fault::s3::testing
