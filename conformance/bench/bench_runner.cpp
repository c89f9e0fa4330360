#include "conformance/bench/bench_runner.hpp"

#include "conformance/bench/baseline_match.hpp"
#include "conformance/bench/bench_clock.hpp"
#include "conformance/bench/bench_schedule.hpp"
#include "conformance/bench/bench_timeline.hpp"
#include "conformance/client/run_naming.hpp"

#include <chrono>
#include <memory>

namespace s3fault::bench {
namespace {

/// One store's part of a bench: its objects and the workers' clients that drive it.
struct store_bench {
  bench_fixtures fixtures;
  worker_pool workers;

  store_bench(const bench_settings& settings, const fixture_content& content,
              const store_target& store, std::string bucket, bool bucket_given, std::string prefix)
      : fixtures(settings, content, store, std::move(bucket), bucket_given, std::move(prefix)),
        workers(settings, fixtures) {}
};

using store_benches = std::vector<std::unique_ptr<store_bench>>;

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

/// --warmup: every cell runs once on every store for that long before round 1, its figures
/// thrown away, so that connections, caches and the stores' own warm-up do not land in the
/// first round.
template <class Stop>
void warm_up(const bench_settings& settings, store_benches& stores, const std::vector<cell>& cells,
             run_schedule& schedule, const Stop& stop_requested) {
  if (settings.warmup.count() <= 0) {
    return;
  }
  bench_settings warming = settings;
  warming.duration = settings.warmup;
  warming.count.reset();
  for (const auto& c : cells) {
    for (auto& store : stores) {
      if (stop_requested()) {
        return;
      }
      auto start = start_of(warming, c, schedule, settings.warmup);
      start.sample_store = false;
      run_cell(warming, store->workers, c, {}, start);
    }
  }
}

/// One run of one cell on one store, reported to the observer and kept in the report.
void run_once(const bench_settings& settings, store_bench& store, bench_report& report,
              const run_position& position, run_schedule& schedule, const bench_observer& observer,
              bench_timeline* timeline) {
  if (observer.run_started) {
    observer.run_started(position);
  }
  const auto store_index = static_cast<std::size_t>(position.store - settings.stores.data());
  auto start = start_of(settings, *position.measured, schedule, settings.duration);
  if (timeline != nullptr) {
    start.timeline = timeline->traffic();
    start.timeline_operation = timeline->operation_index(store_index, position.measured->op);
  }
  auto result = run_cell(
      settings, store.workers, *position.measured,
      [&](const run_progress& now) {
        if (observer.progress) {
          observer.progress(position, now);
        }
      },
      start);
  result.cell_index = position.cell_index;
  result.store = store_index;
  result.round = position.round;
  result.leg = position.leg;
  if (observer.run_done) {
    observer.run_done(position, result);
  }
  report.runs.push_back(std::move(result));
}

/// Every round of cells [begin, end) on every store, the stores in their rotating order, with
/// --control twice per store in alternating order.
template <class Stop>
void run_rounds(const bench_settings& settings, store_benches& stores, bench_report& report,
                std::size_t begin, std::size_t end, run_schedule& schedule,
                const bench_observer& observer, const Stop& stop_requested,
                bench_timeline* timeline) {
  const unsigned legs = settings.control ? 2 : 1;
  for (unsigned round = 1; round <= settings.rounds && !stop_requested(); ++round) {
    const auto order = run_order(stores.size(), round);
    for (std::size_t index = begin; index < end && !stop_requested(); ++index) {
      for (const std::size_t s : order) {
        for (unsigned step = 0; step < legs && !stop_requested(); ++step) {
          // Alternate which leg goes first, so that neither always runs on a warmer store.
          const unsigned leg = legs == 2 && round % 2 == 0 ? 1 - step : step;
          const run_position position{
              &report.cells[index], index, report.cells.size(), round,
              settings.rounds,      leg,   &settings.stores[s], stores.size()};
          run_once(settings, *stores[s], report, position, schedule, observer, timeline);
        }
        if (stop_requested()) {
          break;
        }
      }
    }
  }
}

/// Each store's bucket and key prefix. Stores may be one server under two names (a control):
/// each gets a bucket and a prefix of its own.
store_benches plan_stores(const bench_settings& settings, const fixture_content& content,
                          bench_report& report) {
  const std::string suffix = client::random_name_suffix(10);
  const bool bucket_given = !settings.bucket.empty();
  const bool several = settings.stores.size() > 1;
  store_benches stores;
  for (std::size_t i = 0; i < settings.stores.size(); ++i) {
    const auto& target = settings.stores[i];
    const std::string numbered = several ? "-" + std::to_string(i + 1) : "";
    const std::string bucket =
        bucket_given ? settings.bucket : "s3fault-bench-" + suffix + numbered;
    // Keys of one run share a prefix, so an existing bucket can hold several benches.
    const std::string prefix =
        "s3fault-bench/" + suffix + "/" + (several ? "store-" + std::to_string(i + 1) + "/" : "") +
        (settings.shard.sharded() ? "shard-" + std::to_string(settings.shard.index) + "/" : "");
    stores.push_back(
        std::make_unique<store_bench>(settings, content, target, bucket, bucket_given, prefix));
    report.stores.push_back({target.name, target.client.endpoint, bucket});
  }
  return stores;
}

void remove_all(store_benches& stores, const std::function<void(const std::string&)>& problem) {
  for (auto& store : stores) {
    store->fixtures.remove(problem);
  }
}

/// "store b (URL): " before a store's problem when there are several.
std::string store_prefix(const bench_settings& settings, const store_bench& store) {
  if (settings.stores.size() < 2) {
    return "";
  }
  return "store " + store.fixtures.store().name + " (" + store.fixtures.store().client.endpoint +
         "): ";
}

/// Runs `step` on every store; the first failure removes every store's objects and is thrown as
/// store_unusable, naming the store.
template <class Step>
void on_every_store(const bench_settings& settings, store_benches& stores, Step&& step) {
  for (auto& store : stores) {
    try {
      step(*store);
    } catch (const std::exception& error) {
      remove_all(stores, [](const std::string&) {});
      throw store_unusable(store_prefix(settings, *store) + error.what());
    }
  }
}

/// The rounds of every stored volume in turn. With --prefill the volume only grows: each
/// level's cells run all their rounds before the buckets are filled up to the next level.
template <class Stop>
void run_levels(const bench_settings& settings, store_benches& stores, bench_report& report,
                run_schedule& schedule, const bench_observer& observer, const Stop& stop_requested,
                bench_timeline* timeline) {
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
      // Each shard stores its share: together they hold the volume.
      on_every_store(settings, stores, [&](store_bench& store) {
        store.fixtures.fill_to(runtime::share_of(stored, settings.shard), 4);
      });
    }
    run_rounds(settings, stores, report, begin, end, schedule, observer, stop_requested, timeline);
    begin = end;
  }
}

} // namespace

bench_report run_bench(const bench_settings& settings, const baseline* earlier,
                       const bench_observer& observer) {
  const auto started = std::chrono::steady_clock::now();
  bench_report report;
  report.settings = &settings;
  report.started_at = client::utc_now_iso8601();
  report.shards = 1;
  report.cells = plan_cells(settings);
  report.baseline_source = earlier != nullptr ? earlier->source : "";
  report.earlier = earlier;
  if (earlier != nullptr) {
    report.baseline_mismatches = baseline_mismatches(settings, report.cells, *earlier);
  }
  const fixture_content content(settings);
  content.prepare_digests(report.cells);
  auto stores = plan_stores(settings, content, report);
  on_every_store(settings, stores,
                 [&](store_bench& store) { store.fixtures.create(report.cells, 4); });
  if (observer.fixtures_ready) {
    observer.fixtures_ready(report);
  }

  auto stop_requested = [&] {
    return settings.stop_requested != nullptr && settings.stop_requested->load();
  };
  // The shards of a bench line their runs up by the first store's clock.
  if (const auto clock =
          store_clock_offset(settings, settings.stores.front(), report.stores.front().bucket,
                             report.clock_offset_problem)) {
    report.clock_offset = clock->offset;
    report.clock_offset_uncertainty = clock->uncertainty;
  }
  run_schedule schedule(settings);
  report.paced = schedule.paced();
  warm_up(settings, stores, report.cells, schedule, stop_requested);
  // The timeline covers the measured runs: from after the warm-up to the last run's end.
  std::optional<bench_timeline> timeline;
  if (settings.timeline) {
    timeline.emplace(settings, report.cells);
    timeline->start();
  }
  run_levels(settings, stores, report, schedule, observer, stop_requested,
             timeline ? &*timeline : nullptr);
  if (timeline) {
    report.timeline = timeline->finish();
  }
  report.interrupted = stop_requested();
  summarize_and_compare(report, earlier);
  if (!settings.keep) {
    remove_all(stores, [&](const std::string& problem) {
      if (observer.cleanup_problem) {
        observer.cleanup_problem(problem);
      }
    });
  }
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

void summarize_and_compare(bench_report& report, const baseline* earlier) {
  const auto& settings = *report.settings;
  report.summaries = summarize_cells(report.cells, settings.stores.size(), report.runs);
  if (earlier != nullptr) {
    report.reference = reference_kind::baseline;
    compare_with_baseline(report.summaries, *earlier, settings.judging);
  } else if (settings.stores.size() > 1 && !settings.shard.sharded()) {
    // A shard holds its share of each cell's clients: the stores are compared once its parts
    // are merged (bench merge), as a baseline is.
    report.reference = reference_kind::store;
    std::vector<std::string> names;
    for (const auto& store : settings.stores) {
      names.push_back(store.name);
    }
    compare_with_first_store(report.summaries, names, settings.judging);
  }
}

int bench_exit_status(const bench_report& report) {
  const auto counts = count_comparisons(report.summaries);
  // A store slower than the reference is a finding; a regression against a baseline is a
  // failure. A comparison the rounds could not judge, or could not tell, does not pass either:
  // the tool could not see what it was asked to.
  const bool regressed = report.reference == reference_kind::baseline && counts.regressions > 0;
  if (regressed || counts.not_judged > 0 ||
      (counts.inconclusive > 0 && !report.settings->allow_inconclusive)) {
    return 1;
  }
  for (const auto& run : report.runs) {
    if (run.values[static_cast<std::size_t>(figure::errors)].value_or(0) > 0) {
      return 1;
    }
  }
  return 0;
}

bool several_stores(const bench_report& report) {
  return report.stores.size() > 1;
}

std::string describe(const bench_report& report, const cell_summary& summary) {
  return describe(summary.measured) +
         (several_stores(report) ? " on " + report.stores[summary.store].name : "");
}

std::string describe_stores(const bench_report& report) {
  std::string text;
  for (const auto& store : report.stores) {
    const std::string place = store.endpoint + ", bucket " + store.bucket;
    text +=
        (text.empty() ? "" : "; ") + (store.name.empty() ? place : store.name + " (" + place + ")");
  }
  return text;
}

} // namespace s3fault::bench
