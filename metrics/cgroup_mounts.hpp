#pragma once
// Where a system's cgroups are mounted (/proc/self/mountinfo), and where one cgroup's files are,
// whichever way a user names it (docs/store-sampling.md): a cgroup v2 directory, a directory
// of a v1 hierarchy, or a cgroup path as /proc/PID/cgroup writes it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::metrics {

/// One mounted cgroup file system: where it is mounted and which cgroup it shows there (the
/// mount's root: "/" on a host, "/docker/ID" when a container mounts only its own sub-tree).
struct cgroup_mount {
  std::string mount_point; // "/sys/fs/cgroup/memory"
  std::string root;        // "/"
  /// v1: the hierarchy's controllers and name, as its mount options give them ("memory";
  /// "cpu", "cpuacct" for a combined mount; "name=systemd"); empty for cgroup2.
  std::vector<std::string> controllers;

  bool has_controller(std::string_view controller) const;
};

/// The cgroup v1 hierarchies and the cgroup2 mount of a system.
struct cgroup_mounts {
  std::vector<cgroup_mount> v1;
  std::optional<cgroup_mount> v2;

  /// The cgroup mounts among the lines of a mountinfo text (proc(5)); other mounts are skipped.
  static cgroup_mounts parse(std::string_view mountinfo);
  /// This system's, from /proc/self/mountinfo (none when it cannot be read).
  static cgroup_mounts of_this_system();

  /// The v1 hierarchy that holds `controller`, or nullptr.
  const cgroup_mount* v1_with(std::string_view controller) const;
};

/// The directories one cgroup's files are in, as find_cgroup found them.
struct cgroup_directories {
  int version = 2;
  std::string v2; // version 2: the cgroup's directory
  /// Version 1: the cgroup's directory in the memory, pids and cpuacct hierarchies; empty where
  /// that hierarchy is not mounted or has no such cgroup.
  std::string memory;
  std::string pids;
  std::string cpuacct;
};

/// The directories of the cgroup `path` names: a cgroup v2 directory (it has cgroup.controllers);
/// a directory in a v1 hierarchy (the same cgroup in the memory, pids and cpuacct hierarchies);
/// or a cgroup path as /proc/PID/cgroup writes it ("/docker/ID"), looked up in the v1 memory,
/// pids and cpuacct hierarchies, else under the cgroup2 mount. A cgroup in only some v1
/// hierarchies is found there. std::invalid_argument when it is none of these, its message
/// naming `path` and where it looked: "/nope: not a cgroup: no /sys/fs/cgroup/memory/nope, ...".
cgroup_directories find_cgroup(const std::string& path, const cgroup_mounts& mounts);

} // namespace s3fault::metrics
