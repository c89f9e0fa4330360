#pragma once
// Reading the terminal's and the HTML page's words back in tests of bench's reports: the
// verdict as printed and as on the page, a page's elements, tags, attributes and tables.
#include "conformance/bench/bench_reports.hpp"

#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace s3fault::bench::page_reading {

inline std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

/// The elements from `<tag` with `marker` in its opening tag to its `</tag>`, in page order.
inline std::vector<std::string> elements(const std::string& html, const std::string& tag,
                                         const std::string& marker) {
  std::vector<std::string> found;
  for (auto at = html.find("<" + tag); at != std::string::npos; at = html.find("<" + tag, at + 1)) {
    const auto open_end = html.find('>', at);
    if (html.substr(at, open_end - at).find(marker) == std::string::npos) {
      continue;
    }
    const auto end = html.find("</" + tag + ">", at);
    found.push_back(html.substr(at, end - at));
  }
  return found;
}

/// The value of `name="..."` in the opening tag at the start of `element`.
inline std::string attribute(const std::string& element, const std::string& name) {
  const auto open = element.substr(0, element.find('>'));
  const auto at = open.find(" " + name + "=\"");
  if (at == std::string::npos) {
    return "";
  }
  const auto start = at + name.size() + 3;
  return open.substr(start, open.find('"', start) - start);
}

/// The opening tags in `html` that carry `marker`.
inline std::vector<std::string> tags_with(const std::string& html, const std::string& marker) {
  std::vector<std::string> tags;
  for (auto at = html.find(marker); at != std::string::npos; at = html.find(marker, at + 1)) {
    const auto open = html.rfind('<', at);
    tags.push_back(html.substr(open, html.find('>', at) - open + 1));
  }
  return tags;
}

inline std::string unescaped(std::string text) {
  for (const auto& [entity, c] :
       {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
    for (auto at = text.find(entity); at != std::string::npos; at = text.find(entity, at + 1)) {
      text.replace(at, std::string_view(entity).size(), c);
    }
  }
  return text;
}

/// The text of each cell (th or td) of each row of `table`, tags left out.
inline std::vector<std::vector<std::string>> table_rows(const std::string& table) {
  std::vector<std::vector<std::string>> rows;
  static const std::regex cell_re("<t[hd]([^>]*)>(.*?)</t[hd]>");
  static const std::regex tag_re("<[^>]*>");
  for (auto at = table.find("<tr"); at != std::string::npos; at = table.find("<tr", at + 1)) {
    const std::string row = table.substr(at, table.find("</tr>", at) - at);
    std::vector<std::string> cells;
    for (std::sregex_iterator it(row.begin(), row.end(), cell_re), end; it != end; ++it) {
      cells.push_back(unescaped(std::regex_replace((*it)[2].str(), tag_re, "")));
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

/// The widest row of a table, counting colspans.
inline std::size_t columns_of(const std::string& table) {
  static const std::regex cell_re("<t[hd]([^>]*)>");
  static const std::regex span_re("colspan=\"(\\d+)\"");
  std::size_t widest = 0;
  for (auto at = table.find("<tr"); at != std::string::npos; at = table.find("<tr", at + 1)) {
    const std::string row = table.substr(at, table.find("</tr>", at) - at);
    std::size_t n = 0;
    for (std::sregex_iterator it(row.begin(), row.end(), cell_re), end; it != end; ++it) {
      const std::string opening = (*it)[1].str();
      std::smatch span;
      n += std::regex_search(opening, span, span_re) ? std::stoul(span[1].str()) : 1;
    }
    widest = std::max(widest, n);
  }
  return widest;
}

inline std::string printed_summary(const bench_report& report) {
  std::ostringstream out;
  print_summary(out, report);
  return out.str();
}

/// The terminal's verdict: the "Verdict:" line and the indented lines after it.
inline std::vector<std::string> printed_verdict(const bench_report& report) {
  std::istringstream lines(printed_summary(report));
  std::vector<std::string> verdict;
  std::string line;
  while (std::getline(lines, line)) {
    if (line.starts_with("Verdict:") || (!verdict.empty() && line.starts_with("  "))) {
      verdict.push_back(verdict.empty() ? line : line.substr(2));
    }
  }
  return verdict;
}

/// The page's verdict: the text of its headline and of each list item, in order.
inline std::vector<std::string> page_verdict(const std::string& html) {
  const auto sections = elements(html, "section", "class=\"verdict");
  if (sections.empty()) {
    return {};
  }
  const auto& section = sections[0];
  std::vector<std::string> lines;
  static const std::regex line_re("<(p|li)[^>]*>([^<]*)</(p|li)>");
  for (std::sregex_iterator it(section.begin(), section.end(), line_re), end; it != end; ++it) {
    lines.push_back(unescaped((*it)[2].str()));
  }
  return lines;
}

} // namespace s3fault::bench::page_reading
