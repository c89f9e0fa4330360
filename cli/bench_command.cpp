#include "cli/bench_command.hpp"

#include "cli/bench_merge_command.hpp"
#include "cli/bench_stores.hpp"
#include "cli/command_support.hpp"
#include "cli/duration.hpp"
#include "cli/start_time.hpp"
#include "cli/stop_signals.hpp"
#include "cli/timeline_options.hpp"
#include "conformance/bench/baseline_match.hpp"
#include "conformance/bench/bench_clock.hpp"
#include "conformance/bench/bench_reports.hpp"
#include "conformance/bench/workload_registry.hpp"
#include "conformance/origin/embedded_origin.hpp"
#include "metrics/store_probe.hpp"
#include "metrics/timeline_report.hpp"
#include "text/http_date.hpp"
#include "text/quantities.hpp"
#include "text/text.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace s3fault::cli {
namespace {

struct bench_options {
  bench_store_options stores;   // --endpoint or --store ..., keys, regions, --store-pid/cgroup
  std::vector<std::string> ops; // default: get (or mix with --mix)
  std::vector<std::string> mix;
  std::vector<std::string> prefill;
  std::string warmup = "0s";
  std::vector<std::string> sizes{"1MiB"};
  std::vector<std::string> concurrency{"1", "8", "32"};
  std::string duration = "10s";
  std::uint64_t count = 0;
  unsigned rounds = 0; // 0: bench::default_rounds for the stores
  unsigned objects = 8;
  std::string part_size = "8MiB";
  bool verify = true;
  bool control = false;
  bool strict = false;
  bool allow_inconclusive = false;
  double alpha = 0.01;
  std::string csv_file;
  std::string json_file;
  timeline_options timeline; // --timeline, --timeline-csv
  std::string html_file;
  std::string baseline_file;
  double min_change = 10;
  std::string bucket;
  bool keep = false;
  unsigned attempts = 5;
  unsigned client_threads = 0;
  std::uint64_t seed = 1;
  std::string progress = "auto";
  shard_options shard;
  std::string start_at;
  std::string test_clock_offset = "0s";
};

/// "5s", or "-5s" (a clock behind).
std::optional<std::chrono::milliseconds> parse_signed_duration(const std::string& text) {
  if (text.starts_with("-")) {
    const auto magnitude = parse_duration(text.substr(1));
    return magnitude ? std::optional(-*magnitude) : std::nullopt;
  }
  return parse_duration(text);
}

/// --start-at, the test's clock offset, and what a shard may not do.
void add_sharding_settings(const bench_options& options, bench::bench_settings& settings,
                           std::vector<std::string>& problems) {
  if (const auto offset = parse_signed_duration(options.test_clock_offset)) {
    settings.test_clock_offset = *offset;
  } else {
    problems.push_back("--test-clock-offset: '" + options.test_clock_offset +
                       "' is not a duration like 5s or -5s");
  }
  if (!options.start_at.empty()) {
    std::string error;
    settings.start_at =
        resolve_start_at(options.start_at, settings.shard, options.shard.shard == "auto",
                         runtime::process_environment(), bench::bench_now(settings), error);
    if (!settings.start_at) {
      problems.push_back(error);
    }
  }
  if (!settings.shard.sharded()) {
    return;
  }
  const std::string sharded =
      "--shard " + settings.shard.text() + " (" + settings.shard.source + ")";
  if (options.stores.endpoint.empty() && options.stores.stores.empty()) {
    problems.push_back(sharded + " needs --endpoint or --store: without one each process would "
                                 "benchmark an embedded origin of its own, not one store together");
  }
  if (!options.baseline_file.empty()) {
    problems.push_back(sharded + " with --baseline: a shard measures part of every cell; "
                                 "compare the merged report (s3fault bench merge PARTS... "
                                 "--baseline FILE)");
  }
}

/// --ops and --mix as settings.
void add_operation_settings(const bench_options& options, bench::bench_settings& settings,
                            std::vector<std::string>& problems) {
  settings.operations.clear();
  auto ops = options.ops;
  if (ops.empty()) {
    ops.emplace_back(options.mix.empty() ? "get" : "mix");
  }
  for (const auto& name : ops) {
    if (const auto op = bench::parse_operation(name)) {
      settings.operations.push_back(*op);
    } else {
      problems.push_back("--ops: '" + name + "' is not an operation " +
                         bench::operation_choices(name));
    }
  }
  settings.mix = bench::parse_mix(options.mix, problems);
  if (!settings.mix.empty() &&
      std::none_of(settings.operations.begin(), settings.operations.end(),
                   [](bench::operation op) { return op.workload().draws_from_mix(); })) {
    problems.emplace_back("--mix: --ops has no 'mix' cell to run it in (leave --ops out, or add "
                          "mix to it)");
  }
}

/// The axes of the cells and the stored volumes: --sizes, --prefill and --concurrency.
void add_cell_axes(const bench_options& options, bench::bench_settings& settings,
                   std::vector<std::string>& problems) {
  settings.sizes.clear();
  for (const auto& text : options.sizes) {
    if (const auto size = text::parse_size(text)) {
      settings.sizes.push_back(*size);
    } else {
      problems.push_back("--sizes: '" + text + "' is not a size like 4KiB, 10MiB or 1048576");
    }
  }
  for (const auto& text : options.prefill) {
    if (const auto size = text::parse_size(text)) {
      settings.prefill.push_back(*size);
    } else {
      problems.push_back("--prefill: '" + text + "' is not a size like 0, 1GiB or 500MiB");
    }
  }
  settings.concurrencies.clear();
  for (const auto& text : options.concurrency) {
    const auto level = text::parse_whole_number(text);
    if (level && *level >= 1 && *level <= 1024) {
      settings.concurrencies.push_back(static_cast<unsigned>(*level));
    } else {
      problems.push_back("--concurrency: '" + text + "' is not a whole number from 1 to 1024");
    }
  }
}

/// The command line as bench settings; every problem is collected, one line each.
bench::bench_settings make_settings(const bench_options& options, const runtime::shard& shard,
                                    std::vector<std::string>& problems) {
  bench::bench_settings settings;
  settings.shard = shard;
  add_sharding_settings(options, settings, problems);
  add_operation_settings(options, settings, problems);
  if (const auto warmup = parse_duration(options.warmup)) {
    settings.warmup = *warmup;
  } else {
    problems.push_back("--warmup: '" + options.warmup + "' is not a duration like 2s or 500ms");
  }
  add_cell_axes(options, settings, problems);
  if (options.count > 0) {
    settings.count = options.count;
  } else if (const auto duration = parse_duration(options.duration)) {
    settings.duration = *duration;
  } else {
    problems.push_back("--duration: '" + options.duration +
                       "' is not a duration like 10s or 500ms");
  }
  for (auto& problem : timeline_usage_mistakes(options.timeline)) {
    problems.push_back(std::move(problem));
  }
  if (!options.timeline.interval.empty()) {
    settings.timeline = parse_duration(options.timeline.interval);
  }
  settings.stores = bench_stores(options.stores, problems);
  settings.rounds =
      options.rounds != 0 ? options.rounds : bench::default_rounds(settings.stores.size());
  settings.objects = options.objects;
  if (const auto part = text::parse_size(options.part_size)) {
    settings.part_size = *part;
  } else {
    problems.push_back("--part-size: '" + options.part_size + "' is not a size like 8MiB");
  }
  settings.verify = options.verify;
  settings.control = options.control;
  settings.judging.min_change_percent = options.min_change;
  settings.judging.alpha = options.alpha;
  settings.allow_inconclusive = options.allow_inconclusive;
  settings.max_attempts = options.attempts;
  settings.client_threads = options.client_threads;
  settings.seed = options.seed;
  settings.bucket = options.bucket;
  settings.keep = options.keep;
  if (problems.empty()) {
    for (auto& problem : bench::validate(settings)) {
      problems.push_back(std::move(problem));
    }
  }
  return settings;
}

std::string about_time(const bench::bench_settings& settings, std::size_t cells) {
  if (settings.count) {
    return std::to_string(*settings.count) + " operations per run";
  }
  const double seconds = static_cast<double>(settings.duration.count()) / 1000.0 *
                         static_cast<double>(cells * settings.stores.size() * settings.rounds *
                                             (settings.control ? 2 : 1));
  char text[96];
  if (seconds < 120) {
    std::snprintf(text, sizeof text, "%g s per run, about %.0f s of runs",
                  static_cast<double>(settings.duration.count()) / 1000.0, seconds);
  } else {
    std::snprintf(text, sizeof text, "%g s per run, about %.0f min of runs",
                  static_cast<double>(settings.duration.count()) / 1000.0, seconds / 60.0);
  }
  return text;
}

/// Warns about each way the baseline was measured differently; with --strict refuses instead.
bool baseline_matches(const bench::bench_settings& settings, const bench::baseline& earlier,
                      bool strict) {
  const auto mismatches =
      bench::baseline_mismatches(settings, bench::plan_cells(settings), earlier);
  for (const auto& mismatch : mismatches) {
    std::cerr << "s3fault bench: " << (strict ? "" : "warning: ") << "not measured as the baseline "
              << earlier.source << " was: " << mismatch << "\n";
  }
  if (strict && !mismatches.empty()) {
    std::cerr << "s3fault bench: --strict: not comparing runs measured differently (run with the "
                 "baseline's settings, or without --strict to compare with warnings)\n";
    return false;
  }
  return true;
}

/// A report path, with {shard} replaced by this shard's number when sharded.
std::string report_path(const std::string& path, const runtime::shard& shard) {
  return shard.sharded() ? runtime::expand_shard_path(path, shard) : path;
}

/// What the first line adds for a shard and a start time.
std::string sharding_text(const bench::bench_settings& settings) {
  std::string text;
  if (settings.shard.sharded()) {
    text += "; shard " + settings.shard.text() + " (" + settings.shard.source + "): clients";
    for (const auto concurrency : settings.concurrencies) {
      text += (concurrency == settings.concurrencies.front() ? " " : ", ") +
              std::to_string(runtime::share_of(concurrency, settings.shard)) +
              " of c=" + std::to_string(concurrency);
    }
  }
  if (settings.start_at) {
    const auto wait = std::chrono::duration_cast<std::chrono::seconds>(*settings.start_at -
                                                                       bench::bench_now(settings));
    text += "; first run at " + text::format_iso8601(*settings.start_at) + " (in " +
            std::to_string(wait.count()) + " s" +
            (settings.count ? ", not paced: --count" : ", runs paced by the clock") + ")";
  }
  return text;
}

/// The bench cannot run: each reason on stderr and all of them in every report asked for (a
/// shard's JSON then tells `bench merge` why it is missing), exit 2.
int refuse_bench(const bench_options& options, const runtime::shard& shard,
                 const std::vector<std::string>& reasons) {
  std::string joined;
  for (const auto& reason : reasons) {
    std::cerr << "s3fault bench: " << reason << "\n";
    joined += (joined.empty() ? "" : "; ") + reason;
  }
  write_report_files(
      "bench",
      {{report_path(options.csv_file, shard), [&] { return bench::error_csv_report(joined); }},
       {report_path(options.json_file, shard),
        [&] { return bench::error_json_report(joined, shard); }},
       {report_path(options.html_file, shard), [&] { return bench::error_html_report(joined); }}});
  return 2;
}

/// The problems make_settings cannot see: the baseline file, what it may be compared with,
/// and the store processes; the baseline as read.
std::optional<bench::baseline> check_bench_inputs(const bench_options& options,
                                                  const bench::bench_settings& settings,
                                                  std::vector<std::string>& problems) {
  std::optional<bench::baseline> earlier;
  if (!options.baseline_file.empty() && settings.stores.size() > 1) {
    problems.emplace_back("--baseline with several --store: the stores are compared with the "
                          "first; compare one store with a baseline in a bench of its own");
  } else if (!options.baseline_file.empty()) {
    std::string error;
    earlier = bench::load_baseline_of_store(options.baseline_file, error);
    if (!earlier) {
      problems.push_back("--baseline: " + error);
    }
  }
  for (const auto& store : settings.stores) {
    const std::string named = store.name.empty() ? "" : " " + store.name;
    for (const int pid : store.pids) {
      std::string error;
      if (!metrics::store_probe::of_processes({pid}).read(error)) {
        problems.push_back("--store-pid" + named + ": " + error);
      }
    }
    std::string error;
    if (store.cgroup && !store.cgroup->read(error)) {
      problems.push_back("--store-cgroup" + named + ": " + error);
    }
  }
  return earlier;
}

/// --rounds that is not a multiple of the store count leaves the places unbalanced: said.
void warn_unbalanced_rounds(const bench_options& options, const bench::bench_settings& settings) {
  const auto stores = settings.stores.size();
  if (stores > 1 && options.rounds != 0 && settings.rounds % stores != 0) {
    std::cerr << "s3fault bench: warning: --rounds " << settings.rounds << " with " << stores
              << " stores: each store does not run first equally often; a multiple of " << stores
              << " balances the order\n";
  }
}

/// What the bench prints as it goes: the first line, live progress, one line per run.
bench::bench_observer make_observer(const bench_options& options,
                                    const bench::bench_settings& settings, std::size_t cell_count) {
  const bool live_progress =
      options.progress == "always" ||
      (options.progress == "auto" && isatty(STDOUT_FILENO) && env_or("CI", "") != "true");
  bench::bench_observer observer;
  observer.fixtures_ready = [&settings, cell_count](const bench::bench_report& report) {
    std::cout << "s3fault bench: " << bench::describe_stores(report) << "; " << cell_count
              << (cell_count == 1 ? " cell" : " cells")
              << (settings.stores.size() > 1
                      ? " x " + std::to_string(settings.stores.size()) + " stores"
                      : "")
              << " x " << settings.rounds << (settings.rounds == 1 ? " round" : " rounds")
              << (settings.control ? " x 2 control runs" : "") << ", "
              << about_time(settings, cell_count) << sharding_text(settings) << "\n";
    // Which cgroup files stand for the store, and the figures it lacks (a partial v1 cgroup).
    for (const auto& store : settings.stores) {
      if (store.cgroup) {
        std::cout << "s3fault bench: sampling " << (store.name.empty() ? "" : store.name + ": ")
                  << store.cgroup->describe() << "\n";
      }
    }
    std::cout.flush();
  };
  observer.progress = [&settings, live_progress](const bench::run_position& position,
                                                 const bench::run_progress& now) {
    if (live_progress) {
      std::cout << "\r\x1b[2K" << bench::progress_line(position, now, settings) << std::flush;
    }
  };
  observer.run_done = [live_progress](const bench::run_position& position,
                                      const bench::run_result& result) {
    std::cout << (live_progress ? "\r\x1b[2K" : "") << bench::run_line(position, result) << "\n"
              << std::flush;
  };
  observer.filling = [](std::uint64_t stored) {
    std::cout << "s3fault bench: --prefill: filling the bucket up to " << bench::format_size(stored)
              << " of filler objects\n"
              << std::flush;
  };
  observer.cleanup_problem = [](const std::string& problem) {
    std::cerr << "s3fault bench: left behind: " << problem << "\n";
  };
  return observer;
}

/// Runs the cells of usable settings and writes the reports; the exit status.
int measure(const bench_options& options, const runtime::shard& shard,
            bench::bench_settings& settings, const std::optional<bench::baseline>& earlier) {
  // Ctrl-C ends the run in progress early, summarizes what ran and removes the fixtures.
  static std::atomic<bool> stop_requested{false};
  block_stop_signals();
  stop_on_signals([] { stop_requested = true; });
  settings.stop_requested = &stop_requested;

  std::unique_ptr<origin::embedded_origin> embedded;
  auto& only = settings.stores.front();
  if (settings.stores.size() == 1 && only.client.endpoint.empty()) {
    try {
      embedded = std::make_unique<origin::embedded_origin>();
    } catch (const std::exception& error) {
      return refuse_bench(options, shard,
                          {std::string("cannot start the embedded origin: ") + error.what()});
    }
    aim_at_embedded_origin(only.client, embedded->url());
    std::cout << "no --endpoint: benchmarking the embedded origin at " << embedded->url()
              << " (in this process)\n";
  }
  const auto observer = make_observer(options, settings, bench::plan_cells(settings).size());
  bench::bench_report report;
  try {
    report = bench::run_bench(settings, earlier ? &*earlier : nullptr, observer);
  } catch (const bench::store_unusable& error) {
    return refuse_bench(
        options, shard,
        {(settings.stores.size() == 1 ? "the store at " + settings.stores.front().client.endpoint
                                      : std::string("a store")) +
         " cannot be benchmarked: " + error.what()});
  } catch (const std::exception& error) {
    return refuse_bench(options, shard, {error.what()});
  }
  bench::print_summary(std::cout, report);
  if (options.keep) {
    for (const auto& store : report.stores) {
      std::cout << "kept: " << (store.name.empty() ? "" : store.name + ": ") << "bucket "
                << store.bucket << " and its s3fault-bench/ objects\n";
    }
  }
  const bool written = write_report_files(
      "bench", {{report_path(options.csv_file, shard), [&] { return bench::csv_report(report); }},
                {report_path(options.json_file, shard), [&] { return bench::json_report(report); }},
                {report_path(options.html_file, shard), [&] { return bench::html_report(report); }},
                {report_path(options.timeline.csv, shard), [&] {
                   return report.timeline ? metrics::timeline_csv(*report.timeline) : std::string();
                 }}});
  return job_exit_status(written, report.interrupted, bench::bench_exit_status(report));
}

/// Validation (every problem at once, in the reports too), then the measuring.
int run_bench_command(const bench_options& options) {
  const auto shard = resolve_shard("s3fault bench: ", options.shard);
  if (!shard) {
    return 2;
  }
  if (!report_paths_writable("bench",
                             {{"--csv", report_path(options.csv_file, *shard)},
                              {"--json", report_path(options.json_file, *shard)},
                              {"--html", report_path(options.html_file, *shard)},
                              {"--timeline-csv", report_path(options.timeline.csv, *shard)}})) {
    return 2;
  }
  std::vector<std::string> problems;
  auto settings = make_settings(options, *shard, problems);
  const auto earlier = check_bench_inputs(options, settings, problems);
  if (!problems.empty()) {
    return refuse_bench(options, *shard, problems);
  }
  warn_unbalanced_rounds(options, settings);
  if (earlier && !baseline_matches(settings, *earlier, options.strict)) {
    return refuse_bench(
        options, *shard,
        {"--strict: the baseline " + earlier->source + " was measured differently"});
  }
  return measure(options, *shard, settings, earlier);
}

/// What the cells are: operations, sizes, concurrency, how long and how often each runs.
void declare_cell_options(CLI::App& command, bench_options& o) {
  command
      .add_option("--ops", o.ops,
                  "Operations, comma-separated: " + bench::describe_workloads() +
                      "; default: get, or mix with --mix")
      ->delimiter(',');
  command
      .add_option("--mix", o.mix,
                  "The operations of a mix cell with weights, e.g. get=70,put=20,delete=10: "
                  "each operation is drawn by weight (the same sequence every round)")
      ->delimiter(',');
  command
      .add_option("--prefill", o.prefill,
                  "Stored-volume sweep, e.g. 0,1GiB,4GiB: the bucket is filled with 8 MiB "
                  "filler objects up to each volume in turn, and every cell runs at each")
      ->delimiter(',');
  command
      .add_option("--warmup", o.warmup,
                  "Run every cell this long before the first round, unmeasured, e.g. 2s")
      ->capture_default_str();
  command.add_option("--sizes", o.sizes, "Object sizes, e.g. 4KiB,1MiB,8MiB,64MiB")
      ->delimiter(',')
      ->capture_default_str();
  command.add_option("--concurrency", o.concurrency, "Concurrent clients, e.g. 1,8,32")
      ->delimiter(',')
      ->default_str("[1,8,32]"); // how the help shows a list default
  auto* duration = command
                       .add_option("--duration", o.duration,
                                   "How long each run of a cell lasts, e.g. 10s, 500ms")
                       ->capture_default_str();
  command.add_option("--count", o.count, "Operations per run of a cell, instead of --duration")
      ->check(CLI::PositiveNumber)
      ->excludes(duration);
  command
      .add_option("--rounds", o.rounds,
                  "Runs of every cell (on every store); the median is reported. Default 3, with "
                  "several --store the next multiple of their count (2 stores: 4)")
      ->check(CLI::Range(1u, 1000u));
  command
      .add_option("--objects", o.objects,
                  "Objects per size that reads rotate over (and keys put overwrites)")
      ->capture_default_str();
  command
      .add_option("--part-size", o.part_size,
                  "Part size of the get-parts objects and range size of get-ranges")
      ->capture_default_str();
  command.add_flag("--verify,!--no-verify", o.verify,
                   "Check the content of every read (a hash of every byte against the object's) "
                   "and the ETag of every put; on by default, --no-verify checks lengths only");
  command.add_flag("--control", o.control,
                   "Run every cell twice per round and report the noise band");
}

/// What is measured besides the traffic, where the figures go and what they are judged against.
void declare_report_options(CLI::App& command, bench_options& o) {
  command.add_option("--csv", o.csv_file, "Write the per-cell figures as CSV");
  command.add_option("--json", o.json_file, "Write the per-cell figures and every run as JSON");
  command.add_option("--html", o.html_file, "Write one self-contained HTML page with SVG charts");
  declare_timeline_options(command, o.timeline, false);
  command.add_option("--baseline", o.baseline_file,
                     "Compare with an earlier --csv or --json file of the same cells; FILE:NAME "
                     "for the store NAME of a bench of several --store");
  command
      .add_option("--min-change", o.min_change,
                  "Percent a figure must change by, at least, to be flagged against the baseline")
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  command
      .add_option("--alpha", o.alpha,
                  "False-alarm rate per compared figure: the chance that a figure which did not "
                  "change is flagged")
      ->check(CLI::Range(0.0001, 0.5))
      ->capture_default_str();
  command.add_flag("--allow-inconclusive", o.allow_inconclusive,
                   "Do not fail (exit 1) when a compared figure's rounds could not tell a change "
                   "of --min-change from none; the verdict still says inconclusive");
  command.add_flag("--strict", o.strict,
                   "Refuse (exit 2) to compare with a baseline measured with other settings or "
                   "other cells, instead of warning");
}

/// The bucket, the clients, the progress line and the sharding of the work.
void declare_run_options(CLI::App& command, bench_options& o) {
  command.add_option("--bucket", o.bucket,
                     "Use this existing bucket (objects under s3fault-bench/<random>/); "
                     "default: create s3fault-bench-<random>");
  command.add_flag("--keep", o.keep, "Leave the bucket and objects in place");
  command
      .add_option("--client-threads", o.client_threads,
                  "Threads the bench's clients run on, each an event loop with its share of the "
                  "--concurrency clients as fibers; 0: one per core. Over https every client "
                  "has a thread of its own")
      ->check(CLI::Range(0u, 1024u))
      ->capture_default_str();
  command
      .add_option("--attempts", o.attempts,
                  "Attempts per request for SlowDown, 5xx and broken connections")
      ->check(CLI::Range(1u, 100u))
      ->capture_default_str();
  command.add_option("--seed", o.seed, "Seed of the object bytes and backoff jitter")
      ->capture_default_str();
  command
      .add_option("--progress", o.progress,
                  "Live progress line: auto (on a terminal, not when CI=true), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  add_shard_options(&command, o.shard, "workers of every cell (and of --count)");
  command.add_option("--start-at", o.start_at,
                     "Start the first run at this time, RFC 3339 (2026-12-05T14:00:00Z) or +30s "
                     "(after $S3FAULT_START_AT when set, else now); with --duration every run then "
                     "has its slot (its duration + 2 s + 10 %), so shards run each cell together");
  command
      .add_option("--test-clock-offset", o.test_clock_offset,
                  "Tests only: add this to the clock (play a machine whose clock is off)")
      ->group("");
}

/// What `s3fault bench --help` says before the options.
constexpr const char* bench_about =
    "Drives a store with S3 operations and measures it: for every cell (operation x object\n"
    "size x concurrency) throughput in MiB/s and operations/s, latency and time to first\n"
    "byte p50/p90/p99/max, errors and retries. SlowDown, 500, 502, 503, 504 and broken\n"
    "connections are retried with full-jitter backoff (and counted), as SDKs do; every read is\n"
    "checked for its length and content (a hash of every byte; --no-verify: length only).\n"
    "Each cell runs --rounds times (rounds are the outer loop, so drift spreads over all\n"
    "cells); the median is reported with min and max. --control runs each cell twice per\n"
    "round, in alternating order, and reports the spread within the pairs as the noise band.\n"
    "--store NAME=URL (repeated) compares stores in one run: every cell runs on every store,\n"
    "their order rotating from round to round so that drift falls on all alike, and each\n"
    "store is judged against the first (per cell the medians side by side and the ratio with\n"
    "its interval; per operation the range of ratios, 'get MiB/s, b against a: 4.0x-4.7x\n"
    "slower in 6 of 6 cells').\n"
    "--baseline compares with an earlier --csv or --json file, round by round. Either way\n"
    "Student's t on the logarithms of the rounds flags a figure only when the change is\n"
    "significant at --alpha (the false-alarm rate per figure, 1 %), beyond the control band\n"
    "and at least --min-change (10 %); each figure shows the smallest drop and rise its rounds\n"
    "could detect. A figure whose rounds could not have seen a change of --min-change, and saw\n"
    "none, is 'cannot tell': the verdict is then inconclusive, with the rounds that would do,\n"
    "and it does not pass (--allow-inconclusive lets it). A figure that cannot be judged at\n"
    "all (one round on each side, no value because every operation failed) is named and does\n"
    "not pass. Settings or cells that differ from the baseline are warned about (--strict:\n"
    "refused).\n"
    "The CSV, JSON and HTML files carry the printed figures with the same digits.\n"
    "To measure through a proxy, point --endpoint (or a --store) at an `s3fault proxy`; its\n"
    "/metrics then show the same traffic from the other side.\n"
    "Exit status: 0 when every operation succeeded and every compared figure was judged and\n"
    "could tell (a store slower than the first is a finding, not a failure) and, against a\n"
    "baseline, none regressed; 1 when not; 2 for bad options, an unusable store or (--strict)\n"
    "a baseline measured differently; 130 after Ctrl-C.\n"
    "\n"
    "Examples:\n"
    "  s3fault bench                                  # the embedded origin, get 1MiB\n"
    "  s3fault bench --endpoint http://127.0.0.1:7480 --access-key K --secret-key S \\\n"
    "    --ops put,get,get-parts --sizes 4KiB,8MiB,64MiB --concurrency 1,8,32 --csv run.csv\n"
    "  s3fault bench --store minio=http://127.0.0.1:9000 --store garage=http://127.0.0.1:3900 \\\n"
    "    --store-keys garage=GK31:SECRET --ops get,put --sizes 1MiB,10MiB --html stores.html\n"
    "  s3fault bench --endpoint URL --ops get --sizes 10MiB --concurrency 32 --duration 10s \\\n"
    "    --rounds 3 --control --baseline run.csv --html run.html --store-pid $(pidof radosgw)\n"
    "  s3fault bench --endpoint URL --ops put --store-cgroup \\\n"
    "    \"$(systemctl show -p ControlGroup --value minio.service)\"   # the store's cgroup";

} // namespace

std::function<int()> add_bench_command(CLI::App& app) {
  auto options = std::make_shared<bench_options>();
  auto* command = app.add_subcommand("bench", bench_about);
  declare_bench_store_options(*command, options->stores);
  declare_cell_options(*command, *options);
  declare_report_options(*command, *options);
  declare_run_options(*command, *options);
  auto run_merge = add_bench_merge_command(*command);
  return [options, run_merge]() {
    if (run_merge.parsed()) {
      return run_merge.run();
    }
    return run_bench_command(*options);
  };
}

} // namespace s3fault::cli
