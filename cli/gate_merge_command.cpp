#include "cli/gate_merge_command.hpp"

#include "cli/command_support.hpp"
#include "conformance/gate/gate_merge.hpp"
#include "conformance/gate/gate_reports.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

namespace s3fault::cli {
namespace {

struct gate_merge_options {
  std::vector<std::string> parts;
  std::string json_file;
  std::string junit_file;
  std::string colour = "auto";
};

/// Every part named, read; the problems of those that cannot be read are added to `problems`.
std::vector<gate::gate_part> read_gate_parts(const std::vector<std::string>& files,
                                             std::vector<std::string>& problems) {
  std::vector<gate::gate_part> parts;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      problems.push_back(file + ": cannot read: " + std::strerror(errno));
      continue;
    }
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (auto part = gate::read_gate_part(file, text, problems)) {
      parts.push_back(std::move(*part));
    }
  }
  return parts;
}

int write_merge_reports(const gate_merge_options& options, const gate::gate_report& report) {
  const bool written = write_report_files(
      "gate merge", {{options.json_file, [&] { return gate::gate_json_report(report); }},
                     {options.junit_file, [&] { return gate::gate_junit_report(report); }}});
  return written ? gate::gate_exit_status(report) : 2;
}

/// The parts cannot be merged: every problem on stderr and in every report asked for (exit 2).
int refuse_merge(const gate_merge_options& options, const std::vector<gate::gate_part>& parts,
                 const std::vector<std::string>& problems) {
  std::cerr << "s3fault gate merge: the parts cannot be merged:\n";
  std::string error = "the parts cannot be merged: ";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    std::cerr << "  " << problems[i] << "\n";
    error += (i == 0 ? "" : "; ") + problems[i];
  }
  const auto role = parts.empty() ? gate::run_role::reader : parts.front().report.role;
  const auto client = parts.empty() ? std::string() : parts.front().report.client;
  write_merge_reports(options, gate::error_report(role, client, error));
  return 2;
}

int run_gate_merge(const gate_merge_options& options) {
  if (!report_paths_writable("gate merge",
                             {{"--json", options.json_file}, {"--junit", options.junit_file}})) {
    return refuse_merge(options, {}, {"a report file cannot be written"});
  }
  std::vector<std::string> problems;
  if (options.parts.empty()) {
    problems.push_back("no shard's report given (s3fault gate merge s1.json s2.json ...)");
  }
  const auto parts = read_gate_parts(options.parts, problems);
  if (!parts.empty()) {
    const auto more = gate::merge_problems(parts);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  if (!problems.empty()) {
    return refuse_merge(options, parts, problems);
  }
  const auto merged = gate::merge_gate_parts(parts);
  gate::gate_text_report table(std::cout, use_colour(options.colour));
  table.begin_merged(merged);
  for (const auto& run : merged.runs) {
    table.run_done(run);
  }
  if (!merged.error.empty()) {
    std::cerr << "s3fault gate merge: " << merged.error << "\n";
  } else {
    table.finish(merged);
  }
  return write_merge_reports(options, merged);
}

} // namespace

subcommand_runner add_gate_merge_command(CLI::App& gate) {
  auto options = std::make_shared<gate_merge_options>();
  auto* merge = gate.add_subcommand(
      "merge", "Joins the JSON reports of the shards of a gate (--shard) into the report of the "
               "whole ('s3fault gate merge --help')");
  merge->footer(
      "\nJoins the JSON reports of a sharded gate (`s3fault gate ... --shard K/N --json F`) into\n"
      "one report, as if one process had made every run: each run from the shard that owns it,\n"
      "in plan order; a run whose shape's baseline (from its owner) did not succeed NOT_JUDGED;\n"
      "the exit status of the whole (\"nothing was judged\" and \"no fault reached the reader\"\n"
      "apply here, not in the shards). A shard that could not judge makes it exit 2 naming the\n"
      "shard, an interrupted one 130.\n"
      "Refused (exit 2, every problem named, the reports asked for still written): a file that\n"
      "is not a shard's gate report (or an older one), parts with different settings (reader\n"
      "or writer, role, matrix, seed, timeout, selection, version), a shard given twice, shards\n"
      "counted differently, a missing shard.\n\n"
      "Example:\n"
      "  s3fault gate merge s1.json s2.json s3.json --json all.json --junit all.xml\n");
  merge->add_option("parts", options->parts, "The shards' JSON reports, one per shard");
  merge->add_option("--json", options->json_file, "Write the merged report as JSON");
  merge->add_option("--junit", options->junit_file, "Write the merged report as JUnit XML");
  merge->add_option("--color", options->colour, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  return {merge, [options] { return run_gate_merge(*options); }};
}

} // namespace s3fault::cli
