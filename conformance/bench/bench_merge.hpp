#pragma once
// `s3fault bench merge`: the JSON reports of the shards of one bench (--shard K/N) as one
// report, as if one process had run every client:
//   per run (cell, round, leg): operations, bytes, errors and retries summed; the latency and
//   TTFB histograms added bucket by bucket (so percentiles are those of all samples); rates
//   over the run's whole window, from the earliest shard's first request to the latest
//   shard's last answer (a conservative rate: no shard's idle edge is left out).
// Refused, each reason named: files that are not shard reports of this format, settings that
// differ, shards missing, twice or of different N, paced runs whose windows overlap by less
// than 90 %, and clocks (from each store's Date) more than 2 s apart.
#include "conformance/bench/bench_runner.hpp"

#include <memory>
#include <string>
#include <vector>

namespace s3fault::bench {

/// A part as read from disk: its file name and its text.
struct part_file {
  std::string file;
  std::string text;
};

/// The merged report and the settings it points to.
struct merged_bench {
  bench_settings settings;
  bench_report report;
};

struct merge_outcome {
  std::unique_ptr<merged_bench> merged; // null when refused
  std::vector<std::string> refusals;    // one line each
};

/// The least share of the union of the shards' windows that every shard's window must cover.
inline constexpr double min_window_overlap = 0.9;
/// The widest spread of the shards' clock offsets (from the store's Date) merge accepts.
inline constexpr std::chrono::milliseconds max_clock_spread{2000};

/// Merges the parts; with `earlier`, compares the merged cells with that baseline.
merge_outcome merge_bench_parts(const std::vector<part_file>& parts, const baseline* earlier);

} // namespace s3fault::bench
