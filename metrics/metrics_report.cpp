#include "metrics/metrics_report.hpp"

#include <cstdio>
#include <set>

namespace s3fault::metrics {
namespace {

// Conventional latency buckets (seconds, written in microseconds) for the Prometheus histograms.
constexpr std::uint64_t bucket_bounds_us[] = {
    500,     1'000,   2'500,     5'000,     10'000,    25'000,     50'000,     100'000,
    250'000, 500'000, 1'000'000, 2'500'000, 5'000'000, 10'000'000, 30'000'000, 60'000'000};

/// Whole microseconds as seconds in decimal, exactly: 1234567891000 -> "1234567.891" (a float
/// format such as %.6g would print 1.23457e+06 and lose the rest).
std::string seconds_from_micros(std::uint64_t micros) {
  std::string fraction = std::to_string(micros % 1'000'000);
  fraction.insert(0, 6 - fraction.size(), '0');
  fraction.erase(fraction.find_last_not_of('0') + 1);
  const std::string whole = std::to_string(micros / 1'000'000);
  return fraction.empty() ? whole : whole + "." + fraction;
}

/// A label value as the text exposition format wants it: backslash, double quote and newline
/// escaped (\\, \", \n), everything else as it is.
std::string escape_label(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

template <class Each> void for_each_series(const traffic_metrics& metrics, Each each) {
  for (std::size_t op = 0; op < metrics.operations().size(); ++op) {
    for (std::size_t sc = 0; sc < traffic_metrics::status_classes; ++sc) {
      if (const auto s = metrics.find(op, sc)) {
        each(metrics.operations()[op], traffic_metrics::status_class_name(sc), *s);
      }
    }
  }
}

/// Histograms are per operation: the status classes of one operation merged into one family
/// member by summing their bucket counts.
void histogram_family(std::string& out, const traffic_metrics& metrics, const char* name,
                      const char* help, latency_histogram series::*member) {
  out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " histogram\n";
  for (std::size_t op = 0; op < metrics.operations().size(); ++op) {
    std::vector<std::unique_ptr<series>> found;
    std::vector<const latency_histogram*> parts;
    for (std::size_t sc = 0; sc < traffic_metrics::status_classes; ++sc) {
      if (auto s = metrics.find(op, sc)) {
        parts.push_back(&(s.get()->*member));
        found.push_back(std::move(s));
      }
    }
    std::uint64_t total = 0, sum = 0;
    for (const auto* h : parts) {
      total += h->count();
      sum += h->sum_micros();
    }
    if (total == 0) {
      continue;
    }
    const std::string label = "operation=\"" + escape_label(metrics.operations()[op]) + "\"";
    for (const std::uint64_t bound : bucket_bounds_us) {
      std::uint64_t below = 0;
      for (const auto* h : parts) {
        below += h->count_at_or_below(bound);
      }
      out += std::string(name) + "_bucket{" + label + ",le=\"" + seconds_from_micros(bound) +
             "\"} " + std::to_string(below) + "\n";
    }
    out += std::string(name) + "_bucket{" + label + ",le=\"+Inf\"} " + std::to_string(total) + "\n";
    out += std::string(name) + "_sum{" + label + "} " + seconds_from_micros(sum) + "\n";
    out += std::string(name) + "_count{" + label + "} " + std::to_string(total) + "\n";
  }
}

nlohmann::json quantiles_ms(const latency_histogram& h) {
  const auto ms = [](std::uint64_t us) { return static_cast<double>(us) / 1000.0; };
  return {{"count", h.count()},
          {"p50", ms(h.quantile(0.50))},
          {"p90", ms(h.quantile(0.90))},
          {"p99", ms(h.quantile(0.99))},
          {"max", ms(h.max_micros())},
          {"mean", h.count() ? ms(h.sum_micros()) / static_cast<double>(h.count()) : 0.0}};
}

/// Quantiles of what a histogram recorded since an earlier look at its buckets.
nlohmann::json quantiles_since_ms(const latency_histogram& h, const bucket_counts& then) {
  const auto now = h.nonzero_buckets();
  const auto ms = [&](double q) {
    return static_cast<double>(latency_histogram::quantile_between(now, then, q)) / 1000.0;
  };
  return {{"count", latency_histogram::count_between(now, then)},
          {"p50", ms(0.50)},
          {"p90", ms(0.90)},
          {"p99", ms(0.99)}};
}

} // namespace

std::string prometheus_text(const traffic_metrics& metrics) {
  std::string out;
  const auto counter = [&](const char* name, const char* help,
                           std::atomic<std::uint64_t> series::*member) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n";
    for_each_series(metrics, [&](const std::string& op, std::string_view sc, const series& s) {
      out += std::string(name) + "{operation=\"" + escape_label(op) + "\",status_class=\"" +
             std::string(sc) + "\"} " + std::to_string((s.*member).load()) + "\n";
    });
  };
  counter("s3fault_requests_total", "Exchanges that passed through the proxy.", &series::requests);
  counter("s3fault_request_body_bytes_total", "Request body bytes relayed to the store.",
          &series::bytes_in);
  counter("s3fault_response_body_bytes_total", "Response body bytes sent to clients.",
          &series::bytes_out);
  counter("s3fault_retries_total",
          "Requests repeating the operation, key and part or range of one that failed, was "
          "faulted or came back short, within 60 s.",
          &series::retries);
  histogram_family(out, metrics, "s3fault_request_duration_seconds",
                   "Request head received to exchange finished.", &series::duration);
  histogram_family(out, metrics, "s3fault_time_to_first_byte_seconds",
                   "Request head received to the first response byte sent to the client.",
                   &series::ttfb);
  histogram_family(out, metrics, "s3fault_store_time_to_first_byte_seconds",
                   "Request sent to the store to the store's response head received.",
                   &series::store_ttfb);
  out += "# HELP s3fault_faults_injected_total Faults injected, per rule.\n"
         "# TYPE s3fault_faults_injected_total counter\n";
  for (const auto& [rule, count] : metrics.faults_by_rule()) {
    out += "s3fault_faults_injected_total{rule=\"" + escape_label(rule) + "\"} " +
           std::to_string(count) + "\n";
  }
  out += "# HELP s3fault_active_connections Client connections open now.\n"
         "# TYPE s3fault_active_connections gauge\n"
         "s3fault_active_connections " +
         std::to_string(metrics.active_connections()) + "\n";
  out += "# HELP s3fault_upstream_connections_total Store connections used, new or reused.\n"
         "# TYPE s3fault_upstream_connections_total counter\n"
         "s3fault_upstream_connections_total{reuse=\"new\"} " +
         std::to_string(metrics.upstream_new()) +
         "\n"
         "s3fault_upstream_connections_total{reuse=\"reused\"} " +
         std::to_string(metrics.upstream_reused()) + "\n";
  return out;
}

std::string prometheus_rule_load(const std::vector<rule_load>& rules) {
  std::string out;
  const auto family = [&](const char* name, const char* type, const char* help,
                          std::uint64_t rule_load::*member) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    for (const auto& load : rules) {
      out += std::string(name) + "{rule=\"" + escape_label(load.rule) + "\"} " +
             std::to_string(load.*member) + "\n";
    }
  };
  family("s3fault_rule_in_flight", "gauge",
         "Exchanges a rule with in_flight_over let through that are still in flight.",
         &rule_load::in_flight);
  family("s3fault_rule_in_flight_peak", "gauge",
         "The most exchanges in flight at once for a rule with in_flight_over.",
         &rule_load::peak_in_flight);
  family("s3fault_rule_refusals_total", "counter",
         "Faults a load-shaped rule injected because the load was over its limit.",
         &rule_load::refusals);
  return out;
}

nlohmann::json stats_json(const traffic_metrics& metrics, const traffic_history* history,
                          double window_seconds, double percentile_window_seconds) {
  const double seconds = metrics.seconds_running();
  // Rates over the window: what moved since the baseline look, over the time since it.
  // Plain names, not a structured binding: clang 14 cannot capture those in lambdas.
  const auto baseline =
      history ? history->baseline(seconds, window_seconds) : std::pair{0.0, totals_by_series{}};
  const totals_by_series& then = baseline.second;
  const double span = seconds - baseline.first;
  const auto percentile_baseline = history
                                       ? history->baseline(seconds, percentile_window_seconds, true)
                                       : std::pair{0.0, totals_by_series{}};
  const auto per_second = [span](std::uint64_t now, std::uint64_t before) {
    return span > 0 && now >= before ? static_cast<double>(now - before) / span : 0.0;
  };
  constexpr double mib = 1024.0 * 1024.0;
  double all_requests = 0, all_mib = 0;
  nlohmann::json operations = nlohmann::json::array();
  for_each_series(metrics, [&](const std::string& op, std::string_view sc, const series& s) {
    const auto out = s.bytes_out.load();
    const auto in = s.bytes_in.load();
    const auto found = then.find({op, std::string(sc)});
    const series_totals before = found == then.end() ? series_totals{} : found->second;
    const auto found_earlier = percentile_baseline.second.find({op, std::string(sc)});
    const series_totals earlier =
        found_earlier == percentile_baseline.second.end() ? series_totals{} : found_earlier->second;
    const double requests_per_s = per_second(s.requests.load(), before.requests);
    const double mib_per_s = per_second(in + out, before.bytes) / mib;
    all_requests += requests_per_s;
    all_mib += mib_per_s;
    operations.push_back(
        {{"operation", op},
         {"status_class", sc},
         {"requests", s.requests.load()},
         {"bytes_in", in},
         {"bytes_out", out},
         {"retries", s.retries.load()},
         {"requests_per_s", requests_per_s},
         {"throughput_mib_s", mib_per_s},
         {"latency_ms", quantiles_ms(s.duration)},
         {"ttfb_ms", quantiles_ms(s.ttfb)},
         {"store_ttfb_ms", quantiles_ms(s.store_ttfb)},
         {"recent_latency_ms", quantiles_since_ms(s.duration, earlier.duration)},
         {"recent_ttfb_ms", quantiles_since_ms(s.ttfb, earlier.ttfb)},
         {"recent_store_ttfb_ms", quantiles_since_ms(s.store_ttfb, earlier.store_ttfb)}});
  });
  return {{"seconds", seconds},
          {"rate_window_s", span},
          {"percentile_window_s", seconds - percentile_baseline.first},
          {"requests_per_s", all_requests},
          {"throughput_mib_s", all_mib},
          {"operations", operations},
          {"faults_by_rule", metrics.faults_by_rule()},
          {"errors_by_code", metrics.errors_by_code()},
          {"active_connections", metrics.active_connections()},
          {"upstream", {{"new", metrics.upstream_new()}, {"reused", metrics.upstream_reused()}}}};
}

nlohmann::json history_json(const traffic_history& history) {
  const auto intervals = history.rates();
  std::set<std::string> names; // every operation that moved in some interval
  nlohmann::json seconds = nlohmann::json::array();
  for (const auto& interval : intervals) {
    seconds.push_back(interval.ended_at);
    for (const auto& [operation, rates] : interval.by_operation) {
      names.insert(operation);
    }
  }
  nlohmann::json operations = nlohmann::json::object();
  for (const auto& name : names) {
    nlohmann::json requests = nlohmann::json::array(), errors = nlohmann::json::array(),
                   mib = nlohmann::json::array();
    for (const auto& interval : intervals) {
      const auto found = interval.by_operation.find(name);
      const operation_rates rates =
          found == interval.by_operation.end() ? operation_rates{} : found->second;
      requests.push_back(rates.requests_per_s);
      errors.push_back(rates.errors_per_s);
      mib.push_back(rates.mib_per_s);
    }
    operations[name] = {{"requests_per_s", std::move(requests)},
                        {"errors_per_s", std::move(errors)},
                        {"mib_per_s", std::move(mib)}};
  }
  return {{"interval_s", 1},
          {"kept_s", history.seconds_kept()},
          {"seconds", std::move(seconds)},
          {"operations", std::move(operations)}};
}

std::string summary_table(const traffic_metrics& metrics) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-24s %-6s %9s %9s %9s %9s %9s %9s %11s %8s\n", "operation",
                "status", "requests", "p50 ms", "p90 ms", "p99 ms", "max ms", "ttfb p50", "MiB out",
                "retries");
  out += line;
  for_each_series(metrics, [&](const std::string& op, std::string_view sc, const series& s) {
    const auto ms = [](std::uint64_t us) { return static_cast<double>(us) / 1000.0; };
    std::snprintf(
        line, sizeof line, "%-24s %-6s %9llu %9.2f %9.2f %9.2f %9.2f %9.2f %11.1f %8llu\n",
        op.c_str(), std::string(sc).c_str(), static_cast<unsigned long long>(s.requests.load()),
        ms(s.duration.quantile(0.5)), ms(s.duration.quantile(0.9)), ms(s.duration.quantile(0.99)),
        ms(s.duration.max_micros()), ms(s.ttfb.quantile(0.5)),
        static_cast<double>(s.bytes_out.load()) / (1024.0 * 1024.0),
        static_cast<unsigned long long>(s.retries.load()));
    out += line;
  });
  for (const auto& [rule, count] : metrics.faults_by_rule()) {
    out += "faults injected by rule " + rule + ": " + std::to_string(count) + "\n";
  }
  return out;
}

} // namespace s3fault::metrics
