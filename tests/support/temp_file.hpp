#pragma once
// A file with the given content in a fresh temporary directory, removed with it: for tests of
// code that reads files (rules files, scenario files).
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace s3fault::testing {

class temp_file {
public:
  temp_file(const std::string& name, std::string_view content) {
    dir_ = std::filesystem::temp_directory_path() /
           ("s3fault-test-" + std::to_string(::getpid()) + "-" + std::to_string(next_++));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / name).string();
    std::ofstream(path_) << content;
  }
  ~temp_file() { std::filesystem::remove_all(dir_); }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;

  const std::string& path() const { return path_; }

private:
  static inline int next_ = 0;
  std::filesystem::path dir_;
  std::string path_;
};

} // namespace s3fault::testing
