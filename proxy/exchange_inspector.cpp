#include "proxy/exchange_inspector.hpp"

#include "proxy/journal_line.hpp"

namespace s3fault::proxy {

void exchange_inspector::add(const exchange_record& record, const faults::s3_request& request) {
  std::lock_guard lock(mutex_);
  auto& slot = ring_[added_ % ring_.size()];
  slot.id = ++added_;
  // Assigned into the slot, so that a warm ring reuses its strings' storage.
  slot.record = record;
  slot.request = request;
}

nlohmann::json exchange_inspector::summaries(std::size_t limit) const {
  std::vector<kept_exchange> newest;
  {
    std::lock_guard lock(mutex_);
    const std::size_t count = std::min<std::size_t>({limit, ring_.size(), added_});
    newest.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
      newest.push_back(ring_[(added_ - 1 - i) % ring_.size()]);
    }
  }
  nlohmann::json list = nlohmann::json::array();
  for (auto& kept : newest) {
    kept.record.request_headers.clear(); // a list shows no heads: none rendered, none sent
    kept.record.response_headers.clear();
    auto line = journal_json(kept.record, kept.request);
    line.erase("request_headers");
    line.erase("response_headers");
    line["id"] = kept.id;
    list.push_back(std::move(line));
  }
  return {{"kept", ring_.size()}, {"exchanges", std::move(list)}};
}

std::optional<nlohmann::json> exchange_inspector::detail(std::uint64_t id) const {
  std::optional<kept_exchange> found;
  {
    std::lock_guard lock(mutex_);
    const auto& slot = ring_[(id + ring_.size() - 1) % ring_.size()];
    if (id != 0 && slot.id == id) {
      found = slot;
    }
  }
  if (!found) {
    return std::nullopt;
  }
  auto line = journal_json(found->record, found->request);
  line["id"] = id;
  return line;
}

} // namespace s3fault::proxy
