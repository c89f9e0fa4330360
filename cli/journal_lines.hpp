#pragma once
// Reading the proxy's traffic journal (docs/journal.md): one JSON object per line, parsed and
// validated into plain journal_entry structs before any report is made from them, so that a
// summary or a HAR is never built from half a journal.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::cli {

/// One exchange as the journal recorded it. Required fields are always set; the optional ones
/// are empty (or nullopt) when the line did not carry them.
struct journal_entry {
  std::string time; // ISO 8601, UTC, when the request head arrived
  std::string method;
  std::string target; // as received, presigned-URL credentials redacted
  std::string operation;
  int status = 0; // 0: no status was sent (a reset, a hang)
  std::uint64_t request_bytes = 0;
  std::uint64_t response_bytes = 0;
  double duration_ms = 0;
  std::string outcome; // "ok", or what went wrong

  std::string client;
  std::vector<std::pair<std::string, std::string>> request_headers;  // in order, redacted
  std::vector<std::pair<std::string, std::string>> response_headers; // as sent; none in old lines
  std::optional<double> ttfb_ms;       // to the first response byte sent to the client
  std::optional<double> store_ttfb_ms; // request sent to the store -> its response head
  std::string bucket;
  std::string key;
  std::optional<std::uint64_t> part;
  std::string range;
  std::string error_code;
  std::string faults; // "rule:action,rule:action"; empty: none applied
  std::string request_id;
};

/// One line of the journal; nullopt with `why` set ("missing field \"status\"", "not JSON:
/// ...") when the line is not a journal line.
std::optional<journal_entry> parse_journal_line(std::string_view line, std::string& why);

/// Every entry of some journal files, or the first reason they could not all be read.
struct journal_reading {
  std::vector<journal_entry> entries; // in file order, files in the order given
  std::string error;                  // "FILE:LINE: why" or "cannot read FILE: why"; empty: ok
};

/// Reads `paths` in the order given (oldest first for rotated files), skipping blank lines.
/// Stops at the first bad line or unreadable file: a file that is not a journal is usually wrong
/// on every line, and one error naming file and line says so.
journal_reading read_journal_files(const std::vector<std::string>& paths);

} // namespace s3fault::cli
