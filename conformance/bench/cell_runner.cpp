#include "conformance/bench/cell_runner.hpp"

#include "conformance/bench/bench_clock.hpp"
#include "conformance/client/endpoint.hpp"
#include "conformance/client/fiber_loop.hpp"
#include "metrics/latency_histogram.hpp"
#include "metrics/store_sampler.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace s3fault::bench {
namespace {

using clock = std::chrono::steady_clock;

std::uint64_t whole_micros(clock::duration d) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(d).count());
}

/// What the workers of one run share.
struct run_tally {
  metrics::latency_histogram latency;
  metrics::latency_histogram ttfb;
  std::atomic<std::uint64_t> next_index{0};
  std::atomic<std::uint64_t> finished{0};
  std::atomic<std::uint64_t> succeeded{0};
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> errors{0};
  std::atomic<std::uint64_t> retries{0};
  std::atomic<std::uint64_t> timed_ns{0}; // the sum of the timed spans
  std::atomic<unsigned> running{0};
  std::atomic<std::int64_t> last_finish_ns{0}; // since the start, of the last worker to stop
  std::mutex error_mutex;
  std::string first_error;
  std::string first_note;

  void record(const operation_outcome& outcome) {
    retries += outcome.retries;
    if (!outcome.note.empty()) {
      const std::lock_guard lock(error_mutex);
      if (first_note.empty()) {
        first_note = outcome.note;
      }
    }
    timed_ns += static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(outcome.latency).count());
    if (outcome.ok) {
      latency.record(whole_micros(outcome.latency));
      ttfb.record(whole_micros(outcome.ttfb));
      bytes += outcome.bytes;
      ++succeeded;
    } else {
      ++errors;
      keep_first_error(outcome.error);
    }
    ++finished;
  }

  /// A worker that stopped with an exception: counted as a failed operation.
  void record_failure(const std::string& why) {
    ++errors;
    keep_first_error(why);
  }

  void keep_first_error(const std::string& why) {
    const std::lock_guard lock(error_mutex);
    if (first_error.empty()) {
      first_error = why;
    }
  }
};

/// An operation as a timeline records it: an answer (200) or none (a failure), its body bytes,
/// times and the client's retries.
metrics::exchange_sample timeline_sample(const operation_outcome& outcome, int operation) {
  metrics::exchange_sample sample;
  sample.operation = operation;
  sample.status = outcome.ok ? 200 : 0;
  sample.failed = !outcome.ok;
  sample.bytes_out = outcome.bytes;
  sample.duration_us = whole_micros(outcome.latency);
  sample.ttfb_us = whole_micros(outcome.ttfb);
  sample.known_retries = outcome.retries;
  return sample;
}

/// Decrements a count of running workers when it goes out of scope.
struct release_on_exit {
  std::atomic<unsigned>& running;
  ~release_on_exit() { --running; }
};

/// Event-loop threads for `concurrency` workers: one per core (or --client-threads), never more
/// than there are workers; one per worker over TLS, whose I/O blocks its thread.
unsigned loop_threads(const bench_settings& settings, const store_target& store,
                      unsigned concurrency) {
  if (client::endpoint::parse(store.client.endpoint).tls) {
    return concurrency;
  }
  const unsigned wanted = settings.client_threads != 0
                              ? settings.client_threads
                              : std::max(1u, std::thread::hardware_concurrency());
  return std::min(concurrency, wanted);
}

run_counts counts_of(const run_tally& tally) {
  run_counts counts;
  counts.succeeded = tally.succeeded;
  counts.errors = tally.errors;
  counts.retries = tally.retries;
  counts.bytes = tally.bytes;
  counts.timed_ns = tally.timed_ns;
  counts.latency = tally.latency.nonzero_buckets();
  counts.latency_sum_us = tally.latency.sum_micros();
  counts.latency_max_us = tally.latency.max_micros();
  counts.ttfb = tally.ttfb.nonzero_buckets();
  counts.ttfb_sum_us = tally.ttfb.sum_micros();
  counts.ttfb_max_us = tally.ttfb.max_micros();
  return counts;
}

void fill_figures(run_result& result, const run_tally& tally) {
  result.counts = counts_of(tally);
  result.values = figures_from(result.counts, result.measured.op, result.workers, result.seconds);
  result.bytes = tally.bytes;
  result.first_error = tally.first_error;
  result.note = tally.first_note;
}

/// The store's figures of a run; those its probe cannot give (a v1 cgroup outside cpuacct has
/// no CPU time) stay empty.
void fill_store_figures(run_result& result, const metrics::store_usage& usage) {
  result.store_error = usage.error;
  if (usage.samples == 0) {
    return;
  }
  auto& v = result.values;
  if (usage.figures.memory) {
    set_figure(v, figure::store_rss_max_mib, usage.rss_max_mib);
    set_figure(v, figure::store_rss_mean_mib, usage.rss_mean_mib);
  }
  if (usage.figures.threads) {
    set_figure(v, figure::store_threads_max, usage.threads_max);
    set_figure(v, figure::store_threads_mean, usage.threads_mean);
  }
  if (usage.figures.cpu) {
    set_figure(v, figure::store_cpu_max_percent, usage.cpu_max_percent);
    set_figure(v, figure::store_cpu_mean_percent, usage.cpu_mean_percent);
  }
}

} // namespace

worker_pool::worker_pool(const bench_settings& settings, const bench_fixtures& fixtures)
    : settings_(settings), fixtures_(fixtures) {}

operation_runner& worker_pool::worker(unsigned index) {
  while (workers_.size() <= index) {
    workers_.push_back(std::make_unique<operation_runner>(settings_, fixtures_,
                                                          static_cast<unsigned>(workers_.size())));
  }
  return *workers_[index];
}

run_result run_cell(const bench_settings& settings, worker_pool& workers, const cell& measured,
                    const std::function<void(const run_progress&)>& progress,
                    const run_start& start, std::chrono::milliseconds progress_every) {
  run_result result;
  result.measured = measured;
  const unsigned concurrency = start.workers != 0 ? start.workers : measured.concurrency;
  result.workers = concurrency;
  const std::optional<std::uint64_t> count =
      settings.count ? std::optional(start.count.value_or(*settings.count)) : std::nullopt;
  auto tally = std::make_unique<run_tally>();
  // Every run opens its connections anew, one after another in worker order, before the timed
  // span. Reused across runs, the connections a bench happened to open in its first run (the
  // workers start together, so in any order) set for all its rounds which store thread serves
  // which client thread: against the 2-thread origin that alone moved whole benches by 20 %,
  // a difference between benches that no round of one bench could show.
  for (unsigned w = 0; w < concurrency; ++w) {
    workers.worker(w).reconnect();
  }
  auto stop_requested = [&] {
    return settings.stop_requested != nullptr && settings.stop_requested->load();
  };
  if (start.not_before) {
    sleep_until(settings, *start.not_before, stop_requested);
  }
  std::unique_ptr<metrics::store_sampler> sampler;
  if (auto probe = store_probe_of(workers.store()); probe && start.sample_store) {
    sampler = std::make_unique<metrics::store_sampler>(std::move(*probe));
  }
  const auto started = clock::now();
  result.started_unix_us = unix_micros(bench_now(settings));
  const auto deadline = started + settings.duration;
  auto work = [&](unsigned w) {
    // However this ends: the progress loop below waits for every worker to stop.
    const release_on_exit counted{tally->running};
    auto& runner = workers.worker(w);
    for (;;) {
      if (stop_requested()) {
        break;
      }
      std::uint64_t index = 0;
      if (count) {
        index = tally->next_index++;
        if (index >= *count) {
          break;
        }
      } else {
        if (clock::now() >= deadline) {
          break;
        }
        index = tally->next_index++;
      }
      const auto outcome = runner.run(measured, index);
      tally->record(outcome);
      if (start.timeline != nullptr) {
        start.timeline->record(timeline_sample(outcome, start.timeline_operation));
      }
    }
    const std::int64_t finished_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - started).count();
    std::int64_t seen = tally->last_finish_ns.load();
    while (finished_ns > seen && !tally->last_finish_ns.compare_exchange_weak(seen, finished_ns)) {
    }
  };
  // Workers w, w + loops, w + 2 loops ... share one thread's event loop as fibers.
  const unsigned loops = loop_threads(settings, workers.store(), concurrency);
  std::vector<std::thread> threads;
  tally->running = concurrency;
  for (unsigned l = 0; l < loops; ++l) {
    threads.emplace_back([&, l] {
      client::fiber_loop loop;
      for (unsigned w = l; w < concurrency; w += loops) {
        loop.spawn([&work, w] { work(w); });
      }
      try {
        loop.run();
      } catch (const std::exception& e) {
        tally->record_failure(std::string("a bench worker stopped: ") + e.what());
      }
    });
  }
  auto last_report = started;
  std::uint64_t last_bytes = 0;
  while (tally->running > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto now = clock::now();
    if (progress && now - last_report >= progress_every) {
      const std::uint64_t bytes = tally->bytes;
      const double interval = std::chrono::duration<double>(now - last_report).count();
      progress({std::chrono::duration<double>(now - started).count(), tally->finished.load(), bytes,
                static_cast<double>(bytes - last_bytes) / (1024.0 * 1024.0) / interval});
      last_report = now;
      last_bytes = bytes;
    }
  }
  for (auto& thread : threads) {
    thread.join();
  }
  result.cut_short = stop_requested();
  // Up to the last answer, not to when this thread noticed.
  result.seconds = static_cast<double>(tally->last_finish_ns.load()) / 1e9;
  result.ended_unix_us = result.started_unix_us + tally->last_finish_ns.load() / 1000;
  fill_figures(result, *tally);
  if (sampler) {
    fill_store_figures(result, sampler->finish());
  }
  return result;
}

} // namespace s3fault::bench
