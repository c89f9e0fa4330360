#pragma once
// One worker's copy of the live rules snapshot. Loading the store's atomic shared_ptr and
// copying it touches cache lines every worker writes (the atomic's lock bit, the snapshot's
// reference count), for every exchange. A worker instead keeps the snapshot, reloads it only
// when the store has published a new one, and hands its exchanges references counted in a
// control block of its own.
#include "faults/rule_store.hpp"

#include <memory>

namespace s3fault::proxy {

class worker_rules {
public:
  /// The store's snapshot in force (as of this call), kept alive by the returned pointer.
  std::shared_ptr<const faults::rule_set> snapshot(const faults::rule_store& store) {
    const std::uint64_t version = store.version(); // before current(): a newer one is reloaded
    if (!local_ || version != version_) {
      auto shared = std::make_shared<std::shared_ptr<const faults::rule_set>>(store.current());
      const faults::rule_set* rules = shared->get();
      local_ = std::shared_ptr<const faults::rule_set>(std::move(shared), rules);
      version_ = version;
    }
    return local_;
  }

private:
  std::shared_ptr<const faults::rule_set> local_; // aliasing: counted in this worker's block
  std::uint64_t version_ = 0;
};

} // namespace s3fault::proxy
