#pragma once
// What the audit's and the gate's JSON reports have in common: how the document is written out
// and how an optional text reads.
#include <nlohmann/json.hpp>

#include <string>

namespace s3fault::report {

/// `text`, or null when it is empty ("error": null when the job could run).
nlohmann::json text_or_null(const std::string& text);

/// The document indented by two, invalid UTF-8 replaced (a store's header or a reader's stderr
/// may hold any bytes), and a final newline.
std::string json_text(const nlohmann::json& document);

} // namespace s3fault::report
