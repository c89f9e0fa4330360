#pragma once
// `s3fault journal to-har`: journal entries as an HTTP Archive (HAR 1.2), so that a browser's
// network panel or any HAR viewer shows the traffic the proxy saw.
//
//   journal line --> request (method, URL from Host + target, headers, decoded query, body size)
//                --> response (status, reason phrase, body size; the journal keeps no headers)
//                --> timings (send 0, wait = ttfb: to the client's first byte, receive = the rest)
//                --> _s3fault (operation, outcome, faults, error code, request id, ...)
#include "cli/journal_lines.hpp"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace s3fault::cli {

/// The reason phrase of a common status ("Service Unavailable" for 503); "" for others and 0.
std::string reason_phrase(int status);

/// The request's URL: "http://" + its Host field (case-insensitive; "localhost" without one) +
/// the target; an absolute-form target ("http://host/path") as it is.
std::string har_url(const journal_entry& entry);

/// One HAR entry.
nlohmann::ordered_json har_entry(const journal_entry& entry);

/// The whole HAR document ({"log": {...}}), entries in the order given; `creator_version` is
/// s3fault's version, for log.creator.
nlohmann::ordered_json har_document(const std::vector<journal_entry>& entries,
                                    std::string_view creator_version);

} // namespace s3fault::cli
