#include "proxy/request_upload.hpp"

#include <boost/asio/co_spawn.hpp>

namespace s3fault::proxy {
namespace {

// A request with `Expect: 100-continue` waits this long for the store's 100 before its body is
// sent anyway, as curl and botocore do.
constexpr auto continue_wait = std::chrono::seconds(1);

} // namespace

request_upload::request_upload(worker& owner, const asio::any_io_executor& executor,
                               settings settings)
    : owner_(owner), executor_(executor), settings_(settings), go_(executor),
      head_arrived_(executor), finished_(executor) {}

void request_upload::start() {
  // The completion handler runs when run() returns; finish() waits for what it sets.
  asio::co_spawn(executor_, run(), [this](std::exception_ptr) { finished_.set(); });
}

asio::awaitable<void> request_upload::run() {
  if (settings_.wait_for_continue) {
    co_await go_.wait_for(continue_wait);
  }
  if (abort_) {
    co_return;
  }
  started_reading_ = true;
  tell_filters_the_length();
  // Request bodies are copied through a 256 KiB buffer, not spliced: uploads of 8 MiB at 8 in
  // flight ran at 55 requests/s spliced, 63 copied through 64 KiB and 67 through 256 KiB (nginx:
  // 63) in front of an nginx that writes them to disk (docs/performance.md).
  auto scratch = owner_.upload_buffers.take();
  auto& store = *settings_.store.stream;
  outcome_ = co_await relay_body(settings_.client, settings_.client_buffer, &store,
                                 settings_.framing, scratch.span(),
                                 {.io_timeout = owner_.config.io_timeout,
                                  .drain_after_write_error = true,
                                  .filters = settings_.filters});
  body_relayed_ = true;
  if (reset_by_fault()) {
    // A request-body fault: the store gets exactly the bytes the rule let through, then the
    // upload dies on both sides. The RST would discard what the kernel still queues.
    unacknowledged_at_reset_ = co_await store.wait_until_delivered(owner_.config.io_timeout);
    store.reset();
    settings_.client.reset();
  } else if (!outcome_.reached_end) {
    // The client stopped mid-body; the store would wait for the rest until its own timeout.
    store.close();
  } else {
    co_await wait_for_response_head();
  }
}

void request_upload::tell_filters_the_length() {
  if (settings_.filters == nullptr) {
    return;
  }
  const auto declared = settings_.framing.how == body_framing::kind::length
                            ? std::optional<std::uint64_t>(settings_.framing.length)
                            : std::nullopt;
  for (auto& filter : *settings_.filters) {
    filter->announce_length(declared); // an upload is never shortened: nothing to announce
  }
}

asio::awaitable<void> request_upload::wait_for_response_head() {
  const bool arrived = co_await head_arrived_.wait_for(owner_.config.upstream_timeout);
  if (!arrived) {
    response_timed_out_ = true;
    settings_.store.stream->close(); // ends the exchange's read of the head
  }
}

asio::awaitable<bool> request_upload::finish(clock::duration linger) {
  skip_body_if_unsent();
  head_arrived_.set();
  const bool ended_in_time = co_await finished_.wait_for(linger);
  if (!ended_in_time) {
    settings_.client.close();
    co_await finished_.wait();
  }
  co_return started_reading_&& outcome_.reached_end;
}

} // namespace s3fault::proxy
