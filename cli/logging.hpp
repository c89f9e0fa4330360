#pragma once
// The process-wide logger: stderr, text or JSON lines.
#include "proxy/exchange_log.hpp"

#include <spdlog/logger.h>

#include <memory>
#include <string>

namespace s3fault::cli {

/// `level` is one of trace, debug, info, warn, error, off. Throws std::invalid_argument otherwise.
std::shared_ptr<spdlog::logger> make_logger(proxy::log_format format, const std::string& level);

} // namespace s3fault::cli
