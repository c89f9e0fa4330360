#include "conformance/bench/bench_clock.hpp"

#include "conformance/client/s3_client.hpp"
#include "text/http_date.hpp"

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

namespace {

/// One look at the store's clock: its Date, and when the request went and the answer came by
/// the bench's clock.
struct date_look {
  std::optional<wall_time> date;
  wall_time sent, received;
  wall_time middle() const { return sent + (received - sent) / 2; }
};

date_look look_at_date(client::s3_client& store, const bench_settings& settings,
                       const std::string& bucket, std::string& why) {
  date_look look;
  look.sent = bench_now(settings);
  const auto answer = store.head_bucket(bucket);
  look.received = bench_now(settings);
  const auto date = answer.header("Date");
  if (!date) {
    why = "the store's answer to HEAD /" + bucket + " has no Date header";
  } else if (!(look.date = text::parse_http_date(*date))) {
    why = "the store's Date header '" + std::string(*date) + "' is not an HTTP date";
  }
  return look;
}

std::chrono::milliseconds whole_millis(wall_time::duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d);
}

} // namespace

std::optional<clock_reading> store_clock_offset(const bench_settings& settings,
                                                const store_target& target,
                                                const std::string& bucket, std::string& why) {
  // A Date names a whole second. Looking every 20 ms until it changes finds the moment the
  // store's clock passed a second, to within the gap between two looks and a round trip; a store
  // whose Date did not change within 1.5 s gets the middle of its second (within half a second).
  client::s3_client store(target.client);
  auto previous = look_at_date(store, settings, bucket, why);
  if (!previous.date) {
    return std::nullopt;
  }
  const auto first = previous;
  while (bench_now(settings) - first.sent < std::chrono::milliseconds(1500)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto next = look_at_date(store, settings, bucket, why);
    if (!next.date) {
      return std::nullopt;
    }
    if (*next.date > *previous.date) {
      // The store passed the second between reading the two requests: after the first was
      // sent, before the second's answer came.
      const auto crossed = previous.sent + (next.received - previous.sent) / 2;
      return clock_reading{whole_millis(*next.date - crossed),
                           whole_millis((next.received - previous.sent) / 2) +
                               std::chrono::milliseconds(1)};
    }
    previous = next;
  }
  return clock_reading{whole_millis(*first.date + std::chrono::milliseconds(500) - first.middle()),
                       std::chrono::milliseconds(500) +
                           whole_millis((first.received - first.sent) / 2)};
}

} // namespace s3fault::bench
