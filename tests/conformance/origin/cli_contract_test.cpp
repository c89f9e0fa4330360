// `s3fault origin` as a process: the line on stdout, exit codes, signals.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <csignal>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <regex>
#include <spawn.h>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace {

/// A child process with its stdout on a pipe (stderr discarded).
class child_process {
public:
  explicit child_process(std::vector<std::string> args) {
    int out[2];
    EXPECT_EQ(::pipe(out), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    args.insert(args.begin(), S3FAULT_BIN);
    std::vector<char*> argv;
    for (auto& arg : args) {
      argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    EXPECT_EQ(posix_spawn(&pid_, S3FAULT_BIN, &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    stdout_ = out[0];
  }
  ~child_process() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(stdout_);
  }

  /// The first stdout line, waiting at most `seconds`.
  std::string first_line(int seconds = 20) {
    std::string line;
    while (line.find('\n') == std::string::npos) {
      pollfd ready{stdout_, POLLIN, 0};
      if (::poll(&ready, 1, seconds * 1000) <= 0) {
        return line;
      }
      char buffer[256];
      const ssize_t n = ::read(stdout_, buffer, sizeof buffer);
      if (n <= 0) {
        return line;
      }
      line.append(buffer, static_cast<std::size_t>(n));
    }
    return line.substr(0, line.find('\n'));
  }

  /// Waits for the exit and returns its code (-1: killed by a signal).
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  void signal(int number) { ::kill(pid_, number); }

private:
  pid_t pid_ = -1;
  int stdout_ = -1;
};

/// Sends a bare GET and returns the status code of the answer.
int status_of_unsigned_get(int port, const std::string& target) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  const std::string request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  char buffer[64];
  const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
  ::close(fd);
  return n >= 12 ? std::stoi(std::string(buffer + 9, 3)) : -1;
}

int port_of(const std::string& line) {
  std::smatch match;
  const std::regex shape(R"(listening on http://127\.0\.0\.1:(\d+))");
  if (!std::regex_match(line, match, shape)) {
    ADD_FAILURE() << "unexpected first line: '" << line << "'";
    return -1;
  }
  return std::stoi(match[1]);
}

TEST(OriginCli, PrintsTheRealPortServesAndExitsZeroOnSigterm) {
  child_process origin({"origin", "--listen", "127.0.0.1:0", "--threads", "1"});
  const int port = port_of(origin.first_line());
  ASSERT_GT(port, 0);
  EXPECT_EQ(status_of_unsigned_get(port, "/"), 403) << "signatures are checked by default";
  origin.signal(SIGTERM);
  EXPECT_EQ(origin.wait(), 0);
}

TEST(OriginCli, AnonymousAcceptsUnsignedRequestsAndExitsZeroOnSigint) {
  child_process origin({"origin", "--listen", "127.0.0.1:0", "--anonymous"});
  const int port = port_of(origin.first_line());
  ASSERT_GT(port, 0);
  EXPECT_EQ(status_of_unsigned_get(port, "/"), 200);
  EXPECT_EQ(status_of_unsigned_get(port, "/nobucket"), 404);
  origin.signal(SIGINT);
  EXPECT_EQ(origin.wait(), 0);
}

TEST(OriginCli, BadOptionsExitTwo) {
  const std::vector<std::vector<std::string>> bad = {
      {"origin", "--bogus"},
      {"origin", "--listen", "nonsense"},
      {"origin", "--access-key", "only-the-key"},
      {"origin", "--anonymous", "--secret-key", "s"},
      {"origin", "--log-format", "xml"},
      {"origin", "--min-part-size", "-1"},
      {"origin", "--region", "Not A Region"},
  };
  for (const auto& args : bad) {
    child_process origin(args);
    EXPECT_EQ(origin.first_line(), "");
    EXPECT_EQ(origin.wait(), 2) << args.back();
  }
}

} // namespace
