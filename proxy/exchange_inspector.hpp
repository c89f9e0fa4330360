#pragma once
// The last exchanges the proxy handled, whole, for the dashboard to list and open (the admin
// API's GET /exchanges and GET /exchanges/ID): each as its journal line says it, heads redacted
// the same way, with an id. A ring under a mutex, filled only when the admin API runs.
#include "faults/s3_request.hpp"
#include "proxy/exchange_log.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace s3fault::proxy {

class exchange_inspector {
public:
  /// How many exchanges are kept: the dashboard names this bound.
  static constexpr std::size_t default_kept = 500;

  explicit exchange_inspector(std::size_t kept = default_kept) : ring_(kept) {}

  void add(const exchange_record& record, const faults::s3_request& request);

  std::size_t kept() const { return ring_.size(); }

  /// {"kept": N, "exchanges": [newest first, at most `limit`: the journal line without its
  /// heads, and "id"]}.
  nlohmann::json summaries(std::size_t limit) const;

  /// The journal line of exchange `id`, with "id"; nullopt once it is no longer kept.
  std::optional<nlohmann::json> detail(std::uint64_t id) const;

private:
  struct kept_exchange {
    std::uint64_t id = 0; // 1, 2, ... in the order the exchanges ended; 0: an empty slot
    exchange_record record;
    faults::s3_request request;
  };
  mutable std::mutex mutex_;
  std::vector<kept_exchange> ring_;
  std::uint64_t added_ = 0;
};

} // namespace s3fault::proxy
