#pragma once
// Percent-encoding as S3 uses it, one implementation for the classifier, the request edits of
// the proxy and SigV4: S3's UriEncode, decoding that keeps malformed escapes and '+' as written,
// and a query string read into decoded pairs.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::text {

/// True for a byte S3's UriEncode keeps: A-Z a-z 0-9 - . _ ~
bool is_unreserved(char c);
/// True when `text[i]` starts a valid escape: '%' and two hex digits.
bool is_escape_at(std::string_view text, std::size_t i);
/// S3's UriEncode: unreserved bytes kept, '/' kept unless `encode_slash`, every other byte %XX
/// upper-case.
std::string uri_encode(std::string_view text, bool encode_slash);
/// Percent-decoding. A '%' not followed by two hex digits stays literal, as S3 and most servers
/// do; '+' is kept as is (S3 paths and SigV4 queries do not use form encoding).
std::string uri_decode(std::string_view text);
/// "a=1&b&c=%20" -> {a,1} {b,""} {c," "}: names and values decoded, in request order, empty
/// pieces skipped.
std::vector<std::pair<std::string, std::string>> parse_query(std::string_view query);

} // namespace s3fault::text
