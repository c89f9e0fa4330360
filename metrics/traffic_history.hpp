#pragma once
// The traffic's byte and request totals, taken once a second (by the admin server), so that
// /stats can give recent rates instead of averages over the proxy's life: a rate there is what
// moved since the look about `window` seconds ago, divided by the time since that look. Before
// the first look is that old, the window starts when the proxy did (with nothing moved).
#include "metrics/traffic_metrics.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace s3fault::metrics {

/// The totals of one (operation, status class) at one look.
struct series_totals {
  std::uint64_t requests = 0;
  std::uint64_t bytes = 0; // both ways
  std::uint64_t retries = 0;
  // The latency and TTFB histograms' buckets; dropped from looks older than the percentile
  // window needs (traffic_history::histograms_kept), which keeps a look a few hundred bytes.
  bucket_counts duration, ttfb, store_ttfb;
};
using totals_by_series = std::map<std::pair<std::string, std::string>, series_totals>;

/// The totals of every series of `metrics` now.
totals_by_series totals_of(const traffic_metrics& metrics);

/// Whether a status class ("2xx", "none", ...) counts as an error: 4xx, 5xx, or no answer.
bool is_error_class(const std::string& status_class);

/// What moved between two consecutive looks, per operation, divided by the time between them.
struct operation_rates {
  double requests_per_s = 0;
  double errors_per_s = 0; // answers of class 4xx or 5xx, and exchanges that got no answer
  double mib_per_s = 0;    // body bytes both ways
};
/// The rates of one interval between looks, and when it ended (seconds since the start).
struct interval_rates {
  double ended_at = 0;
  std::map<std::string, operation_rates> by_operation; // only operations that moved
};

class traffic_history {
public:
  /// Keeps the looks of the last `seconds_kept` seconds, and their histograms for the last
  /// `histograms_kept` seconds.
  explicit traffic_history(double seconds_kept = 900, double histograms_kept = 70)
      : seconds_kept_(seconds_kept), histograms_kept_(histograms_kept) {}

  /// One look: `at` in seconds since the proxy started (traffic_metrics::seconds_running).
  void add(double at, totals_by_series totals);

  /// The newest look at least `window` seconds before `now` (else the proxy's start, all
  /// zero): its time and totals. With `with_histograms`, only a look that still has them.
  std::pair<double, totals_by_series> baseline(double now, double window,
                                               bool with_histograms = false) const;

  /// The rates between each look kept and the one before it, oldest first: the dashboard's
  /// charts, full from the first load.
  std::vector<interval_rates> rates() const;

  double seconds_kept() const { return seconds_kept_; }

private:
  double seconds_kept_;
  double histograms_kept_;
  mutable std::mutex mutex_;
  struct look {
    double at;
    totals_by_series totals;
    bool has_histograms = true;
  };
  std::deque<look> looks_; // oldest first
};

} // namespace s3fault::metrics
