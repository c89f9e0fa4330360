#include "cli/batched_stderr_sink.hpp"

#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace s3fault::cli {
namespace {

constexpr std::size_t batch_bytes = 64 * 1024;
constexpr auto longest_wait = std::chrono::milliseconds(100);

void write_all_to_stderr(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(STDERR_FILENO, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return; // stderr is gone: nothing better to do with a log line
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

} // namespace

batched_stderr_sink::batched_stderr_sink() {
  pending_.reserve(batch_bytes);
  // The flusher starts with every signal blocked: SIGINT and SIGTERM must reach the thread
  // that waits for them (it may be created later), not end the process here.
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &before);
  flusher_ = std::thread([this] { flush_every_interval(); });
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

batched_stderr_sink::~batched_stderr_sink() {
  {
    std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_changed_.notify_all();
  flusher_.join();
  flush();
}

void batched_stderr_sink::sink_it_(const spdlog::details::log_msg& msg) {
  spdlog::memory_buf_t line;
  formatter_->format(msg, line);
  pending_.append(line.data(), line.size());
  if (pending_.size() >= batch_bytes || msg.level >= spdlog::level::warn) {
    flush_();
  }
}

void batched_stderr_sink::flush_() {
  write_all_to_stderr(pending_);
  pending_.clear();
}

void batched_stderr_sink::flush_every_interval() {
  std::unique_lock lock(stop_mutex_);
  while (!stop_changed_.wait_for(lock, longest_wait, [this] { return stopping_; })) {
    flush();
  }
}

} // namespace s3fault::cli
