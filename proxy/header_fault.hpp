#pragma once
// Per-request faults (--allow-header-faults): a request carrying
//   x-s3fault-fault: error SlowDown
// (the one-line rule syntax of --fault) gets that fault, and no configured rule, for itself
// alone. The field is removed before the store sees the request, so it must not be one the
// request's signature covers: the caller adds it after signing. Refused, with a reason for a
// 400, when the proxy does not take such faults, when the signature covers the field, when
// there is more than one, or when the rule has mistakes.
#include "faults/rule_set.hpp"
#include "proxy/http_head.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::proxy {

inline constexpr std::string_view header_fault_field = "x-s3fault-fault";

struct header_fault {
  /// The request's own rule set (one rule; named x-s3fault-fault unless the spec names it).
  std::shared_ptr<const faults::rule_set> rules;
  /// Non-empty: why the request is refused (400 InvalidRequest, nothing reaches the store).
  std::string refusal;
};

/// Reads the field from `request` and removes it; nullopt when the request carries none. The
/// rule's dice start from `seed` for each request (per-request faults are meant to be exact).
std::optional<header_fault> take_header_fault(request_parser& request, bool allowed,
                                              std::uint64_t seed);

} // namespace s3fault::proxy
