#include "cli/journal_lines.hpp"

#include "runtime/log_redaction.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace s3fault::cli {
namespace {

using nlohmann::json;

/// Reads the fields of one journal line, each checked for presence and type. Only the first
/// problem is kept: it is the one the error message names.
class journal_field_reader {
public:
  explicit journal_field_reader(const json& line) : line_(line) {}

  std::string text(const char* name) { return optional_text(name, true); }

  /// An optional string field: "" when absent.
  std::string optional_text(const char* name, bool required = false) {
    const json* value = find(name, required);
    if (value == nullptr) {
      return {};
    }
    if (!value->is_string()) {
      fail(name, "must be a string");
      return {};
    }
    return value->get<std::string>();
  }

  std::uint64_t byte_count(const char* name) { return optional_count(name, true).value_or(0); }

  std::optional<std::uint64_t> optional_count(const char* name, bool required = false) {
    const json* value = find(name, required);
    if (value == nullptr) {
      return std::nullopt;
    }
    if (!value->is_number_unsigned()) {
      fail(name, "must be a whole number >= 0");
      return std::nullopt;
    }
    return value->get<std::uint64_t>();
  }

  int status() {
    const json* value = find("status", true);
    if (value == nullptr) {
      return 0;
    }
    if (!value->is_number_unsigned() || value->get<std::uint64_t>() > 999) {
      fail("status", "must be a whole number from 0 to 999");
      return 0;
    }
    return value->get<int>();
  }

  double milliseconds(const char* name) { return optional_milliseconds(name, true).value_or(0); }

  std::optional<double> optional_milliseconds(const char* name, bool required = false) {
    const json* value = find(name, required);
    if (value == nullptr) {
      return std::nullopt;
    }
    if (!value->is_number() || value->get<double>() < 0) {
      fail(name, "must be a number >= 0");
      return std::nullopt;
    }
    return value->get<double>();
  }

  std::vector<std::pair<std::string, std::string>> header_pairs(const char* name) {
    std::vector<std::pair<std::string, std::string>> pairs;
    const json* value = find(name, false);
    if (value == nullptr) {
      return pairs;
    }
    if (!value->is_array()) {
      fail(name, "must be an array of [name, value] pairs of strings");
      return pairs;
    }
    for (const auto& pair : *value) {
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string()) {
        fail(name, "must be an array of [name, value] pairs of strings");
        return {};
      }
      pairs.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
    }
    return pairs;
  }

  /// Empty when every field read so far was present and well typed.
  const std::string& problem() const { return problem_; }

private:
  const json* find(const char* name, bool required) {
    const auto it = line_.find(name);
    if (it == line_.end()) {
      if (required) {
        keep_first_problem(std::string("missing field \"") + name + "\"");
      }
      return nullptr;
    }
    return &*it;
  }

  void fail(const char* name, const char* why) {
    keep_first_problem(std::string("\"") + name + "\": " + why);
  }

  void keep_first_problem(std::string problem) {
    if (problem_.empty()) {
      problem_ = std::move(problem);
    }
  }

  const json& line_;
  std::string problem_;
};

journal_entry entry_from_fields(journal_field_reader& fields) {
  journal_entry entry;
  entry.time = fields.text("time");
  entry.method = fields.text("method");
  // Redacted again as it is read: a journal written by an older proxy, or by hand, gives no
  // presigned credential to a summary or a HAR (whose queryString decodes every name).
  entry.target = runtime::redact_target(fields.text("target"));
  entry.operation = fields.text("operation");
  entry.status = fields.status();
  entry.request_bytes = fields.byte_count("request_bytes");
  entry.response_bytes = fields.byte_count("response_bytes");
  entry.duration_ms = fields.milliseconds("duration_ms");
  entry.outcome = fields.text("outcome");
  entry.client = fields.optional_text("client");
  entry.request_headers = fields.header_pairs("request_headers");
  entry.response_headers = fields.header_pairs("response_headers");
  entry.ttfb_ms = fields.optional_milliseconds("ttfb_ms");
  entry.store_ttfb_ms = fields.optional_milliseconds("store_ttfb_ms");
  entry.bucket = fields.optional_text("bucket");
  entry.key = fields.optional_text("key");
  entry.part = fields.optional_count("part");
  entry.range = fields.optional_text("range");
  entry.error_code = fields.optional_text("error_code");
  entry.faults = fields.optional_text("faults");
  entry.request_id = fields.optional_text("request_id");
  return entry;
}

/// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string json_parse_message(const json::parse_error& error) {
  const std::string message = error.what();
  const auto close = message.find("] ");
  return close == std::string::npos ? message : message.substr(close + 2);
}

bool is_blank_line(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

/// Appends the entries of one file; false with `error` set at its first bad line.
bool read_journal_file(const std::string& path, std::vector<journal_entry>& entries,
                       std::string& error) {
  if (std::filesystem::is_directory(path)) {
    error = "cannot read " + path + ": is a directory";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::string line;
  std::string why;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    if (is_blank_line(line)) {
      continue;
    }
    auto entry = parse_journal_line(line, why);
    if (!entry) {
      error = path + ":" + std::to_string(number) + ": " + why;
      return false;
    }
    entries.push_back(std::move(*entry));
  }
  if (in.bad()) {
    error = "cannot read " + path + ": read error";
    return false;
  }
  return true;
}

} // namespace

std::optional<journal_entry> parse_journal_line(std::string_view line, std::string& why) {
  json parsed;
  try {
    parsed = json::parse(line);
  } catch (const json::parse_error& error) {
    why = "not JSON: " + json_parse_message(error);
    return std::nullopt;
  }
  if (!parsed.is_object()) {
    why = "not a JSON object";
    return std::nullopt;
  }
  journal_field_reader fields(parsed);
  auto entry = entry_from_fields(fields);
  if (!fields.problem().empty()) {
    why = fields.problem();
    return std::nullopt;
  }
  return entry;
}

journal_reading read_journal_files(const std::vector<std::string>& paths) {
  journal_reading reading;
  for (const auto& path : paths) {
    if (!read_journal_file(path, reading.entries, reading.error)) {
      reading.entries.clear();
      break;
    }
  }
  return reading;
}

} // namespace s3fault::cli
