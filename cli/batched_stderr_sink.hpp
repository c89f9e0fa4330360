#pragma once
// Log lines to stderr in batches. The servers log one line per request, and a write(2) per line
// was a third of a small GET's time in the origin (docs/performance.md, "Why some connections
// starved"). Lines wait at most 100 ms; warnings and errors, 64 KiB of lines and the end of the
// logger write at once.
#include <spdlog/sinks/base_sink.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace s3fault::cli {

class batched_stderr_sink final : public spdlog::sinks::base_sink<std::mutex> {
public:
  batched_stderr_sink();
  ~batched_stderr_sink() override;
  batched_stderr_sink(const batched_stderr_sink&) = delete;
  batched_stderr_sink& operator=(const batched_stderr_sink&) = delete;

protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override;

private:
  void flush_every_interval();

  std::string pending_; // guarded by base_sink's mutex_
  std::mutex stop_mutex_;
  std::condition_variable stop_changed_;
  bool stopping_ = false;
  std::thread flusher_;
};

} // namespace s3fault::cli
