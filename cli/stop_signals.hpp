#pragma once
// How a serving subcommand stops: SIGINT/SIGTERM/SIGHUP are blocked in every thread and taken
// by one thread with sigwait, so the server is told to stop from ordinary code, not from a
// signal handler. A second stop signal ends the process at once. SIGHUP reloads where the
// command has something to reload (the proxy's rules) and stops gracefully elsewhere.
#include <functional>

namespace s3fault::cli {

/// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread. Call it before any thread is
/// started, so that every thread inherits the mask and only the sigwait thread ever takes them.
void block_stop_signals();

/// Starts a detached thread that calls `request_stop` on the first SIGINT/SIGTERM and ends the
/// process with exit code 1 on the second. SIGHUP calls `on_hangup` each time until a stop was
/// asked for (then it is ignored), or counts as a stop signal when there is none. Needs
/// block_stop_signals() first.
void stop_on_signals(std::function<void()> request_stop, std::function<void()> on_hangup = {});

} // namespace s3fault::cli
