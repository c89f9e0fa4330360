#include "conformance/bench/bench_settings.hpp"

#include "conformance/bench/splitmix.hpp"
#include "conformance/bench/workload.hpp"
#include "text/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <set>
#include <utility>

namespace s3fault::bench {

std::string format_size(std::uint64_t bytes) {
  static constexpr std::array<std::string_view, 5> units{"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  std::uint64_t whole = bytes;
  // The largest unit in which the size is whole, or has one exact decimal (1.5MiB).
  while (unit + 1 < units.size() && whole >= 1024) {
    if (whole % 1024 == 0) {
      whole /= 1024;
      ++unit;
      continue;
    }
    if (whole * 10 % 1024 == 0) {
      char text[32];
      std::snprintf(text, sizeof text, "%.1f", static_cast<double>(whole) / 1024.0);
      return std::string(text) + std::string(units[unit + 1]);
    }
    break;
  }
  return std::to_string(whole) + std::string(units[unit]);
}

std::string describe(const cell& c) {
  return std::string(to_string(c.op)) + " " + format_size(c.size) +
         " c=" + std::to_string(c.concurrency) +
         (c.stored > 0 ? " stored=" + format_size(c.stored) : "");
}

std::string store_label(const store_target& store) {
  return store.name.empty() ? "the store" : store.name;
}

std::vector<std::size_t> run_order(std::size_t stores, unsigned round) {
  std::vector<std::size_t> order;
  const std::size_t first = stores == 0 ? 0 : (round - 1) % stores;
  for (std::size_t i = 0; i < stores; ++i) {
    order.push_back((first + i) % stores);
  }
  return order;
}

unsigned default_rounds(std::size_t stores) {
  const auto k = static_cast<unsigned>(std::max<std::size_t>(1, stores));
  return (3 + k - 1) / k * k;
}

std::vector<operation> operations_of(const cell& c, const bench_settings& settings) {
  if (!c.op.workload().draws_from_mix()) {
    return {c.op};
  }
  std::vector<operation> ops;
  for (const auto& [op, weight] : settings.mix) {
    ops.push_back(op);
  }
  return ops;
}

operation pick_from_mix(const std::vector<std::pair<operation, unsigned>>& mix, std::uint64_t index,
                        std::uint64_t seed) {
  std::uint64_t total = 0;
  for (const auto& entry : mix) {
    total += entry.second;
  }
  if (total == 0) {
    return operation::named("get");
  }
  std::uint64_t seed_state = seed;
  std::uint64_t state = index ^ splitmix64(seed_state);
  std::uint64_t draw = splitmix64(state) % total;
  for (const auto& [op, weight] : mix) {
    if (draw < weight) {
      return op;
    }
    draw -= weight;
  }
  return mix.back().first;
}

/// "get=70,put=20,delete=10" as operations and weights; each mistake named.
std::vector<std::pair<operation, unsigned>> parse_mix(const std::vector<std::string>& entries,
                                                      std::vector<std::string>& problems) {
  std::vector<std::pair<operation, unsigned>> mix;
  for (const auto& entry : entries) {
    const auto equals = entry.find('=');
    const auto op = parse_operation(entry.substr(0, equals));
    const std::uint64_t weight =
        equals == std::string::npos
            ? 0
            : text::parse_whole_number(entry.substr(equals + 1)).value_or(std::uint64_t{0});
    if (!op && equals != std::string::npos) {
      const std::string name = entry.substr(0, equals);
      problems.push_back("--mix: '" + entry + "': '" + name + "' is not an operation " +
                         operation_choices(name));
      continue;
    }
    if (!op || op->workload().draws_from_mix() || weight == 0 || weight > 1000000) {
      problems.push_back("--mix: '" + entry +
                         "' is not OPERATION=WEIGHT with an operation of --ops (not mix) and a "
                         "weight from 1 to 1000000, e.g. get=70");
      continue;
    }
    mix.emplace_back(*op, static_cast<unsigned>(weight));
  }
  return mix;
}

std::string describe_mix(const std::vector<std::pair<operation, unsigned>>& mix) {
  std::string text;
  for (const auto& [op, weight] : mix) {
    text += (text.empty() ? "" : ",") + std::string(to_string(op)) + "=" + std::to_string(weight);
  }
  return text;
}

std::vector<cell> plan_cells(const bench_settings& settings) {
  std::vector<cell> cells;
  const auto levels = settings.prefill.empty() ? std::vector<std::uint64_t>{0} : settings.prefill;
  for (const auto stored : levels) {
    for (const auto op : settings.operations) {
      for (const auto size : settings.sizes) {
        for (const auto concurrency : settings.concurrencies) {
          cells.push_back({op, size, concurrency, stored});
        }
      }
    }
  }
  return cells;
}

namespace {

/// Every shard needs at least one client and one operation of every cell, and paced rounds need
/// a schedule that nothing of unknown length (filling the bucket) interrupts.
void add_shard_problems(const bench_settings& settings, std::vector<std::string>& problems) {
  const auto shards = settings.shard.count;
  const std::string over = " over " + std::to_string(shards) + " shards (" + settings.shard.source +
                           "): every shard needs at least one ";
  for (const auto concurrency : settings.concurrencies) {
    if (concurrency < shards) {
      problems.push_back("--concurrency " + std::to_string(concurrency) + over +
                         "client; use at least " + std::to_string(shards) + ", or fewer shards");
    }
  }
  if (settings.count && *settings.count < shards) {
    problems.push_back("--count " + std::to_string(*settings.count) + over +
                       "operation per run; use at least " + std::to_string(shards));
  }
  if (settings.start_at && !settings.prefill.empty()) {
    problems.emplace_back("--start-at with --prefill: filling the bucket takes a time no shard "
                          "can know ahead, so the rounds cannot be paced; leave one out");
  }
}

/// Stores: at least one; names unique and usable in files and on the command line.
void add_store_problems(const bench_settings& settings, std::vector<std::string>& problems) {
  if (settings.stores.empty()) {
    problems.emplace_back("no store: give --endpoint URL, or --store NAME=URL for each store");
  }
  std::set<std::string> seen;
  for (const auto& store : settings.stores) {
    if (settings.stores.size() > 1 && !store_name_usable(store.name)) {
      problems.push_back("--store: '" + store.name + "': " + store_name_rule);
    }
    if (!seen.insert(store.name).second) {
      problems.push_back("--store: '" + store.name + "' is named twice");
    }
    for (const int pid : store.pids) {
      if (pid <= 0) {
        problems.emplace_back("--store-pid: " + std::to_string(pid) + ": not a process ID");
      }
    }
    if (!store.pids.empty() && store.cgroup) {
      problems.push_back("--store-pid and --store-cgroup: " +
                         (store.name.empty() ? std::string("the store") : store.name) +
                         " has both; give its processes or its cgroup, not both");
    }
  }
}

} // namespace

std::optional<metrics::store_probe> store_probe_of(const store_target& store) {
  if (!store.pids.empty()) {
    return metrics::store_probe::of_processes(store.pids);
  }
  return store.cgroup;
}

bool store_name_usable(std::string_view name) {
  return !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
  });
}

std::vector<std::string> validate(const bench_settings& settings) {
  std::vector<std::string> problems;
  if (settings.operations.empty()) {
    problems.emplace_back("--ops: at least one operation is needed");
  }
  if (settings.sizes.empty()) {
    problems.emplace_back("--sizes: at least one size is needed");
  }
  for (const auto size : settings.sizes) {
    if (size == 0) {
      problems.emplace_back("--sizes: 0 bytes: every size must be at least 1 byte");
    }
    if (size > std::uint64_t{5} * 1024 * 1024 * 1024) {
      problems.emplace_back("--sizes: " + format_size(size) +
                            ": above 5GiB, the largest single PUT S3 allows");
    }
  }
  if (settings.concurrencies.empty()) {
    problems.emplace_back("--concurrency: at least one level is needed");
  }
  for (const auto concurrency : settings.concurrencies) {
    if (concurrency == 0 || concurrency > 1024) {
      problems.emplace_back("--concurrency: " + std::to_string(concurrency) +
                            ": must be between 1 and 1024");
    }
  }
  if (settings.rounds == 0) {
    problems.emplace_back("--rounds: must be at least 1");
  }
  if (settings.objects == 0 || settings.objects > 10000) {
    problems.emplace_back("--objects: " + std::to_string(settings.objects) +
                          ": must be between 1 and 10000");
  }
  std::uint64_t mix_weight = 0;
  for (const auto& [op, weight] : settings.mix) {
    mix_weight += weight;
    if (op.workload().draws_from_mix()) {
      problems.emplace_back("--mix: mix cannot be one of its own operations");
    }
  }
  const bool mix_cell = std::any_of(settings.operations.begin(), settings.operations.end(),
                                    [](operation op) { return op.workload().draws_from_mix(); });
  if (mix_cell && mix_weight == 0) {
    problems.emplace_back("--mix: a mix cell needs operations with weights, e.g. "
                          "--mix get=70,put=20,delete=10");
  }
  if (!std::is_sorted(settings.prefill.begin(), settings.prefill.end()) ||
      std::adjacent_find(settings.prefill.begin(), settings.prefill.end()) !=
          settings.prefill.end()) {
    problems.emplace_back("--prefill: the stored volumes must grow, e.g. 0,1GiB,4GiB (the "
                          "bucket is filled up to each in turn)");
  }
  if (!settings.prefill.empty() && settings.prefill.back() > std::uint64_t{1} << 40) {
    problems.emplace_back("--prefill: at most 1TiB");
  }
  if (settings.warmup.count() < 0) {
    problems.emplace_back("--warmup: must not be negative");
  }
  if (settings.part_size < 5 * 1024 * 1024) {
    problems.emplace_back("--part-size: " + format_size(settings.part_size) +
                          ": S3 parts (other than the last) are at least 5MiB");
  }
  if (!settings.count && settings.duration.count() <= 0) {
    problems.emplace_back("--duration: must be longer than 0");
  }
  if (settings.count && *settings.count == 0) {
    problems.emplace_back("--count: must be at least 1");
  }
  if (!(settings.judging.min_change_percent >= 0 && settings.judging.min_change_percent <= 1000)) {
    problems.emplace_back("--min-change: must be between 0 and 1000 (percent)");
  }
  if (!(settings.judging.alpha > 0 && settings.judging.alpha <= 0.5)) {
    problems.emplace_back("--alpha: must be above 0 and at most 0.5 (the false-alarm rate per "
                          "figure, e.g. 0.01)");
  }
  if (settings.max_attempts == 0) {
    problems.emplace_back("--attempts: must be at least 1");
  }
  add_store_problems(settings, problems);
  add_shard_problems(settings, problems);
  return problems;
}

} // namespace s3fault::bench
