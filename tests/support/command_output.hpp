#pragma once
// Runs a shell command and collects what it prints: for tests that check s3fault against a
// reference implementation in another language (botocore's signer, prometheus_client's parser).
#include <cstdio>
#include <string>

namespace s3fault::testing {

/// A command's standard output and its exit status as pclose gives it (0: it succeeded; -1: it
/// could not be started).
struct command_output {
  std::string text;
  int status = -1;
};

inline command_output run_command(const std::string& command) {
  command_output result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    return result;
  }
  char buffer[4096];
  for (std::size_t read = 0; (read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) {
    result.text.append(buffer, read);
  }
  result.status = pclose(pipe);
  return result;
}

} // namespace s3fault::testing
