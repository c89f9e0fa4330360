#include "conformance/client/run_naming.hpp"

#include <ctime>
#include <random>

namespace s3fault::client {

std::string random_name_suffix(std::size_t length) {
  std::random_device device;
  std::uniform_int_distribution<unsigned> digit(0, 35);
  std::string text;
  for (std::size_t i = 0; i < length; ++i) {
    const unsigned d = digit(device);
    text += static_cast<char>(d < 10 ? '0' + d : 'a' + d - 10);
  }
  return text;
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

} // namespace s3fault::client
