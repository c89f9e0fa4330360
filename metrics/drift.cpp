#include "metrics/drift.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <sstream>

namespace s3fault::metrics {
namespace {

/// The intervals [from, from + count) folded into one.
timeline_interval block_of(const std::vector<timeline_interval>& intervals, std::size_t from,
                           std::size_t count) {
  timeline_interval block = intervals[from];
  for (std::size_t i = from + 1; i < from + count; ++i) {
    block = merged(block, intervals[i]);
  }
  return block;
}

/// `blocks` blocks of `per_block` intervals each, starting at `from`.
std::vector<timeline_interval> blocks_from(const std::vector<timeline_interval>& intervals,
                                           std::size_t from, std::size_t blocks,
                                           std::size_t per_block) {
  std::vector<timeline_interval> out;
  for (std::size_t b = 0; b < blocks; ++b) {
    out.push_back(block_of(intervals, from + b * per_block, per_block));
  }
  return out;
}

double latency_ms(const bucket_counts& counts, double q) {
  return static_cast<double>(latency_histogram::quantile_between(counts, {}, q)) / 1000.0;
}

/// One value per block: the latency quantile `q` of the blocks where the operation had
/// requests, or the throughput of every block.
std::vector<double> block_values(const std::vector<timeline_interval>& blocks,
                                 const std::string& operation, const std::string& figure,
                                 double q) {
  std::vector<double> values;
  for (const auto& block : blocks) {
    const auto found = block.operations.find(operation);
    const double seconds = block.end - block.start;
    if (figure == "MiB/s" || figure == "requests/s") {
      const double moved = found == block.operations.end() ? 0
                           : figure == "MiB/s"
                               ? static_cast<double>(found->second.bytes) / bytes_per_mib
                               : static_cast<double>(found->second.requests);
      values.push_back(seconds > 0 ? moved / seconds : 0);
    } else if (found != block.operations.end() && found->second.requests > 0) {
      values.push_back(latency_ms(found->second.latency, q));
    }
  }
  return values;
}

bool moved_bytes(const std::vector<timeline_interval>& blocks, const std::string& operation) {
  return std::any_of(blocks.begin(), blocks.end(), [&](const timeline_interval& block) {
    const auto found = block.operations.find(operation);
    return found != block.operations.end() && found->second.bytes > 0;
  });
}

operation_drift drift_of(const std::string& operation, const std::vector<timeline_interval>& first,
                         const std::vector<timeline_interval>& last, const drift_rules& rules,
                         const comparison_sides& sides) {
  const bool bytes = moved_bytes(first, operation) || moved_bytes(last, operation);
  struct wanted {
    std::string figure, unit;
    double q;
    better direction;
  };
  const std::vector<wanted> figures = {{"latency p50", "ms", 0.5, better::lower},
                                       {"latency p90", "ms", 0.9, better::lower},
                                       bytes ? wanted{"MiB/s", "MiB/s", 0, better::higher}
                                             : wanted{"requests/s", "req/s", 0, better::higher}};
  operation_drift drift{operation, {}};
  for (const auto& [figure, unit, q, direction] : figures) {
    figure_drift one{figure,
                     unit,
                     direction,
                     block_values(first, operation, figure, q),
                     block_values(last, operation, figure, q),
                     {}};
    one.result = compare_rounds(one.first_blocks, one.last_blocks, direction, rules.judging, sides);
    drift.figures.push_back(std::move(one));
  }
  return drift;
}

/// Every operation either side's blocks saw, first against last.
std::vector<operation_drift> drift_of_all(const std::vector<timeline_interval>& first,
                                          const std::vector<timeline_interval>& last,
                                          const drift_rules& rules, const comparison_sides& sides) {
  std::set<std::string> operations;
  for (const auto* side : {&first, &last}) {
    for (const auto& block : *side) {
      for (const auto& entry : block.operations) {
        operations.insert(entry.first);
      }
    }
  }
  std::vector<operation_drift> out;
  for (const auto& operation : operations) {
    out.push_back(drift_of(operation, first, last, rules, sides));
  }
  return out;
}

/// The intervals from the first with traffic to the last with traffic.
std::vector<timeline_interval> with_traffic(const std::vector<timeline_interval>& intervals) {
  const auto moved = [](const timeline_interval& interval) { return !interval.operations.empty(); };
  const auto first = std::find_if(intervals.begin(), intervals.end(), moved);
  const auto last = std::find_if(intervals.rbegin(), intervals.rend(), moved).base();
  return first < last ? std::vector<timeline_interval>(first, last)
                      : std::vector<timeline_interval>{};
}

double mean_of(const std::vector<double>& values) {
  return values.empty() ? 0
                        : std::accumulate(values.begin(), values.end(), 0.0) /
                              static_cast<double>(values.size());
}

std::optional<store_trend> trend_of(const std::vector<timeline_interval>& intervals,
                                    std::size_t sixth) {
  store_trend trend;
  std::vector<double> threads, anon, first_threads, last_threads, first_anon, last_anon;
  bool any_anon = false;
  for (const auto& interval : intervals) {
    any_anon = any_anon || (interval.store && interval.store->anon_bytes > 0);
  }
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    const auto& store = intervals[i].store;
    if (!store) {
      continue;
    }
    ++trend.samples;
    trend.peak_threads = std::max(trend.peak_threads, store->threads);
    trend.peak_memory_bytes = std::max(trend.peak_memory_bytes, store->memory_bytes);
    trend.peak_anon_bytes = std::max(trend.peak_anon_bytes, store->anon_bytes);
    const double memory = static_cast<double>(any_anon ? store->anon_bytes : store->memory_bytes);
    threads.push_back(static_cast<double>(store->threads));
    anon.push_back(memory);
    if (i < sixth) {
      first_threads.push_back(threads.back());
      first_anon.push_back(memory);
    } else if (i >= intervals.size() - sixth) {
      last_threads.push_back(threads.back());
      last_anon.push_back(memory);
    }
  }
  if (trend.samples == 0) {
    return std::nullopt;
  }
  trend.first_sixth_threads = mean_of(first_threads);
  trend.last_sixth_threads = mean_of(last_threads);
  trend.first_sixth_anon_bytes = mean_of(first_anon);
  trend.last_sixth_anon_bytes = mean_of(last_anon);
  trend.threads_memory_r = pearson_r(threads, anon);
  return trend;
}

} // namespace

std::optional<double> pearson_r(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 3) {
    return std::nullopt;
  }
  const double mean_x = mean_of(x);
  const double mean_y = mean_of(y);
  double xy = 0, xx = 0, yy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    xy += (x[i] - mean_x) * (y[i] - mean_y);
    xx += (x[i] - mean_x) * (x[i] - mean_x);
    yy += (y[i] - mean_y) * (y[i] - mean_y);
  }
  if (xx <= 0 || yy <= 0) {
    return std::nullopt;
  }
  return xy / std::sqrt(xx * yy);
}

drift_report judge_drift(const std::vector<timeline_interval>& whole, const drift_rules& rules) {
  drift_report report;
  report.intervals = whole.size();
  if (!whole.empty()) {
    report.run_seconds = whole.back().end - whole.front().start;
  }
  report.store = trend_of(whole, whole.size() / 6);
  // The sixths are of the traffic: a proxy started before its clients, or stopped a while after
  // them, would otherwise compare idle sixths.
  const auto intervals = with_traffic(whole);
  const std::size_t sixth = intervals.size() / 6;
  if (sixth < 2) {
    report.not_judged = "the traffic spans " + std::to_string(intervals.size()) +
                        " intervals of the timeline's " + std::to_string(whole.size()) +
                        "; drift needs at least 12 (two blocks of one in each sixth)";
    return report;
  }
  report.blocks_per_side = std::min(std::max<std::size_t>(rules.blocks_per_sixth, 2), sixth);
  report.intervals_per_block = sixth / report.blocks_per_side;
  const std::size_t used = report.blocks_per_side * report.intervals_per_block;
  const std::size_t last_from = intervals.size() - used;
  report.first_sixth_end = intervals[used - 1].end;
  report.last_sixth_start = intervals[last_from].start;
  const auto first = blocks_from(intervals, 0, report.blocks_per_side, report.intervals_per_block);
  const auto last =
      blocks_from(intervals, last_from, report.blocks_per_side, report.intervals_per_block);
  report.operations = drift_of_all(first, last, rules,
                                   {"the first sixth", "the last sixth", "block",
                                    "the operation had no requests in it", "a longer run"});
  return report;
}

runs_comparison compare_runs(const std::vector<timeline_interval>& first,
                             const std::vector<timeline_interval>& second,
                             const drift_rules& rules) {
  runs_comparison out;
  const std::size_t wanted = std::max<std::size_t>(2, rules.blocks_per_sixth * 2);
  out.blocks_per_run = std::min({wanted, first.size(), second.size()});
  if (out.blocks_per_run < 2) {
    out.not_judged = "each run needs at least 2 intervals to be cut into blocks";
    return out;
  }
  const std::size_t first_per = first.size() / out.blocks_per_run;
  const std::size_t second_per = second.size() / out.blocks_per_run;
  const auto first_blocks = blocks_from(first, 0, out.blocks_per_run, first_per);
  const auto second_blocks = blocks_from(second, 0, out.blocks_per_run, second_per);
  out.first_block_seconds = first_blocks.front().end - first_blocks.front().start;
  out.second_block_seconds = second_blocks.front().end - second_blocks.front().start;
  out.operations = drift_of_all(first_blocks, second_blocks, rules,
                                {"the first run", "the second run", "block",
                                 "the operation had no requests in it", "longer runs"});
  return out;
}

std::string drift_method_text(const drift_rules& rules) {
  std::ostringstream text;
  text << "Each of the first and last sixths of the timeline is cut into up to "
       << rules.blocks_per_sixth
       << " blocks of whole intervals; a block gives one figure per operation (the latency "
          "percentile of its merged histogram, its bytes or requests over its length), and the "
          "two sides' blocks are compared by a two-sample t-test on their logarithms (alpha "
       << rules.judging.alpha << ", changes under " << rules.judging.min_change_percent
       << " % never flagged); a figure the blocks could not have told apart from a change of that "
          "size is \"cannot tell\".";
  return text.str();
}

} // namespace s3fault::metrics
