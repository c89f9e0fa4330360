// The --html file: one self-contained page (no scripts, no external files). It opens with the
// bench's verdict, in the words the terminal ends with (bench_verdict.hpp); for a merged report
// the shards it was merged from (bench merge says them on the terminal); then, per operation,
// the ratio chart of its comparisons (bench_report_html_ratio.cpp) and per size an inline SVG
// chart of throughput against concurrency and one of latency percentiles, a series per store,
// with the baseline's medians and the control noise band overlaid when there are any
// (bench_report_html_charts.cpp); then the tables the terminal prints, with the same digits
// (bench_report_html_tables.cpp).
//
// Checkers find what they need by hooks, not by reading text: figures in tables carry
// data-cell, data-figure, data-column (and with several stores data-store); each chart's <svg>
// says its data-operation and data-size (and data-scale); marks have the class "mark",
// "baseline-mark", "noise-band" or "ratio-mark" (with data-ratio and data-change). The verdict
// is the element of class "verdict"; a merged report's shards the <section class="merged"> with
// data-shards, one <li data-shard="K/N"> each.
#include "conformance/bench/bench_report_html.hpp"

#include "conformance/bench/bench_reports.hpp"
#include "conformance/bench/bench_verdict.hpp"
#include "text/markup.hpp"

namespace s3fault::bench {
namespace {

/// The verdict, first on the page, in the terminal's words: its headline, then one line per
/// figure that decided it.
std::string verdict_section(const bench_report& report) {
  const auto verdict = verdict_of(report);
  using outcome = bench_verdict::outcome;
  const char* look = verdict.decided == outcome::regressed      ? "regressed"
                     : verdict.decided == outcome::not_judged   ? "not-judged"
                     : verdict.decided == outcome::inconclusive ? "inconclusive"
                     : verdict.decided == outcome::passed       ? "passed"
                     : verdict.decided == outcome::judged       ? "judged"
                                                                : "no-verdict";
  std::ostringstream html;
  html << "<section class=\"verdict " << look << "\">\n<p class=\"headline\">"
       << text::escape_html(verdict.headline) << "</p>\n";
  if (!verdict.details.empty()) {
    // Many lines read better in two columns than in a list longer than the window.
    html << "<ul class=\"details" << (verdict.details.size() > 8 ? " many" : "") << "\">\n";
    for (const auto& line : verdict.details) {
      html << "<li>" << text::escape_html(line) << "</li>\n";
    }
    html << "</ul>\n";
  }
  html << "</section>\n";
  return html.str();
}

// After text::report_page_style: the page fits a window 1280 pixels wide: charts shrink with it
// (two per row where they fit), every table is at most 12 columns and scrolls inside its own box
// rather than widening the page.
constexpr const char* page_style =
    "tr.absent td{color:#777}\n"
    "td.change-cannot-tell{color:#a86800;font-weight:bold}\n"
    ".swatch{display:inline-block;width:0.8em;height:0.8em;margin-right:0.4em;vertical-align:-0."
    "05em}\n"
    ".warning{color:#a40}\n"
    ".charts svg{flex:1 1 560px;max-width:720px;height:auto;font-size:11px}\n"
    ".ratio svg{max-width:100%;height:auto;font-size:12px}\n"
    ".verdict ul.many{columns:2;column-gap:2.5em}\n"
    ".verdict.regressed{border-color:#c62828;background:#fdecea}\n"
    ".verdict.not-judged{border-color:#e09000;background:#fff4dc}\n"
    ".verdict.inconclusive{border-color:#e09000;background:#fff4dc}\n"
    ".verdict.judged{border-color:#1f5fa8;background:#e8f0fa}\n"
    ".verdict.passed{border-color:#2e7d32;background:#e9f6ea}\n";

/// What comes before the stores' places: with several, whether the first is the reference
/// (against a baseline, every store is compared with the baseline instead).
std::string stores_lead(const bench_report& report) {
  if (!several_stores(report)) {
    return "";
  }
  return report.reference == reference_kind::store ? "Stores, the first the reference: "
                                                   : "Stores: ";
}

/// Where and how the bench ran, with the rounds that ran.
std::string settings_paragraph(const bench_report& report) {
  const auto& settings = *report.settings;
  std::ostringstream html;
  html << "<p>" << stores_lead(report) << text::escape_html(describe_stores(report)) << ", started "
       << text::escape_html(report.started_at) << "; <span class=\"rounds\">"
       << text::escape_html(rounds_text(report)) << "</span>"
       << (settings.control ? " with control runs" : "") << ", "
       << (settings.count ? std::to_string(*settings.count) + " operations"
                          : html_page::num(settings.duration.count() / 1000.0) + " s")
       << " per run"
       << (settings.mix.empty() ? "" : "; mix " + text::escape_html(describe_mix(settings.mix)))
       << (report.interrupted ? "; interrupted" : "") << "; "
       << text::escape_html(verification_text(settings)) << ".</p>\n";
  return html.str();
}

/// A merged report's shards (bench merge): how many, each with its file, and the notes on how
/// the figures were put together, as the terminal says them when merging. "" for one process.
std::string merged_section(const bench_report& report) {
  if (report.parts.empty()) {
    return "";
  }
  std::ostringstream html;
  html << "<section class=\"merged\" data-shards=\"" << report.shards
       << "\">\n<p>Merged by s3fault bench merge from " << report.shards
       << " shards, as if one process had run every client:</p>\n<ul>\n";
  for (const auto& part : report.parts) {
    const auto shard = text::escape_html(part.shard.text());
    html << "<li data-shard=\"" << shard << "\">shard " << shard << " ("
         << text::escape_html(part.shard.source) << "): " << text::escape_html(part.file) << ", "
         << text::escape_html(part.endpoint) << ", started " << text::escape_html(part.started_at)
         << "</li>\n";
  }
  html << "</ul>\n<ul class=\"merge-notes\">\n";
  for (const auto& note : report.notes) {
    html << "<li>" << text::escape_html(note) << "</li>\n";
  }
  html << "</ul>\n</section>\n";
  return html.str();
}

/// What the figures were compared with: "direct" (the reference store), "the baseline NAME".
std::string compared_with_text(const bench_report& report) {
  return report.reference == reference_kind::store ? report.stores.front().name
                                                   : "the baseline " + report.baseline_source;
}

/// How to read the charts: the scales, the stores' series, the ratio chart, the baseline's
/// marks, the noise band.
std::string charts_key(const bench_report& report) {
  std::ostringstream html;
  html << "<p>One chart of each kind per operation and size, each with its own y axis; an axis "
          "is logarithmic (said in its title) where the chart's largest median is at least "
       << html_page::tick_label(html_page::log_axis_spread) << " times its smallest.";
  if (several_stores(report)) {
    html << " A colour per store, named in each legend (and beside its name in the tables): a "
            "line of its throughput medians, each dot with an I-beam from the slowest to the "
            "fastest of its rounds, and per concurrency a group of its latency bars, p50, p90 "
            "and p99 from left to right, lighter and lighter.";
  }
  if (report.reference != reference_kind::none) {
    const auto& rules = report.settings->judging;
    html << " The ratio chart of each operation: per compared cell"
         << (several_stores(report) ? " and store" : "") << ", the throughput median over "
         << text::escape_html(compared_with_text(report))
         << "'s as a dot (left of the 1x line slower, right faster; log scale) and its "
         << format_percent(100 * (1 - rules.alpha), false)
         << " % interval as a bar: the shorter the bar, the surer the bench. The dot is red for "
            "slower, green for faster, grey for no difference, amber where these rounds cannot "
            "tell a change of "
         << format_percent(rules.min_change_percent, false)
         << " % (--min-change, the grey band around 1x) from none, and hollow where it was not "
            "judged (its tooltip says why).";
  }
  if (report.earlier != nullptr) {
    html << " Dashed grey lines with hollow dots, and hollow bars: the medians of the baseline "
         << text::escape_html(report.baseline_source) << " for the same cells.";
  }
  if (any_noise(report.summaries)) {
    html << " Grey boxes and black I-beams: the control noise band"
         << (report.earlier != nullptr
                 ? " the comparison was judged with, around the baseline (a change that stays "
                   "inside it is not flagged), or around this run for a cell the baseline lacks"
                 : ", around this run's median")
         << ".";
  }
  html << "</p>\n";
  return html.str();
}

} // namespace

std::string html_report(const bench_report& report) {
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       << "<title>s3fault bench " << text::escape_html(report.started_at) << "</title>\n<style>\n"
       << text::report_page_style << page_style
       << "</style>\n</head>\n<body>\n<h1>s3fault bench</h1>\n"
       << verdict_section(report) << settings_paragraph(report) << merged_section(report)
       << charts_key(report) << html_page::charts_section(report)
       << html_page::summary_tables(report);
  if (any_noise(report.summaries)) {
    html << html_page::noise_table(report);
  }
  html << html_page::comparison_tables(report) << "</body>\n</html>\n";
  return html.str();
}

} // namespace s3fault::bench
