#include "cli/journal_summary.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <utility>

namespace s3fault::cli {
namespace {

/// The exchanges of one row, before their percentiles are taken.
struct summary_group {
  journal_summary_row row;
  std::vector<double> durations;
  std::vector<double> ttfbs;
};

bool is_error_exchange(const journal_entry& entry) {
  return entry.status == 0 || entry.status >= 400 || entry.outcome != "ok";
}

void add_to_group(summary_group& group, const journal_entry& entry) {
  auto& row = group.row;
  ++row.requests;
  row.errors += is_error_exchange(entry) ? 1 : 0;
  row.faults += entry.faults.empty() ? 0 : 1;
  row.bytes_in += entry.request_bytes;
  row.bytes_out += entry.response_bytes;
  group.durations.push_back(entry.duration_ms);
  if (entry.ttfb_ms) {
    group.ttfbs.push_back(*entry.ttfb_ms);
  }
}

journal_summary_row finished_row(summary_group group) {
  auto row = std::move(group.row);
  row.duration_p50_ms = nearest_rank_percentile(group.durations, 50);
  row.duration_p90_ms = nearest_rank_percentile(group.durations, 90);
  row.duration_p99_ms = nearest_rank_percentile(std::move(group.durations), 99);
  row.ttfb_p50_ms = nearest_rank_percentile(group.ttfbs, 50);
  row.ttfb_p99_ms = nearest_rank_percentile(std::move(group.ttfbs), 99);
  return row;
}

/// The shortest text that reads back as the same double ("12.5", "3"): the table shows the
/// journal's own values, not rounded ones.
std::string shortest_number(double value) {
  std::array<char, 32> buffer{};
  const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return std::string(buffer.data(), ec == std::errc{} ? end : buffer.data());
}

std::string milliseconds_cell(const std::optional<double>& value) {
  return value ? shortest_number(*value) : "-";
}

constexpr std::array<const char*, 12> summary_columns = {
    "operation", "status", "requests", "errors", "faults",      "bytes_in",
    "bytes_out", "p50_ms", "p90_ms",   "p99_ms", "ttfb_p50_ms", "ttfb_p99_ms"};

std::vector<std::string> table_cells(const journal_summary_row& row) {
  return {row.operation,
          row.status_class,
          std::to_string(row.requests),
          std::to_string(row.errors),
          std::to_string(row.faults),
          std::to_string(row.bytes_in),
          std::to_string(row.bytes_out),
          milliseconds_cell(row.duration_p50_ms),
          milliseconds_cell(row.duration_p90_ms),
          milliseconds_cell(row.duration_p99_ms),
          milliseconds_cell(row.ttfb_p50_ms),
          milliseconds_cell(row.ttfb_p99_ms)};
}

/// One table line: the two name columns left-aligned, the figures right-aligned, two spaces
/// apart, no trailing blanks.
std::string table_line(const std::vector<std::string>& cells,
                       const std::vector<std::size_t>& widths) {
  std::string line;
  for (std::size_t column = 0; column < cells.size(); ++column) {
    const std::string padding(widths[column] - cells[column].size(), ' ');
    line += column < 2 ? cells[column] + padding : padding + cells[column];
    line += column + 1 == cells.size() ? "\n" : "  ";
  }
  return line;
}

nlohmann::ordered_json milliseconds_json(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

} // namespace

std::optional<double> nearest_rank_percentile(std::vector<double> values, int percent) {
  if (values.empty()) {
    return std::nullopt;
  }
  // rank = ceil(percent/100 * n), in whole numbers so that no rounding picks the wrong value.
  const std::size_t rank =
      std::max<std::size_t>(1, (static_cast<std::size_t>(percent) * values.size() + 99) / 100);
  const auto nth = values.begin() + static_cast<std::ptrdiff_t>(rank - 1);
  std::nth_element(values.begin(), nth, values.end());
  return *nth;
}

std::string status_class(int status) {
  return status == 0 ? "none" : std::to_string(status / 100) + "xx";
}

std::vector<journal_summary_row> summarize_journal(const std::vector<journal_entry>& entries) {
  // A std::map keyed (operation, class) gives the sort order of the table for free.
  std::map<std::pair<std::string, std::string>, summary_group> groups;
  summary_group total;
  total.row.operation = "all";
  total.row.status_class = "all";
  for (const auto& entry : entries) {
    auto key = std::make_pair(entry.operation, status_class(entry.status));
    auto& group = groups[key];
    if (group.row.requests == 0) {
      group.row.operation = key.first;
      group.row.status_class = key.second;
    }
    add_to_group(group, entry);
    add_to_group(total, entry);
  }
  std::vector<journal_summary_row> rows;
  rows.reserve(groups.size() + 1);
  for (auto& [key, group] : groups) {
    rows.push_back(finished_row(std::move(group)));
  }
  rows.push_back(finished_row(std::move(total)));
  return rows;
}

std::string render_summary_table(const std::vector<journal_summary_row>& rows) {
  std::vector<std::vector<std::string>> lines;
  lines.emplace_back(summary_columns.begin(), summary_columns.end());
  for (const auto& row : rows) {
    lines.push_back(table_cells(row));
  }
  std::vector<std::size_t> widths(summary_columns.size(), 0);
  for (const auto& cells : lines) {
    for (std::size_t column = 0; column < cells.size(); ++column) {
      widths[column] = std::max(widths[column], cells[column].size());
    }
  }
  std::string table;
  for (const auto& cells : lines) {
    table += table_line(cells, widths);
  }
  return table;
}

nlohmann::ordered_json summary_json(const std::vector<journal_summary_row>& rows) {
  auto array = nlohmann::ordered_json::array();
  for (const auto& row : rows) {
    array.push_back({{"operation", row.operation},
                     {"status", row.status_class},
                     {"requests", row.requests},
                     {"errors", row.errors},
                     {"faults", row.faults},
                     {"bytes_in", row.bytes_in},
                     {"bytes_out", row.bytes_out},
                     {"p50_ms", milliseconds_json(row.duration_p50_ms)},
                     {"p90_ms", milliseconds_json(row.duration_p90_ms)},
                     {"p99_ms", milliseconds_json(row.duration_p99_ms)},
                     {"ttfb_p50_ms", milliseconds_json(row.ttfb_p50_ms)},
                     {"ttfb_p99_ms", milliseconds_json(row.ttfb_p99_ms)}});
  }
  return array;
}

} // namespace s3fault::cli
