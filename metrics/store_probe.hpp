#pragma once
// What a store uses of the machine, read at one moment: its memory, anonymous memory, threads
// and CPU time, from its processes (/proc/PID) or from the cgroup it runs in (v1 or v2). The
// bench's --store-pid and --store-cgroup sample it (store_sampler.hpp); it knows nothing of the
// bench, so that the proxy can sample a store too. The files read: docs/store-sampling.md.
#include "metrics/cgroup_mounts.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::metrics {

/// One reading. A figure the probe cannot give (readable_figures) is 0.
struct store_reading {
  /// PIDs: sum of VmRSS; cgroup v1: memory.usage_in_bytes; v2: memory.current.
  std::uint64_t memory_bytes = 0;
  /// PIDs: sum of RssAnon; v1: memory.stat total_rss; v2: memory.stat anon.
  std::uint64_t anon_bytes = 0;
  /// PIDs: sum of Threads; cgroup: pids.current, else the lines of tasks (v1) / cgroup.threads
  /// (v2).
  std::uint64_t threads = 0;
  /// PIDs: utime + stime; v1: cpuacct.usage / 1e9; v2: cpu.stat usage_usec / 1e6.
  double cpu_seconds = 0;
};

/// Which figures of store_reading a probe gives: all for PIDs; for a cgroup, those whose files
/// it has (a v1 cgroup outside the cpuacct hierarchy has no CPU time, a v2 cgroup without the
/// memory controller no memory.current).
struct readable_figures {
  bool memory = true;
  bool anon = true;
  bool threads = true;
  bool cpu = true;
};

/// What to read: some processes, or one cgroup. A plain value (copy it freely); the cgroup's
/// files are found once, when it is made.
class store_probe {
public:
  /// The processes `pids`, their figures summed.
  static store_probe of_processes(std::vector<int> pids);
  /// The cgroup `path` names (find_cgroup: a v2 directory, a v1 directory or a cgroup path);
  /// std::invalid_argument, naming `path` and where it looked, when it is not a cgroup.
  static store_probe of_cgroup(const std::string& path, const cgroup_mounts& mounts);
  /// The same, with the mounts of this system.
  static store_probe of_cgroup(const std::string& path);

  /// Reads the figures now: nullopt with `error` set when they cannot be read (a process ended,
  /// the cgroup was removed). Reported by the caller, never fatal.
  std::optional<store_reading> read(std::string& error) const;
  readable_figures figures() const { return figures_; }
  /// "PID 12", "PIDs 12, 13", "cgroup /docker/ID (v1: memory, pids, cpuacct)", and for a cgroup
  /// the figures it lacks: "cgroup /a (v1: memory; not in cpuacct: no CPU time)".
  std::string describe() const;

private:
  /// How one figure of a cgroup is read from its file: the whole file a number, the value of
  /// one "KEY VALUE" line (memory.stat, cpu.stat), or the count of its lines (tasks).
  struct cgroup_file {
    std::string path;
    std::string key = {}; // for a "KEY VALUE" file
    bool count_lines = false;
  };

  store_probe() = default;
  static store_probe of_cgroup_directories(const std::string& path,
                                           const cgroup_directories& found);
  /// The number `file` gives, or nullopt with `error` naming the file and the cgroup.
  std::optional<std::uint64_t> read_cgroup_file(const cgroup_file& file, std::string& error) const;
  std::optional<store_reading> read_cgroup(std::string& error) const;

  std::vector<int> pids_;
  std::string cgroup_path_;  // as the user gave it; empty for processes
  std::string cgroup_about_; // what describe() adds after the path
  std::optional<cgroup_file> memory_;
  std::optional<cgroup_file> anon_;
  std::optional<cgroup_file> threads_;
  std::optional<cgroup_file> cpu_;
  double cpu_seconds_per_unit_ = 1; // cpuacct.usage counts ns, cpu.stat usage_usec us
  readable_figures figures_;
};

} // namespace s3fault::metrics
