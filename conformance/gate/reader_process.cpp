#include "conformance/gate/reader_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace s3fault::gate {
namespace {

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

std::vector<std::string> reader_environment(const reader_invocation& run) {
  std::vector<std::string> env;
  // The reader sees the run's values, never the caller's AWS settings or profiles.
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    if (text.rfind("AWS_", 0) == 0 || text.rfind("S3FAULT_", 0) == 0 ||
        text.rfind("HOME=", 0) == 0) {
      continue;
    }
    env.emplace_back(text);
  }
  env.push_back("S3FAULT_ENDPOINT=" + run.endpoint);
  env.push_back("S3FAULT_BUCKET=" + run.bucket);
  env.push_back("S3FAULT_KEY=" + run.key);
  env.push_back("S3FAULT_OUTPUT=" + run.output_path);
  if (!run.input_path.empty()) {
    env.push_back("S3FAULT_INPUT=" + run.input_path);
  }
  env.push_back("AWS_ACCESS_KEY_ID=" + run.access_key);
  env.push_back("AWS_SECRET_ACCESS_KEY=" + run.secret_key);
  env.push_back("AWS_REGION=" + run.region);
  env.push_back("AWS_DEFAULT_REGION=" + run.region);
  env.push_back("AWS_EC2_METADATA_DISABLED=true");
  env.push_back("HOME=" + run.home);
  return env;
}

void end_group(pid_t group) {
  ::kill(-group, SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ::kill(-group, SIGKILL);
}

} // namespace

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return quoted + "'";
}

std::string fill_placeholders(std::string command, const std::string& endpoint,
                              const std::string& bucket, const std::string& key,
                              const std::string& output, const std::string& input) {
  replace_all(command, "{endpoint}", endpoint);
  replace_all(command, "{bucket}", bucket);
  replace_all(command, "{key}", key);
  replace_all(command, "{output}", output);
  if (!input.empty()) {
    replace_all(command, "{input}", input);
  }
  return command;
}

std::string expand_placeholders(const reader_invocation& run) {
  return fill_placeholders(run.command, shell_quote(run.endpoint), shell_quote(run.bucket),
                           shell_quote(run.key), shell_quote(run.output_path),
                           run.input_path.empty() ? "" : shell_quote(run.input_path));
}

reader_exit run_reader(const reader_invocation& run) {
  reader_exit result;
  const std::string command = expand_placeholders(run);
  const auto env_strings = reader_environment(run);
  std::vector<char*> env;
  for (const auto& entry : env_strings) {
    env.push_back(const_cast<char*>(entry.c_str()));
  }
  env.push_back(nullptr);
  const int out = ::open(run.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int err = ::open(run.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0 || err < 0) {
    result.failure = "cannot create " + run.stdout_path + ": " + std::strerror(errno);
    if (out >= 0) {
      ::close(out);
    }
    if (err >= 0) {
      ::close(err);
    }
    return result;
  }
  const auto started = std::chrono::steady_clock::now();
  const pid_t child = ::fork();
  if (child == 0) {
    ::setpgid(0, 0); // its own group: a timeout ends the reader and everything it started
    // The reader starts with default signals, not ours: the proxy ignores SIGPIPE (splice) and
    // the jobs block SIGINT/SIGTERM for their signal thread; both would survive exec.
    ::signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    const int null_in = ::open("/dev/null", O_RDONLY);
    ::dup2(null_in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    const char* argv[] = {"/bin/bash", "-c", command.c_str(), nullptr};
    ::execve("/bin/bash", const_cast<char**>(argv), env.data());
    ::_exit(127);
  }
  ::close(out);
  ::close(err);
  if (child < 0) {
    result.failure = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  ::setpgid(child, child); // also here, so the group exists before any kill below
  const auto deadline = started + run.timeout;
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(child, &status, WNOHANG);
    if (done == child) {
      break;
    }
    if (run.should_stop && run.should_stop()) {
      result.interrupted = true;
      ::kill(-child, SIGKILL); // at once: the user asked to stop
      ::waitpid(child, &status, 0);
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      end_group(child);
      ::waitpid(child, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // Whatever the reader left running in its group does not outlive the run.
  ::kill(-child, SIGKILL);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  return result;
}

} // namespace s3fault::gate
