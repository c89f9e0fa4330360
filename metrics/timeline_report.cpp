#include "metrics/timeline_report.hpp"

#include <cstdio>
#include <sstream>

namespace s3fault::metrics {
namespace {

double ms_at(const bucket_counts& counts, double q) {
  return static_cast<double>(latency_histogram::quantile_between(counts, {}, q)) / 1000.0;
}

nlohmann::json percentiles_json(const bucket_counts& counts) {
  return {{"p50", ms_at(counts, 0.5)}, {"p90", ms_at(counts, 0.9)}, {"p99", ms_at(counts, 0.99)}};
}

nlohmann::json buckets_json(const bucket_counts& counts) {
  auto out = nlohmann::json::array();
  for (const auto& [bucket, count] : counts) {
    out.push_back({bucket, count});
  }
  return out;
}

nlohmann::json interval_json(const timeline_interval& interval, bool with_buckets) {
  const double seconds = interval.end - interval.start;
  nlohmann::json operations = nlohmann::json::object();
  for (const auto& [name, traffic] : interval.operations) {
    operations[name] = {
        {"requests", traffic.requests},
        {"errors", traffic.errors},
        {"retries", traffic.retries},
        {"bytes", traffic.bytes},
        {"mib_per_s",
         seconds > 0 ? static_cast<double>(traffic.bytes) / bytes_per_mib / seconds : 0.0},
        {"latency_ms", percentiles_json(traffic.latency)},
        {"ttfb_ms", percentiles_json(traffic.ttfb)}};
    if (with_buckets) {
      operations[name]["latency_buckets"] = buckets_json(traffic.latency);
      operations[name]["ttfb_buckets"] = buckets_json(traffic.ttfb);
    }
  }
  nlohmann::json out = {
      {"start", interval.start}, {"end", interval.end}, {"operations", std::move(operations)}};
  if (interval.store) {
    out["store"] = {{"threads", interval.store->threads},
                    {"memory_bytes", interval.store->memory_bytes},
                    {"anon_bytes", interval.store->anon_bytes},
                    {"cpu_seconds", interval.store->cpu_seconds},
                    {"cpu_percent", interval.store->cpu_percent}};
  }
  if (!interval.store_error.empty()) {
    out["store_error"] = interval.store_error;
  }
  return out;
}

/// Reads [[bucket, count], ...]; false when it is not that.
bool read_buckets(const nlohmann::json& json, bucket_counts& into) {
  if (!json.is_array()) {
    return false;
  }
  for (const auto& entry : json) {
    if (!entry.is_array() || entry.size() != 2 || !entry[0].is_number_unsigned() ||
        !entry[1].is_number_unsigned() ||
        entry[0].get<std::uint64_t>() >= latency_histogram::bucket_count) {
      return false;
    }
    into.emplace_back(entry[0].get<std::uint32_t>(), entry[1].get<std::uint64_t>());
  }
  return true;
}

/// A number field of `json`, or false with `error` naming it.
template <class Number>
bool read_number(const nlohmann::json& json, const char* field, Number& into, std::string& error,
                 const std::string& where) {
  const auto found = json.find(field);
  if (found == json.end() || !found->is_number()) {
    error = where + "." + field + ": a number is required";
    return false;
  }
  into = found->get<Number>();
  return true;
}

bool read_operation(const nlohmann::json& json, operation_interval& into, std::string& error,
                    const std::string& where) {
  if (!json.is_object() || !read_number(json, "requests", into.requests, error, where) ||
      !read_number(json, "errors", into.errors, error, where) ||
      !read_number(json, "retries", into.retries, error, where) ||
      !read_number(json, "bytes", into.bytes, error, where)) {
    if (error.empty()) {
      error = where + ": an object is required";
    }
    return false;
  }
  for (const auto& [field, counts] :
       {std::pair{"latency_buckets", &into.latency}, std::pair{"ttfb_buckets", &into.ttfb}}) {
    if (!json.contains(field) || !read_buckets(json[field], *counts)) {
      error = where + "." + field + ": a list of [bucket, count] pairs is required";
      return false;
    }
  }
  return true;
}

bool read_interval(const nlohmann::json& json, timeline_interval& into, std::string& error,
                   const std::string& where) {
  if (!json.is_object() || !read_number(json, "start", into.start, error, where) ||
      !read_number(json, "end", into.end, error, where)) {
    if (error.empty()) {
      error = where + ": an object is required";
    }
    return false;
  }
  const auto operations = json.find("operations");
  if (operations == json.end() || !operations->is_object()) {
    error = where + ".operations: an object is required";
    return false;
  }
  for (const auto& [name, traffic] : operations->items()) {
    if (!read_operation(traffic, into.operations[name], error, where + ".operations." + name)) {
      return false;
    }
  }
  if (const auto store = json.find("store"); store != json.end()) {
    store_interval figures;
    const std::string at = where + ".store";
    if (!read_number(*store, "threads", figures.threads, error, at) ||
        !read_number(*store, "memory_bytes", figures.memory_bytes, error, at) ||
        !read_number(*store, "anon_bytes", figures.anon_bytes, error, at) ||
        !read_number(*store, "cpu_seconds", figures.cpu_seconds, error, at) ||
        !read_number(*store, "cpu_percent", figures.cpu_percent, error, at)) {
      return false;
    }
    into.store = figures;
  }
  into.store_error = json.value("store_error", "");
  return true;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

/// Three significant digits, whole numbers from 100 up: "1234", "12.3", "0.84", "0.00123".
std::string figure_text(double value) {
  if (value >= 100 || value == 0) {
    return fixed(value, 0);
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

/// "1 interval", "5 intervals".
std::string count_of(std::size_t count, const char* thing) {
  return std::to_string(count) + " " + thing + (count == 1 ? "" : "s");
}

std::string size_text(double bytes) {
  if (bytes >= 1024 * bytes_per_mib) {
    return fixed(bytes / (1024 * bytes_per_mib), 2) + " GiB";
  }
  return fixed(bytes / bytes_per_mib, 1) + " MiB";
}

std::string figure_line(const std::string& operation, const figure_drift& figure) {
  const auto& c = figure.result;
  std::ostringstream line;
  line << "  " << operation << " " << figure.figure << ": ";
  if (!c.judged) {
    line << "not judged: " << c.not_judged;
    return line.str();
  }
  line << figure_text(c.baseline) << " -> " << figure_text(c.current) << " " << figure.unit << ", "
       << format_percent(c.delta_percent, true) << " % ["
       << format_percent(c.interval_low_percent, true) << ", "
       << format_percent(c.interval_high_percent, true) << "], p " << p_value_text(c.p_value)
       << ", could detect -" << format_percent(c.detectable_drop_percent, false) << "/+"
       << format_percent(c.detectable_rise_percent, false) << " %: " << drift_verdict(figure);
  if (!c.conclusive) {
    line << (c.rounds_needed ? " (about " + std::to_string(*c.rounds_needed) +
                                   " blocks a side of this length would tell)"
                             : " (no number of blocks would tell at this noise)");
  }
  return line.str();
}

std::string store_lines(const store_trend& store, const std::string& description) {
  std::ostringstream text;
  text << "Store (" << (description.empty() ? "sampled" : description) << "): peak "
       << store.peak_threads << " threads, peak memory "
       << size_text(static_cast<double>(store.peak_memory_bytes)) << " (anonymous "
       << size_text(static_cast<double>(store.peak_anon_bytes)) << ")\n"
       << "  first sixth -> last sixth: " << figure_text(store.first_sixth_threads) << " -> "
       << figure_text(store.last_sixth_threads) << " threads, "
       << size_text(store.first_sixth_anon_bytes) << " -> "
       << size_text(store.last_sixth_anon_bytes) << " memory; r(threads, memory) = "
       << (store.threads_memory_r ? fixed(*store.threads_memory_r, 2)
                                  : std::string("none (one of them never moved)"))
       << " over " << store.samples << " samples\n";
  return text.str();
}

} // namespace

timeline_record record_of(const timeline& recorded, std::string store_description) {
  return {recorded.interval_seconds(), recorded.resolution_seconds(), recorded.bytes_kept(),
          recorded.byte_cap(),         std::move(store_description),  recorded.intervals()};
}

nlohmann::json timeline_json(const timeline_record& record, bool with_buckets) {
  auto intervals = nlohmann::json::array();
  for (const auto& interval : record.intervals) {
    intervals.push_back(interval_json(interval, with_buckets));
  }
  return {{"interval_s", record.interval_seconds},
          {"resolution_s", record.resolution_seconds},
          {"bytes_kept", record.bytes_kept},
          {"byte_cap", record.byte_cap},
          {"store", record.store},
          {"intervals", std::move(intervals)}};
}

std::optional<timeline_record> read_timeline_json(const nlohmann::json& json, std::string& error) {
  timeline_record record;
  if (!json.is_object() ||
      !read_number(json, "interval_s", record.interval_seconds, error, "timeline") ||
      !read_number(json, "resolution_s", record.resolution_seconds, error, "timeline")) {
    if (error.empty()) {
      error = "timeline: an object is required";
    }
    return std::nullopt;
  }
  record.bytes_kept = json.value("bytes_kept", std::size_t{0});
  record.byte_cap = json.value("byte_cap", std::size_t{0});
  record.store = json.value("store", "");
  const auto intervals = json.find("intervals");
  if (intervals == json.end() || !intervals->is_array()) {
    error = "timeline.intervals: a list is required";
    return std::nullopt;
  }
  for (std::size_t i = 0; i < intervals->size(); ++i) {
    timeline_interval interval;
    if (!read_interval((*intervals)[i], interval, error,
                       "timeline.intervals[" + std::to_string(i) + "]")) {
      return std::nullopt;
    }
    record.intervals.push_back(std::move(interval));
  }
  return record;
}

std::string drift_verdict(const figure_drift& figure) {
  const auto& c = figure.result;
  if (!c.judged) {
    return "not judged";
  }
  if (c.flagged) {
    const bool rose = c.delta_percent > 0;
    if (figure.direction == better::lower) {
      return rose ? "slower" : "faster";
    }
    return rose ? "higher" : "lower";
  }
  return c.conclusive ? "no change" : "cannot tell";
}

namespace {

/// Whether any figure got worse, and whether any could not tell.
std::pair<bool, bool> worse_and_unsure(const std::vector<operation_drift>& operations) {
  bool worse = false, unsure = false;
  for (const auto& operation : operations) {
    for (const auto& figure : operation.figures) {
      worse = worse || figure.result.regression;
      unsure = unsure || !figure.result.judged || !figure.result.conclusive;
    }
  }
  return {worse, unsure};
}

nlohmann::json operations_json(const std::vector<operation_drift>& operations) {
  auto out = nlohmann::json::array();
  for (const auto& operation : operations) {
    auto figures = nlohmann::json::array();
    for (const auto& figure : operation.figures) {
      const auto& c = figure.result;
      nlohmann::json one = {{"figure", figure.figure},
                            {"unit", figure.unit},
                            {"first", c.baseline},
                            {"last", c.current},
                            {"verdict", drift_verdict(figure)},
                            {"first_blocks", figure.first_blocks},
                            {"last_blocks", figure.last_blocks}};
      if (c.judged) {
        one["change_percent"] = c.delta_percent;
        one["interval_percent"] = {c.interval_low_percent, c.interval_high_percent};
        one["p"] = c.p_value;
        one["detectable_percent"] = {-c.detectable_drop_percent, c.detectable_rise_percent};
        one["conclusive"] = c.conclusive;
        if (c.rounds_needed) {
          one["blocks_needed"] = *c.rounds_needed;
        }
      } else {
        one["not_judged"] = c.not_judged;
      }
      figures.push_back(std::move(one));
    }
    out.push_back({{"operation", operation.operation}, {"figures", std::move(figures)}});
  }
  return out;
}

} // namespace

std::string overall_drift_verdict(const drift_report& drift) {
  if (!drift.not_judged.empty()) {
    return "not judged";
  }
  const auto [worse, unsure] = worse_and_unsure(drift.operations);
  return worse ? "drift" : unsure ? "cannot tell" : "no drift";
}

std::string overall_runs_verdict(const runs_comparison& compared) {
  if (!compared.not_judged.empty()) {
    return "not judged";
  }
  const auto [worse, unsure] = worse_and_unsure(compared.operations);
  return worse ? "worse" : unsure ? "cannot tell" : "no difference";
}

nlohmann::json drift_json(const drift_report& drift, const drift_rules& rules) {
  nlohmann::json out = {{"method", drift_method_text(rules)},
                        {"alpha", rules.judging.alpha},
                        {"min_change_percent", rules.judging.min_change_percent},
                        {"verdict", overall_drift_verdict(drift)},
                        {"run_s", drift.run_seconds},
                        {"intervals", drift.intervals},
                        {"first_sixth_end_s", drift.first_sixth_end},
                        {"last_sixth_start_s", drift.last_sixth_start},
                        {"blocks_per_side", drift.blocks_per_side},
                        {"intervals_per_block", drift.intervals_per_block},
                        {"operations", operations_json(drift.operations)}};
  if (!drift.not_judged.empty()) {
    out["not_judged"] = drift.not_judged;
  }
  if (drift.store) {
    const auto& s = *drift.store;
    out["store"] = {{"samples", s.samples},
                    {"peak_threads", s.peak_threads},
                    {"peak_memory_bytes", s.peak_memory_bytes},
                    {"peak_anon_bytes", s.peak_anon_bytes},
                    {"first_sixth_threads", s.first_sixth_threads},
                    {"last_sixth_threads", s.last_sixth_threads},
                    {"first_sixth_anon_bytes", s.first_sixth_anon_bytes},
                    {"last_sixth_anon_bytes", s.last_sixth_anon_bytes},
                    {"threads_memory_r", s.threads_memory_r ? nlohmann::json(*s.threads_memory_r)
                                                            : nlohmann::json(nullptr)}};
  }
  return out;
}

std::string timeline_csv(const timeline_record& record) {
  std::ostringstream csv;
  csv << "start_s,end_s,operation,requests,errors,retries,mib_per_s,latency_p50_ms,latency_p90_ms,"
         "latency_p99_ms,ttfb_p50_ms,ttfb_p90_ms,ttfb_p99_ms,store_threads,store_memory_mib,"
         "store_anon_mib,store_cpu_percent\n";
  for (const auto& interval : record.intervals) {
    std::string store = ",,,";
    if (interval.store) {
      store = std::to_string(interval.store->threads) + "," +
              fixed(static_cast<double>(interval.store->memory_bytes) / bytes_per_mib, 3) + "," +
              fixed(static_cast<double>(interval.store->anon_bytes) / bytes_per_mib, 3) + "," +
              fixed(interval.store->cpu_percent, 1);
    }
    const std::string when = fixed(interval.start, 3) + "," + fixed(interval.end, 3) + ",";
    if (interval.operations.empty()) {
      csv << when << ",0,0,0,0,,,,,,," << store << "\n";
    }
    const double seconds = interval.end - interval.start;
    for (const auto& [name, t] : interval.operations) {
      csv << when << name << "," << t.requests << "," << t.errors << "," << t.retries << ","
          << fixed(seconds > 0 ? static_cast<double>(t.bytes) / bytes_per_mib / seconds : 0, 3);
      for (const auto* counts : {&t.latency, &t.ttfb}) {
        for (const double q : {0.5, 0.9, 0.99}) {
          csv << "," << fixed(ms_at(*counts, q), 3);
        }
      }
      csv << "," << store << "\n";
    }
  }
  return csv.str();
}

nlohmann::json runs_comparison_json(const runs_comparison& compared, const drift_rules& rules,
                                    const std::string& first_name, const std::string& second_name) {
  nlohmann::json out = {{"first", first_name},
                        {"second", second_name},
                        {"alpha", rules.judging.alpha},
                        {"min_change_percent", rules.judging.min_change_percent},
                        {"verdict", overall_runs_verdict(compared)},
                        {"blocks_per_run", compared.blocks_per_run},
                        {"block_s", {compared.first_block_seconds, compared.second_block_seconds}},
                        {"operations", operations_json(compared.operations)}};
  if (!compared.not_judged.empty()) {
    out["not_judged"] = compared.not_judged;
  }
  return out;
}

std::string runs_comparison_text(const runs_comparison& compared, const drift_rules& rules,
                                 const std::string& first_name, const std::string& second_name) {
  std::ostringstream text;
  text << second_name << " against " << first_name << ": " << overall_runs_verdict(compared);
  if (!compared.not_judged.empty()) {
    text << ": " << compared.not_judged << "\n";
    return text.str();
  }
  text << ", each run cut into " << compared.blocks_per_run << " blocks (of "
       << figure_text(compared.first_block_seconds) << " s and "
       << figure_text(compared.second_block_seconds) << " s; alpha " << rules.judging.alpha
       << ", min change " << figure_text(rules.judging.min_change_percent) << " %)\n";
  for (const auto& operation : compared.operations) {
    for (const auto& figure : operation.figures) {
      text << figure_line(operation.operation, figure) << "\n";
    }
  }
  return text.str();
}

std::string drift_text(const drift_report& drift, const drift_rules& rules,
                       const timeline_record& record) {
  std::ostringstream text;
  text << "Timeline: " << record.intervals.size() << " intervals of "
       << figure_text(record.resolution_seconds) << " s kept (asked "
       << figure_text(record.interval_seconds) << " s), "
       << size_text(static_cast<double>(record.bytes_kept)) << " of "
       << size_text(static_cast<double>(record.byte_cap)) << "\n";
  text << "Drift: " << overall_drift_verdict(drift);
  if (!drift.not_judged.empty()) {
    text << ": " << drift.not_judged << "\n";
  } else {
    text << ", the first sixth (to " << figure_text(drift.first_sixth_end)
         << " s) against the last (from " << figure_text(drift.last_sixth_start) << " s), "
         << drift.blocks_per_side << " blocks of "
         << count_of(drift.intervals_per_block, "interval") << " a side (alpha "
         << rules.judging.alpha << ", min change " << figure_text(rules.judging.min_change_percent)
         << " %)\n";
    for (const auto& operation : drift.operations) {
      for (const auto& figure : operation.figures) {
        text << figure_line(operation.operation, figure) << "\n";
      }
    }
  }
  if (drift.store) {
    text << store_lines(*drift.store, record.store);
  }
  return text.str();
}

} // namespace s3fault::metrics
