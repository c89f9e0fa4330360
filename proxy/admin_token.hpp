#pragma once
// The admin API's bearer token: without one the API listens on loopback only; with one, every
// request must carry `Authorization: Bearer TOKEN`, compared in constant time.
#include <string>
#include <string_view>

namespace s3fault::proxy {

/// The shortest token accepted: long enough that guessing it over the network is hopeless.
inline constexpr std::size_t min_admin_token_length = 16;

/// True when `authorization` is exactly "Bearer " + `token`. Both sides are hashed (SHA-256)
/// and the digests compared with CRYPTO_memcmp, so the time taken tells nothing about how much
/// of the token was right, nor its length.
bool admin_token_matches(std::string_view authorization, std::string_view token);

} // namespace s3fault::proxy
