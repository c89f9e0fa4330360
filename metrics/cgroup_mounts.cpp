#include "metrics/cgroup_mounts.hpp"

#include "text/text.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace s3fault::metrics {
namespace {

namespace fs = std::filesystem;

/// A mountinfo path with its octal escapes ("\040" for a space, "\134" for '\') decoded.
std::string unescape_octal(std::string_view text) {
  std::string plain;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto octal = [&](std::size_t at) { return text[at] >= '0' && text[at] <= '7'; };
    if (text[i] == '\\' && i + 3 < text.size() && octal(i + 1) && octal(i + 2) && octal(i + 3)) {
      plain += static_cast<char>((text[i + 1] - '0') * 64 + (text[i + 2] - '0') * 8 +
                                 (text[i + 3] - '0'));
      i += 3;
    } else {
      plain += text[i];
    }
  }
  return plain;
}

/// The mount options of a v1 hierarchy that are not its controllers or name.
bool is_controller(const std::string& option) {
  static constexpr std::array<std::string_view, 9> flags = {
      "rw",   "ro",     "noprefix",       "clone_children", "xattr",
      "none", "nosuid", "cpuset_v2_mode", "favordynmods"};
  return !option.empty() && std::find(flags.begin(), flags.end(), option) == flags.end() &&
         (option.find('=') == std::string::npos || option.starts_with("name="));
}

/// `path` without "." and ".." steps and without a trailing '/'.
std::string normalized(const std::string& path) {
  std::string normal = fs::path(path).lexically_normal().string();
  while (normal.size() > 1 && normal.back() == '/') {
    normal.pop_back();
  }
  return normal;
}

bool is_directory(const std::string& path) {
  std::error_code ignored;
  return fs::is_directory(path, ignored);
}

bool is_v2_directory(const std::string& path) {
  std::error_code ignored;
  return is_directory(path) && fs::exists(fs::path(path) / "cgroup.controllers", ignored);
}

/// Where the mount shows the cgroup `cgroup_path`: its mount point and the path below the
/// mount's root; nullopt when the cgroup is outside what the mount shows.
std::optional<std::string> directory_of(const cgroup_mount& mount, const std::string& cgroup_path) {
  if (mount.root == "/") {
    return cgroup_path == "/" ? mount.mount_point : mount.mount_point + cgroup_path;
  }
  if (cgroup_path == mount.root) {
    return mount.mount_point;
  }
  if (cgroup_path.starts_with(mount.root + "/")) {
    return mount.mount_point + cgroup_path.substr(mount.root.size());
  }
  return std::nullopt;
}

/// The cgroup path of `directory` when it is (below) the mount's mount point, else nullopt.
std::optional<std::string> cgroup_path_of(const cgroup_mount& mount, const std::string& directory) {
  std::string below;
  if (directory == mount.mount_point) {
    below = "";
  } else if (directory.starts_with(mount.mount_point + "/")) {
    below = directory.substr(mount.mount_point.size());
  } else {
    return std::nullopt;
  }
  if (mount.root == "/") {
    return below.empty() ? "/" : below;
  }
  return mount.root + below;
}

/// The cgroup `cgroup_path` in the v1 memory, pids and cpuacct hierarchies; each directory
/// tried and missing is added to `looked`.
cgroup_directories find_in_v1(const std::string& cgroup_path, const cgroup_mounts& mounts,
                              std::vector<std::string>& looked) {
  cgroup_directories found;
  found.version = 1;
  const std::array<std::pair<std::string_view, std::string*>, 3> wanted = {
      std::pair{"memory", &found.memory}, std::pair{"pids", &found.pids},
      std::pair{"cpuacct", &found.cpuacct}};
  for (const auto& [controller, into] : wanted) {
    const auto* mount = mounts.v1_with(controller);
    if (mount == nullptr) {
      continue;
    }
    const auto directory = directory_of(*mount, cgroup_path);
    std::string tried =
        directory ? *directory : mount->mount_point + " (it shows only " + mount->root + ")";
    if (directory && is_directory(*directory)) {
      *into = *directory;
    } else if (std::find(looked.begin(), looked.end(), tried) == looked.end()) {
      looked.push_back(std::move(tried));
    }
  }
  return found;
}

bool found_any(const cgroup_directories& found) {
  return !found.memory.empty() || !found.pids.empty() || !found.cpuacct.empty();
}

/// `path` with its links resolved (/sys/fs/cgroup/cpuacct may link to cpu,cpuacct), as far as
/// it exists.
std::string real_path(const std::string& path) {
  std::error_code failed;
  const auto real = fs::weakly_canonical(path, failed);
  return failed ? path : normalized(real.string());
}

} // namespace

bool cgroup_mount::has_controller(std::string_view controller) const {
  return std::find(controllers.begin(), controllers.end(), controller) != controllers.end();
}

cgroup_mounts cgroup_mounts::parse(std::string_view mountinfo) {
  cgroup_mounts mounts;
  std::istringstream lines{std::string(mountinfo)};
  std::string line;
  while (std::getline(lines, line)) {
    // ID PARENT MAJOR:MINOR ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER_OPTIONS
    std::vector<std::string> fields = text::split_nonempty(line, ' ');
    const auto separator = std::find(fields.begin(), fields.end(), "-");
    if (fields.size() < 6 || separator == fields.end() || fields.end() - separator < 4 ||
        separator - fields.begin() < 6) {
      continue;
    }
    const std::string& type = separator[1];
    cgroup_mount mount{unescape_octal(fields[4]), unescape_octal(fields[3]), {}};
    if (type == "cgroup2") {
      if (!mounts.v2) {
        mounts.v2 = std::move(mount);
      }
    } else if (type == "cgroup") {
      for (auto& option : text::split_nonempty(separator[3], ',')) {
        if (is_controller(option)) {
          mount.controllers.push_back(std::move(option));
        }
      }
      mounts.v1.push_back(std::move(mount));
    }
  }
  return mounts;
}

cgroup_mounts cgroup_mounts::of_this_system() {
  std::ifstream file("/proc/self/mountinfo");
  std::stringstream text;
  text << file.rdbuf();
  return parse(text.str());
}

const cgroup_mount* cgroup_mounts::v1_with(std::string_view controller) const {
  const auto found = std::find_if(v1.begin(), v1.end(), [&](const cgroup_mount& mount) {
    return mount.has_controller(controller);
  });
  return found == v1.end() ? nullptr : &*found;
}

cgroup_directories find_cgroup(const std::string& path, const cgroup_mounts& mounts) {
  const auto refuse = [&](const std::string& why) {
    throw std::invalid_argument(path + ": not a cgroup: " + why);
  };
  if (path.empty() || path.front() != '/') {
    refuse("give a cgroup's directory (/sys/fs/cgroup/...) or its path as /proc/PID/cgroup "
           "writes it (/docker/ID)");
  }
  const std::string normal = normalized(path);
  if (is_v2_directory(normal)) {
    cgroup_directories found;
    found.v2 = normal;
    return found;
  }
  std::vector<std::string> looked;
  // A directory of a v1 hierarchy names the same cgroup in the others.
  const std::string real = real_path(normal);
  for (const auto& mount : mounts.v1) {
    if (const auto cgroup_path = cgroup_path_of(mount, real)) {
      auto found = find_in_v1(*cgroup_path, mounts, looked);
      if (!found_any(found)) {
        refuse(looked.empty() ? "no memory, pids or cpuacct hierarchy is mounted"
                              : "no " + text::join(looked, ", "));
      }
      return found;
    }
  }
  if (mounts.v2 && cgroup_path_of(*mounts.v2, real)) {
    refuse("no " + normal + "/cgroup.controllers");
  }
  // A cgroup path, as /proc/PID/cgroup writes it.
  auto found = find_in_v1(normal, mounts, looked);
  if (found_any(found)) {
    return found;
  }
  if (mounts.v2) {
    if (const auto directory = directory_of(*mounts.v2, normal); directory) {
      if (is_v2_directory(*directory)) {
        cgroup_directories in_v2;
        in_v2.v2 = *directory;
        return in_v2;
      }
      looked.push_back(*directory);
    } else {
      looked.push_back(mounts.v2->mount_point + " (it shows only " + mounts.v2->root + ")");
    }
  }
  refuse(looked.empty() ? "no cgroup v1 memory, pids or cpuacct hierarchy and no cgroup2 is "
                          "mounted (/proc/self/mountinfo)"
                        : "no " + text::join(looked, ", "));
  return {}; // not reached: refuse throws
}

} // namespace s3fault::metrics
