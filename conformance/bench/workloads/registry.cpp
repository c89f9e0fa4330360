#include "conformance/bench/workload_registry.hpp"

#include "text/nearest_names.hpp"

#include <stdexcept>

namespace s3fault::bench {

// Every workload, one line each, in the order --ops's help and the reports' "known: ..." lists
// give them (and cells of different workloads sort in). Each NAME_workload() is defined in the
// workload's own file in this folder.
#define S3FAULT_BENCH_WORKLOADS(WORKLOAD)                                                          \
  WORKLOAD(put)                                                                                    \
  WORKLOAD(get)                                                                                    \
  WORKLOAD(get_parts)                                                                              \
  WORKLOAD(get_ranges)                                                                             \
  WORKLOAD(list)                                                                                   \
  WORKLOAD(delete)                                                                                 \
  WORKLOAD(put_multipart)                                                                          \
  WORKLOAD(mix)

namespace workloads {
#define S3FAULT_DECLARE_WORKLOAD(name) const workload& name##_workload();
S3FAULT_BENCH_WORKLOADS(S3FAULT_DECLARE_WORKLOAD)
#undef S3FAULT_DECLARE_WORKLOAD
} // namespace workloads

const std::vector<const workload*>& registered_workloads() {
#define S3FAULT_LIST_WORKLOAD(name) &workloads::name##_workload(),
  static const std::vector<const workload*> all = {S3FAULT_BENCH_WORKLOADS(S3FAULT_LIST_WORKLOAD)};
#undef S3FAULT_LIST_WORKLOAD
  return all;
}

std::string describe_workloads() {
  std::string text;
  for (const auto* entry : registered_workloads()) {
    text += (text.empty() ? "" : ", ") + std::string(entry->name());
    if (!entry->help().empty()) {
      text += " (" + std::string(entry->help()) + ")";
    }
  }
  return text;
}

std::optional<operation> parse_operation(std::string_view text) {
  const auto& all = registered_workloads();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i]->name() == text) {
      return operation(i);
    }
  }
  return std::nullopt;
}

operation operation::named(std::string_view name) {
  if (const auto parsed = parse_operation(name)) {
    return *parsed;
  }
  throw std::logic_error("no bench workload is called '" + std::string(name) + "'");
}

const workload& operation::workload() const {
  return *registered_workloads().at(index_);
}

std::string_view to_string(operation op) {
  return op.workload().name();
}

std::string operation_choices(std::string_view text) {
  std::vector<std::string> known;
  for (const auto* entry : registered_workloads()) {
    known.emplace_back(entry->name());
  }
  std::string message = "(";
  const auto near = text::nearest_names(text, known);
  for (std::size_t i = 0; i < near.size(); ++i) {
    message += (i == 0 ? "nearest: " : ", ") + near[i] + (i + 1 == near.size() ? "; " : "");
  }
  for (std::size_t i = 0; i < known.size(); ++i) {
    message += (i == 0 ? "known: " : ", ") + known[i];
  }
  return message + ")";
}

} // namespace s3fault::bench
