#include "cli/command_support.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace s3fault::cli {

std::string env_or(const char* name, std::string fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

std::vector<std::string> split_globs(const std::vector<std::string>& arguments) {
  std::vector<std::string> globs;
  for (const auto& argument : arguments) {
    std::size_t start = 0;
    while (true) {
      const auto comma = argument.find(',', start);
      const auto piece = argument.substr(start, comma - start);
      if (!piece.empty()) {
        globs.push_back(piece);
      }
      if (comma == std::string::npos) {
        break;
      }
      start = comma + 1;
    }
  }
  if (globs.empty()) {
    globs.push_back("*");
  }
  return globs;
}

bool use_colour(const std::string& choice) {
  if (choice == "always") {
    return true;
  }
  if (choice == "never") {
    return false;
  }
  return isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr;
}

bool write_report_file(const std::string& command, const std::string& path,
                       const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    std::cerr << "s3fault " << command << ": cannot write " << path << "\n";
    return false;
  }
  return true;
}

} // namespace s3fault::cli
