#include "conformance/audit/audit_types.hpp"

namespace s3fault::audit {

std::string_view to_string(level value) {
  switch (value) {
  case level::must:
    return "MUST";
  case level::should:
    return "SHOULD";
  case level::may:
    return "MAY";
  }
  return "?";
}

std::string_view to_string(verdict value) {
  switch (value) {
  case verdict::pass:
    return "PASS";
  case verdict::fail:
    return "FAIL";
  case verdict::deviation:
    return "DEVIATION";
  case verdict::skip:
    return "SKIP";
  case verdict::error:
    return "ERROR";
  }
  return "?";
}

bool is_gating_failure(const check_result& result, bool strict) {
  const bool gating =
      result.strength == level::must || (strict && result.strength == level::should);
  const auto v = result.outcome.result;
  return gating && (v == verdict::fail || v == verdict::deviation || v == verdict::error);
}

audit_totals count_verdicts(const audit_report& report) {
  audit_totals totals;
  for (const auto& result : report.results) {
    switch (result.outcome.result) {
    case verdict::pass:
      ++totals.passed;
      break;
    case verdict::fail:
      ++totals.failed;
      break;
    case verdict::deviation:
      ++totals.deviations;
      break;
    case verdict::skip:
      ++totals.skipped;
      break;
    case verdict::error:
      ++totals.errors;
      break;
    }
    if (is_gating_failure(result, report.strict)) {
      ++totals.gating_failures;
    }
  }
  return totals;
}

std::string_view area_title(std::string_view area) {
  if (area == "part") {
    return "partNumber reads (GET and HEAD)";
  }
  if (area == "range") {
    return "Range reads";
  }
  if (area == "cond") {
    return "Conditional requests";
  }
  if (area == "etag") {
    return "ETags";
  }
  if (area == "error") {
    return "Errors";
  }
  if (area == "agree") {
    return "Whole objects; HEAD, GET and listings agreeing";
  }
  if (area == "checksum") {
    return "Checksums (optional feature)";
  }
  if (area == "attrs") {
    return "GetObjectAttributes (optional feature)";
  }
  if (area == "version") {
    return "Versioned reads (optional feature)";
  }
  if (area == "upload") {
    return "CompleteMultipartUpload retries";
  }
  if (area == "auth") {
    return "Authentication";
  }
  return area;
}

} // namespace s3fault::audit
