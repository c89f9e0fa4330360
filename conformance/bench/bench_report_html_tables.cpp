// The tables of the --html page: the ones the terminal prints (print_summary), with the same
// columns and digits (comparison_text.hpp writes the comparisons' for both). Each is at most
// 12 columns for up to three stores, and scrolls in its own box, so the page fits 1280 pixels.
//
// Every cell that holds a figure carries hooks for checkers (the page has no script):
//   <td data-cell="get 1MiB c=4" data-figure="mib_per_second" data-column="median"
//       data-store="b">
// data-store only with several stores: the store the value is of, or for a comparison the
// store compared with the reference.
#include "conformance/bench/bench_report_html.hpp"

#include "conformance/bench/bench_reports.hpp"
#include "conformance/bench/bench_verdict.hpp"
#include "conformance/bench/comparison_text.hpp"
#include "text/markup.hpp"

namespace s3fault::bench::html_page {
namespace {

// The data-column of each of comparison_columns(), in their order: against a baseline, and
// against the reference store.
constexpr const char* baseline_keys[] = {"baseline", "now", "delta",      "rounds",
                                         "interval", "p",   "detectable", "change"};
constexpr const char* store_keys[] = {"reference", "median", "ratio",      "rounds",
                                      "interval",  "p",      "detectable", "change"};

/// One table cell holding a value of figure `f` of the summary, with the hooks for checkers.
std::string figure_td(const bench_report& report, const cell_summary& summary, figure f,
                      std::string_view column, const std::string& text,
                      const char* css_class = nullptr) {
  std::string td = "<td";
  if (css_class != nullptr) {
    td += " class=\"" + std::string(css_class) + "\"";
  }
  td += " data-cell=\"" + text::escape_html(describe(summary.measured)) + "\" data-figure=\"" +
        std::string(info(f).key) + "\" data-column=\"" + std::string(column) + "\"";
  if (several_stores(report)) {
    td += " data-store=\"" + text::escape_html(report.stores[summary.store].name) + "\"";
  }
  return td + ">" + text::escape_html(text) + "</td>";
}

/// Operation, size and concurrency; the first two left-aligned, as the terminal prints them.
std::string cell_tds(const cell& c) {
  return "<td class=\"name\">" + std::string(to_string(c.op)) + "</td><td class=\"name\">" +
         format_size(c.size) + "</td><td>" + std::to_string(c.concurrency) + "</td>";
}

constexpr const char* cell_ths =
    "<th class=\"name\">operation</th><th class=\"name\">size</th><th>conc</th>";

/// The store's name after a square of its charts' colour.
std::string store_td(const bench_report& report, std::size_t store) {
  return "<td class=\"name\"><span class=\"swatch\" style=\"background:" +
         std::string(store_colour(store)) + "\"></span>" +
         text::escape_html(report.stores[store].name) + "</td>";
}

/// The columns that name a summary: its cell's, and with several stores the store (as the
/// terminal's cell_titles).
std::string summary_ths(const bench_report& report) {
  return std::string(cell_ths) + (several_stores(report) ? "<th class=\"name\">store</th>" : "");
}

std::string summary_tds(const bench_report& report, const cell_summary& summary) {
  return cell_tds(summary.measured) +
         (several_stores(report) ? store_td(report, summary.store) : "");
}

/// A table of medians, one row per cell (and store); the throughput figures also get their
/// range, in a column of its own under the same heading (as the terminal prints them).
std::string medians_table(const bench_report& report, const std::string& caption,
                          const std::vector<figure>& columns) {
  std::ostringstream html;
  html << "<div class=\"scroll\"><table class=\"medians\">\n<caption>" << text::escape_html(caption)
       << "</caption>\n<tr>" << summary_ths(report);
  auto with_range = [](figure f) {
    return f == figure::mib_per_second || f == figure::ops_per_second;
  };
  for (const auto f : columns) {
    html << (with_range(f) ? "<th colspan=\"2\">" : "<th>") << text::escape_html(column_title(f))
         << (with_range(f) ? " [min..max]" : "") << "</th>";
  }
  html << "</tr>\n";
  for (const auto& summary : report.summaries) {
    html << "<tr>" << summary_tds(report, summary);
    for (const auto f : columns) {
      html << figure_td(report, summary, f, "median", median_text(summary, f));
      if (with_range(f)) {
        html << figure_td(report, summary, f, "range", range_text(summary, f), "range");
      }
    }
    html << "</tr>\n";
  }
  html << "</table></div>\n";
  return html.str();
}

/// How the comparisons were judged, above their table.
std::string method_paragraph(const bench_report& report) {
  const auto& rules = report.settings->judging;
  return "<p>Student's t on the logarithms of the rounds; false-alarm rate " +
         format_percent(100 * rules.alpha, false) +
         " % per figure; flagged when significant, beyond the control band and at least " +
         format_percent(rules.min_change_percent, false) +
         " %. 'detectable': the smallest drop and rise these rounds flag " +
         format_percent(100 * rules.power, false) +
         " % of the time; 'cannot tell' where that is more than --min-change.</p>\n";
}

/// The change's cell of a comparison row gets the colour of what it says.
const char* column_class(std::size_t column, figure f, const comparison& c) {
  return column == 7 ? look_of_change(change_word(f, c)).css_class : nullptr;
}

std::string baseline_table(const bench_report& report) {
  const auto& rules = report.settings->judging;
  // With several stores the cell is one column ("get 1MiB c=4"), as in the stores' table, so
  // that the store's column leaves the table at 12 columns.
  const bool several = several_stores(report);
  std::ostringstream html;
  html << "<h2>Against the baseline " << text::escape_html(report.baseline_source) << "</h2>\n";
  for (const auto& mismatch : report.baseline_mismatches) {
    html << "<p class=\"warning\">warning: not measured as the baseline was: "
         << text::escape_html(mismatch) << "</p>\n";
  }
  html << method_paragraph(report) << "<div class=\"scroll\"><table class=\"baseline\">\n<tr>"
       << (several ? "<th class=\"name\">cell</th><th class=\"name\">store</th>" : cell_ths)
       << "<th class=\"name\">figure</th>";
  for (const auto& title : comparison_titles(rules, report.reference, "")) {
    html << "<th>" << text::escape_html(title) << "</th>";
  }
  html << "</tr>\n";
  auto name_tds = [&](const cell_summary& summary) {
    return several ? "<td class=\"name\">" + text::escape_html(describe(summary.measured)) +
                         "</td>" + store_td(report, summary.store)
                   : cell_tds(summary.measured);
  };
  for_each_comparison(
      report.summaries,
      [&](const cell_summary& summary, figure f, const comparison& c) {
        const char* row_class = comparison_row_class(report, c);
        html << "<tr" << (row_class ? " class=\"" + std::string(row_class) + "\"" : "") << ">"
             << name_tds(summary) << "<td class=\"name\">" << text::escape_html(column_title(f))
             << "</td>";
        const auto columns = comparison_columns(f, c, report.reference);
        for (std::size_t i = 0; i < columns.size(); ++i) {
          html << figure_td(report, summary, f, baseline_keys[i], columns[i]);
        }
        html << "</tr>\n";
      },
      [&](const cell_summary& summary) {
        html << "<tr class=\"absent\">" << name_tds(summary)
             << "<td class=\"name\">-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>"
             << "<td>-</td><td>-</td>"
             << "<td>not in the baseline</td></tr>\n";
      });
  html << "</table></div>\n";
  return html.str();
}

/// The amber class of a side-by-side row where a store's comparison could not tell, or was
/// not judged.
const char* side_by_side_row_class(const bench_report& report, const side_by_side_row& row) {
  const char* found = nullptr;
  for (std::size_t i = 1; i < row.stores.size(); ++i) {
    const auto& c = row.stores[i]->versus[static_cast<std::size_t>(row.shown)];
    const char* row_class = c ? comparison_row_class(report, *c) : nullptr;
    if (row_class != nullptr && (found == nullptr || std::string_view(row_class) == "unjudged")) {
      found = row_class;
    }
  }
  return found;
}

/// Per cell and compared figure, every store's median side by side, then each store's ratio
/// to the reference (print_side_by_side).
std::string side_by_side_table(const bench_report& report) {
  const std::string& reference = report.stores.front().name;
  std::ostringstream html;
  html << "<h2>Stores side by side</h2>\n<p>Medians, then each store's over "
       << text::escape_html(reference) << "'s (the reference).</p>\n"
       << "<div class=\"scroll\"><table class=\"side-by-side\">\n<tr>" << cell_ths
       << "<th class=\"name\">figure</th>";
  for (const auto& store : report.stores) {
    html << "<th>" << text::escape_html(store.name) << "</th>";
  }
  for (std::size_t i = 1; i < report.stores.size(); ++i) {
    html << "<th>" << text::escape_html(report.stores[i].name + "/" + reference) << "</th>";
  }
  html << "</tr>\n";
  for (const auto& row : side_by_side(report.summaries)) {
    const char* row_class = side_by_side_row_class(report, row);
    html << "<tr" << (row_class ? " class=\"" + std::string(row_class) + "\"" : "") << ">"
         << cell_tds(row.stores.front()->measured) << "<td class=\"name\">"
         << text::escape_html(column_title(row.shown)) << "</td>";
    for (const auto* summary : row.stores) {
      html << figure_td(report, *summary, row.shown, "median", median_text(*summary, row.shown));
    }
    for (std::size_t i = 1; i < row.stores.size(); ++i) {
      const auto& c = row.stores[i]->versus[static_cast<std::size_t>(row.shown)];
      const bool told = c && c->judged;
      html << figure_td(report, *row.stores[i], row.shown, "ratio", told ? ratio_text(*c) : "-",
                        told ? look_of_change(change_word(row.shown, *c)).css_class : nullptr);
    }
    html << "</tr>\n";
  }
  html << "</table></div>\n";
  return html.str();
}

/// Each store's compared figures against the reference, with the statistics
/// (print_store_comparison).
std::string stores_table(const bench_report& report) {
  const std::string& reference = report.stores.front().name;
  std::ostringstream html;
  html << "<h2>Against " << text::escape_html(reference) << " (the reference store)</h2>\n"
       << method_paragraph(report) << "<div class=\"scroll\"><table class=\"stores\">\n<tr>"
       << "<th class=\"name\">cell</th><th class=\"name\">store</th><th class=\"name\">figure"
       << "</th>";
  for (const auto& title :
       comparison_titles(report.settings->judging, report.reference, reference)) {
    html << "<th>" << text::escape_html(title) << "</th>";
  }
  html << "</tr>\n";
  for_each_comparison(
      report.summaries,
      [&](const cell_summary& summary, figure f, const comparison& c) {
        const char* row_class = comparison_row_class(report, c);
        html << "<tr" << (row_class ? " class=\"" + std::string(row_class) + "\"" : "") << ">"
             << "<td class=\"name\">" << text::escape_html(describe(summary.measured)) << "</td>"
             << store_td(report, summary.store) << "<td class=\"name\">"
             << text::escape_html(column_title(f)) << "</td>";
        const auto columns = comparison_columns(f, c, report.reference);
        for (std::size_t i = 0; i < columns.size(); ++i) {
          html << figure_td(report, summary, f, store_keys[i], columns[i], column_class(i, f, c));
        }
        html << "</tr>\n";
      },
      [](const cell_summary&) {});
  html << "</table></div>\n";
  return html.str();
}

} // namespace

std::string summary_tables(const bench_report& report) {
  const auto& settings = *report.settings;
  std::ostringstream html;
  html << "<h2 class=\"medians-heading\">" << text::escape_html(medians_heading(report))
       << "</h2>\n<p>Throughput with its [min..max] over the runs; latency and TTFB in ms"
       << text::escape_html(sharding_caption(report)) << ".</p>\n"
       << medians_table(report, "Throughput and latency",
                        {figure::mib_per_second, figure::ops_per_second, figure::latency_p50_ms,
                         figure::latency_p90_ms, figure::latency_p99_ms, figure::latency_max_ms})
       << medians_table(report, "Time to first byte, operations, errors and retries",
                        {figure::ttfb_p50_ms, figure::ttfb_p90_ms, figure::ttfb_p99_ms,
                         figure::ttfb_max_ms, figure::operations, figure::errors, figure::retries});
  if (any_store_figures(report.summaries)) {
    html << medians_table(report,
                          "Store processes (" + sampled_processes(settings) +
                              "), medians over the runs of each cell",
                          {figure::store_rss_max_mib, figure::store_rss_mean_mib,
                           figure::store_threads_max, figure::store_threads_mean,
                           figure::store_cpu_max_percent, figure::store_cpu_mean_percent});
  }
  return html.str();
}

std::string noise_table(const bench_report& report) {
  const auto compared = compared_figures();
  std::ostringstream html;
  html << "<h2>Noise band (widest difference within a control pair, % of the level)</h2>\n"
       << "<div class=\"scroll\"><table class=\"noise\">\n<tr>" << summary_ths(report);
  for (const auto f : compared) {
    html << "<th>" << text::escape_html(column_title(f)) << " ±%</th>";
  }
  html << "</tr>\n";
  for (const auto& summary : report.summaries) {
    html << "<tr>" << summary_tds(report, summary);
    for (const auto f : compared) {
      const auto& noise = summary.noise_percent[static_cast<std::size_t>(f)];
      html << figure_td(report, summary, f, "noise", noise ? format_percent(*noise, false) : "-");
    }
    html << "</tr>\n";
  }
  html << "</table></div>\n";
  return html.str();
}

std::string comparison_tables(const bench_report& report) {
  if (!report.baseline_source.empty()) {
    return baseline_table(report);
  }
  if (report.reference == reference_kind::store) {
    return side_by_side_table(report) + stores_table(report);
  }
  return "";
}

} // namespace s3fault::bench::html_page
