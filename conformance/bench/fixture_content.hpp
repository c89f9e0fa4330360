#pragma once
// The bytes of every object a bench writes, and their digests: one buffer of seeded random
// bytes, each object a window onto it at its own offset (object i starts at i * stride). Shared
// by the fixtures of every store of a bench, so that several stores cost no second copy of the
// largest object and every store is sent the same bytes.
#include "conformance/bench/bench_settings.hpp"

#include <map>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace s3fault::bench {

class fixture_content {
public:
  /// Fills the buffer for the largest size (and the --prefill filler) from --seed.
  explicit fixture_content(const bench_settings& settings);

  unsigned objects() const { return objects_; }
  /// The bytes of object `index` (taken modulo --objects) of `size`.
  std::string_view content(std::uint64_t size, std::uint64_t index) const;
  /// s3::content_hash and hex MD5 of `length` bytes at `offset` of object `index` (computed
  /// once and kept).
  std::uint64_t content_hash_of(std::uint64_t index, std::uint64_t offset,
                                std::uint64_t length) const;
  const std::string& md5_of(std::uint64_t index, std::uint64_t offset, std::uint64_t length) const;
  /// Computes the digests the cells check (whole objects, and the --part-size pieces of the
  /// workloads that check piece by piece), so that none is computed inside a timed run.
  void prepare_digests(const std::vector<cell>& cells) const;

private:
  struct digests {
    std::uint64_t content_hash = 0;
    std::string md5;
  };
  std::uint64_t window_offset(std::uint64_t index) const;
  const digests& digests_of(std::uint64_t index, std::uint64_t offset, std::uint64_t length) const;

  const bench_settings& settings_;
  unsigned objects_;
  std::string buffer_;
  mutable std::shared_mutex digest_mutex_;
  // (object index, offset, length) -> digests
  mutable std::map<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>, digests> digests_;
};

/// --prefill writes objects of this size (the last one of a step smaller).
inline constexpr std::uint64_t filler_size = 8 * 1024 * 1024;

} // namespace s3fault::bench
