#include "metrics/store_probe.hpp"

#include "text/text.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace s3fault::metrics {
namespace {

/// VmRSS and RssAnon (kB) and Threads from /proc/PID/status, added to `into`.
bool add_process_status(int pid, store_reading& into) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  if (!status) {
    return false;
  }
  std::string line;
  bool rss = false;
  bool anon = false;
  bool threads = false;
  while (std::getline(status, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t value = 0;
    fields >> name >> value;
    if (name == "VmRSS:") {
      into.memory_bytes += value * 1024;
      rss = true;
    } else if (name == "RssAnon:") {
      into.anon_bytes += value * 1024;
      anon = true;
    } else if (name == "Threads:") {
      into.threads += value;
      threads = true;
    }
  }
  return rss && anon && threads;
}

/// utime + stime (fields 14 and 15) from /proc/PID/stat, in seconds, added to `into`.
bool add_process_cpu(int pid, store_reading& into) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!stat || !std::getline(stat, text)) {
    return false;
  }
  // The command name (field 2) may hold spaces and parentheses: fields restart after the last
  // ')'.
  const auto close = text.rfind(')');
  if (close == std::string::npos || close + 2 > text.size()) {
    return false;
  }
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  std::optional<std::uint64_t> utime = 0;
  std::optional<std::uint64_t> stime = 0;
  for (int index = 3; index <= 15 && fields >> field; ++index) {
    if (index == 14) {
      utime = text::parse_whole_number(field);
    } else if (index == 15) {
      stime = text::parse_whole_number(field);
    }
  }
  if (!utime || !stime) {
    return false;
  }
  into.cpu_seconds +=
      static_cast<double>(*utime + *stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  return true;
}

bool cgroup_file_exists(const std::string& directory, const std::string& name) {
  std::error_code ignored;
  return !directory.empty() && std::filesystem::exists(directory + "/" + name, ignored);
}

} // namespace

store_probe store_probe::of_processes(std::vector<int> pids) {
  store_probe probe;
  probe.pids_ = std::move(pids);
  return probe;
}

store_probe store_probe::of_cgroup(const std::string& path, const cgroup_mounts& mounts) {
  return of_cgroup_directories(path, find_cgroup(path, mounts));
}

store_probe store_probe::of_cgroup(const std::string& path) {
  return of_cgroup(path, cgroup_mounts::of_this_system());
}

store_probe store_probe::of_cgroup_directories(const std::string& path,
                                               const cgroup_directories& found) {
  store_probe probe;
  probe.cgroup_path_ = path;
  std::vector<std::string> lacking;
  if (found.version == 2) {
    const std::string& at = found.v2;
    if (cgroup_file_exists(at, "memory.current")) {
      probe.memory_ = cgroup_file{.path = at + "/memory.current"};
      probe.anon_ = cgroup_file{.path = at + "/memory.stat", .key = "anon"};
    } else {
      lacking.emplace_back("no memory.current: no memory figures");
    }
    probe.threads_ = cgroup_file_exists(at, "pids.current")
                         ? cgroup_file{.path = at + "/pids.current"}
                         : cgroup_file{.path = at + "/cgroup.threads", .count_lines = true};
    if (cgroup_file_exists(at, "cpu.stat")) {
      probe.cpu_ = cgroup_file{.path = at + "/cpu.stat", .key = "usage_usec"};
      probe.cpu_seconds_per_unit_ = 1e-6;
    } else {
      lacking.emplace_back("no cpu.stat: no CPU time");
    }
    probe.cgroup_about_ = "v2";
  } else {
    std::vector<std::string> in;
    std::vector<std::string> not_in;
    if (!found.memory.empty()) {
      probe.memory_ = cgroup_file{.path = found.memory + "/memory.usage_in_bytes"};
      probe.anon_ = cgroup_file{.path = found.memory + "/memory.stat", .key = "total_rss"};
      in.emplace_back("memory");
    } else {
      not_in.emplace_back("memory");
      lacking.emplace_back("no memory figures");
    }
    // Every v1 hierarchy lists the cgroup's own threads in `tasks`; pids.current also counts
    // those of the cgroups below it, as memory and cpuacct do.
    const std::string& any = !found.memory.empty() ? found.memory
                             : !found.pids.empty() ? found.pids
                                                   : found.cpuacct;
    if (cgroup_file_exists(found.pids, "pids.current")) {
      probe.threads_ = cgroup_file{.path = found.pids + "/pids.current"};
    } else {
      probe.threads_ = cgroup_file{.path = any + "/tasks", .count_lines = true};
    }
    (found.pids.empty() ? not_in : in).emplace_back("pids");
    if (found.pids.empty()) {
      lacking.emplace_back("threads from tasks");
    }
    if (!found.cpuacct.empty()) {
      probe.cpu_ = cgroup_file{.path = found.cpuacct + "/cpuacct.usage"};
      probe.cpu_seconds_per_unit_ = 1e-9;
      in.emplace_back("cpuacct");
    } else {
      not_in.emplace_back("cpuacct");
      lacking.emplace_back("no CPU time");
    }
    probe.cgroup_about_ = "v1: " + text::join(in, ", ");
    if (!not_in.empty()) {
      probe.cgroup_about_ += "; not in " + text::join(not_in, ", ");
    }
  }
  if (!lacking.empty()) {
    probe.cgroup_about_ += (found.version == 2 ? "; " : ": ") + text::join(lacking, ", ");
  }
  probe.figures_ = {probe.memory_.has_value(), probe.anon_.has_value(), probe.threads_.has_value(),
                    probe.cpu_.has_value()};
  return probe;
}

std::optional<store_reading> store_probe::read(std::string& error) const {
  if (!cgroup_path_.empty()) {
    return read_cgroup(error);
  }
  store_reading reading;
  for (const int pid : pids_) {
    if (!add_process_status(pid, reading) || !add_process_cpu(pid, reading)) {
      error = "cannot read /proc/" + std::to_string(pid) + " (has the process ended?)";
      return std::nullopt;
    }
  }
  return reading;
}

std::optional<store_reading> store_probe::read_cgroup(std::string& error) const {
  store_reading reading;
  const std::pair<const std::optional<cgroup_file>*, std::uint64_t*> counted[] = {
      {&memory_, &reading.memory_bytes},
      {&anon_, &reading.anon_bytes},
      {&threads_, &reading.threads}};
  for (const auto& [file, into] : counted) {
    if (*file) {
      const auto number = read_cgroup_file(**file, error);
      if (!number) {
        return std::nullopt;
      }
      *into = *number;
    }
  }
  if (cpu_) {
    const auto usage = read_cgroup_file(*cpu_, error);
    if (!usage) {
      return std::nullopt;
    }
    reading.cpu_seconds = static_cast<double>(*usage) * cpu_seconds_per_unit_;
  }
  return reading;
}

std::optional<std::uint64_t> store_probe::read_cgroup_file(const cgroup_file& file,
                                                           std::string& error) const {
  std::ifstream in(file.path);
  if (!in) {
    error = "cgroup " + cgroup_path_ + ": cannot read " + file.path + " (was it removed?)";
    return std::nullopt;
  }
  std::string line;
  std::uint64_t lines = 0;
  while (std::getline(in, line)) {
    if (file.count_lines) {
      lines += text::trim(line).empty() ? 0 : 1;
      continue;
    }
    std::string_view value = text::trim(line);
    if (!file.key.empty()) {
      if (!value.starts_with(file.key + " ")) {
        continue;
      }
      value = text::trim(value.substr(file.key.size()));
    }
    if (const auto number = text::parse_whole_number(value)) {
      return number;
    }
    error = "cgroup " + cgroup_path_ + ": " + file.path + ": '" + std::string(value) +
            "' is not a whole number";
    return std::nullopt;
  }
  if (file.count_lines) {
    return lines;
  }
  error = "cgroup " + cgroup_path_ + ": " + file.path + ": " +
          (file.key.empty() ? "empty" : "no " + file.key + " line");
  return std::nullopt;
}

std::string store_probe::describe() const {
  if (!cgroup_path_.empty()) {
    return "cgroup " + cgroup_path_ + " (" + cgroup_about_ + ")";
  }
  std::vector<std::string> numbers;
  for (const int pid : pids_) {
    numbers.push_back(std::to_string(pid));
  }
  return (pids_.size() == 1 ? "PID " : "PIDs ") + text::join(numbers, ", ");
}

} // namespace s3fault::metrics
