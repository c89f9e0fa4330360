// Running reader commands: placeholders are shell-quoted, the run's environment replaces the
// caller's AWS settings, exit codes come back, and the deadline kills the whole process group.
#include "conformance/gate/reader_process.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace s3fault::gate {
namespace {

namespace fs = std::filesystem;

class ReaderProcess : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("s3fault-reader-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    run_.endpoint = "http://127.0.0.1:1";
    run_.access_key = "key";
    run_.secret_key = "secret";
    run_.region = "us-east-1";
    run_.bucket = "b";
    run_.key = "dir/it's key";
    run_.output_path = (dir_ / "output").string();
    run_.stdout_path = (dir_ / "stdout").string();
    run_.stderr_path = (dir_ / "stderr").string();
    run_.home = dir_.string();
    run_.timeout = std::chrono::seconds(20);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string read(const std::string& name) {
    std::ifstream in(dir_ / name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
  reader_invocation run_;
};

TEST_F(ReaderProcess, PlaceholdersAreQuotedForTheShell) {
  run_.command = "printf '%s|' {bucket} {key} > {output}";
  const auto exit = run_reader(run_);
  EXPECT_EQ(exit.exit_code, 0);
  EXPECT_FALSE(exit.timed_out);
  EXPECT_EQ(read("output"), "b|dir/it's key|");
}

TEST_F(ReaderProcess, TheRunsEnvironmentReplacesTheCallers) {
  ::setenv("AWS_PROFILE", "someone-elses", 1);
  run_.command = "echo \"$S3FAULT_ENDPOINT $S3FAULT_BUCKET $AWS_ACCESS_KEY_ID $AWS_REGION "
                 "${AWS_PROFILE:-none} $HOME\" > \"$S3FAULT_OUTPUT\"";
  EXPECT_EQ(run_reader(run_).exit_code, 0);
  ::unsetenv("AWS_PROFILE");
  EXPECT_EQ(read("output"), "http://127.0.0.1:1 b key us-east-1 none " + dir_.string() + "\n");
}

TEST_F(ReaderProcess, TheReaderStartsWithDefaultSignals) {
  // As in `s3fault gate`: the proxy ignores SIGPIPE and the job blocks SIGINT and SIGTERM.
  const auto old_pipe = std::signal(SIGPIPE, SIG_IGN);
  sigset_t stop_signals;
  sigset_t old_mask;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, &old_mask);
  run_.command = "grep -E '^(SigIgn|SigBlk):' /proc/self/status > {output}";
  const auto exit = run_reader(run_);
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  std::signal(SIGPIPE, old_pipe);
  ASSERT_EQ(exit.exit_code, 0);
  const auto status = read("output");
  // Masks in hex, bit (signal - 1): SIGPIPE is 13, SIGINT 2, SIGTERM 15.
  const auto ignored = std::stoull(status.substr(status.find("SigIgn:") + 7), nullptr, 16);
  const auto blocked = std::stoull(status.substr(status.find("SigBlk:") + 7), nullptr, 16);
  EXPECT_EQ(ignored & (1ull << (SIGPIPE - 1)), 0u) << status;
  EXPECT_EQ(blocked, 0u) << status;
}

TEST_F(ReaderProcess, ExitCodesAndStreamsComeBack) {
  run_.command = "echo out; echo err >&2; exit 3";
  const auto exit = run_reader(run_);
  EXPECT_EQ(exit.exit_code, 3);
  EXPECT_EQ(read("stdout"), "out\n");
  EXPECT_EQ(read("stderr"), "err\n");
}

TEST_F(ReaderProcess, TheDeadlineKillsTheWholeGroup) {
  run_.timeout = std::chrono::milliseconds(500);
  // A grandchild that would keep writing if it survived the kill.
  run_.command = "(sleep 3; echo survived > " + (dir_ / "grandchild").string() + ") & sleep 30";
  const auto exit = run_reader(run_);
  EXPECT_TRUE(exit.timed_out);
  EXPECT_LT(exit.seconds, 5.0);
  ::sleep(4);
  EXPECT_FALSE(fs::exists(dir_ / "grandchild")) << "a process of the group outlived the kill";
}

TEST_F(ReaderProcess, ExpandPlaceholdersLeavesOtherBracesAlone) {
  run_.command = "x {endpoint} {nope} {output} {input}";
  EXPECT_EQ(expand_placeholders(run_),
            "x 'http://127.0.0.1:1' {nope} '" + run_.output_path + "' {input}");
}

TEST_F(ReaderProcess, AWriterGetsItsInputAsPlaceholderAndVariable) {
  run_.input_path = (dir_ / "it's input").string();
  std::ofstream(dir_ / "it's input") << "bytes to upload";
  run_.command = "cat {input} > {output}; printf '|%s' \"$S3FAULT_INPUT\" >> {output}";
  EXPECT_EQ(run_reader(run_).exit_code, 0);
  EXPECT_EQ(read("output"), "bytes to upload|" + run_.input_path);
}

TEST_F(ReaderProcess, AReaderHasNoInputVariable) {
  ::setenv("S3FAULT_INPUT", "/from/the/caller", 1);
  run_.command = "printf %s \"${S3FAULT_INPUT-unset}\" > {output}";
  EXPECT_EQ(run_reader(run_).exit_code, 0);
  ::unsetenv("S3FAULT_INPUT");
  EXPECT_EQ(read("output"), "unset");
}

} // namespace
} // namespace s3fault::gate
