#include "conformance/bench/fixture_content.hpp"

#include "conformance/bench/splitmix.hpp"
#include "conformance/bench/workload.hpp"
#include "conformance/s3/content_hash.hpp"
#include "conformance/s3/hashing.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace s3fault::bench {
namespace {

// Objects start this far apart in the buffer: not a multiple of any block size, so no two
// objects share aligned blocks a store could deduplicate.
constexpr std::uint64_t window_stride = 4157;

std::string seeded_bytes(std::uint64_t length, std::uint64_t seed) {
  std::string bytes(length, '\0');
  std::uint64_t state = seed;
  std::size_t at = 0;
  for (; at + 8 <= bytes.size(); at += 8) {
    const std::uint64_t word = splitmix64(state);
    std::memcpy(bytes.data() + at, &word, 8);
  }
  const std::uint64_t word = splitmix64(state);
  std::memcpy(bytes.data() + at, &word, bytes.size() - at);
  return bytes;
}

} // namespace

fixture_content::fixture_content(const bench_settings& settings)
    : settings_(settings), objects_(settings.objects) {
  std::uint64_t largest = *std::max_element(settings.sizes.begin(), settings.sizes.end());
  if (!settings.prefill.empty()) {
    largest = std::max(largest, filler_size);
  }
  buffer_ = seeded_bytes(largest + window_stride * objects_, settings.seed);
}

std::uint64_t fixture_content::window_offset(std::uint64_t index) const {
  return (index % objects_) * window_stride;
}

std::string_view fixture_content::content(std::uint64_t size, std::uint64_t index) const {
  return std::string_view(buffer_).substr(window_offset(index), size);
}

const fixture_content::digests&
fixture_content::digests_of(std::uint64_t index, std::uint64_t offset, std::uint64_t length) const {
  const auto key = std::make_tuple(index % objects_, offset, length);
  {
    // Every timed read looks its digests up: prepare_digests computed them, so this is the
    // path that must not serialize 64 workers on one lock.
    const std::shared_lock reading(digest_mutex_);
    if (const auto found = digests_.find(key); found != digests_.end()) {
      return found->second;
    }
  }
  const std::unique_lock writing(digest_mutex_);
  auto found = digests_.find(key);
  if (found == digests_.end()) {
    const auto bytes = std::string_view(buffer_).substr(window_offset(index) + offset, length);
    found = digests_.emplace(key, digests{s3::content_hash(bytes), s3::md5_hex(bytes)}).first;
  }
  return found->second;
}

std::uint64_t fixture_content::content_hash_of(std::uint64_t index, std::uint64_t offset,
                                               std::uint64_t length) const {
  return digests_of(index, offset, length).content_hash;
}

const std::string& fixture_content::md5_of(std::uint64_t index, std::uint64_t offset,
                                           std::uint64_t length) const {
  return digests_of(index, offset, length).md5;
}

void fixture_content::prepare_digests(const std::vector<cell>& cells) const {
  if (!settings_.verify) {
    return;
  }
  for (const auto& c : cells) {
    const auto ops = operations_of(c, settings_);
    const bool in_parts = std::any_of(ops.begin(), ops.end(), [](operation op) {
      return op.workload().fixtures().piece_digests;
    });
    for (unsigned i = 0; i < objects_; ++i) {
      digests_of(i, 0, c.size);
      for (std::uint64_t at = 0; in_parts && at < c.size; at += settings_.part_size) {
        digests_of(i, at, std::min(settings_.part_size, c.size - at));
      }
    }
  }
}

} // namespace s3fault::bench
