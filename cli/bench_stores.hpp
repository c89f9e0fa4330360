#pragma once
// Which stores `s3fault bench` drives, from its command line: one --endpoint (or none: the
// embedded origin), or several --store NAME=URL compared in one run, each with its own keys,
// region where they differ from the common ones, and its processes or cgroup to sample.
#include "cli/command_support.hpp"
#include "conformance/bench/bench_settings.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace s3fault::cli {

struct bench_store_options {
  std::string endpoint;
  std::vector<std::string> stores;  // NAME=URL
  std::vector<std::string> keys;    // NAME=ACCESS:SECRET
  std::vector<std::string> regions; // NAME=REGION
  std::vector<std::string> pids;    // PID, or NAME=PID with --store
  std::vector<std::string> cgroups; // PATH, or NAME=PATH with --store
  store_access access;              // the common keys, region, timeout and TLS trust
};

/// --endpoint, --store, --store-keys, --store-region, --store-pid, --store-cgroup and the common
/// access options.
void declare_bench_store_options(CLI::App& command, bench_store_options& options);

/// The stores, each with its client settings (an empty endpoint: the embedded origin, aimed at
/// once it runs); every mistake named in `problems`, with the option and the store.
std::vector<bench::store_target> bench_stores(const bench_store_options& options,
                                              std::vector<std::string>& problems);

} // namespace s3fault::cli
