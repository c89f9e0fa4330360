#include "cli/bench_stores.hpp"

#include "metrics/store_probe.hpp"
#include "text/text.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

namespace s3fault::cli {
namespace {

/// "NAME=VALUE" split at the first '='; nullopt when there is none or a side is empty.
std::optional<std::pair<std::string, std::string>> named_value(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    return std::nullopt;
  }
  return std::pair(text.substr(0, equals), text.substr(equals + 1));
}

std::string names_of(const std::vector<bench::store_target>& stores) {
  std::vector<std::string> names;
  for (const auto& store : stores) {
    names.push_back(store.name);
  }
  return text::join(names, ", ");
}

/// The store named `name`, or nullptr after naming the mistake.
bench::store_target* store_named(std::vector<bench::store_target>& stores, const std::string& name,
                                 const std::string& option, const std::string& entry,
                                 std::vector<std::string>& problems) {
  const auto found = std::find_if(stores.begin(), stores.end(),
                                  [&](const bench::store_target& s) { return s.name == name; });
  if (found == stores.end()) {
    problems.push_back(option + " " + entry + ": no --store is named '" + name +
                       "' (the stores: " + names_of(stores) + ")");
    return nullptr;
  }
  return &*found;
}

/// --store NAME=URL ... as targets with the common access settings.
std::vector<bench::store_target> named_stores(const bench_store_options& options,
                                              std::vector<std::string>& problems) {
  std::vector<bench::store_target> stores;
  for (const auto& entry : options.stores) {
    const auto parsed = named_value(entry);
    if (!parsed) {
      problems.push_back("--store '" + entry +
                         "': give NAME=URL, e.g. --store minio=http://127.0.0.1:9000");
      continue;
    }
    const auto& [name, url] = *parsed;
    if (!bench::store_name_usable(name)) {
      problems.push_back("--store " + entry + ": '" + name + "': " + bench::store_name_rule);
    }
    if (auto refusal = store_url_refusal("--store " + name, url); !refusal.empty()) {
      problems.push_back(std::move(refusal));
    }
    stores.push_back({name, store_client_config(url, options.access, "s3fault-bench"), {}});
  }
  return stores;
}

/// --store-keys NAME=ACCESS:SECRET and --store-region NAME=REGION onto the named stores.
void add_store_access(const bench_store_options& options, std::vector<bench::store_target>& stores,
                      std::vector<std::string>& problems) {
  for (const auto& entry : options.keys) {
    const auto parsed = named_value(entry);
    const auto colon = parsed ? parsed->second.find(':') : std::string::npos;
    if (!parsed || colon == std::string::npos || colon == 0 || colon + 1 == parsed->second.size()) {
      problems.push_back("--store-keys: give NAME=ACCESS_KEY:SECRET_KEY for a --store NAME");
      continue;
    }
    if (auto* store =
            store_named(stores, parsed->first, "--store-keys", parsed->first + "=...", problems)) {
      store->client.credentials.access_key = parsed->second.substr(0, colon);
      store->client.credentials.secret_key = parsed->second.substr(colon + 1);
    }
  }
  for (const auto& entry : options.regions) {
    const auto parsed = named_value(entry);
    if (!parsed) {
      problems.push_back("--store-region '" + entry + "': give NAME=REGION for a --store NAME");
      continue;
    }
    if (auto* store = store_named(stores, parsed->first, "--store-region", entry, problems)) {
      store->client.region = parsed->second;
    }
  }
}

std::optional<int> process_id(const std::string& text) {
  const auto pid = text::parse_whole_number(text);
  if (pid && *pid > 0 && *pid < 1u << 31) {
    return static_cast<int>(*pid);
  }
  return std::nullopt;
}

/// --store-pid PID (one store) or NAME=PID (any of several).
void add_store_pids(const bench_store_options& options, std::vector<bench::store_target>& stores,
                    std::vector<std::string>& problems) {
  for (const auto& entry : options.pids) {
    const auto parsed = named_value(entry);
    bench::store_target* store = nullptr;
    std::string pid_text = entry;
    if (parsed) {
      store = store_named(stores, parsed->first, "--store-pid", entry, problems);
      pid_text = parsed->second;
      if (store == nullptr) {
        continue;
      }
    } else if (stores.size() == 1) {
      store = &stores.front();
    } else {
      problems.push_back("--store-pid " + entry +
                         ": with several stores, name the store: "
                         "--store-pid NAME=PID (the stores: " +
                         names_of(stores) + ")");
      continue;
    }
    if (const auto pid = process_id(pid_text)) {
      store->pids.push_back(*pid);
    } else {
      problems.push_back("--store-pid: '" + pid_text + "' is not a process ID");
    }
  }
}

/// --store-cgroup PATH (one store) or NAME=PATH (any of several), after --store-pid: a store
/// gets one cgroup, and not with --store-pid. A PATH starts with '/' and a store's name cannot
/// hold one, so a PATH holding '=' is still a PATH.
void add_store_cgroups(const bench_store_options& options, std::vector<bench::store_target>& stores,
                       std::vector<std::string>& problems) {
  for (const auto& entry : options.cgroups) {
    const auto parsed = entry.starts_with('/') ? std::nullopt : named_value(entry);
    bench::store_target* store = nullptr;
    std::string path = entry;
    if (parsed) {
      store = store_named(stores, parsed->first, "--store-cgroup", entry, problems);
      path = parsed->second;
      if (store == nullptr) {
        continue;
      }
    } else if (!entry.starts_with('/')) {
      problems.push_back("--store-cgroup '" + entry +
                         "': give a cgroup's directory or path, starting with '/' "
                         "(/sys/fs/cgroup/..., /docker/ID), or NAME=PATH for a --store NAME");
      continue;
    } else if (stores.size() == 1) {
      store = &stores.front();
    } else {
      problems.push_back("--store-cgroup " + entry +
                         ": with several stores, name the store: "
                         "--store-cgroup NAME=PATH (the stores: " +
                         names_of(stores) + ")");
      continue;
    }
    const std::string option = "--store-cgroup " + (parsed ? parsed->first + "=" : "");
    if (store->cgroup) {
      problems.push_back(option + path + ": " + bench::store_label(*store) +
                         " has a --store-cgroup already; give one cgroup per store");
      continue;
    }
    // Its processes and its cgroup would be two measures of one store, not one to add up.
    if (!store->pids.empty()) {
      problems.push_back(option + path + ": " + bench::store_label(*store) +
                         " has a --store-pid too; give its processes or its cgroup, not both");
      continue;
    }
    try {
      store->cgroup = metrics::store_probe::of_cgroup(path);
    } catch (const std::invalid_argument& refused) {
      problems.push_back(option + refused.what());
    }
  }
}

} // namespace

void declare_bench_store_options(CLI::App& command, bench_store_options& o) {
  auto* endpoint = command.add_option(
      "--endpoint", o.endpoint,
      "Store URL http(s)://HOST[:PORT]; default: an embedded origin in this process");
  command
      .add_option("--store", o.stores,
                  "NAME=URL of a store to compare, instead of --endpoint; repeat it for each "
                  "(the first is the reference): every cell runs on every store in one run, "
                  "their order rotating from round to round")
      ->excludes(endpoint);
  command.add_option("--store-keys", o.keys,
                     "NAME=ACCESS_KEY:SECRET_KEY for a --store whose keys differ from "
                     "--access-key/--secret-key");
  command.add_option("--store-region", o.regions,
                     "NAME=REGION for a --store whose region differs from --region");
  command
      .add_option("--store-pid", o.pids,
                  "Sample this process's memory, threads and CPU during every run (repeat or "
                  "comma-separate for several; figures are summed); with several --store, "
                  "NAME=PID")
      ->delimiter(',');
  command.add_option("--store-cgroup", o.cgroups,
                     "Sample this cgroup's memory, threads and CPU during every run instead of "
                     "--store-pid: a cgroup v2 directory, a v1 one (/sys/fs/cgroup/memory/...) or "
                     "a path as /proc/PID/cgroup writes it (/docker/ID); with several --store, "
                     "NAME=PATH (docs/store-sampling.md)");
  add_store_access_options(&command, o.access, true);
}

std::vector<bench::store_target> bench_stores(const bench_store_options& options,
                                              std::vector<std::string>& problems) {
  if (options.access.access_key.empty() != options.access.secret_key.empty()) {
    problems.emplace_back("--access-key and --secret-key go together");
  }
  std::vector<bench::store_target> stores;
  if (options.stores.empty()) {
    if (auto refusal = store_url_refusal("--endpoint", options.endpoint); !refusal.empty()) {
      problems.push_back(std::move(refusal));
    }
    stores.push_back(
        {"", store_client_config(options.endpoint, options.access, "s3fault-bench"), {}});
    if (!options.keys.empty()) {
      problems.emplace_back("--store-keys names a --store; with --endpoint use --access-key and "
                            "--secret-key");
    }
    if (!options.regions.empty()) {
      problems.emplace_back("--store-region names a --store; with --endpoint use --region");
    }
  } else {
    stores = named_stores(options, problems);
    add_store_access(options, stores, problems);
  }
  add_store_pids(options, stores, problems);
  add_store_cgroups(options, stores, problems);
  return stores;
}

} // namespace s3fault::cli
