#include "conformance/bench/bench_run_record.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace s3fault::bench {
namespace {

using json = nlohmann::json;

json histogram_json(const metrics::bucket_counts& buckets, std::uint64_t sum_us,
                    std::uint64_t max_us) {
  json pairs = json::array();
  for (const auto& [bucket, count] : buckets) {
    pairs.push_back({bucket, count});
  }
  return {{"buckets", pairs}, {"sum_us", sum_us}, {"max_us", max_us}};
}

json counts_json(const run_counts& counts) {
  return {
      {"succeeded", counts.succeeded},
      {"errors", counts.errors},
      {"retries", counts.retries},
      {"bytes", counts.bytes},
      {"timed_ns", counts.timed_ns},
      {"latency_us", histogram_json(counts.latency, counts.latency_sum_us, counts.latency_max_us)},
      {"ttfb_us", histogram_json(counts.ttfb, counts.ttfb_sum_us, counts.ttfb_max_us)}};
}

/// Reads `key` of `object` into `value`; false, naming the field in `why`, when it is missing
/// or of another type.
template <class T> bool read(const json& object, const char* key, T& value, std::string& why) {
  try {
    value = object.at(key).get<T>();
    return true;
  } catch (const json::exception&) {
    why = std::string("\"") + key + "\" is missing or not " +
          (std::is_same_v<T, std::string> ? "text" : "a number");
    return false;
  }
}

bool read_histogram(const json& object, const char* key, metrics::bucket_counts& buckets,
                    std::uint64_t& sum_us, std::uint64_t& max_us, std::string& why) {
  try {
    const auto& histogram = object.at(key);
    for (const auto& pair : histogram.at("buckets")) {
      buckets.emplace_back(pair.at(0).get<std::uint32_t>(), pair.at(1).get<std::uint64_t>());
    }
    sum_us = histogram.at("sum_us").get<std::uint64_t>();
    max_us = histogram.at("max_us").get<std::uint64_t>();
    return true;
  } catch (const json::exception&) {
    why = std::string("counts.") + key + " is missing or not {buckets, sum_us, max_us}";
    return false;
  }
}

bool read_counts(const json& record, run_counts& counts, std::string& why) {
  if (!record.contains("counts")) {
    why = "\"counts\" is missing (a report of s3fault before 'bench merge' existed)";
    return false;
  }
  const auto& c = record["counts"];
  return read(c, "succeeded", counts.succeeded, why) && read(c, "errors", counts.errors, why) &&
         read(c, "retries", counts.retries, why) && read(c, "bytes", counts.bytes, why) &&
         read(c, "timed_ns", counts.timed_ns, why) &&
         read_histogram(c, "latency_us", counts.latency, counts.latency_sum_us,
                        counts.latency_max_us, why) &&
         read_histogram(c, "ttfb_us", counts.ttfb, counts.ttfb_sum_us, counts.ttfb_max_us, why);
}

} // namespace

json figure_json(figure f, double value) {
  const double rounded = round_to(value, info(f).decimals);
  if (info(f).decimals == 0) {
    return static_cast<std::int64_t>(std::llround(rounded));
  }
  return rounded;
}

json run_record_json(const run_result& run, const std::string& store) {
  json entry{{"operation", to_string(run.measured.op)},
             {"size_bytes", run.measured.size},
             {"concurrency", run.measured.concurrency},
             {"stored_bytes", run.measured.stored},
             {"round", run.round},
             {"leg", run.leg},
             {"workers", run.workers},
             {"started_unix_us", run.started_unix_us},
             {"ended_unix_us", run.ended_unix_us},
             {"seconds", round_to(run.seconds, 3)},
             {"bytes", run.bytes}};
  if (!store.empty()) {
    entry["store"] = store;
  }
  entry["figures"] = json::object();
  for (std::size_t i = 0; i < figure_count; ++i) {
    if (run.values[i]) {
      entry["figures"][std::string(info(figure_at(i)).key)] =
          figure_json(figure_at(i), *run.values[i]);
    }
  }
  entry["counts"] = counts_json(run.counts);
  if (!run.first_error.empty()) {
    entry["first_error"] = run.first_error;
  }
  if (run.cut_short) {
    entry["cut_short"] = true;
  }
  return entry;
}

std::optional<run_result>
read_run_record(const json& record, const std::vector<std::string>& stores, std::string& why) {
  run_result run;
  std::string op;
  if (!read(record, "operation", op, why)) {
    return std::nullopt;
  }
  const std::string store = record.value("store", "");
  const auto named = std::find(stores.begin(), stores.end(), store);
  if (named == stores.end()) {
    why = "\"store\": '" + store + "' is not one of the report's stores";
    return std::nullopt;
  }
  run.store = static_cast<std::size_t>(named - stores.begin());
  const auto parsed = parse_operation(op);
  if (!parsed) {
    why = "\"operation\": '" + op + "' is not an operation";
    return std::nullopt;
  }
  run.measured.op = *parsed;
  if (!read(record, "size_bytes", run.measured.size, why) ||
      !read(record, "concurrency", run.measured.concurrency, why) ||
      !read(record, "stored_bytes", run.measured.stored, why) ||
      !read(record, "round", run.round, why) || !read(record, "leg", run.leg, why) ||
      !read(record, "workers", run.workers, why) ||
      !read(record, "started_unix_us", run.started_unix_us, why) ||
      !read(record, "ended_unix_us", run.ended_unix_us, why) ||
      !read(record, "seconds", run.seconds, why) || !read(record, "bytes", run.bytes, why) ||
      !read_counts(record, run.counts, why)) {
    return std::nullopt;
  }
  if (record.contains("figures") && record["figures"].is_object()) {
    for (const auto& [key, value] : record["figures"].items()) {
      if (const auto f = figure_named(key); f && value.is_number()) {
        run.values[static_cast<std::size_t>(*f)] = value.get<double>();
      }
    }
  }
  run.first_error = record.value("first_error", "");
  run.cut_short = record.value("cut_short", false);
  return run;
}

} // namespace s3fault::bench
