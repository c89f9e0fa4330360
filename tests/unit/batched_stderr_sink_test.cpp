// The request log's stderr sink: lines are batched, but a warning, a full batch and the end of
// the logger write at once, and every line arrives, in order. stderr is pointed at a file.
#include "cli/batched_stderr_sink.hpp"

#include <gtest/gtest.h>
#include <spdlog/logger.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace s3fault::cli {
namespace {

class BatchedStderrSink : public ::testing::Test {
protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() /
            ("s3fault-sink-test-" + std::to_string(::getpid()));
    saved_stderr_ = ::dup(STDERR_FILENO);
    const int file = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(file, STDERR_FILENO);
    ::close(file);
    logger_ = make();
  }
  void TearDown() override {
    logger_.reset();
    ::dup2(saved_stderr_, STDERR_FILENO);
    ::close(saved_stderr_);
    std::filesystem::remove(path_);
  }
  static std::shared_ptr<spdlog::logger> make() {
    auto logger = std::make_shared<spdlog::logger>("test", std::make_shared<batched_stderr_sink>());
    logger->set_pattern("%v");
    return logger;
  }
  std::string written() const {
    std::ifstream in(path_);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::filesystem::path path_;
  int saved_stderr_ = -1;
  std::shared_ptr<spdlog::logger> logger_;
};

TEST_F(BatchedStderrSink, AWarningWritesItselfAndTheLinesBeforeItAtOnce) {
  logger_->info("one request");
  logger_->warn("a warning");
  EXPECT_EQ(written(), "one request\na warning\n");
}

TEST_F(BatchedStderrSink, AFullBatchIsWrittenWithoutWaiting) {
  const std::string line(1000, 'x');
  for (int i = 0; i < 70; ++i) {
    logger_->info(line);
  }
  EXPECT_GE(written().size(), 64u * 1024) << "64 KiB of lines waiting are written at once";
}

TEST_F(BatchedStderrSink, InfoLinesArriveInOrderWithoutAFlush) {
  for (int i = 0; i < 1000; ++i) {
    logger_->info("line {}", i);
  }
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    expected += "line " + std::to_string(i) + "\n";
  }
  // The flusher writes them within its interval; the deadline only keeps a broken flusher
  // from hanging the test.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (written() != expected && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(written(), expected);
}

TEST_F(BatchedStderrSink, TheEndOfTheLoggerWritesWhatIsLeft) {
  logger_->info("the last line");
  logger_.reset();
  EXPECT_EQ(written(), "the last line\n");
}

} // namespace
} // namespace s3fault::cli
