#include "conformance/s3/content_hash.hpp"

// The dispatching entry points of Debian's libxxhash: the widest vector code the CPU runs
// (AVX2 or AVX-512), chosen once at run time, and the same digest on every CPU
// (docs/performance.md, "Digests").
#define XXH_STATIC_LINKING_ONLY // XXH3_state_t's size, to keep the state inside `state`
#include <xxh_x86dispatch.h>

namespace s3fault::s3 {

struct content_hasher::state {
  XXH3_state_t xxh;
  state() { XXH3_64bits_reset(&xxh); }
};

std::uint64_t content_hash(std::string_view data) {
  return XXH3_64bits_dispatch(data.data(), data.size());
}

content_hasher::content_hasher() : state_(std::make_unique<state>()) {}
content_hasher::~content_hasher() = default;
content_hasher::content_hasher(content_hasher&&) noexcept = default;
content_hasher& content_hasher::operator=(content_hasher&&) noexcept = default;

void content_hasher::update(std::string_view data) {
  XXH3_64bits_update_dispatch(&state_->xxh, data.data(), data.size());
}

std::uint64_t content_hasher::digest() const {
  return XXH3_64bits_digest(&state_->xxh);
}

} // namespace s3fault::s3
