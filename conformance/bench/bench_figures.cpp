#include "conformance/bench/bench_figures.hpp"

#include <cmath>
#include <cstdio>

namespace s3fault::bench {
namespace {

// Order matches `enum class figure`.
constexpr std::array<figure_info, figure_count> figures{{
    {"mib_per_second", "MiB/s", 2, better::higher, true, false},
    {"ops_per_second", "ops/s", 1, better::higher, true, false},
    {"latency_p50_ms", "p50", 3, better::lower, true, false},
    {"latency_p90_ms", "p90", 3, better::lower, false, false},
    {"latency_p99_ms", "p99", 3, better::lower, true, false},
    {"latency_max_ms", "max", 3, better::lower, false, false},
    {"ttfb_p50_ms", "p50", 3, better::lower, true, false},
    {"ttfb_p90_ms", "p90", 3, better::lower, false, false},
    {"ttfb_p99_ms", "p99", 3, better::lower, false, false},
    {"ttfb_max_ms", "max", 3, better::lower, false, false},
    {"operations", "ops", 0, better::higher, false, false},
    {"errors", "errors", 0, better::lower, false, false},
    {"retries", "retries", 0, better::lower, false, false},
    {"store_rss_max_mib", "RSS max MiB", 1, better::lower, false, true},
    {"store_rss_mean_mib", "RSS mean MiB", 1, better::lower, false, true},
    {"store_threads_max", "threads max", 0, better::lower, false, true},
    {"store_threads_mean", "threads mean", 1, better::lower, false, true},
    {"store_cpu_max_percent", "CPU max %", 1, better::lower, false, true},
    {"store_cpu_mean_percent", "CPU mean %", 1, better::lower, false, true},
}};

} // namespace

const figure_info& info(figure f) {
  return figures[static_cast<std::size_t>(f)];
}

figure figure_at(std::size_t index) {
  return static_cast<figure>(index);
}

std::optional<figure> figure_named(std::string_view key) {
  for (std::size_t i = 0; i < figure_count; ++i) {
    if (figures[i].key == key) {
      return figure_at(i);
    }
  }
  return std::nullopt;
}

std::string column_title(figure f) {
  const auto& about = info(f);
  const std::string key(about.key);
  if (key.rfind("latency_", 0) == 0) {
    return "lat " + std::string(about.label);
  }
  if (key.rfind("ttfb_", 0) == 0) {
    return "ttfb " + std::string(about.label);
  }
  return std::string(about.label);
}

std::vector<figure> compared_figures() {
  std::vector<figure> compared;
  for (std::size_t i = 0; i < figure_count; ++i) {
    if (figures[i].compared) {
      compared.push_back(figure_at(i));
    }
  }
  return compared;
}

void set_figure(figure_values& values, figure f, double value) {
  values[static_cast<std::size_t>(f)] = round_to(value, info(f).decimals);
}

std::string format_figure(figure f, double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", info(f).decimals, round_to(value, info(f).decimals));
  // "-0.000" reads as a change where there is none.
  std::string result = text;
  if (result.rfind("-0", 0) == 0 && round_to(value, info(f).decimals) == 0) {
    result.erase(0, 1);
  }
  return result;
}

} // namespace s3fault::bench
