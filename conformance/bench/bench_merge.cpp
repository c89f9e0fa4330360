#include "conformance/bench/bench_merge.hpp"

#include "conformance/bench/baseline_match.hpp"
#include "conformance/bench/bench_reports.hpp"
#include "conformance/bench/bench_run_record.hpp"
#include "text/http_date.hpp"
#include "text/text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace s3fault::bench {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;

struct part {
  std::string file;
  json document;
  runtime::shard shard;
  std::vector<std::string> stores; // the stores' names, in order ("" for one unnamed store)
  std::vector<run_result> runs;
  std::optional<milliseconds> clock_offset;
};

/// The names of a report's stores; one unnamed store for a report of a bench before several
/// stores existed.
std::vector<std::string> store_names(const json& document) {
  std::vector<std::string> names;
  for (const auto& store : document["settings"].value("stores", json::array())) {
    names.push_back(store.at("name").get<std::string>());
  }
  if (names.empty()) {
    names.emplace_back();
  }
  return names;
}

/// The shard a part's "shard" object names; nullopt with `why`.
std::optional<runtime::shard> shard_of(const json& document, std::string& why) {
  if (!document.contains("shard") || !document["shard"].is_object()) {
    why = "not a shard's report (no \"shard\"; run each part with --shard K/N or --shard auto)";
    return std::nullopt;
  }
  try {
    const auto& s = document["shard"];
    return runtime::shard{s.at("index").get<unsigned>(), s.at("count").get<unsigned>(),
                          s.at("source").get<std::string>()};
  } catch (const json::exception&) {
    why = "\"shard\" is not {index, count, source}";
    return std::nullopt;
  }
}

/// Why `document` is not a bench report merge can read (empty when it is).
std::string format_problem(const json& document) {
  if (!document.is_object() || document.value("tool", "") != "s3fault bench") {
    return "not an s3fault bench JSON report";
  }
  if (!document.contains("format")) {
    return "a report without \"format\", written before 'bench merge' existed: it lacks each "
           "run's counts, histograms and times; run the bench again with this version";
  }
  if (document["format"] != report_format) {
    return "report format " + document["format"].dump() + "; this version merges format " +
           std::to_string(report_format);
  }
  return "";
}

std::optional<part> read_part(const part_file& file, std::vector<std::string>& refusals) {
  part read;
  read.file = file.file;
  read.document = json::parse(file.text, nullptr, false);
  if (read.document.is_discarded()) {
    refusals.push_back(file.file + ": not JSON");
    return std::nullopt;
  }
  std::string why = format_problem(read.document);
  if (why.empty() && read.document.contains("error") && read.document["error"].is_string()) {
    const auto shard = shard_of(read.document, why);
    refusals.push_back(file.file + ": " + (shard ? "shard " + shard->text() : "the bench") +
                       " could not run: " + read.document["error"].get<std::string>());
    return std::nullopt;
  }
  const auto shard = why.empty() ? shard_of(read.document, why) : std::nullopt;
  if (!shard) {
    refusals.push_back(file.file + ": " + why);
    return std::nullopt;
  }
  read.shard = *shard;
  read.stores = store_names(read.document);
  for (const auto& record : read.document.value("runs", json::array())) {
    auto run = read_run_record(record, read.stores, why);
    if (!run) {
      refusals.push_back(file.file + ": a run: " + why);
      return std::nullopt;
    }
    read.runs.push_back(std::move(*run));
  }
  if (read.document.contains("clock_offset_ms") && read.document["clock_offset_ms"].is_number()) {
    read.clock_offset = milliseconds(read.document["clock_offset_ms"].get<std::int64_t>());
  }
  return read;
}

/// The option each compared setting comes from.
const std::map<std::string, std::string>& setting_options() {
  static const std::map<std::string, std::string> options{
      {"operations", "--ops"},   {"sizes", "--sizes"},      {"concurrency", "--concurrency"},
      {"prefill", "--prefill"},  {"count", "--count"},      {"duration_ms", "--duration"},
      {"rounds", "--rounds"},    {"objects", "--objects"},  {"part_size", "--part-size"},
      {"verify", "--verify"},    {"control", "--control"},  {"alpha", "--alpha"},
      {"warmup_ms", "--warmup"}, {"mix", "--mix"},          {"min_change_percent", "--min-change"},
      {"seed", "--seed"},        {"attempts", "--attempts"}};
  return options;
}

std::string value_text(const json& object, const std::string& key) {
  return object.contains(key) ? object[key].dump() : "(not set)";
}

void check_settings(const std::vector<part>& parts, std::vector<std::string>& refusals) {
  const auto& first = parts.front();
  const json& ours = first.document["settings"];
  for (const auto& other : parts) {
    const json& theirs = other.document["settings"];
    for (const auto& [key, option] : setting_options()) {
      if (ours.value(key, json()) != theirs.value(key, json())) {
        refusals.push_back("the parts were run with different " + option + ": " + first.file +
                           " has " + value_text(ours, key) + ", " + other.file + " has " +
                           value_text(theirs, key));
      }
    }
    if (first.stores != other.stores) {
      refusals.push_back("the parts were run with different --store: " + first.file + " has " +
                         text::join(first.stores, ", ") + ", " + other.file + " has " +
                         text::join(other.stores, ", "));
    }
    if (first.document.value("start_at", json()) != other.document.value("start_at", json())) {
      refusals.push_back("the parts were run with different --start-at: " + first.file + " has " +
                         value_text(first.document, "start_at") + ", " + other.file + " has " +
                         value_text(other.document, "start_at"));
    }
  }
}

void check_shards(const std::vector<part>& parts, std::vector<std::string>& refusals) {
  const unsigned count = parts.front().shard.count;
  std::map<unsigned, std::string> seen;
  for (const auto& p : parts) {
    if (p.shard.count != count) {
      refusals.push_back("the parts are shards of different wholes: " + parts.front().file +
                         " is shard " + parts.front().shard.text() + ", " + p.file + " is shard " +
                         p.shard.text());
      return;
    }
    if (const auto [at, added] = seen.emplace(p.shard.index, p.file); !added) {
      refusals.push_back("shard " + p.shard.text() + " is there twice: " + at->second + " and " +
                         p.file);
    }
  }
  for (unsigned k = 1; k <= count; ++k) {
    if (!seen.contains(k)) {
      refusals.push_back("shard " + std::to_string(k) + "/" + std::to_string(count) +
                         " is missing");
    }
  }
}

std::string seconds_text(double seconds, bool sign) {
  char text[32];
  std::snprintf(text, sizeof text, sign ? "%+.3f s" : "%.3f s", seconds);
  return text;
}

void check_clocks(const std::vector<part>& parts, std::vector<std::string>& refusals,
                  std::vector<std::string>& notes) {
  std::string offsets;
  std::optional<milliseconds> low, high;
  for (const auto& p : parts) {
    if (!p.clock_offset) {
      notes.push_back(p.file + ": its clock was not compared with the store's (" +
                      p.document.value("clock_offset_problem", std::string("no Date")) + ")");
      continue;
    }
    low = low ? std::min(*low, *p.clock_offset) : *p.clock_offset;
    high = high ? std::max(*high, *p.clock_offset) : *p.clock_offset;
    offsets += (offsets.empty() ? "" : ", ") + p.file + " " +
               seconds_text(static_cast<double>(p.clock_offset->count()) / 1000, true);
  }
  if (low && *high - *low > max_clock_spread) {
    refusals.push_back(
        "the shards' clocks disagree by " +
        seconds_text(static_cast<double>((*high - *low).count()) / 1000, false) +
        " (the store's Date minus each shard's clock: " + offsets + "); more than " +
        seconds_text(static_cast<double>(max_clock_spread.count()) / 1000, false) +
        ", so their runs cannot be lined up: synchronise the machines' clocks (NTP) and run "
        "again");
  } else if (low) {
    notes.push_back("the shards' clocks agree within " +
                    seconds_text(static_cast<double>((*high - *low).count()) / 1000, false) +
                    " (the store's Date minus each shard's clock: " + offsets + ")");
  }
}

std::vector<std::uint64_t> numbers(const json& about, const char* key) {
  return about.value(key, std::vector<std::uint64_t>{});
}

/// The settings the parts ran with (the whole bench's: every cell's full concurrency).
bench_settings settings_from(const part& first, std::vector<std::string>& refusals) {
  const json& about = first.document["settings"];
  bench_settings settings;
  settings.stores.clear();
  for (const auto& name : first.stores) {
    settings.stores.push_back({name, {}, {}});
  }
  settings.operations.clear();
  for (const auto& name : about.value("operations", std::vector<std::string>{})) {
    if (const auto op = parse_operation(name)) {
      settings.operations.push_back(*op);
    } else {
      refusals.push_back("settings.operations: '" + name + "' is not an operation");
    }
  }
  settings.sizes = numbers(about, "sizes");
  settings.concurrencies.clear();
  for (const auto c : numbers(about, "concurrency")) {
    settings.concurrencies.push_back(static_cast<unsigned>(c));
  }
  settings.prefill = numbers(about, "prefill");
  if (about.contains("count")) {
    settings.count = about["count"].get<std::uint64_t>();
  } else {
    settings.duration = milliseconds(about.value("duration_ms", std::int64_t{0}));
  }
  settings.rounds = about.value("rounds", 1u);
  settings.objects = about.value("objects", 1u);
  settings.part_size = about.value("part_size", settings.part_size);
  settings.verify = about.value("verify", true);
  settings.control = about.value("control", false);
  settings.judging.alpha = about.value("alpha", settings.judging.alpha);
  settings.judging.min_change_percent =
      about.value("min_change_percent", settings.judging.min_change_percent);
  settings.warmup = milliseconds(about.value("warmup_ms", std::int64_t{0}));
  settings.seed = about.value("seed", std::uint64_t{1});
  settings.max_attempts = about.value("attempts", 5u);
  settings.mix = parse_mix(text::split_nonempty(about.value("mix", std::string()), ','), refusals);
  return settings;
}

using run_key =
    std::tuple<std::size_t, operation, std::uint64_t, unsigned, std::uint64_t, unsigned, unsigned>;

run_key key_of(const run_result& run) {
  return {
      run.store, run.measured.op, run.measured.size, run.measured.concurrency, run.measured.stored,
      run.round, run.leg};
}

std::string describe_run(const run_result& run, const std::vector<std::string>& stores) {
  const auto& store = stores.at(run.store);
  return describe(run.measured) + (store.empty() ? "" : " on " + store) + " round " +
         std::to_string(run.round) + (run.leg > 0 ? " (control)" : "");
}

/// One run of all the shards: counts summed, histograms added, over the whole window.
run_result merge_run(const std::vector<const run_result*>& shards) {
  run_result merged;
  merged.measured = shards.front()->measured;
  merged.store = shards.front()->store;
  merged.round = shards.front()->round;
  merged.leg = shards.front()->leg;
  merged.started_unix_us = shards.front()->started_unix_us;
  merged.ended_unix_us = shards.front()->ended_unix_us;
  for (const auto* run : shards) {
    merged.counts.add(run->counts);
    merged.workers += run->workers;
    merged.started_unix_us = std::min(merged.started_unix_us, run->started_unix_us);
    merged.ended_unix_us = std::max(merged.ended_unix_us, run->ended_unix_us);
    if (merged.first_error.empty()) {
      merged.first_error = run->first_error;
    }
    merged.cut_short = merged.cut_short || run->cut_short;
  }
  merged.bytes = merged.counts.bytes;
  merged.seconds = static_cast<double>(merged.ended_unix_us - merged.started_unix_us) / 1e6;
  merged.values = figures_from(merged.counts, merged.measured.op, merged.workers, merged.seconds);
  return merged;
}

/// Why the shards' windows of one paced run are too far apart (empty when they overlap).
std::string window_problem(const std::vector<const run_result*>& shards,
                           const std::vector<part>& parts) {
  std::int64_t latest_start = shards.front()->started_unix_us;
  std::int64_t earliest_end = shards.front()->ended_unix_us;
  std::int64_t earliest_start = latest_start, latest_end = earliest_end;
  for (const auto* run : shards) {
    latest_start = std::max(latest_start, run->started_unix_us);
    earliest_start = std::min(earliest_start, run->started_unix_us);
    earliest_end = std::min(earliest_end, run->ended_unix_us);
    latest_end = std::max(latest_end, run->ended_unix_us);
  }
  const double overlap =
      static_cast<double>(std::max<std::int64_t>(0, earliest_end - latest_start)) /
      static_cast<double>(std::max<std::int64_t>(1, latest_end - earliest_start));
  if (overlap >= min_window_overlap) {
    return "";
  }
  std::string windows;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const auto from = text::format_iso8601(from_unix_micros(shards[i]->started_unix_us));
    const auto to = text::format_iso8601(from_unix_micros(shards[i]->ended_unix_us));
    windows += (i == 0 ? "" : ", ") + parts[i].file + " " + from + " to " + to;
  }
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.0f %%", overlap * 100);
  return describe_run(*shards.front(), parts.front().stores) + ": the shards ran it " + percent +
         " together, less than " + std::to_string(static_cast<int>(min_window_overlap * 100)) +
         " % (" + windows + ")";
}

bool all_paced(const std::vector<part>& parts) {
  return std::all_of(parts.begin(), parts.end(),
                     [](const part& p) { return p.document.value("paced", false); });
}

bool any_interrupted(const std::vector<part>& parts) {
  return std::any_of(parts.begin(), parts.end(),
                     [](const part& p) { return p.document.value("interrupted", false); });
}

/// Every run all shards made, merged, in the first part's order. Runs some shard lacks are
/// left out when a part was interrupted, refused otherwise.
std::vector<run_result> merge_runs(const std::vector<part>& parts, bool paced,
                                   std::vector<std::string>& refusals,
                                   std::vector<std::string>& notes) {
  std::vector<std::map<run_key, const run_result*>> by_key(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    for (const auto& run : parts[i].runs) {
      by_key[i][key_of(run)] = &run;
    }
  }
  const bool interrupted = any_interrupted(parts);
  std::vector<run_result> merged;
  for (const auto& run : parts.front().runs) {
    std::vector<const run_result*> shards;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const auto found = by_key[i].find(key_of(run));
      if (found == by_key[i].end()) {
        (interrupted ? notes : refusals)
            .push_back(parts[i].file + " has no run " + describe_run(run, parts[i].stores) +
                       (interrupted ? " (a part was interrupted): left out" : ""));
        shards.clear();
        break;
      }
      shards.push_back(found->second);
    }
    if (shards.empty()) {
      continue;
    }
    if (const auto problem = paced ? window_problem(shards, parts) : ""; !problem.empty()) {
      refusals.push_back(problem);
    }
    merged.push_back(merge_run(shards));
  }
  return merged;
}

/// Indexes each merged run by its cell in plan order.
void index_cells(const std::vector<cell>& cells, std::vector<run_result>& runs) {
  for (auto& run : runs) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const auto& c = cells[i];
      if (c.op == run.measured.op && c.size == run.measured.size &&
          c.concurrency == run.measured.concurrency && c.stored == run.measured.stored) {
        run.cell_index = i;
      }
    }
  }
}

void describe_timing(const std::vector<part>& parts, bool paced, std::vector<std::string>& notes) {
  notes.push_back(
      "each run's rates are over its whole window: from the earliest shard's first request to "
      "the latest shard's last answer");
  if (!paced) {
    notes.push_back("the runs were not paced (" +
                    std::string(parts.front().document["settings"].contains("count")
                                    ? "--count: a run's length is unknown ahead"
                                    : "no --start-at") +
                    "): the shards' runs of a cell may not have overlapped, so its rates can be "
                    "far below what the store did");
  }
  const bool store_figures = std::any_of(parts.begin(), parts.end(), [](const part& p) {
    const auto stores = p.document["settings"].value("stores", json::array());
    return std::any_of(stores.begin(), stores.end(), [](const json& store) {
      return !store.value("pids", json::array()).empty() || !store.value("cgroup", "").empty();
    });
  });
  if (store_figures) {
    notes.push_back("store figures (--store-pid, --store-cgroup) are each shard's own and are not "
                    "merged");
  }
}

/// Where a part ran store `index`: from its "stores", or for a report of a bench before several
/// stores existed, its "endpoint" and "bucket".
store_place place_of(const json& document, std::size_t index) {
  const auto stores = document.value("stores", json::array());
  if (index < stores.size()) {
    return {stores[index].value("name", ""), stores[index].value("endpoint", ""),
            stores[index].value("bucket", "")};
  }
  return {"", document.value("endpoint", ""), document.value("bucket", "")};
}

void fill_report(const std::vector<part>& parts, merged_bench& out, std::vector<run_result> runs,
                 const baseline* earlier, std::vector<std::string> notes) {
  auto& report = out.report;
  report.settings = &out.settings;
  report.shards = parts.front().shard.count;
  report.paced = all_paced(parts);
  report.interrupted = any_interrupted(parts);
  report.cells = plan_cells(out.settings);
  // Per store, the endpoints and buckets the shards used (the nodes of one cluster may differ).
  std::vector<std::set<std::string>> endpoints(parts.front().stores.size());
  std::vector<std::set<std::string>> buckets(endpoints.size());
  for (const auto& p : parts) {
    std::set<std::string> part_endpoints;
    for (std::size_t i = 0; i < endpoints.size(); ++i) {
      const auto place = place_of(p.document, i);
      endpoints[i].insert(place.endpoint);
      buckets[i].insert(place.bucket);
      part_endpoints.insert(place.endpoint);
    }
    report.seconds = std::max(report.seconds, p.document.value("seconds", 0.0));
    const auto started = p.document.value("started_at", "");
    report.started_at = report.started_at.empty() ? started : std::min(report.started_at, started);
    report.parts.push_back(
        {p.file, p.shard, text::join(part_endpoints, ", "), started, p.clock_offset});
  }
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    report.stores.push_back(
        {parts.front().stores[i], text::join(endpoints[i], ", "), text::join(buckets[i], ", ")});
  }
  index_cells(report.cells, runs);
  report.runs = std::move(runs);
  report.baseline_source = earlier != nullptr ? earlier->source : "";
  report.earlier = earlier;
  if (earlier != nullptr) {
    report.baseline_mismatches = baseline_mismatches(out.settings, report.cells, *earlier);
  }
  summarize_and_compare(report, earlier);
  report.notes = std::move(notes);
}

merge_outcome merge_checked_parts(const std::vector<part_file>& files, const baseline* earlier);

} // namespace

merge_outcome merge_bench_parts(const std::vector<part_file>& files, const baseline* earlier) {
  // A field of another type than this version writes (a report edited by hand) is refused,
  // never a crash.
  try {
    return merge_checked_parts(files, earlier);
  } catch (const json::exception& wrong) {
    merge_outcome outcome;
    outcome.refusals.push_back(std::string("a part holds a field of an unexpected type: ") +
                               wrong.what());
    return outcome;
  }
}

namespace {

merge_outcome merge_checked_parts(const std::vector<part_file>& files, const baseline* earlier) {
  merge_outcome outcome;
  auto& refusals = outcome.refusals;
  std::vector<part> parts;
  for (const auto& file : files) {
    if (auto read = read_part(file, refusals)) {
      parts.push_back(std::move(*read));
    }
  }
  if (files.empty()) {
    refusals.emplace_back("no parts given: name each shard's --json report");
  }
  if (!refusals.empty()) {
    return outcome;
  }
  std::sort(parts.begin(), parts.end(),
            [](const part& a, const part& b) { return a.shard.index < b.shard.index; });
  check_shards(parts, refusals);
  check_settings(parts, refusals);
  if (earlier != nullptr && parts.front().stores.size() > 1) {
    refusals.emplace_back("--baseline with parts of several stores: the stores are compared with "
                          "the first; compare one store with a baseline in a bench of its own");
  }
  std::vector<std::string> notes;
  check_clocks(parts, refusals, notes);
  auto merged = std::make_unique<merged_bench>();
  merged->settings = settings_from(parts.front(), refusals);
  if (const auto& start = parts.front().document["start_at"]; start.is_string()) {
    merged->settings.start_at = text::parse_rfc3339(start.get<std::string>());
  }
  if (!refusals.empty()) {
    return outcome; // the runs of parts that do not belong together are not compared
  }
  const bool paced = all_paced(parts);
  describe_timing(parts, paced, notes);
  auto runs = merge_runs(parts, paced, refusals, notes);
  if (!refusals.empty()) {
    return outcome;
  }
  fill_report(parts, *merged, std::move(runs), earlier, std::move(notes));
  outcome.merged = std::move(merged);
  return outcome;
}

} // namespace

} // namespace s3fault::bench
