#include "conformance/gate/gate_runner.hpp"

#include "conformance/client/run_naming.hpp"
#include "conformance/gate/run_shard.hpp"
#include "conformance/gate/run_worker.hpp"
#include "conformance/origin/embedded_origin.hpp"
#include "runtime/build_info.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace s3fault::gate {
namespace {

/// Runs `runs` on `workers` threads; results land at their index. Stops taking runs when
/// `stop()` says so; the first gate_error ends every run and is rethrown.
class run_pool {
public:
  run_pool(std::vector<std::unique_ptr<run_worker>>& workers, const gate_observer& observer,
           std::atomic<bool>& failed)
      : workers_(workers), observer_(observer), failed_(failed) {}

  void run(const std::vector<const planned_run*>& runs,
           std::vector<std::optional<run_result>>& results, const std::function<bool()>& stop) {
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    for (auto& worker : workers_) {
      threads.emplace_back([&, w = worker.get()] {
        while (!stop()) {
          const std::size_t i = next++;
          if (i >= runs.size()) {
            break;
          }
          run_one(*w, *runs[i], results[i]);
        }
      });
    }
    for (auto& thread : threads) {
      thread.join();
    }
    if (error_) {
      std::rethrow_exception(error_);
    }
  }

  /// Reports a result that was decided without a run (NOT_JUDGED).
  void report(const run_result& result) {
    std::lock_guard lock(mutex_);
    if (observer_.run_done) {
      observer_.run_done(result);
    }
  }

private:
  void run_one(run_worker& worker, const planned_run& planned, std::optional<run_result>& slot) {
    try {
      auto result = worker.run(planned);
      std::lock_guard lock(mutex_);
      if (result && !failed_) {
        slot = std::move(result);
        if (observer_.run_done) {
          observer_.run_done(*slot);
        }
      }
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) {
        error_ = std::current_exception();
      }
      failed_ = true;
    }
  }

  std::vector<std::unique_ptr<run_worker>>& workers_;
  const gate_observer& observer_;
  std::atomic<bool>& failed_;
  std::mutex mutex_;
  std::exception_ptr error_;
};

run_result not_judged_run(const planned_run& planned, const run_result& baseline, run_role role) {
  run_result result = named_result(planned);
  result.judged = not_judged(baseline.judged.result, planned.shape->name, role);
  return result;
}

std::string create_bucket(client::s3_client& store, const std::string& upstream) {
  const std::string bucket = "s3fault-gate-" + client::random_name_suffix(8);
  if (const auto created = store.create_bucket(bucket); !created.ok()) {
    throw gate_error("creating bucket " + bucket + " on " + upstream + ": " + created.describe());
  }
  return bucket;
}

gate_report begin_report(const gate_settings& settings) {
  gate_report report = error_report(settings.role, settings.client, "");
  report.upstream = settings.upstream.empty() ? "embedded origin" : settings.upstream;
  report.store = store_name(settings.upstream);
  report.region = settings.region;
  std::error_code no_directory;
  report.working_dir = std::filesystem::current_path(no_directory).string();
  report.max_not_exercised = settings.max_not_exercised;
  report.timeout_seconds = std::chrono::duration<double>(settings.timeout).count();
  report.jobs = std::max(1u, settings.jobs);
  report.seed = settings.seed;
  report.repro_dir = failed_runs_dir(settings);
  report.scenario_globs = settings.scenario_globs;
  report.shape_globs = settings.shape_globs;
  report.exclude_globs = settings.exclude_globs;
  report.shard = settings.shard;
  return report;
}

/// Finished runs into `report.runs`, the others it owns into `report.cut_off`, in plan order.
void collect_results(const run_plan& plan, const std::vector<bool>& owned,
                     std::vector<std::optional<run_result>>& results, gate_report& report) {
  results.resize(plan.runs.size());
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    if (results[i]) {
      results[i]->owned = owned[i];
      report.runs.push_back(std::move(*results[i]));
    } else if (owned[i]) {
      report.cut_off.push_back(named_result(plan.runs[i]));
    }
  }
}

/// A shard's part of `plan` (all of it unsharded), with every run's owner in `report`; `owned`
/// says which of the runs left are the shard's own.
run_plan plan_of_this_shard(run_plan plan, const runtime::shard& part, gate_report& report,
                            std::vector<bool>& owned) {
  if (!part.sharded()) {
    owned.assign(plan.runs.size(), true);
    return plan;
  }
  const auto owners = run_owners(plan.runs, part.count);
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    report.owners.push_back({plan.runs[i].key, owners[i]});
  }
  auto share = share_of_plan(plan, owners, part.index);
  owned = std::move(share.owned);
  return std::move(share.plan);
}

client::client_config store_config_for(const gate_settings& settings, const std::string& url) {
  client::client_config config;
  config.endpoint = url;
  config.credentials = settings.credentials;
  config.region = settings.region;
  config.user_agent = "s3fault-gate";
  return config;
}

/// Every planned run's result, in plan order (the baselines come first in a plan): the
/// baselines, then every other run whose shape's baseline was CORRECT (a writer's: STORED); the
/// rest NOT_JUDGED.
/// A run stopped before its verdict has no result. `results` keeps what finished when a run's
/// gate_error is rethrown.
void run_plan_on(const run_plan& plan, run_pool& pool, const std::function<bool()>& stop,
                 run_role role, std::vector<std::optional<run_result>>& results) {
  std::vector<const planned_run*> baselines, others;
  for (const auto& planned : plan.runs) {
    (planned.baseline ? baselines : others).push_back(&planned);
  }
  results.assign(plan.runs.size(), std::nullopt);
  std::vector<std::optional<run_result>> baseline_results(baselines.size());
  try {
    pool.run(baselines, baseline_results, stop);
  } catch (...) {
    std::move(baseline_results.begin(), baseline_results.end(), results.begin());
    throw;
  }
  std::map<const object_shape*, const run_result*> baseline_of;
  for (std::size_t i = 0; i < baselines.size(); ++i) {
    results[i] = baseline_results[i];
    if (results[i]) {
      baseline_of[baselines[i]->shape] = &*results[i];
    }
  }
  if (stop() || baseline_of.size() != baselines.size()) {
    return;
  }
  std::vector<const planned_run*> to_run;
  std::vector<std::size_t> index_of;
  for (std::size_t i = 0; i < others.size(); ++i) {
    const run_result& baseline = *baseline_of.at(others[i]->shape);
    if (verdict_succeeded(baseline.judged.result)) {
      to_run.push_back(others[i]);
      index_of.push_back(baselines.size() + i);
    } else {
      results[baselines.size() + i] = not_judged_run(*others[i], baseline, role);
      pool.report(*results[baselines.size() + i]);
    }
  }
  std::vector<std::optional<run_result>> ran(to_run.size());
  const auto keep_ran = [&] {
    for (std::size_t i = 0; i < ran.size(); ++i) {
      results[index_of[i]] = std::move(ran[i]);
    }
  };
  try {
    pool.run(to_run, ran, stop);
  } catch (...) {
    keep_ran();
    throw;
  }
  keep_ran();
}

std::string proxies_text(const std::vector<std::unique_ptr<run_worker>>& workers) {
  const auto more = workers.size() - 1;
  return workers.front()->proxy_url() +
         (more > 0 ? " (+" + std::to_string(more) + " more, one per job)" : "");
}

/// A reader's action (replace-after-first-read) in a writer's gate, or the other way round, could
/// only be ignored: the scenario would not test what it says.
void refuse_misplaced_actions(const run_plan& plan, run_role role) {
  for (const auto* s : plan.scenarios) {
    if (!action_fits(s->action, role == run_role::writer)) {
      throw gate_error("scenario " + s->name + " (" + s->origin + "): action " +
                       std::string(to_string(s->action)) + " is for " +
                       (role == run_role::writer ? "readers" : "writers") + "; this gate runs a " +
                       std::string(role_name(role)));
    }
  }
}

/// Plans and makes the runs into `report`. Throws when the gate cannot judge, with the runs
/// that finished already in `report`.
void run_planned_gate(const gate_settings& settings, const gate_observer& observer,
                      gate_report& report) {
  run_plan plan;
  try {
    plan = plan_runs(settings.matrix, settings.scenario_globs, settings.shape_globs,
                     settings.exclude_globs, settings.seed);
  } catch (const std::invalid_argument& bad) {
    throw gate_error(bad.what());
  }
  refuse_misplaced_actions(plan, settings.role);
  report.scenarios = plan.scenarios;
  report.shapes = plan.shapes;
  report.unplanned = plan.unplanned;
  report.runs_planned = plan.runs.size();
  std::vector<bool> owned;
  plan = plan_of_this_shard(std::move(plan), settings.shard, report, owned);
  std::unique_ptr<origin::embedded_origin> embedded;
  if (settings.upstream.empty()) {
    embedded = std::make_unique<origin::embedded_origin>();
  }
  const std::string upstream = embedded ? embedded->url() : settings.upstream;
  const auto store_config = store_config_for(settings, upstream);
  client::s3_client store(store_config);
  std::filesystem::create_directories(settings.work_dir);

  std::atomic<bool> failed{false};
  const std::function<bool()> stop = [&] {
    return failed.load() || (settings.stop_requested != nullptr && settings.stop_requested->load());
  };
  run_context context{settings, store_config, settings.upstream, create_bucket(store, upstream),
                      stop};
  std::vector<std::unique_ptr<run_worker>> workers;
  for (unsigned i = 0; i < report.jobs; ++i) {
    workers.push_back(std::make_unique<run_worker>(context));
  }
  if (observer.started) {
    // The embedded origin by its name and where it listens: its URL alone names no store.
    observer.started(embedded ? report.store + " at " + upstream : upstream, proxies_text(workers));
  }
  run_pool pool(workers, observer, failed);
  std::vector<std::optional<run_result>> results;
  std::exception_ptr error;
  try {
    run_plan_on(plan, pool, stop, settings.role, results);
  } catch (...) {
    error = std::current_exception();
  }
  workers.clear();
  store.delete_bucket(context.bucket);
  collect_results(plan, owned, results, report);
  if (error) {
    std::rethrow_exception(error);
  }
}

} // namespace

std::string failed_runs_dir(const gate_settings& settings) {
  return settings.keep_failed.empty() ? settings.repro_dir : settings.keep_failed;
}

run_result named_result(const planned_run& planned) {
  run_result result;
  result.scenario = planned.run_scenario->name;
  result.shape = planned.shape->name;
  result.expect = planned.run_scenario->expect;
  result.key = planned.key;
  result.seed = planned.seed;
  return result;
}

gate_report error_report(run_role role, const std::string& client, const std::string& error) {
  gate_report report;
  report.role = role;
  report.client = client;
  report.started_at = client::utc_now_iso8601();
  report.error = error;
  return report;
}

gate_report run_gate(const gate_settings& settings, const gate_observer& observer) {
  gate_report report = begin_report(settings);
  const auto started = std::chrono::steady_clock::now();
  try {
    run_planned_gate(settings, observer, report);
  } catch (const std::exception& failure) {
    report.error = failure.what();
  }
  report.interrupted = report.error.empty() && !report.cut_off.empty();
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

void verdict_tally::add(verdict observed) {
  switch (observed) {
  case verdict::correct:
    ++correct;
    break;
  case verdict::rejected:
    ++rejected;
    break;
  case verdict::silent_corruption:
    ++silent_corruption;
    break;
  case verdict::hung:
    ++hung;
    break;
  case verdict::stored:
    ++stored;
    break;
  case verdict::silent_loss:
    ++silent_loss;
    break;
  case verdict::torn:
    ++torn;
    break;
  default:
    break;
  }
}

gate_totals count_runs(const gate_report& report) {
  gate_totals totals;
  std::vector<std::string> needing;
  for (const auto* s : report.scenarios) {
    if (s->needs_injection) {
      needing.push_back(s->name);
    }
  }
  for (const auto& run : report.runs) {
    if (!run.owned) {
      continue; // a shard's dependency baseline: its owner counts it
    }
    switch (run.judged.outcome) {
    case run_outcome::passed:
      ++totals.passed;
      break;
    case run_outcome::failed:
      ++totals.failed;
      break;
    case run_outcome::not_exercised:
      ++totals.not_exercised;
      break;
    case run_outcome::not_judged:
      ++totals.not_judged;
      break;
    }
    const bool judged =
        run.judged.outcome == run_outcome::passed || run.judged.outcome == run_outcome::failed;
    totals.judged_scenario_runs += judged && run.scenario != "baseline";
    const bool fault_run = std::find(needing.begin(), needing.end(), run.scenario) != needing.end();
    totals.fault_runs += fault_run;
    totals.exercised_fault_runs += fault_run && judged;
    totals.observed.add(run.judged.observed);
    if (judged) {
      totals.judged.add(run.judged.observed);
    }
  }
  return totals;
}

namespace {

void add_to(coverage_count& count, run_outcome outcome) {
  ++count.runs;
  count.judged += outcome == run_outcome::passed || outcome == run_outcome::failed;
  count.not_exercised += outcome == run_outcome::not_exercised;
  count.not_judged += outcome == run_outcome::not_judged;
}

} // namespace

gate_coverage count_coverage(const gate_report& report) {
  gate_coverage coverage;
  std::map<expectation, coverage_count> by_expectation;
  std::map<std::string, coverage_count> by_scenario;
  for (const auto& run : report.runs) {
    if (!run.owned) {
      continue;
    }
    add_to(coverage.all, run.judged.outcome);
    add_to(by_expectation[run.expect], run.judged.outcome);
    add_to(by_scenario[run.scenario], run.judged.outcome);
  }
  for (const auto& [expect, count] : by_expectation) {
    coverage.by_expectation.emplace_back(expect, count);
  }
  for (const auto* s : report.scenarios) {
    if (const auto count = by_scenario.find(s->name); count != by_scenario.end()) {
      coverage.by_scenario.emplace_back(s->name, count->second);
    }
  }
  coverage.limit_exceeded =
      report.max_not_exercised &&
      report.max_not_exercised->exceeded(coverage.all.not_exercised, coverage.all.runs);
  return coverage;
}

std::string not_exercised_text(const coverage_count& count) {
  const auto percent = count.runs == 0
                           ? 0L
                           : std::lround(100.0 * static_cast<double>(count.not_exercised) /
                                         static_cast<double>(count.runs));
  return std::to_string(count.not_exercised) + " of " + std::to_string(count.runs) +
         (count.runs == 1 ? " run" : " runs") + " not exercised (" + std::to_string(percent) +
         " %)";
}

bool not_exercised_limit::exceeded(std::size_t not_exercised, std::size_t runs) const {
  const double seen = static_cast<double>(not_exercised);
  return percent ? seen * 100.0 > value * static_cast<double>(runs) : seen > value;
}

std::optional<not_exercised_limit> parse_not_exercised_limit(const std::string& text,
                                                             std::string& error) {
  not_exercised_limit limit;
  limit.text = text;
  std::string number = text;
  if (!number.empty() && number.back() == '%') {
    limit.percent = true;
    number.pop_back();
  }
  const bool digits = !number.empty() &&
                      number.find_first_not_of("0123456789.") == std::string::npos &&
                      std::count(number.begin(), number.end(), '.') <= 1 && number != ".";
  if (!digits || (!limit.percent && number.find('.') != std::string::npos)) {
    error = "--max-not-exercised " + text +
            ": not a number of runs (e.g. 10) or a share of them (e.g. 25%)";
    return std::nullopt;
  }
  limit.value = std::stod(number);
  if (limit.percent && limit.value > 100) {
    error = "--max-not-exercised " + text + ": a share of the runs is at most 100%";
    return std::nullopt;
  }
  return limit;
}

std::string store_name(const std::string& upstream) {
  return upstream.empty() || upstream == "embedded origin"
             ? "embedded origin (s3fault " + std::string(runtime::build_version()) + ")"
             : upstream;
}

int gate_exit_status(const gate_report& report) {
  if (!report.error.empty()) {
    return 2;
  }
  if (report.interrupted) {
    return 130;
  }
  const auto totals = count_runs(report);
  if (report.shard.sharded()) {
    return totals.failed > 0 || totals.not_judged > 0 ? 1 : 0;
  }
  if (totals.failed > 0 || totals.not_judged > 0 || totals.judged_scenario_runs == 0) {
    return 1;
  }
  if (totals.fault_runs > 0 && totals.exercised_fault_runs == 0) {
    return 1;
  }
  return count_coverage(report).limit_exceeded ? 1 : 0;
}

namespace {

/// Why each selected scenario reached no verdict that counts.
std::string nothing_judged_reason(const gate_report& report) {
  std::string why;
  const auto add = [&](const std::string& clause) { why += (why.empty() ? "" : "; ") + clause; };
  for (const auto* s : report.scenarios) {
    if (s->name == "baseline") {
      continue;
    }
    const auto unplanned = std::find_if(report.unplanned.begin(), report.unplanned.end(),
                                        [&](const auto& u) { return u.selected == s; });
    add(s->name + ": " +
        (unplanned != report.unplanned.end() ? unplanned->reason
                                             : std::string("not exercised on any shape")));
  }
  if (why.empty()) {
    why = "only the baseline ran (--scenarios selects no other scenario)";
  }
  return "nothing was judged: " + why;
}

} // namespace

std::string exit_status_reason(const gate_report& report) {
  if (!report.error.empty()) {
    return "the gate could not judge: " + report.error;
  }
  const auto totals = count_runs(report);
  if (report.interrupted) {
    return (report.shard.sharded() ? "shard " + report.shard.text() + " " : std::string()) +
           "interrupted after " + std::to_string(totals.runs()) + " of " +
           std::to_string(totals.runs() + report.cut_off.size()) + " runs; " +
           std::to_string(report.cut_off.size()) + " were cut off before their verdict";
  }
  if (report.shard.sharded()) {
    return "shard " + report.shard.text() +
           (totals.failed > 0 || totals.not_judged > 0
                ? ": some run this shard owns had a verdict its scenario does not accept"
                : ": every run this shard owns passed or was not exercised") +
           "; the whole verdict comes from `s3fault gate merge`";
  }
  if (totals.failed > 0 || totals.not_judged > 0) {
    return "some run had a verdict its scenario does not accept";
  }
  if (totals.judged_scenario_runs == 0) {
    return nothing_judged_reason(report);
  }
  if (totals.fault_runs > 0 && totals.exercised_fault_runs == 0) {
    return "no fault reached the " + std::string(role_name(report.role)) +
           " in any run, so nothing was judged";
  }
  if (const auto coverage = count_coverage(report); coverage.limit_exceeded) {
    return not_exercised_text(coverage.all) + ", more than --max-not-exercised " +
           report.max_not_exercised->text + " allows";
  }
  return "every run passed or was not exercised";
}

} // namespace s3fault::gate
