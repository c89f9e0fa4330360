#include "conformance/s3/content_hash.hpp"

#include "conformance/s3/xxh3_kernels.hpp"

#define XXH_STATIC_LINKING_ONLY // the state's size, for storage the kernels fill
#include <xxhash.h>

namespace s3fault::s3 {

struct content_hasher::state {
  const detail::xxh3_kernel& kernel = detail::best_xxh3_kernel();
  XXH3_state_t xxh;
  state() { kernel.reset(&xxh); }
};

std::uint64_t content_hash(std::string_view data) {
  return detail::best_xxh3_kernel().hash(data.data(), data.size());
}

content_hasher::content_hasher() : state_(std::make_unique<state>()) {}
content_hasher::~content_hasher() = default;
content_hasher::content_hasher(content_hasher&&) noexcept = default;
content_hasher& content_hasher::operator=(content_hasher&&) noexcept = default;

void content_hasher::update(std::string_view data) {
  state_->kernel.update(&state_->xxh, data.data(), data.size());
}

std::uint64_t content_hasher::digest() const {
  return state_->kernel.digest(&state_->xxh);
}

} // namespace s3fault::s3
