#include "cli/stop_signals.hpp"

#include <csignal>
#include <cstdlib>
#include <pthread.h>
#include <thread>

namespace s3fault::cli {
namespace {

sigset_t stop_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

} // namespace

void block_stop_signals() {
  const sigset_t set = stop_signal_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void stop_on_signals(std::function<void()> request_stop, std::function<void()> on_hangup) {
  std::thread([request_stop = std::move(request_stop), on_hangup = std::move(on_hangup)] {
    const sigset_t set = stop_signal_set();
    bool stopping = false;
    for (;;) {
      int signal = 0;
      sigwait(&set, &signal);
      if (signal == SIGHUP && on_hangup) {
        // Not once stopping: what it reloads may be gone when the server has stopped.
        if (!stopping) {
          on_hangup();
        }
      } else if (!stopping) {
        stopping = true;
        request_stop();
      } else {
        std::_Exit(1);
      }
    }
  }).detach();
}

} // namespace s3fault::cli
