#include "proxy/admin_server.hpp"

#include "proxy/admin_token.hpp"
#include "proxy/proxy_identity.hpp"

#include "faults/admin_api.hpp"
#include "metrics/metrics_report.hpp"
#include "proxy/dashboard_page.hpp"
#include "proxy/net.hpp"
#include "runtime/server_runtime.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <fmt/format.h>
#include <spdlog/logger.h>

#include <array>
#include <charconv>
#include <mutex>
#include <optional>
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

// Admin requests are a method, a path and a few fields.
constexpr std::uint32_t admin_header_limit = 8 * 1024;

/// The answer to a request that could not be read, or none when the peer closed or went quiet.
std::optional<faults::admin_reply> refusal_for(error_code why, std::size_t body_limit) {
  if (why == http::error::body_limit) {
    return faults::error_reply(
        413, "body_too_large",
        fmt::format("the request body is over the admin API's limit of {} bytes "
                    "(s3fault proxy --admin-body-limit)",
                    body_limit));
  }
  if (why == http::error::header_limit) {
    return faults::error_reply(
        431, "head_too_large",
        fmt::format("the request head is over the admin API's limit of {} bytes",
                    admin_header_limit));
  }
  if (why.category() == http::make_error_code(http::error::bad_method).category() &&
      why != http::error::end_of_stream && why != http::error::partial_message) {
    return faults::error_reply(400, "bad_request",
                               fmt::format("not an HTTP/1.1 request: {}", why.message()));
  }
  return std::nullopt;
}

/// An answer of the admin API as it goes on the wire: JSON, whatever the status.
http::response<http::string_body> json_response(const faults::admin_reply& reply, unsigned version,
                                                bool keep_alive) {
  http::response<http::string_body> response{http::int_to_status(reply.status), version};
  response.set(http::field::content_type, "application/json");
  response.body() = faults::admin_body_text(reply.body);
  response.keep_alive(keep_alive);
  response.prepare_payload();
  return response;
}

/// Reads and drops what a refused client still sends, for at most a few seconds.
asio::awaitable<void> drain_for_a_while(beast::tcp_stream& stream) {
  std::array<char, 16 * 1024> scratch;
  stream.expires_after(std::chrono::seconds(5));
  error_code ec;
  while (!ec) {
    co_await stream.async_read_some(asio::buffer(scratch), use_ec(ec));
  }
}

} // namespace

struct admin_server::impl {
  asio::io_context context{1};
  tcp::acceptor acceptor{context};
  std::shared_ptr<faults::rule_store> store;
  std::shared_ptr<metrics::traffic_metrics> traffic;
  std::string version;
  std::shared_ptr<spdlog::logger> logger;
  admin_options options;
  metrics::traffic_history history; // a look a second, for the recent rates of /stats
  std::thread thread;
  mutable std::mutex proxy_url_mutex;
  std::string proxy_url_text; // set once the proxy listens

  std::string proxy_url() const {
    std::lock_guard lock(proxy_url_mutex);
    return proxy_url_text;
  }

  /// Takes a look at the traffic's totals once a second, for as long as the server runs.
  asio::awaitable<void> look_every_second() {
    asio::steady_timer timer(context);
    // The first look now, so that the first second's traffic is in the first interval.
    history.add(traffic->seconds_running(), metrics::totals_of(*traffic));
    for (;;) {
      timer.expires_after(std::chrono::seconds(1));
      error_code ec;
      co_await timer.async_wait(use_ec(ec));
      if (ec) {
        co_return;
      }
      history.add(traffic->seconds_running(), metrics::totals_of(*traffic));
    }
  }

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

  /// Answers a request that could not be read whole: 413 over the body limit, 431 over the
  /// head limit, 400 for what is not HTTP. A peer that closed or went quiet gets nothing.
  asio::awaitable<void> refuse_unreadable(beast::tcp_stream& stream,
                                          const http::request_parser<http::string_body>& parser,
                                          error_code why) {
    const auto refusal = refusal_for(why, options.body_limit);
    if (!refusal) {
      co_return;
    }
    // The request line, when it was read before the mistake.
    const auto& head = parser.get();
    const std::string method(head.method_string()), target(head.target());
    logger->warn("admin {} {} refused: {} {}", method.empty() ? "-" : method,
                 target.empty() ? "-" : target, refusal->status,
                 refusal->body["error"]["message"].get<std::string>());
    auto response = json_response(*refusal, 11, false);
    error_code ec;
    co_await http::async_write(stream, response, use_ec(ec));
    // Read what the client is still sending, so that closing does not reset the connection
    // before it has read the answer.
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    co_await drain_for_a_while(stream);
  }

  /// The dashboard page; false when the connection is done.
  static asio::awaitable<bool> send_dashboard(beast::tcp_stream& stream,
                                              const http::request<http::string_body>& request) {
    http::response<http::string_body> response{http::status::ok, request.version()};
    response.set(http::field::content_type, "text/html; charset=utf-8");
    // Nothing but the admin API itself may be reached from the page.
    response.set("Content-Security-Policy",
                 "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                 "connect-src 'self'; img-src data:");
    response.set(http::field::cache_control, "no-store");
    response.body() = std::string(dashboard_page());
    response.keep_alive(request.keep_alive());
    response.prepare_payload();
    error_code ec;
    co_await http::async_write(stream, response, use_ec(ec));
    co_return !ec && response.keep_alive();
  }

  /// Who this proxy is, for the dashboard's header.
  nlohmann::json identity() const {
    auto identity = identity_json({version, proxy_url(), options.upstream_url, store->seed()});
    identity["exchanges_kept"] = options.inspector ? options.inspector->kept() : 0;
    return identity;
  }

  /// The answer to a GET of traffic data (/metrics, /stats, /history, /exchanges[/ID]), or
  /// none when `target` is not one (the admin API's router answers it).
  std::optional<http::response<http::string_body>> data_response(std::string_view target) const {
    http::response<http::string_body> response{http::status::ok, 11};
    response.set(http::field::content_type, "application/json");
    const std::string_view path = target.substr(0, target.find('?'));
    if (traffic && path == "/metrics") {
      response.set(http::field::content_type, "text/plain; version=0.0.4");
      response.body() = metrics::prometheus_text(*traffic) +
                        metrics::prometheus_rule_load(rule_loads(*store->current()));
    } else if (traffic && path == "/stats") {
      auto stats = metrics::stats_json(*traffic, &history);
      if (!options.profile.is_null()) {
        stats["profile"] = options.profile;
      }
      stats["proxy"] = identity();
      response.body() = faults::admin_body_text(stats);
    } else if (traffic && path == "/history") {
      response.body() = faults::admin_body_text(metrics::history_json(history));
    } else if (path == "/timeline") {
      const auto reply = timeline_reply(target);
      response.result(reply.status);
      response.body() = faults::admin_body_text(reply.body);
    } else if (path == "/exchanges" || path.starts_with("/exchanges/")) {
      const auto reply = exchanges_reply(path);
      response.result(reply.status);
      response.body() = faults::admin_body_text(reply.body);
    } else {
      return std::nullopt;
    }
    return response;
  }

  /// GET /timeline: the timeline and its drift so far, the histograms' buckets with ?buckets=1.
  faults::admin_reply timeline_reply(std::string_view target) const {
    if (!options.timeline) {
      return faults::error_reply(404, "no_timeline",
                                 "this proxy records no timeline: start it with --timeline "
                                 "INTERVAL (e.g. --timeline 10s)");
    }
    return {200, options.timeline(target.find("buckets=1") != std::string_view::npos)};
  }

  /// GET /exchanges (newest first) and /exchanges/ID.
  faults::admin_reply exchanges_reply(std::string_view path) const {
    if (!options.inspector) {
      return faults::error_reply(404, "not_found", "this proxy keeps no exchanges");
    }
    if (path == "/exchanges") {
      return {200, options.inspector->summaries(options.inspector->kept())};
    }
    const std::string_view id_text = path.substr(std::string_view("/exchanges/").size());
    std::uint64_t id = 0;
    const auto [end, problem] =
        std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
    if (problem != std::errc() || end != id_text.data() + id_text.size()) {
      return faults::error_reply(
          400, "bad_id", "an exchange's id is a whole number, got '" + std::string(id_text) + "'");
    }
    if (auto detail = options.inspector->detail(id)) {
      return {200, std::move(*detail)};
    }
    return faults::error_reply(404, "no_such_exchange",
                               "exchange " + std::to_string(id) +
                                   " is not kept (the proxy keeps the last " +
                                   std::to_string(options.inspector->kept()) + ")");
  }

  asio::awaitable<void> serve(beast::tcp_stream stream) {
    beast::flat_buffer buffer;
    for (bool keep_open = true; keep_open;) {
      http::request_parser<http::string_body> parser;
      parser.header_limit(admin_header_limit);
      parser.body_limit(options.body_limit);
      stream.expires_after(std::chrono::seconds(30));
      error_code ec;
      co_await http::async_read(stream, buffer, parser, use_ec(ec));
      if (ec) {
        co_await refuse_unreadable(stream, parser, ec);
        co_return;
      }
      keep_open = co_await answer(stream, parser.get());
    }
  }

  /// Answers one request; returns whether the connection stays open.
  asio::awaitable<bool> answer(beast::tcp_stream& stream,
                               const http::request<http::string_body>& request) {
    const std::string_view target(request.target().data(), request.target().size());
    const bool get = request.method() == http::verb::get;
    if (get && (target == "/" || target == "/dashboard")) {
      // The page holds no data and needs no token: its own requests carry it (from the
      // address's #token=...).
      co_return co_await send_dashboard(stream, request);
    }
    // A liveness probe carries no token, and "ok" reveals nothing.
    if (!token_accepted(request) && !(get && is_health_probe(target))) {
      co_await refuse_without_token(stream, request);
      co_return false;
    }
    error_code ec;
    if (auto data = get ? data_response(target) : std::nullopt) {
      data->version(request.version());
      data->keep_alive(request.keep_alive());
      data->prepare_payload();
      co_await http::async_write(stream, *data, use_ec(ec));
      co_return !ec && data->keep_alive();
    }
    const auto reply = faults::handle_admin_request(
        *store, std::string_view(request.method_string().data(), request.method_string().size()),
        target, request.body(), version);
    logger->info("admin {} {} {}", std::string(request.method_string()),
                 std::string(request.target()), reply.status);
    auto response = json_response(reply, request.version(), request.keep_alive());
    co_await http::async_write(stream, response, use_ec(ec));
    co_return !ec && response.keep_alive();
  }

  static bool is_health_probe(std::string_view target) {
    return target.substr(0, target.find('?')) == "/health";
  }

  bool token_accepted(const http::request<http::string_body>& request) const {
    if (options.token.empty()) {
      return true;
    }
    const auto given = request.find(http::field::authorization);
    return given != request.end() &&
           admin_token_matches(std::string_view(given->value().data(), given->value().size()),
                               options.token);
  }

  asio::awaitable<void> refuse_without_token(beast::tcp_stream& stream,
                                             const http::request<http::string_body>& request) {
    // Neither the token nor what was sent is logged.
    logger->warn("admin {} {} refused: no valid bearer token", std::string(request.method_string()),
                 std::string(request.target()));
    auto response =
        json_response(faults::error_reply(401, "unauthorized",
                                          "this admin API needs 'Authorization: Bearer TOKEN' (the "
                                          "proxy's --admin-token)"),
                      request.version(), false);
    response.set(http::field::www_authenticate, "Bearer");
    error_code ec;
    co_await http::async_write(stream, response, use_ec(ec));
  }
};

admin_server::admin_server(text::listen_address address, std::shared_ptr<faults::rule_store> store,
                           std::shared_ptr<metrics::traffic_metrics> traffic, std::string version,
                           std::shared_ptr<spdlog::logger> logger, admin_options options)
    : impl_(std::make_unique<impl>()) {
  if (!options.token.empty() && options.token.size() < min_admin_token_length) {
    throw std::runtime_error(fmt::format("--admin-token: at least {} characters, got {}",
                                         min_admin_token_length, options.token.size()));
  }
  impl_->options = std::move(options);
  impl_->store = std::move(store);
  impl_->traffic = std::move(traffic);
  impl_->version = std::move(version);
  impl_->logger = std::move(logger);
  const tcp::endpoint endpoint =
      runtime::resolve_host(address.host, address.port, "--admin").front();
  if (!endpoint.address().is_loopback() && impl_->options.token.empty()) {
    throw std::runtime_error(
        fmt::format("--admin {}: without --admin-token the admin API listens on loopback "
                    "addresses only (127.0.0.1, ::1)",
                    address.host));
  }
  try {
    runtime::listen_on(impl_->acceptor, endpoint);
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(std::string("--admin: ") + error.what());
  }
  asio::co_spawn(impl_->context, impl_->accept_connections(), asio::detached);
  if (impl_->traffic) {
    asio::co_spawn(impl_->context, impl_->look_every_second(), asio::detached);
  }
  impl_->thread = std::thread([this] { impl_->context.run(); });
}

admin_server::~admin_server() {
  impl_->context.stop();
  if (impl_->thread.joinable()) {
    impl_->thread.join();
  }
}

void admin_server::set_proxy_url(std::string url) {
  std::lock_guard lock(impl_->proxy_url_mutex);
  impl_->proxy_url_text = std::move(url);
}

std::string admin_server::url() const {
  const auto endpoint = impl_->acceptor.local_endpoint();
  return endpoint.address().is_v6()
             ? fmt::format("http://[{}]:{}", endpoint.address().to_string(), endpoint.port())
             : fmt::format("http://{}:{}", endpoint.address().to_string(), endpoint.port());
}

} // namespace s3fault::proxy
