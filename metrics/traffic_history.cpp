#include "metrics/traffic_history.hpp"

namespace s3fault::metrics {

totals_by_series totals_of(const traffic_metrics& metrics) {
  totals_by_series totals;
  for (std::size_t op = 0; op < metrics.operations().size(); ++op) {
    for (std::size_t sc = 0; sc < traffic_metrics::status_classes; ++sc) {
      if (const auto s = metrics.find(op, sc)) {
        totals[{metrics.operations()[op], std::string(traffic_metrics::status_class_name(sc))}] = {
            s->requests.load(),        s->bytes_in.load() + s->bytes_out.load(),
            s->retries.load(),         s->duration.nonzero_buckets(),
            s->ttfb.nonzero_buckets(), s->store_ttfb.nonzero_buckets()};
      }
    }
  }
  return totals;
}

bool is_error_class(const std::string& status_class) {
  return status_class == "4xx" || status_class == "5xx" || status_class == "none";
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

namespace {

/// What moved from `before` to `after`, per operation, over `seconds`.
interval_rates rates_between(const totals_by_series& before, const totals_by_series& after,
                             double ended_at, double seconds) {
  interval_rates rates{ended_at, {}};
  for (const auto& [series, now] : after) {
    const auto then = before.find(series);
    const std::uint64_t requests =
        now.requests - (then == before.end() ? 0 : then->second.requests);
    const std::uint64_t bytes = now.bytes - (then == before.end() ? 0 : then->second.bytes);
    if (requests == 0 && bytes == 0) {
      continue;
    }
    auto& rate = rates.by_operation[series.first];
    rate.requests_per_s += static_cast<double>(requests) / seconds;
    rate.errors_per_s +=
        is_error_class(series.second) ? static_cast<double>(requests) / seconds : 0;
    rate.mib_per_s += static_cast<double>(bytes) / (1024.0 * 1024.0) / seconds;
  }
  return rates;
}

} // namespace

std::vector<interval_rates> traffic_history::rates() const {
  std::lock_guard lock(mutex_);
  std::vector<interval_rates> out;
  for (std::size_t i = 1; i < looks_.size(); ++i) {
    const double seconds = looks_[i].at - looks_[i - 1].at;
    if (seconds > 0) {
      out.push_back(rates_between(looks_[i - 1].totals, looks_[i].totals, looks_[i].at, seconds));
    }
  }
  return out;
}

} // namespace s3fault::metrics
