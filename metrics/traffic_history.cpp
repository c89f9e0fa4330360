#include "metrics/traffic_history.hpp"

namespace s3fault::metrics {

totals_by_series totals_of(const traffic_metrics& metrics) {
  totals_by_series totals;
  for (std::size_t op = 0; op < metrics.operations().size(); ++op) {
    for (std::size_t sc = 0; sc < traffic_metrics::status_classes; ++sc) {
      if (const auto s = metrics.find(op, sc)) {
        totals[{metrics.operations()[op], std::string(traffic_metrics::status_class_name(sc))}] = {
            s->requests.load(), s->bytes_in.load() + s->bytes_out.load()};
      }
    }
  }
  return totals;
}

void traffic_history::add(double at, totals_by_series totals) {
  std::lock_guard lock(mutex_);
  looks_.emplace_back(at, std::move(totals));
  while (!looks_.empty() && looks_.front().first < at - seconds_kept_) {
    looks_.pop_front();
  }
}

std::pair<double, totals_by_series> traffic_history::baseline(double now, double window) const {
  std::lock_guard lock(mutex_);
  for (auto look = looks_.rbegin(); look != looks_.rend(); ++look) {
    if (look->first <= now - window) {
      return *look;
    }
  }
  return {0.0, {}};
}

} // namespace s3fault::metrics
