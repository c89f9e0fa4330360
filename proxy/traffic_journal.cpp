#include "proxy/traffic_journal.hpp"

#include "proxy/journal_line.hpp"

#include <fmt/format.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

namespace s3fault::proxy {

traffic_journal::traffic_journal(const journal_settings& settings) {
  if (settings.max_file_bytes < 4096) {
    throw std::runtime_error(
        fmt::format("--journal-max-size: at least 4KiB, got {} bytes", settings.max_file_bytes));
  }
  if (settings.rotated_files > 1000) {
    throw std::runtime_error(
        fmt::format("--journal-files: at most 1000, got {}", settings.rotated_files));
  }
  try {
    auto sink = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
        settings.path, static_cast<std::size_t>(settings.max_file_bytes), settings.rotated_files);
    file_ = std::make_shared<spdlog::logger>("journal", std::move(sink));
  } catch (const spdlog::spdlog_ex& error) {
    throw std::runtime_error(
        fmt::format("--journal {}: cannot open it: {}", settings.path, error.what()));
  }
  file_->set_pattern("%v");
  file_->set_level(spdlog::level::info);
  file_->flush_on(spdlog::level::off);
  flusher_ = std::thread([this] { flush_every_second(); });
}

traffic_journal::~traffic_journal() {
  {
    std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_signal_.notify_all();
  flusher_.join();
  file_->flush();
}

void traffic_journal::write(const exchange_record& record, const faults::s3_request& request) {
  const std::string line = journal_line(record, request);
  file_->log(spdlog::level::info, spdlog::string_view_t(line));
}

void traffic_journal::flush() {
  file_->flush();
}

void traffic_journal::flush_every_second() {
  std::unique_lock lock(stop_mutex_);
  while (!stop_signal_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; })) {
    file_->flush();
  }
}

} // namespace s3fault::proxy
