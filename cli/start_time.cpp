#include "cli/start_time.hpp"

#include "cli/duration.hpp"
#include "text/http_date.hpp"

namespace s3fault::cli {

std::optional<std::chrono::system_clock::time_point>
resolve_start_at(const std::string& text, const runtime::shard& shard, bool shard_auto,
                 const runtime::environment_lookup& environment,
                 std::chrono::system_clock::time_point now, std::string& error) {
  if (!text.starts_with("+")) {
    if (auto at = text::parse_rfc3339(text)) {
      return at;
    }
    error = "--start-at " + text +
            ": expected an RFC 3339 time (2026-12-05T14:00:00Z) or +DURATION (+30s)";
    return std::nullopt;
  }
  const auto delay = parse_duration(text.substr(1));
  if (!delay || delay->count() < 0) {
    error = "--start-at " + text + ": '" + text.substr(1) + "' is not a duration like 30s";
    return std::nullopt;
  }
  if (const auto base_text = environment("S3FAULT_START_AT")) {
    const auto base = text::parse_rfc3339(*base_text);
    if (!base) {
      error = "--start-at " + text + ": S3FAULT_START_AT=" + *base_text +
              " is not an RFC 3339 time (set it once for the launch: "
              "S3FAULT_START_AT=$(date -u +%FT%TZ))";
      return std::nullopt;
    }
    return *base + *delay;
  }
  if (shard_auto) {
    error = "--start-at " + text + " under --shard " + shard.text() + " (" + shard.source +
            "): each process would count from its own start; set S3FAULT_START_AT once for the "
            "launch (export S3FAULT_START_AT=$(date -u +%FT%TZ)) or give an RFC 3339 time";
    return std::nullopt;
  }
  return now + *delay;
}

} // namespace s3fault::cli
