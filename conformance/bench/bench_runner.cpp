#include "conformance/bench/bench_runner.hpp"

#include "conformance/bench/baseline_match.hpp"
#include "conformance/bench/bench_clock.hpp"
#include "conformance/bench/bench_schedule.hpp"
#include "conformance/client/run_naming.hpp"

#include <chrono>

namespace s3fault::bench {
namespace {

/// --warmup: every cell runs once for that long before round 1, its figures thrown away, so
/// that connections, caches and the store's own warm-up do not land in the first round.
/// How this process starts a run of `c`: its shard's share of the clients and of --count, at
/// the run's slot.
run_start start_of(const bench_settings& settings, const cell& c, run_schedule& schedule,
                   std::chrono::milliseconds length) {
  run_start start;
  start.workers = static_cast<unsigned>(runtime::share_of(c.concurrency, settings.shard));
  if (settings.count) {
    start.count = runtime::share_of(*settings.count, settings.shard);
  }
  start.not_before = schedule.next(length);
  return start;
}

template <class Stop>
void warm_up(const bench_settings& settings, worker_pool& workers, const std::vector<cell>& cells,
             run_schedule& schedule, const Stop& stop_requested) {
  if (settings.warmup.count() <= 0) {
    return;
  }
  bench_settings warming = settings;
  warming.duration = settings.warmup;
  warming.count.reset();
  warming.store_pids.clear();
  for (const auto& c : cells) {
    if (stop_requested()) {
      return;
    }
    run_cell(warming, workers, c, {}, start_of(warming, c, schedule, settings.warmup));
  }
}

/// Every round of cells [begin, end), with --control twice per round in alternating order.
template <class Stop>
void run_rounds(const bench_settings& settings, worker_pool& workers, bench_report& report,
                std::size_t begin, std::size_t end, run_schedule& schedule,
                const bench_observer& observer, const Stop& stop_requested) {
  const unsigned legs = settings.control ? 2 : 1;
  for (unsigned round = 1; round <= settings.rounds && !stop_requested(); ++round) {
    for (std::size_t index = begin; index < end && !stop_requested(); ++index) {
      for (unsigned step = 0; step < legs && !stop_requested(); ++step) {
        // Alternate which leg goes first, so that neither always runs on a warmer store.
        const unsigned leg = legs == 2 && round % 2 == 0 ? 1 - step : step;
        const run_position position{&report.cells[index], index, report.cells.size(), round,
                                    settings.rounds,      leg};
        if (observer.run_started) {
          observer.run_started(position);
        }
        const auto& measured = report.cells[index];
        auto result = run_cell(
            settings, workers, measured,
            [&](const run_progress& now) {
              if (observer.progress) {
                observer.progress(position, now);
              }
            },
            start_of(settings, measured, schedule, settings.duration));
        result.cell_index = index;
        result.round = round;
        result.leg = leg;
        if (observer.run_done) {
          observer.run_done(position, result);
        }
        report.runs.push_back(std::move(result));
      }
    }
  }
}

} // namespace

bench_report run_bench(const bench_settings& settings, const baseline* earlier,
                       const bench_observer& observer) {
  const auto started = std::chrono::steady_clock::now();
  bench_report report;
  report.settings = &settings;
  report.endpoint = settings.client.endpoint;
  report.started_at = client::utc_now_iso8601();
  report.shards = 1;
  report.cells = plan_cells(settings);
  report.baseline_source = earlier != nullptr ? earlier->source : "";
  report.earlier = earlier;
  if (earlier != nullptr) {
    report.baseline_mismatches = baseline_mismatches(settings, report.cells, *earlier);
  }
  const std::string suffix = client::random_name_suffix(10);
  const bool bucket_given = !settings.bucket.empty();
  report.bucket = bucket_given ? settings.bucket : "s3fault-bench-" + suffix;
  // Keys of one run share a prefix, so an existing bucket can hold several benches.
  bench_fixtures fixtures(
      settings, report.bucket, bucket_given,
      "s3fault-bench/" + suffix + "/" +
          (settings.shard.sharded() ? "shard-" + std::to_string(settings.shard.index) + "/" : ""));
  try {
    fixtures.create(report.cells, 4);
  } catch (const std::exception& error) {
    fixtures.remove([](const std::string&) {});
    throw store_unusable(error.what());
  }
  if (observer.fixtures_ready) {
    observer.fixtures_ready(fixtures);
  }

  auto stop_requested = [&] {
    return settings.stop_requested != nullptr && settings.stop_requested->load();
  };
  if (const auto clock = store_clock_offset(settings, report.bucket, report.clock_offset_problem)) {
    report.clock_offset = clock->offset;
    report.clock_offset_uncertainty = clock->uncertainty;
  }
  run_schedule schedule(settings);
  report.paced = schedule.paced();
  worker_pool workers(settings, fixtures);
  warm_up(settings, workers, report.cells, schedule, stop_requested);
  // With --prefill the volume only grows: each level's cells run all their rounds before the
  // bucket is filled up to the next level.
  std::size_t begin = 0;
  while (begin < report.cells.size() && !stop_requested()) {
    const std::uint64_t stored = report.cells[begin].stored;
    std::size_t end = begin;
    while (end < report.cells.size() && report.cells[end].stored == stored) {
      ++end;
    }
    if (stored > 0) {
      if (observer.filling) {
        observer.filling(stored);
      }
      try {
        // Each shard stores its share: together they hold the volume.
        fixtures.fill_to(runtime::share_of(stored, settings.shard), 4);
      } catch (const std::exception& error) {
        fixtures.remove([](const std::string&) {});
        throw store_unusable(error.what());
      }
    }
    run_rounds(settings, workers, report, begin, end, schedule, observer, stop_requested);
    begin = end;
  }
  report.interrupted = stop_requested();
  report.summaries = summarize_cells(report.cells, report.runs, earlier, settings.judging);
  if (!settings.keep) {
    fixtures.remove([&](const std::string& problem) {
      if (observer.cleanup_problem) {
        observer.cleanup_problem(problem);
      }
    });
  }
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

int bench_exit_status(const bench_report& report) {
  // A comparison the rounds could not judge does not pass either: the tool could not tell.
  if (!regressions(report.summaries).empty() || !unjudged(report.summaries).empty()) {
    return 1;
  }
  for (const auto& run : report.runs) {
    if (run.values[static_cast<std::size_t>(figure::errors)].value_or(0) > 0) {
      return 1;
    }
  }
  return 0;
}

} // namespace s3fault::bench
