#pragma once
// The timeline page (s3fault report --html, the proxy's --report-html): one self-contained HTML
// file (inline CSS and SVG, no scripts, nothing fetched) that states the drift before it shows
// anything, then draws the whole run, then lists every figure's judgement.
//
//   verdict          drift_text's lines, in a box red (drift), green (no drift) or amber
//                    (cannot tell, not judged); with --against, the runs comparison's too
//   charts           per operation latency p50/p90/p99; MiB/s and requests/s per operation;
//                    errors and retries per second; the store's threads, memory (total and
//                    anonymous) and CPU %; the first and last sixths that drift compares shaded
//   tables           one row per operation and figure: first, last, change, interval, p,
//                    detectable change, verdict (and the same for the runs comparison)
//
// A chart draws one <path> per series however long the run: where there are more intervals
// than pixel columns, each column keeps the least and the greatest value of its intervals, so a
// page of 20 000 intervals stays small and its spikes still show (the page says so).
//
// Checkers find what they need by hooks: the verdict is the <section> of class "verdict" (with
// "drift", "no-drift", "cannot-tell" or "not-judged"), the comparison's has also "comparison";
// each chart is an <svg class="chart timeline KIND"> with data-chart (and data-operation for a
// latency chart); each series a <path class="series"> with data-series and data-points; the
// tables are "drift" and "runs", their rows carry data-operation and data-figure and their
// verdict cell data-column="verdict".
#include "metrics/drift.hpp"
#include "metrics/timeline_report.hpp"

#include <string>

namespace s3fault::metrics {

/// The timeline page: the drift verdict first (and the runs comparison when given), then charts
/// over the whole run of latency (p50, p90, p99 per operation), throughput (MiB/s per operation,
/// requests/s), errors, and the store's threads, memory (total and anonymous) and CPU %, the
/// first and last sixths shaded, then the drift table (one row per operation and figure: first,
/// last, change, interval, p, detectable, verdict). `against`: another run compared with this
/// one (compare_runs), the two named `first_name` and `second_name` as runs_comparison_text
/// names them. Every string from the input (title, operation names, the store) is escaped.
std::string timeline_html(const timeline_record& record, const drift_report& drift,
                          const drift_rules& rules, const std::string& title,
                          const runs_comparison* against = nullptr,
                          const std::string& first_name = "", const std::string& second_name = "");

} // namespace s3fault::metrics
