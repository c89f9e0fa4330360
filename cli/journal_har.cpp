#include "cli/journal_har.hpp"

#include "text/text.hpp"
#include "text/uri.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace s3fault::cli {
namespace {

using nlohmann::ordered_json;

std::string header_value(const std::vector<std::pair<std::string, std::string>>& fields,
                         std::string_view name) {
  for (const auto& [field, value] : fields) {
    if (text::iequal(field, name)) {
      return value;
    }
  }
  return {};
}

ordered_json name_value_pairs(const std::vector<std::pair<std::string, std::string>>& pairs) {
  auto array = ordered_json::array();
  for (const auto& [name, value] : pairs) {
    array.push_back({{"name", name}, {"value", value}});
  }
  return array;
}

ordered_json query_string(const std::string& target) {
  const auto question = target.find('?');
  if (question == std::string::npos) {
    return ordered_json::array();
  }
  return name_value_pairs(text::parse_query(std::string_view(target).substr(question + 1)));
}

ordered_json har_request(const journal_entry& entry) {
  return {{"method", entry.method},
          {"url", har_url(entry)},
          {"httpVersion", "HTTP/1.1"},
          {"cookies", ordered_json::array()},
          {"headers", name_value_pairs(entry.request_headers)},
          {"queryString", query_string(entry.target)},
          {"headersSize", -1},
          {"bodySize", entry.request_bytes}};
}

ordered_json har_response(const journal_entry& entry) {
  return {{"status", entry.status},
          {"statusText", reason_phrase(entry.status)},
          {"httpVersion", "HTTP/1.1"},
          {"cookies", ordered_json::array()},
          {"headers", name_value_pairs(entry.response_headers)},
          {"content",
           {{"size", entry.response_bytes},
            {"mimeType", header_value(entry.response_headers, "content-type")}}},
          {"redirectURL", ""},
          {"headersSize", -1},
          {"bodySize", entry.response_bytes}};
}

/// `value` rounded to the nanosecond, the journal's finest resolution: a difference of two
/// doubles such as 12.5 - 1.84 would otherwise read 10.660000000000002.
double whole_nanoseconds(double milliseconds) {
  return std::round(milliseconds * 1e6) / 1e6;
}

/// send 0, wait until the first response byte the client was sent (the whole duration when
/// none was), receive the rest; they add up to the entry's time.
ordered_json har_timings(const journal_entry& entry) {
  const double wait = std::min(entry.ttfb_ms.value_or(entry.duration_ms), entry.duration_ms);
  return {{"send", 0}, {"wait", wait}, {"receive", whole_nanoseconds(entry.duration_ms - wait)}};
}

void set_when_present(ordered_json& object, const char* name, const std::string& value) {
  if (!value.empty()) {
    object[name] = value;
  }
}

/// What the journal knows that HAR has no field for.
ordered_json s3fault_fields(const journal_entry& entry) {
  ordered_json fields = {{"operation", entry.operation}, {"outcome", entry.outcome}};
  set_when_present(fields, "client", entry.client);
  set_when_present(fields, "bucket", entry.bucket);
  set_when_present(fields, "key", entry.key);
  if (entry.part) {
    fields["part"] = *entry.part;
  }
  set_when_present(fields, "range", entry.range);
  set_when_present(fields, "error_code", entry.error_code);
  set_when_present(fields, "faults", entry.faults);
  set_when_present(fields, "request_id", entry.request_id);
  if (entry.ttfb_ms) {
    fields["ttfb_ms"] = *entry.ttfb_ms;
  }
  if (entry.store_ttfb_ms) {
    fields["store_ttfb_ms"] = *entry.store_ttfb_ms;
  }
  return fields;
}

/// The statuses S3 stores and the proxy answer with; HAR viewers show the phrase beside them.
constexpr std::array<std::pair<int, const char*>, 26> reason_phrases = {{
    {100, "Continue"},
    {200, "OK"},
    {201, "Created"},
    {204, "No Content"},
    {206, "Partial Content"},
    {301, "Moved Permanently"},
    {302, "Found"},
    {304, "Not Modified"},
    {307, "Temporary Redirect"},
    {400, "Bad Request"},
    {401, "Unauthorized"},
    {403, "Forbidden"},
    {404, "Not Found"},
    {405, "Method Not Allowed"},
    {408, "Request Timeout"},
    {409, "Conflict"},
    {411, "Length Required"},
    {412, "Precondition Failed"},
    {413, "Content Too Large"},
    {416, "Range Not Satisfiable"},
    {429, "Too Many Requests"},
    {500, "Internal Server Error"},
    {501, "Not Implemented"},
    {502, "Bad Gateway"},
    {503, "Service Unavailable"},
    {504, "Gateway Timeout"},
}};

} // namespace

std::string reason_phrase(int status) {
  const auto known = std::find_if(reason_phrases.begin(), reason_phrases.end(),
                                  [status](const auto& phrase) { return phrase.first == status; });
  return known == reason_phrases.end() ? "" : known->second;
}

std::string har_url(const journal_entry& entry) {
  // A client talking to a proxy may send the absolute form; it already names the host.
  if (!entry.target.starts_with("/") && entry.target.find("://") != std::string::npos) {
    return entry.target;
  }
  const std::string host = header_value(entry.request_headers, "Host");
  return "http://" + (host.empty() ? std::string("localhost") : host) + entry.target;
}

ordered_json har_entry(const journal_entry& entry) {
  return {{"startedDateTime", entry.time},    {"time", entry.duration_ms},
          {"request", har_request(entry)},    {"response", har_response(entry)},
          {"cache", ordered_json::object()},  {"timings", har_timings(entry)},
          {"_s3fault", s3fault_fields(entry)}};
}

ordered_json har_document(const std::vector<journal_entry>& entries,
                          std::string_view creator_version) {
  auto har_entries = ordered_json::array();
  for (const auto& entry : entries) {
    har_entries.push_back(har_entry(entry));
  }
  return {{"log",
           {{"version", "1.2"},
            {"creator", {{"name", "s3fault"}, {"version", std::string(creator_version)}}},
            {"entries", std::move(har_entries)}}}};
}

} // namespace s3fault::cli
