#pragma once
// `--start-at`: the instant every process of one launch starts its first run, so that shards
// on several machines run together. An RFC 3339 time ("2026-12-05T14:00:00Z"), or "+30s": that
// long after $S3FAULT_START_AT when the launching script set it once for all its processes
// (an RFC 3339 time too), else after now, which only a single process or shards started by
// hand may use.
#include "runtime/shard.hpp"

#include <chrono>
#include <optional>
#include <string>

namespace s3fault::cli {

/// The instant `text` names; nullopt with the mistake in `error`. `now` is the caller's clock.
/// `+N` without $S3FAULT_START_AT is refused under `--shard auto`: each process would resolve
/// it to its own start.
std::optional<std::chrono::system_clock::time_point>
resolve_start_at(const std::string& text, const runtime::shard& shard, bool shard_auto,
                 const runtime::environment_lookup& environment,
                 std::chrono::system_clock::time_point now, std::string& error);

} // namespace s3fault::cli
