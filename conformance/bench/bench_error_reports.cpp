// The reports of a bench that could not run: every file asked for is written and says why, so
// that a CI job (or `bench merge` of a shard's JSON) sees the reason instead of a missing file.
#include "conformance/bench/bench_reports.hpp"
#include "runtime/build_info.hpp"

#include "text/markup.hpp"
#include "text/text.hpp"

#include <nlohmann/json.hpp>

namespace s3fault::bench {

std::string error_json_report(const std::string& error, const runtime::shard& shard) {
  nlohmann::json document{{"tool", "s3fault bench"},
                          {"format", report_format},
                          {"version", std::string(runtime::build_version())},
                          {"error", error},
                          {"shards", 1},
                          {"cells", nlohmann::json::array()},
                          {"runs", nlohmann::json::array()}};
  if (shard.sharded()) {
    document["shard"] = {{"index", shard.index}, {"count", shard.count}, {"source", shard.source}};
  }
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string error_csv_report(const std::string& error) {
  std::string field = error;
  for (auto& c : field) {
    c = c == '\n' ? ' ' : c == '"' ? '\'' : c;
  }
  return "error\n\"" + field + "\"\n";
}

std::string error_html_report(const std::string& error) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>s3fault bench: "
         "could not run</title></head>\n<body><h1>s3fault bench could not run</h1>\n<p>" +
         text::escape_html(error) + "</p></body></html>\n";
}

} // namespace s3fault::bench
