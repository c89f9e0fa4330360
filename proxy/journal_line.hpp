#pragma once
// One line of the traffic journal (docs/journal.md): an exchange as a JSON object, with the
// request's fields (secrets already redacted in the record) and never a body.
#include "proxy/exchange_log.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace s3fault::proxy {

/// The line as JSON: what the dashboard shows of an exchange too.
nlohmann::json journal_json(const exchange_record& record, const faults::s3_request& request);

/// The line, without its newline.
std::string journal_line(const exchange_record& record, const faults::s3_request& request);

} // namespace s3fault::proxy
