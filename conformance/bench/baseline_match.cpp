#include "conformance/bench/baseline_match.hpp"

#include <algorithm>

namespace s3fault::bench {
namespace {

std::string duration_text(std::int64_t ms) {
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
}

std::string flag_text(bool on) {
  return on ? "on" : "off";
}

/// Adds "OPTION: HERE here, THERE in the baseline" when the baseline says and differs.
template <class T, class Text>
void compare(std::vector<std::string>& found, const char* option, const T& here,
             const std::optional<T>& there, Text&& text) {
  if (there && *there != here) {
    found.push_back(std::string(option) + ": " + text(here) + " here, " + text(*there) +
                    " in the baseline");
  }
}

void compare_length(std::vector<std::string>& found, const bench_settings& settings,
                    const baseline_settings& there) {
  if (settings.count) {
    if (there.count) {
      compare(found, "--count", *settings.count, there.count,
              [](std::uint64_t n) { return std::to_string(n); });
    } else if (there.duration_ms) {
      found.push_back("--count " + std::to_string(*settings.count) + " here, --duration " +
                      duration_text(*there.duration_ms) + " in the baseline");
    }
    return;
  }
  const std::int64_t ms = settings.duration.count();
  if (there.count) {
    found.push_back("--duration " + duration_text(ms) + " here, --count " +
                    std::to_string(*there.count) + " in the baseline");
  } else {
    compare(found, "--duration", ms, there.duration_ms, duration_text);
  }
}

} // namespace

std::vector<std::string> baseline_mismatches(const bench_settings& settings,
                                             const std::vector<cell>& cells,
                                             const baseline& earlier) {
  std::vector<std::string> found;
  const auto& there = earlier.settings;
  if (!there.rounds && !there.duration_ms && !there.count) {
    found.emplace_back(earlier.source +
                       " does not say how it was measured (a file of an older s3fault bench): "
                       "its settings cannot be checked");
  }
  compare_length(found, settings, there);
  const auto whole = [](auto n) { return std::to_string(n); };
  compare(found, "--rounds", settings.rounds, there.rounds, whole);
  compare(found, "--objects", settings.objects, there.objects, whole);
  compare(found, "--part-size", settings.part_size, there.part_size,
          [](std::uint64_t bytes) { return format_size(bytes); });
  compare(found, "verification", settings.verify, there.verify, flag_text);
  compare(found, "--control", settings.control, there.control, flag_text);
  const std::string mix = describe_mix(settings.mix);
  if (mix != there.mix) {
    const auto text = [](const std::string& m) { return m.empty() ? std::string("none") : m; };
    found.push_back("--mix: " + text(mix) + " here, " + text(there.mix) + " in the baseline");
  }
  for (const auto& c : cells) {
    if (find_in(&earlier, c) == nullptr) {
      found.push_back(describe(c) + ": not in the baseline");
    }
  }
  return found;
}

} // namespace s3fault::bench
