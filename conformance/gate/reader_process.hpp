#pragma once
// Runs a reader's (or a writer's) command the way CI would: `bash -c COMMAND` in its own process
// group, with the run's endpoint, credentials, bucket, key and output path (a writer's: input
// path) as placeholders and environment variables; stdout and stderr to files; killed (the whole
// group) at the deadline.
#include <chrono>
#include <functional>
#include <map>
#include <string>

namespace s3fault::gate {

struct reader_invocation {
  std::string command; // with {endpoint} {bucket} {key} {output} ({input}) placeholders
  std::string endpoint;
  std::string access_key;
  std::string secret_key;
  std::string region;
  std::string bucket;
  std::string key;
  std::string output_path; // where the reader should write the object
  /// A writer's file to upload: {input} and S3FAULT_INPUT; empty for a reader (then {input} is
  /// left as it is).
  std::string input_path;
  std::string stdout_path; // what it printed (the object, for readers that write to stdout)
  std::string stderr_path;
  std::string home; // HOME for the reader (a scratch directory: no user config leaks in)
  std::chrono::milliseconds timeout{std::chrono::seconds(120)};
  /// Polled while the reader runs: true ends it at once (its whole group is killed).
  std::function<bool()> should_stop;
};

struct reader_exit {
  bool timed_out = false;   // killed at the deadline (the process group got SIGKILL)
  bool interrupted = false; // killed because should_stop said so: no verdict
  int exit_code = -1;       // when it exited; 128 + signal when a signal ended it
  double seconds = 0;
  std::string failure; // the command could not be started at all
};

/// 'text' with every ' escaped: one word for bash, whatever it holds.
std::string shell_quote(const std::string& text);
/// `{endpoint}` `{bucket}` `{key}` `{output}` in `command` replaced by the given texts, as they
/// are (the caller quotes them); `{input}` too when `input` is not empty.
std::string fill_placeholders(std::string command, const std::string& endpoint,
                              const std::string& bucket, const std::string& key,
                              const std::string& output, const std::string& input = "");
/// `{endpoint}` ... replaced in `run.command` by the run's values, shell-quoted.
std::string expand_placeholders(const reader_invocation& run);
/// Runs it to the end or to the deadline.
reader_exit run_reader(const reader_invocation& run);

} // namespace s3fault::gate
