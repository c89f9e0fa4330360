// /metrics read back by a scraper's parser (Debian's python3-prometheus-client): label values
// holding a backslash, a double quote and a newline, and sums too long for six significant
// digits, come back exactly as they were recorded.
#include "metrics/metrics_report.hpp"
#include "metrics/traffic_metrics.hpp"
#include "tests/support/command_output.hpp"
#include "tests/support/temp_file.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace s3fault::metrics {
namespace {

/// The samples the parser found in `text`: {"name", "labels", "value"} each.
std::vector<nlohmann::json> parsed_samples(const std::string& text) {
  const testing::temp_file exposition("metrics.txt", text);
  const std::string command = std::string("'") + S3FAULT_PYTHON + "' '" +
                              S3FAULT_EXPOSITION_PARSER + "' < '" + exposition.path() + "'";
  const auto run = testing::run_command(command);
  EXPECT_EQ(run.status, 0) << command << " failed (is python3-prometheus-client installed?)";
  std::vector<nlohmann::json> samples;
  std::istringstream lines(run.text);
  for (std::string line; std::getline(lines, line);) {
    samples.push_back(nlohmann::json::parse(line));
  }
  return samples;
}

/// The value of the sample `name` whose label `label` is `value`; NaN when there is none.
double sample_value(const std::vector<nlohmann::json>& samples, const std::string& name,
                    const std::string& label, const std::string& value) {
  for (const auto& sample : samples) {
    if (sample["name"] == name && sample["labels"].value(label, "") == value) {
      return sample["value"].get<double>();
    }
  }
  ADD_FAILURE() << "no " << name << " with " << label << "=" << value;
  return std::nan("");
}

TEST(PrometheusExposition, LabelValuesParseBackToWhatWasRecorded) {
  const std::string operation = "Get\"Object\\with\na newline";
  const std::string rule = "odd\\\"rule\nname";
  const std::string faults = rule + ":error"; // the sample only points at it
  traffic_metrics metrics({operation});
  exchange_sample sample;
  sample.status = 200;
  sample.faults = faults;
  metrics.record(sample);
  const auto samples = parsed_samples(prometheus_text(metrics));
  EXPECT_EQ(sample_value(samples, "s3fault_requests_total", "operation", operation), 1);
  EXPECT_EQ(sample_value(samples, "s3fault_faults_injected_total", "rule", rule), 1);
}

TEST(PrometheusExposition, SumsAreExactDecimals) {
  traffic_metrics metrics({"GetObject"});
  exchange_sample sample;
  sample.status = 200;
  sample.duration_us = 1'234'567'891'000; // 1234567.891 s: "%.6g" printed 1.23457e+06
  sample.ttfb_us = 1;
  sample.store_ttfb_us = 700'123;
  metrics.record(sample);
  const auto samples = parsed_samples(prometheus_text(metrics));
  const auto sum = [&](const std::string& histogram) {
    return sample_value(samples, histogram + "_sum", "operation", "GetObject");
  };
  EXPECT_EQ(sum("s3fault_request_duration_seconds"), 1234567.891);
  EXPECT_EQ(sum("s3fault_time_to_first_byte_seconds"), 0.000001);
  EXPECT_EQ(sum("s3fault_store_time_to_first_byte_seconds"), 0.700123);
  EXPECT_EQ(sample_value(samples, "s3fault_store_time_to_first_byte_seconds_count", "operation",
                         "GetObject"),
            1);
}

TEST(PrometheusExposition, RuleLoadLabelsParseBack) {
  rule_load load;
  load.rule = "a\\b\"c\nd";
  load.refusals = 12;
  const auto samples = parsed_samples(prometheus_rule_load({load}));
  EXPECT_EQ(sample_value(samples, "s3fault_rule_refusals_total", "rule", load.rule), 12);
}

} // namespace
} // namespace s3fault::metrics
