// `s3fault report`: a saved run's timeline judged again, printed, and drawn.
//
//   FILE (JSON) --read_timeline_of--> timeline_record --judge_drift--> drift_text   (stdout)
//                                                                  --> timeline_html (--html)
//                                     timeline_csv                                  (--csv)
//   OTHER (JSON) --read_timeline_of--> compare_runs(FILE, OTHER) --> runs_comparison_text,
//                                                                    and on the page
#include "cli/report_command.hpp"

#include "metrics/timeline_html.hpp"
#include "metrics/timeline_report.hpp"
#include "runtime/atomic_file.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

namespace s3fault::cli {
namespace {

struct report_options {
  std::string file;
  std::string html_file;
  std::string csv_file;
  std::string against_file;
  double alpha = 0.01;
  double min_change_percent = 10;
};

/// The timeline saved under the key "timeline" of the report in `path` (the proxy's --report,
/// the bench's --json). nullopt after printing why not: the file and, for a timeline that is
/// not one, the field.
std::optional<metrics::timeline_record> read_timeline_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (!in || !(text << in.rdbuf())) {
    std::cerr << "s3fault report: " << path << ": cannot read\n";
    return std::nullopt;
  }
  const auto document = nlohmann::json::parse(text.str(), nullptr, false);
  if (document.is_discarded()) {
    std::cerr << "s3fault report: " << path << ": not JSON\n";
    return std::nullopt;
  }
  if (!document.is_object() || !document.contains("timeline")) {
    std::cerr << "s3fault report: " << path
              << " has no timeline: run the proxy or the bench with --timeline INTERVAL\n";
    return std::nullopt;
  }
  std::string error;
  auto record = metrics::read_timeline_json(document.at("timeline"), error);
  if (!record) {
    std::cerr << "s3fault report: " << path << ": " << error << "\n";
  }
  return record;
}

/// "run.json" of "/tmp/x/run.json": the page's heading names the run, not where it lies.
std::string file_name_of(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

/// Writes one output file; false after naming it, its option and why.
bool write_output(const std::string& option, const std::string& path, const std::string& text) {
  std::string error;
  if (!runtime::write_file_atomically(path, text, error)) {
    std::cerr << "s3fault report: " << option << ": " << error << "\n";
    return false;
  }
  return true;
}

int run_report(const report_options& options) {
  const auto record = read_timeline_of(options.file);
  if (!record) {
    return 2;
  }
  std::optional<metrics::timeline_record> other;
  if (!options.against_file.empty()) {
    other = read_timeline_of(options.against_file);
    if (!other) {
      return 2;
    }
  }
  metrics::drift_rules rules;
  rules.judging.alpha = options.alpha;
  rules.judging.min_change_percent = options.min_change_percent;
  const auto drift = metrics::judge_drift(record->intervals, rules);
  std::cout << metrics::drift_text(drift, rules, *record);
  std::optional<metrics::runs_comparison> compared;
  if (other) {
    compared = metrics::compare_runs(record->intervals, other->intervals, rules);
    std::cout << metrics::runs_comparison_text(*compared, rules, options.file,
                                               options.against_file);
  }
  std::cout << std::flush;
  bool written = true;
  if (!options.html_file.empty()) {
    const auto page = metrics::timeline_html(
        *record, drift, rules, "s3fault timeline: " + file_name_of(options.file),
        compared ? &*compared : nullptr, options.file, options.against_file);
    written = write_output("--html", options.html_file, page) && written;
  }
  if (!options.csv_file.empty()) {
    written = write_output("--csv", options.csv_file, metrics::timeline_csv(*record)) && written;
  }
  return written ? 0 : 1;
}

} // namespace

std::function<int()> add_report_command(CLI::App& app) {
  auto options = std::make_shared<report_options>();
  auto* command = app.add_subcommand(
      "report",
      "Judges a saved run's timeline again and draws it: drift, charts, CSV.\n"
      "FILE is a JSON report holding a \"timeline\": the proxy's --report or the bench's --json\n"
      "of a run with --timeline INTERVAL. Prints the drift of the first sixth of the run\n"
      "against the last, as the run printed it at its end, judged again with --alpha and\n"
      "--min-change; with --against, how the other run's figures compare with this one's.\n"
      "Writes the timeline page with --html and the CSV with --csv.\n\n"
      "Examples:\n"
      "  s3fault report proxy-report.json --html timeline.html\n"
      "  s3fault report before.json --against after.json --html compare.html");
  command->footer(
      "Exit status: 0 when the files were read and the outputs written, whatever the drift (a\n"
      "drift is a finding, not a failure); 2 for a bad command line, or a file that cannot be\n"
      "read, is not JSON or holds no timeline (the message names the file and the field);\n"
      "1 when --html or --csv cannot be written.");
  command->add_option("FILE", options->file, "The JSON report with a \"timeline\" key")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("--html", options->html_file,
                   "Write the timeline page (one self-contained HTML file): the verdict, then "
                   "charts of latency, throughput, errors and the store over the run, then every "
                   "figure's judgement")
      ->type_name("OUT");
  command
      ->add_option("--csv", options->csv_file,
                   "Write the timeline as CSV: a row per interval and operation")
      ->type_name("OUT");
  command
      ->add_option("--alpha", options->alpha,
                   "False-alarm rate of each drift figure: the chance that a figure which did "
                   "not drift is flagged")
      ->type_name("A")
      ->check(CLI::Range(0.0001, 0.5))
      ->capture_default_str();
  command
      ->add_option("--min-change", options->min_change_percent,
                   "Percent a drift figure must change by, at least, to be flagged")
      ->type_name("PCT")
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  command
      ->add_option("--against", options->against_file,
                   "Compare the whole run of this other report (OTHER_FILE) with FILE's, figure "
                   "by figure; printed, and on the page")
      ->type_name("OTHER_FILE")
      ->check(CLI::ExistingFile);
  return [options]() -> int { return run_report(*options); };
}

} // namespace s3fault::cli
