#include "runtime/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace s3fault::runtime {
namespace {

bool write_whole(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const auto count = ::write(fd, text.data() + written, text.size() - written);
    if (count < 0 && errno == EINTR) {
      continue;
    }
    if (count <= 0) {
      return false;
    }
    written += static_cast<std::size_t>(count);
  }
  return true;
}

/// The process's umask, read without setting it (umask(2) can only swap it, a race with other
/// threads creating files); Linux has shown it in /proc since 4.7.
mode_t current_umask() {
  if (FILE* status = std::fopen("/proc/self/status", "r")) {
    char line[256];
    unsigned mask = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, status) != nullptr) {
      found = std::sscanf(line, "Umask: %o", &mask) == 1;
    }
    std::fclose(status);
    if (found) {
      return static_cast<mode_t>(mask);
    }
  }
  return 022;
}

} // namespace

bool write_file_atomically(const std::string& path, const std::string& text, std::string& error) {
  std::string temporary = path + ".XXXXXX";
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  // mkstemp makes the file 0600; it gets the mode any new file would get.
  bool ok = ::fchmod(fd, 0666 & ~current_umask()) == 0 && write_whole(fd, text);
  ok = (::close(fd) == 0) && ok;
  ok = ok && std::rename(temporary.c_str(), path.c_str()) == 0;
  if (!ok) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    std::remove(temporary.c_str());
  }
  return ok;
}

} // namespace s3fault::runtime
