#pragma once
// The serving part of a server subcommand (`s3fault proxy`, `s3fault origin`), the same for all:
//
//   block SIGINT/SIGTERM ──> make the server ──> bind ──> watch the signals ──> announce (log)
//     ──> "listening on URL" on stdout (what scripts wait for) ──> run until a stop signal
//     ──> "stopped" (log), exit 0;  anything thrown on the way: "s3fault CMD: why", exit 1
#include "cli/stop_signals.hpp"

#include <spdlog/logger.h>

#include <exception>
#include <functional>
#include <iostream>
#include <string_view>

namespace s3fault::cli {

/// Runs the sequence above and returns the exit code. `make_server` returns a reference to a
/// server that lives at least as long as this call (it has bind(), listen_url(), run() and
/// request_stop()); it is called once the stop signals are blocked, before any thread starts.
/// `announce(server)` logs what is being served, once the server is bound. `on_hangup` is what
/// SIGHUP does (none: it stops the server like SIGTERM).
template <typename MakeServer, typename Announce>
int serve_until_stopped(std::string_view command, spdlog::logger& logger, MakeServer make_server,
                        Announce announce, std::function<void()> on_hangup = {}) {
  try {
    block_stop_signals();
    auto& server = make_server();
    server.bind();
    stop_on_signals([&server] { server.request_stop(); }, std::move(on_hangup));
    announce(server);
    logger.flush(); // the lines that say what is served come before "listening on"
    std::cout << "listening on " << server.listen_url() << std::endl;
    server.run();
    logger.info("stopped");
    return 0;
  } catch (const std::exception& error) {
    logger.flush(); // the log so far, then the error
    std::cerr << "s3fault " << command << ": " << error.what() << "\n";
    return 1;
  }
}

} // namespace s3fault::cli
