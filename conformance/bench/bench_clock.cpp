#include "conformance/bench/bench_clock.hpp"

#include "conformance/client/s3_client.hpp"
#include "runtime/http_date.hpp"

#include <algorithm>
#include <thread>

namespace s3fault::bench {

wall_time bench_now(const bench_settings& settings) {
  return std::chrono::system_clock::now() + settings.test_clock_offset;
}

std::int64_t unix_micros(wall_time time) {
  return std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count();
}

wall_time from_unix_micros(std::int64_t micros) {
  return wall_time(
      std::chrono::duration_cast<wall_time::duration>(std::chrono::microseconds(micros)));
}

void sleep_until(const bench_settings& settings, wall_time when,
                 const std::function<bool()>& stop) {
  for (;;) {
    if (stop && stop()) {
      return;
    }
    const auto left = when - bench_now(settings);
    if (left <= wall_time::duration::zero()) {
      return;
    }
    std::this_thread::sleep_for(std::min<wall_time::duration>(left, std::chrono::milliseconds(50)));
  }
}

std::optional<std::chrono::milliseconds>
store_clock_offset(const bench_settings& settings, const std::string& bucket, std::string& why) {
  client::s3_client store(settings.client);
  const auto sent = bench_now(settings);
  const auto answer = store.head_bucket(bucket);
  const auto received = bench_now(settings);
  const auto date = answer.header("Date");
  if (!date) {
    why = "the store's answer to HEAD /" + bucket + " has no Date header";
    return std::nullopt;
  }
  const auto store_time = runtime::parse_http_date(*date);
  if (!store_time) {
    why = "the store's Date header '" + std::string(*date) + "' is not an HTTP date";
    return std::nullopt;
  }
  // The Date names a whole second: its middle is the best guess of the store's time.
  const auto middle_of_second = *store_time + std::chrono::milliseconds(500);
  const auto our_middle = sent + (received - sent) / 2;
  return std::chrono::duration_cast<std::chrono::milliseconds>(middle_of_second - our_middle);
}

} // namespace s3fault::bench
