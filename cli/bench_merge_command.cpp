#include "cli/bench_merge_command.hpp"

#include "cli/command_support.hpp"
#include "conformance/bench/bench_merge.hpp"
#include "conformance/bench/bench_reports.hpp"

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace s3fault::cli {
namespace {

struct bench_merge_options {
  std::vector<std::string> parts;
  std::string csv_file;
  std::string json_file;
  std::string html_file;
  std::string baseline_file;
  bool allow_inconclusive = false;
};

/// Each part's text; nullopt after naming each file that cannot be read.
std::optional<std::vector<bench::part_file>>
read_bench_parts(const std::vector<std::string>& paths) {
  std::vector<bench::part_file> parts;
  bool readable = true;
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (!in || !(text << in.rdbuf())) {
      std::cerr << "s3fault bench merge: " << path << ": cannot read\n";
      readable = false;
      continue;
    }
    parts.push_back({path, text.str()});
  }
  return readable ? std::optional(std::move(parts)) : std::nullopt;
}

int run_bench_merge(const bench_merge_options& options) {
  if (!report_paths_writable("bench merge", {{"--csv", options.csv_file},
                                             {"--json", options.json_file},
                                             {"--html", options.html_file}})) {
    return 2;
  }
  const auto parts = read_bench_parts(options.parts);
  if (!parts) {
    return 2;
  }
  std::optional<bench::baseline> earlier;
  if (!options.baseline_file.empty()) {
    std::string error;
    earlier = bench::load_baseline_of_store(options.baseline_file, error);
    if (!earlier) {
      std::cerr << "s3fault bench merge: --baseline: " << error << "\n";
      return 2;
    }
  }
  const auto outcome = bench::merge_bench_parts(*parts, earlier ? &*earlier : nullptr);
  if (!outcome.merged) {
    for (const auto& refusal : outcome.refusals) {
      std::cerr << "s3fault bench merge: " << refusal << "\n";
    }
    return 2;
  }
  outcome.merged->settings.allow_inconclusive = options.allow_inconclusive;
  const auto& report = outcome.merged->report;
  std::cout << "s3fault bench merge: " << report.shards << " shards of "
            << bench::describe_stores(report) << "\n";
  for (const auto& note : report.notes) {
    std::cout << "  " << note << "\n";
  }
  bench::print_summary(std::cout, report);
  const bool written = write_report_files(
      "bench merge", {{options.csv_file, [&] { return bench::csv_report(report); }},
                      {options.json_file, [&] { return bench::json_report(report); }},
                      {options.html_file, [&] { return bench::html_report(report); }}});
  return job_exit_status(written, report.interrupted, bench::bench_exit_status(report));
}

} // namespace

subcommand_runner add_bench_merge_command(CLI::App& bench) {
  auto options = std::make_shared<bench_merge_options>();
  auto* command = bench.add_subcommand(
      "merge",
      "Merges the JSON reports of the shards of one bench (--shard K/N or --shard auto) into one\n"
      "report, as if one process had run every client: per run of a cell, operations, bytes,\n"
      "errors and retries summed, the latency and TTFB histograms added bucket by bucket (the\n"
      "percentiles are those of all samples), rates over the run's whole window (the earliest\n"
      "shard's first request to the latest shard's last answer).\n"
      "Refused (exit 2, each reason named): a file that is not a shard's JSON report of this\n"
      "version, settings that differ, shards missing or twice, paced runs whose windows overlap\n"
      "by less than 90 %, clocks (from each shard's look at the store's Date) more than 2 s\n"
      "apart. Parts of a bench of several --store merge store by store, and the merged stores are\n"
      "compared with the first as in one bench. Exit status otherwise as a bench's: 0, or 1 on\n"
      "errors, a regression against --baseline, a figure not judged, or one whose rounds could\n"
      "not tell a change of --min-change (unless --allow-inconclusive).\n\n"
      "Example:\n"
      "  mpirun -np 3 s3fault bench --endpoint URL --shard auto --start-at 2026-12-05T14:00:00Z "
      "\\\n"
      "    --json 'part-{shard}.json'\n"
      "  s3fault bench merge part-1.json part-2.json part-3.json --json merged.json --html m.html");
  command->add_option("parts", options->parts, "The shards' --json reports")->required();
  command->add_option("--csv", options->csv_file, "Write the merged per-cell figures as CSV");
  command->add_option("--json", options->json_file, "Write the merged report as JSON");
  command->add_option("--html", options->html_file, "Write the merged report as an HTML page");
  command->add_option("--baseline", options->baseline_file,
                      "Compare the merged cells with an earlier --csv or --json file (FILE:NAME "
                      "for the store NAME of a bench of several --store), with the shards' "
                      "--alpha and --min-change");
  command->add_flag("--allow-inconclusive", options->allow_inconclusive,
                    "Do not fail (exit 1) when a compared figure's rounds could not tell a "
                    "change of --min-change from none");
  return {command, [options] { return run_bench_merge(*options); }};
}

} // namespace s3fault::cli
