#include "cli/logging.hpp"

#include "cli/batched_stderr_sink.hpp"

#include <nlohmann/json.hpp>
#include <spdlog/pattern_formatter.h>

#include <stdexcept>

namespace s3fault::cli {
namespace {

// JSON lines: a message that is already a JSON object (an exchange record) gets "ts" and
// "level" added in front; any other message becomes {"ts","level","msg"}.
class json_line_formatter final : public spdlog::formatter {
public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    spdlog::memory_buf_t stamp;
    stamp_.format(msg, stamp);
    const std::string_view payload(msg.payload.data(), msg.payload.size());
    const std::string_view prefix(stamp.data(), stamp.size());
    dest.append(prefix.data(), prefix.data() + prefix.size());
    if (payload.size() >= 2 && payload.front() == '{' && payload.back() == '}') {
      dest.push_back(',');
      dest.append(payload.data() + 1, payload.data() + payload.size());
    } else {
      const std::string text = nlohmann::json(std::string(payload))
                                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      dest.append(std::string_view(",\"msg\":"));
      dest.append(text.data(), text.data() + text.size());
      dest.push_back('}');
    }
    dest.push_back('\n');
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<json_line_formatter>();
  }

private:
  spdlog::pattern_formatter stamp_{"{\"ts\":\"%Y-%m-%dT%H:%M:%S.%fZ\",\"level\":\"%l\"",
                                   spdlog::pattern_time_type::utc, ""};
};

} // namespace

std::shared_ptr<spdlog::logger> make_logger(proxy::log_format format, const std::string& level) {
  const auto parsed = spdlog::level::from_str(level);
  if (parsed == spdlog::level::off && level != "off") {
    throw std::invalid_argument("--log-level '" + level +
                                "': must be one of trace, debug, info, warn, error, off");
  }
  auto sink = std::make_shared<batched_stderr_sink>();
  auto logger = std::make_shared<spdlog::logger>("s3fault", sink);
  if (format == proxy::log_format::json) {
    logger->set_formatter(std::make_unique<json_line_formatter>());
  } else {
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %l %v");
  }
  logger->set_level(parsed);
  logger->flush_on(spdlog::level::warn);
  return logger;
}

} // namespace s3fault::cli
