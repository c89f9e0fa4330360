#include "proxy/exchange_log.hpp"

#include <boost/algorithm/string/predicate.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>

namespace s3fault::proxy {
namespace {

// Query parameters that carry signatures, credentials or tokens (SigV4 presigned URLs and the
// legacy SigV2 form).
constexpr std::array<std::string_view, 6> secret_query_names = {
    "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token",
    "Signature",       "AWSAccessKeyId",   "x-amz-security-token"};

bool is_secret_name(std::string_view name) {
  for (auto secret : secret_query_names) {
    if (boost::iequals(name, secret)) {
      return true;
    }
  }
  return false;
}

} // namespace

std::string redact_target(std::string_view target) {
  const auto question = target.find('?');
  if (question == std::string_view::npos) {
    return std::string(target);
  }
  std::string out(target.substr(0, question + 1));
  std::string_view query = target.substr(question + 1);
  bool first = true;
  while (true) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    if (!first) {
      out.push_back('&');
    }
    first = false;
    const auto eq = pair.find('=');
    if (eq != std::string_view::npos && is_secret_name(pair.substr(0, eq))) {
      out.append(pair.substr(0, eq + 1));
      out.append("REDACTED");
    } else {
      out.append(pair);
    }
    if (amp == std::string_view::npos) {
      break;
    }
    query = query.substr(amp + 1);
  }
  return out;
}

std::string format_exchange(const exchange_record& r, log_format format) {
  const std::string target = redact_target(r.target);
  const char* upstream = !r.upstream_used ? "none" : (r.upstream_reused ? "reused" : "new");
  if (format == log_format::json) {
    nlohmann::json line = {{"event", "exchange"},
                           {"client", r.client},
                           {"method", r.method},
                           {"target", target},
                           {"status", r.status},
                           {"request_bytes", r.request_bytes},
                           {"response_bytes", r.response_bytes},
                           {"duration_ms", r.duration_ms},
                           {"upstream", upstream},
                           {"outcome", r.outcome}};
    if (r.ttfb_ms >= 0) {
      line["ttfb_ms"] = r.ttfb_ms;
    }
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  std::string ttfb = r.ttfb_ms >= 0 ? fmt::format("{:.2f}ms", r.ttfb_ms) : "-";
  return fmt::format("{} {} {} {} in={} out={} dur={:.2f}ms ttfb={} upstream={} {}", r.client,
                     r.method, target, r.status, r.request_bytes, r.response_bytes, r.duration_ms,
                     ttfb, upstream, r.outcome);
}

} // namespace s3fault::proxy
