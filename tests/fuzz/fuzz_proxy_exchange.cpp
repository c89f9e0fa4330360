// One client connection through a real client_session, with in-memory streams on both sides:
// the fuzzer writes what the client sends and what the store answers, and picks the rules in
// force from a menu (every action that does not wait on a clock). The session must end, with no
// crash, leak or undefined behaviour, whatever either side sends.
//
// Input: [rule menu][client piece size][store piece size][client length, 2 bytes big-endian]
//        [client bytes][store bytes]
#include "faults/config/build_rules.hpp"
#include "proxy/client_session.hpp"
#include "proxy/exchange_metrics.hpp"
#include "proxy/worker.hpp"
#include "tests/fuzz/memory_stream.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace s3fault;

namespace {

// Rule sets the exchanges run under; actions that sleep (delay, hang, throttle, stall,
// first-byte-delay, request-throttle) are left out: they would only make runs slow.
constexpr std::array<std::string_view, 18> rule_menu = {
    "",
    "strip-header x-amz-mp-parts-count",
    "truncate 50% mode=consistent op=GetObject",
    "truncate 10 mode=close",
    "corrupt count=3",
    "truncate 5 mode=consistent",
    "set-status 500",
    "error SlowDown first=1",
    "forward-then-error InternalError",
    "reset-after 100",
    "request-reset-after 10",
    "strip-header content-range key=*",
    "set-header content-range 'bytes 0-0/1'",
    "set-header x-seen yes status=2xx",
    "reset p=0.5",
    "xml-set Error/Message '<&>'",
    "xml-remove Error/Resource status=4xx,5xx",
    "replace-with-error InternalError 500 status=404",
};

std::shared_ptr<faults::rule_store> rules_for(std::uint8_t choice) {
  auto store = std::make_shared<faults::rule_store>(11, faults::clock::now());
  const std::string_view spec = rule_menu[choice % rule_menu.size()];
  if (!spec.empty()) {
    auto build = faults::config::build_rules({std::string(spec)}, {}, {});
    if (!build.ok()) {
      __builtin_trap(); // the menu itself is wrong
    }
    store->replace_all(std::move(build.rules));
  }
  return store;
}

std::shared_ptr<spdlog::logger> quiet_logger() {
  // Trace level: the log lines (and their redaction) are formatted and then dropped.
  static const auto logger = [] {
    auto made =
        std::make_shared<spdlog::logger>("fuzz", std::make_shared<spdlog::sinks::null_sink_mt>());
    made->set_level(spdlog::level::trace);
    return made;
  }();
  return logger;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 5) {
    return 0;
  }
  const std::uint8_t rule_choice = data[0];
  const std::size_t client_piece = data[1] + 1;
  const std::size_t store_piece = std::size_t(data[2]) * 64 + 1;
  const std::size_t client_length = std::min<std::size_t>((data[3] << 8) | data[4], size - 5);
  const std::string client_bytes(reinterpret_cast<const char*>(data + 5), client_length);
  const std::string store_bytes(reinterpret_cast<const char*>(data + 5 + client_length),
                                size - 5 - client_length);

  proxy::proxy_config config;
  config.upstream = text::http_endpoint::parse("http://127.0.0.1:9");
  config.faults = rules_for(rule_choice);
  config.metrics = std::make_shared<metrics::traffic_metrics>(proxy::metric_operation_names());

  proxy::asio::io_context context;
  proxy::worker owner(context, config, {}, nullptr, nullptr, quiet_logger());
  int connects = 0;
  owner.pool.connect_with([&]() -> std::unique_ptr<proxy::byte_stream> {
    if (++connects > 4) {
      return nullptr; // the store refuses from now on
    }
    return std::make_unique<fuzz::memory_stream>(context, store_bytes, store_piece);
  });
  auto client = std::make_unique<fuzz::memory_stream>(context, client_bytes, client_piece);
  proxy::asio::co_spawn(
      context,
      [&owner, client = std::move(client)]() mutable -> proxy::asio::awaitable<void> {
        proxy::client_session session(owner, std::move(client), "127.0.0.1:1");
        co_await session.run();
      },
      proxy::asio::detached);
  context.run();
  owner.pool.close_all();
  return 0;
}
