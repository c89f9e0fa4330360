#pragma once
// One worker thread's world: its upstream pool, its relay buffers and its sessions, all on the
// io_context that runtime/server_runtime runs on that thread. Each connection lives on exactly
// one worker, so none of this needs a lock.
#include "proxy/proxy_config.hpp"
#include "proxy/splice_relay.hpp"
#include "proxy/upstream_pool.hpp"
#include "proxy/worker_rules.hpp"

#include <spdlog/logger.h>

#include <memory>
#include <span>
#include <unordered_set>
#include <vector>

namespace s3fault::proxy {

class client_session;

/// Relay buffers of one size, recycled so a busy worker does not allocate per exchange and an
/// idle connection holds none.
class relay_buffer_pool {
public:
  explicit relay_buffer_pool(std::size_t buffer_size) : buffer_size_(buffer_size) {}

  class lease {
  public:
    lease(relay_buffer_pool& pool, std::unique_ptr<char[]> bytes)
        : pool_(&pool), bytes_(std::move(bytes)) {}
    lease(lease&&) = default;
    ~lease() {
      if (bytes_) {
        pool_->free_.push_back(std::move(bytes_));
      }
    }
    std::span<char> span() { return {bytes_.get(), pool_->buffer_size_}; }

  private:
    relay_buffer_pool* pool_;
    std::unique_ptr<char[]> bytes_;
  };

  lease take() {
    if (free_.empty()) {
      return lease(*this, std::make_unique<char[]>(buffer_size_));
    }
    auto bytes = std::move(free_.back());
    free_.pop_back();
    return lease(*this, std::move(bytes));
  }

private:
  std::size_t buffer_size_;
  std::vector<std::unique_ptr<char[]>> free_;
};

struct worker {
  worker(asio::io_context& context, const proxy_config& config,
         std::vector<tcp::endpoint> endpoints, asio::ssl::context* upstream_tls,
         asio::ssl::context* listener_tls, std::shared_ptr<spdlog::logger> logger)
      : context(context), config(config), pool(context, config, std::move(endpoints), upstream_tls),
        listener_tls(listener_tls), logger(std::move(logger)) {}

  asio::io_context& context; // owned by the server runtime; run by this worker's thread only
  const proxy_config& config;
  upstream_pool pool;
  relay_buffer_pool buffers{64 * 1024};
  /// Request bodies go through larger buffers: see request_upload.cpp.
  relay_buffer_pool upload_buffers{256 * 1024};
  splice_pipe_pool pipes;
  worker_rules rules;
  asio::ssl::context* listener_tls;
  std::shared_ptr<spdlog::logger> logger;
  std::unordered_set<client_session*> sessions;
  bool draining = false;
};

} // namespace s3fault::proxy
