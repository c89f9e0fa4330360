#include "metrics/traffic_history.hpp"

namespace s3fault::metrics {

totals_by_series totals_of(const traffic_metrics& metrics) {
  totals_by_series totals;
  for (std::size_t op = 0; op < metrics.operations().size(); ++op) {
    for (std::size_t sc = 0; sc < traffic_metrics::status_classes; ++sc) {
      if (const auto s = metrics.find(op, sc)) {
        totals[{metrics.operations()[op], std::string(traffic_metrics::status_class_name(sc))}] = {
            s->requests.load(), s->bytes_in.load() + s->bytes_out.load(),
            s->duration.nonzero_buckets(), s->ttfb.nonzero_buckets(),
            s->store_ttfb.nonzero_buckets()};
      }
    }
  }
  return totals;
}

void traffic_history::add(double at, totals_by_series totals) {
  std::lock_guard lock(mutex_);
  looks_.push_back({at, std::move(totals)});
  while (!looks_.empty() && looks_.front().at < at - seconds_kept_) {
    looks_.pop_front();
  }
  for (auto& old : looks_) {
    if (old.at >= at - histograms_kept_) {
      break;
    }
    if (old.has_histograms) {
      for (auto& [series, counts] : old.totals) {
        bucket_counts().swap(counts.duration);
        bucket_counts().swap(counts.ttfb);
        bucket_counts().swap(counts.store_ttfb);
      }
      old.has_histograms = false;
    }
  }
}

std::pair<double, totals_by_series> traffic_history::baseline(double now, double window,
                                                              bool with_histograms) const {
  std::lock_guard lock(mutex_);
  for (auto look = looks_.rbegin(); look != looks_.rend(); ++look) {
    if (look->at <= now - window) {
      if (with_histograms && !look->has_histograms) {
        break; // older ones have lost theirs too
      }
      return {look->at, look->totals};
    }
  }
  return {0.0, {}};
}

} // namespace s3fault::metrics
