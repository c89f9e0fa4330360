#include "proxy/admin_server.hpp"

#include "proxy/admin_token.hpp"

#include "faults/admin_api.hpp"
#include "metrics/metrics_report.hpp"
#include "proxy/net.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <fmt/format.h>
#include <spdlog/logger.h>

#include <stdexcept>
#include <thread>

namespace s3fault::proxy {
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

/// The counters of the load-shaped rules in force, for /metrics.
std::vector<metrics::rule_load> rule_loads(const faults::rule_set& rules) {
  std::vector<metrics::rule_load> loads;
  for (const auto& r : rules.rules()) {
    if (!r.schedule.load_shaped()) {
      continue;
    }
    metrics::rule_load load;
    load.rule = r.name;
    load.in_flight = r.state->in_flight.load();
    load.peak_in_flight = r.state->peak_in_flight.load();
    load.refusals = r.state->refusals.load();
    loads.push_back(std::move(load));
  }
  return loads;
}

} // namespace

struct admin_server::impl {
  asio::io_context context{1};
  tcp::acceptor acceptor{context};
  std::shared_ptr<faults::rule_store> store;
  std::shared_ptr<metrics::traffic_metrics> traffic;
  std::string version;
  std::shared_ptr<spdlog::logger> logger;
  std::string token; // empty: no Authorization needed (loopback only)
  std::thread thread;

  asio::awaitable<void> accept_connections() {
    for (;;) {
      error_code ec;
      tcp::socket socket = co_await acceptor.async_accept(use_ec(ec));
      if (ec) {
        co_return;
      }
      asio::co_spawn(context, serve(beast::tcp_stream(std::move(socket))), asio::detached);
    }
  }

  asio::awaitable<void> serve(beast::tcp_stream stream) {
    beast::flat_buffer buffer;
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(1024 * 1024);
      stream.expires_after(std::chrono::seconds(30));
      error_code ec;
      co_await http::async_read(stream, buffer, parser, use_ec(ec));
      if (ec) {
        co_return;
      }
      const auto& request = parser.get();
      const std::string_view target(request.target().data(), request.target().size());
      if (!token.empty()) {
        const auto given = request.find(http::field::authorization);
        if (given == request.end() ||
            !admin_token_matches(std::string_view(given->value().data(), given->value().size()),
                                 token)) {
          // Neither the token nor what was sent is logged.
          logger->warn("admin {} {} refused: no valid bearer token",
                       std::string(request.method_string()), std::string(request.target()));
          http::response<http::string_body> response{http::status::unauthorized, request.version()};
          response.set(http::field::content_type, "application/json");
          response.set(http::field::www_authenticate, "Bearer");
          response.body() = "{\"error\": \"Unauthorized\", \"message\": \"this admin API needs "
                            "'Authorization: Bearer TOKEN' (the proxy's --admin-token)\"}\n";
          response.keep_alive(false);
          response.prepare_payload();
          co_await http::async_write(stream, response, use_ec(ec));
          co_return;
        }
      }
      if (request.method() == http::verb::get && traffic &&
          (target == "/metrics" || target == "/stats")) {
        http::response<http::string_body> response{http::status::ok, request.version()};
        if (target == "/metrics") {
          response.set(http::field::content_type, "text/plain; version=0.0.4");
          response.body() = metrics::prometheus_text(*traffic) +
                            metrics::prometheus_rule_load(rule_loads(*store->current()));
        } else {
          response.set(http::field::content_type, "application/json");
          response.body() = faults::admin_body_text(metrics::stats_json(*traffic));
        }
        response.keep_alive(request.keep_alive());
        response.prepare_payload();
        co_await http::async_write(stream, response, use_ec(ec));
        if (ec || !response.keep_alive()) {
          co_return;
        }
        continue;
      }
      const auto reply = faults::handle_admin_request(
          *store, std::string_view(request.method_string().data(), request.method_string().size()),
          std::string_view(request.target().data(), request.target().size()), request.body(),
          version);
      logger->info("admin {} {} {}", std::string(request.method_string()),
                   std::string(request.target()), reply.status);
      http::response<http::string_body> response{http::int_to_status(reply.status),
                                                 request.version()};
      response.set(http::field::content_type, "application/json");
      response.body() = faults::admin_body_text(reply.body);
      response.keep_alive(request.keep_alive());
      response.prepare_payload();
      co_await http::async_write(stream, response, use_ec(ec));
      if (ec || !response.keep_alive()) {
        co_return;
      }
    }
  }
};

admin_server::admin_server(listen_address address, std::shared_ptr<faults::rule_store> store,
                           std::shared_ptr<metrics::traffic_metrics> traffic, std::string version,
                           std::shared_ptr<spdlog::logger> logger, std::string token)
    : impl_(std::make_unique<impl>()) {
  if (!token.empty() && token.size() < min_admin_token_length) {
    throw std::runtime_error(fmt::format("--admin-token: at least {} characters, got {}",
                                         min_admin_token_length, token.size()));
  }
  impl_->token = std::move(token);
  impl_->store = std::move(store);
  impl_->traffic = std::move(traffic);
  impl_->version = std::move(version);
  impl_->logger = std::move(logger);
  tcp::resolver resolver(impl_->context);
  error_code ec;
  const auto results = resolver.resolve(address.host, std::to_string(address.port), ec);
  if (ec || results.empty()) {
    throw std::runtime_error(
        fmt::format("--admin: cannot resolve '{}': {}", address.host, ec.message()));
  }
  const tcp::endpoint endpoint = results.begin()->endpoint();
  if (!endpoint.address().is_loopback() && impl_->token.empty()) {
    throw std::runtime_error(
        fmt::format("--admin {}: without --admin-token the admin API listens on loopback "
                    "addresses only (127.0.0.1, ::1)",
                    address.host));
  }
  auto& acceptor = impl_->acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) {
    acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  }
  if (!ec) {
    acceptor.bind(endpoint, ec);
  }
  if (!ec) {
    acceptor.listen(asio::socket_base::max_listen_connections, ec);
  }
  if (ec) {
    throw std::runtime_error(fmt::format("--admin: cannot listen on {}:{}: {}", address.host,
                                         address.port, ec.message()));
  }
  asio::co_spawn(impl_->context, impl_->accept_connections(), asio::detached);
  impl_->thread = std::thread([this] { impl_->context.run(); });
}

admin_server::~admin_server() {
  impl_->context.stop();
  if (impl_->thread.joinable()) {
    impl_->thread.join();
  }
}

std::string admin_server::url() const {
  const auto endpoint = impl_->acceptor.local_endpoint();
  return endpoint.address().is_v6()
             ? fmt::format("http://[{}]:{}", endpoint.address().to_string(), endpoint.port())
             : fmt::format("http://{}:{}", endpoint.address().to_string(), endpoint.port());
}

} // namespace s3fault::proxy
