#include "conformance/s3/content_hash.hpp"

#include <xxhash.h>

#include <stdexcept>

namespace s3fault::s3 {

struct content_hasher::state {
  XXH3_state_t* xxh = XXH3_createState();
  state() {
    if (xxh == nullptr || XXH3_64bits_reset(xxh) != XXH_OK) {
      throw std::bad_alloc();
    }
  }
  ~state() { XXH3_freeState(xxh); }
  state(const state&) = delete;
  state& operator=(const state&) = delete;
};

std::uint64_t content_hash(std::string_view data) {
  return XXH3_64bits(data.data(), data.size());
}

content_hasher::content_hasher() : state_(std::make_unique<state>()) {}
content_hasher::~content_hasher() = default;
content_hasher::content_hasher(content_hasher&&) noexcept = default;
content_hasher& content_hasher::operator=(content_hasher&&) noexcept = default;

void content_hasher::update(std::string_view data) {
  XXH3_64bits_update(state_->xxh, data.data(), data.size());
}

std::uint64_t content_hasher::digest() const {
  return XXH3_64bits_digest(state_->xxh);
}

} // namespace s3fault::s3
