#pragma once
// A fresh temporary directory that a test lays out like mounted cgroup hierarchies (directories
// and copies of their files), removed with everything in it at the end of the test.
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace s3fault::testing {

class cgroup_tree {
public:
  cgroup_tree() {
    namespace fs = std::filesystem;
    // Canonical, so that it compares equal to paths the code under test resolves.
    root_ = (fs::canonical(fs::temp_directory_path()) /
             ("s3fault-cgroups-" + std::to_string(::getpid()) + "-" + std::to_string(next_++)))
                .string();
    fs::create_directories(root_);
  }
  ~cgroup_tree() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  cgroup_tree(const cgroup_tree&) = delete;
  cgroup_tree& operator=(const cgroup_tree&) = delete;

  /// The absolute path of `relative` ("memory/docker/abc") in the tree.
  std::string path(std::string_view relative) const { return root_ + "/" + std::string(relative); }
  const std::string& root() const { return root_; }

  /// Makes the directory `relative` and those above it.
  std::string make_directory(std::string_view relative) const {
    std::filesystem::create_directories(path(relative));
    return path(relative);
  }
  /// Writes `content` to the file `relative`, making its directories.
  void write(std::string_view relative, std::string_view content) const {
    std::filesystem::create_directories(std::filesystem::path(path(relative)).parent_path());
    std::ofstream(path(relative)) << content;
  }

private:
  static inline int next_ = 0;
  std::string root_;
};

} // namespace s3fault::testing
