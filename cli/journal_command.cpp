#include "cli/journal_command.hpp"
#include "runtime/build_info.hpp"

#include "cli/journal_har.hpp"
#include "cli/journal_lines.hpp"
#include "cli/journal_summary.hpp"
#include "runtime/atomic_file.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::cli {
namespace {

struct journal_options {
  std::vector<std::string> files; // oldest first
  bool json = false;              // summary --json
  std::string har_path;           // to-har -o; empty: standard output
};

/// JSON text for people and tools; a decoded query value that is not UTF-8 is replaced rather
/// than aborting the whole report.
std::string journal_json_text(const nlohmann::ordered_json& document) {
  return document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

/// The entries of every file, or nullopt after printing why they could not all be read.
std::optional<std::vector<journal_entry>> read_or_report(const journal_options& options) {
  auto reading = read_journal_files(options.files);
  if (!reading.error.empty()) {
    std::cerr << reading.error << "\n";
    return std::nullopt;
  }
  return std::move(reading.entries);
}

int run_summary(const journal_options& options) {
  const auto entries = read_or_report(options);
  if (!entries) {
    return 2;
  }
  const auto rows = summarize_journal(*entries);
  std::cout << (options.json ? journal_json_text(summary_json(rows)) : render_summary_table(rows));
  return 0;
}

int run_to_har(const journal_options& options) {
  const auto entries = read_or_report(options);
  if (!entries) {
    return 2;
  }
  const std::string har = journal_json_text(har_document(*entries, runtime::build_version()));
  if (options.har_path.empty()) {
    std::cout << har;
    return 0;
  }
  std::string error;
  if (!runtime::write_file_atomically(options.har_path, har, error)) {
    std::cerr << "s3fault journal to-har: " << error << "\n";
    return 2;
  }
  return 0;
}

} // namespace

std::function<int()> add_journal_command(CLI::App& app) {
  auto options = std::make_shared<journal_options>();
  auto* command = app.add_subcommand(
      "journal",
      "Reports from the proxy's traffic journal (s3fault proxy --journal FILE; docs/journal.md).\n"
      "Each subcommand takes one or more journal files and reads them in the order given: for\n"
      "rotated files, give the oldest first (s3.2.jsonl s3.1.jsonl s3.jsonl).\n"
      "A line that is not a journal line stops the report with FILE:LINE: why, exit 2.\n\n"
      "Examples:\n"
      "  s3fault journal summary /tmp/s3.jsonl\n"
      "  s3fault journal to-har /tmp/s3.1.jsonl /tmp/s3.jsonl -o s3.har");
  command->require_subcommand(1);

  auto* summary = command->add_subcommand(
      "summary", "Per S3 operation and status class: requests, errors, faults, bytes, latencies");
  summary->footer(
      "One row per operation and status class (2xx, 4xx, 5xx; none: no status was sent), then\n"
      "an 'all' row: requests, errors (status 0 or >= 400, or an outcome other than ok),\n"
      "exchanges with faults, body bytes in and out, and the exact nearest-rank 50th/90th/99th\n"
      "percentile of duration and 50th/99th of time to first byte in ms ('-' when none).");
  summary->add_option("FILE", options->files, "Journal files, oldest first")->required();
  summary->add_flag("--json", options->json, "Print the rows as a JSON array of objects");

  auto* to_har = command->add_subcommand(
      "to-har", "Convert to HAR 1.2, for a browser's network panel or any HAR viewer");
  to_har->footer(
      "One HAR entry per journal line, in the order given. s3fault's own fields (operation,\n"
      "outcome, faults, error_code, request_id, ...) are in each entry's _s3fault object.");
  to_har->add_option("FILE", options->files, "Journal files, oldest first")->required();
  to_har->add_option("-o,--output", options->har_path,
                     "Write the HAR to this file instead of standard output: replaced whole, or "
                     "left as it was when a line is bad");

  return [summary, options]() -> int {
    return summary->parsed() ? run_summary(*options) : run_to_har(*options);
  };
}

} // namespace s3fault::cli
