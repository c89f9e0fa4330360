#include "proxy/admin_token.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>
#include <string>

namespace s3fault::proxy {
namespace {

std::array<unsigned char, EVP_MAX_MD_SIZE> sha256(std::string_view text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha256(), nullptr);
  return digest;
}

} // namespace

bool admin_token_matches(std::string_view authorization, std::string_view token) {
  if (token.empty()) {
    return false;
  }
  const auto given = sha256(authorization);
  const auto expected = sha256("Bearer " + std::string(token));
  return CRYPTO_memcmp(given.data(), expected.data(), given.size()) == 0;
}

} // namespace s3fault::proxy
