#include "conformance/bench/run_counts.hpp"

#include "conformance/bench/workload.hpp"

namespace s3fault::bench {
namespace {

double milliseconds(std::uint64_t micros) {
  return static_cast<double>(micros) / 1000.0;
}

metrics::bucket_counts sum_buckets(const metrics::bucket_counts& a,
                                   const metrics::bucket_counts& b) {
  metrics::latency_histogram both;
  both.add_buckets(a, 0, 0);
  both.add_buckets(b, 0, 0);
  return both.nonzero_buckets();
}

void fill_percentiles(figure_values& v, const run_counts& counts) {
  metrics::latency_histogram latency, ttfb;
  latency.add_buckets(counts.latency, counts.latency_sum_us, counts.latency_max_us);
  ttfb.add_buckets(counts.ttfb, counts.ttfb_sum_us, counts.ttfb_max_us);
  set_figure(v, figure::latency_p50_ms, milliseconds(latency.quantile(0.50)));
  set_figure(v, figure::latency_p90_ms, milliseconds(latency.quantile(0.90)));
  set_figure(v, figure::latency_p99_ms, milliseconds(latency.quantile(0.99)));
  set_figure(v, figure::latency_max_ms, milliseconds(latency.max_micros()));
  set_figure(v, figure::ttfb_p50_ms, milliseconds(ttfb.quantile(0.50)));
  set_figure(v, figure::ttfb_p90_ms, milliseconds(ttfb.quantile(0.90)));
  set_figure(v, figure::ttfb_p99_ms, milliseconds(ttfb.quantile(0.99)));
  set_figure(v, figure::ttfb_max_ms, milliseconds(ttfb.max_micros()));
}

} // namespace

void run_counts::add(const run_counts& other) {
  succeeded += other.succeeded;
  errors += other.errors;
  retries += other.retries;
  bytes += other.bytes;
  timed_ns += other.timed_ns;
  latency = sum_buckets(latency, other.latency);
  ttfb = sum_buckets(ttfb, other.ttfb);
  latency_sum_us += other.latency_sum_us;
  ttfb_sum_us += other.ttfb_sum_us;
  latency_max_us = std::max(latency_max_us, other.latency_max_us);
  ttfb_max_us = std::max(ttfb_max_us, other.ttfb_max_us);
}

figure_values figures_from(const run_counts& counts, operation op, unsigned workers,
                           double seconds) {
  figure_values v{};
  // A run in which no operation succeeded has no rate and no latency: those figures stay
  // empty rather than 0, which a comparison would take for a measurement.
  if (counts.succeeded > 0) {
    if (op.workload().times_part_only()) {
      seconds = static_cast<double>(counts.timed_ns) / 1e9 / std::max(1u, workers);
    } else {
      set_figure(v, figure::mib_per_second,
                 static_cast<double>(counts.bytes) / (1024.0 * 1024.0) / std::max(seconds, 1e-9));
    }
    set_figure(v, figure::ops_per_second,
               static_cast<double>(counts.succeeded) / std::max(seconds, 1e-9));
    fill_percentiles(v, counts);
  }
  set_figure(v, figure::operations, static_cast<double>(counts.succeeded));
  set_figure(v, figure::errors, static_cast<double>(counts.errors));
  set_figure(v, figure::retries, static_cast<double>(counts.retries));
  return v;
}

} // namespace s3fault::bench
