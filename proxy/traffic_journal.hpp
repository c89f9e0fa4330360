#pragma once
// The traffic journal's file (docs/journal.md): one JSON line per exchange, written by the
// proxy's workers through spdlog's rotating sink (which renames FILE to FILE.1 and so on when
// a line would take it past its size), flushed once a second and when the journal closes.
#include "proxy/exchange_log.hpp"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace spdlog {
class logger;
}

namespace s3fault::proxy {

struct journal_settings {
  std::string path;
  std::uint64_t max_file_bytes = 64ull * 1024 * 1024;
  std::size_t rotated_files = 4; // kept besides the current file
};

class traffic_journal {
public:
  /// Opens (appends to) the file; throws std::runtime_error with a message for the user.
  explicit traffic_journal(const journal_settings& settings);
  ~traffic_journal(); // flushes
  traffic_journal(const traffic_journal&) = delete;
  traffic_journal& operator=(const traffic_journal&) = delete;

  /// Safe from any thread.
  void write(const exchange_record& record, const faults::s3_request& request);
  void flush();

private:
  void flush_every_second();

  std::shared_ptr<spdlog::logger> file_;
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stopping_ = false;
  std::thread flusher_;
};

} // namespace s3fault::proxy
