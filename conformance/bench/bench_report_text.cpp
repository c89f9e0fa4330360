#include "conformance/bench/bench_reports.hpp"
#include "conformance/bench/bench_timeline.hpp"
#include "conformance/bench/bench_verdict.hpp"
#include "conformance/bench/comparison_text.hpp"

#include <algorithm>
#include <cstdio>

namespace s3fault::bench {
namespace {

using row = std::vector<std::string>;

/// Columns sized to their widest cell; the first `left` columns left-aligned, the rest right.
void print_table(std::ostream& out, const row& header, const std::vector<row>& rows,
                 std::size_t left) {
  std::vector<std::size_t> widths(header.size(), 0);
  auto widen = [&](const row& r) {
    for (std::size_t i = 0; i < r.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], r[i].size());
    }
  };
  widen(header);
  for (const auto& r : rows) {
    widen(r);
  }
  auto print_row = [&](const row& r) {
    std::string line = " ";
    for (std::size_t i = 0; i < r.size(); ++i) {
      const std::string pad(widths[i] - r[i].size(), ' ');
      line += "  " + (i < left ? r[i] + pad : pad + r[i]);
    }
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    out << line << "\n";
  };
  print_row(header);
  for (const auto& r : rows) {
    print_row(r);
  }
}

/// The columns that name a cell: operation, size, conc, and with --prefill the stored volume.
row cell_only_titles(const bench_report& report) {
  row titles{"operation", "size", "conc"};
  if (!report.settings->prefill.empty()) {
    titles.emplace_back("stored");
  }
  return titles;
}

row cell_only_columns(const cell& c, const bench_report& report) {
  row columns{std::string(to_string(c.op)), format_size(c.size), std::to_string(c.concurrency)};
  if (!report.settings->prefill.empty()) {
    columns.push_back(format_size(c.stored));
  }
  return columns;
}

/// The columns that name a summary: its cell's, and with several stores the store.
row cell_titles(const bench_report& report) {
  row titles = cell_only_titles(report);
  if (several_stores(report)) {
    titles.emplace_back("store");
  }
  return titles;
}

row cell_columns(const cell_summary& summary, const bench_report& report) {
  row columns = cell_only_columns(summary.measured, report);
  if (several_stores(report)) {
    columns.push_back(report.stores[summary.store].name);
  }
  return columns;
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", seconds);
  return text;
}

constexpr figure summary_figures[] = {
    figure::latency_p50_ms, figure::latency_p90_ms, figure::latency_p99_ms, figure::latency_max_ms,
    figure::ttfb_p50_ms,    figure::ttfb_p90_ms,    figure::ttfb_p99_ms,    figure::ttfb_max_ms,
    figure::operations,     figure::errors,         figure::retries};

constexpr figure store_figures[] = {figure::store_rss_max_mib,     figure::store_rss_mean_mib,
                                    figure::store_threads_max,     figure::store_threads_mean,
                                    figure::store_cpu_max_percent, figure::store_cpu_mean_percent};

/// How the comparison was made, above its table.
void print_method(std::ostream& out, const bench_report& report) {
  const auto& rules = report.settings->judging;
  out << "Student's t on the logarithms of the rounds, false-alarm rate "
      << format_percent(100 * rules.alpha, false)
      << " % per figure (--alpha); flagged when significant, beyond the control band and at "
         "least "
      << format_percent(rules.min_change_percent, false)
      << " % (--min-change). 'detectable': the smallest drop and rise these rounds find "
      << format_percent(100 * rules.power, false)
      << " % of the time; 'cannot tell' where that is more than --min-change\n";
}

void print_baseline_table(std::ostream& out, const bench_report& report) {
  for (const auto& mismatch : report.baseline_mismatches) {
    out << "\nwarning: not measured as the baseline was: " << mismatch;
  }
  out << "\nAgainst the baseline " << report.baseline_source << ": ";
  print_method(out, report);
  row header = cell_titles(report);
  header.emplace_back("figure");
  for (auto& title : comparison_titles(report.settings->judging, report.reference, "")) {
    header.push_back(std::move(title));
  }
  std::vector<row> rows;
  for_each_comparison(
      report.summaries,
      [&](const cell_summary& summary, figure f, const comparison& c) {
        row r = cell_columns(summary, report);
        r.push_back(column_title(f));
        for (auto& column : comparison_columns(f, c, report.reference)) {
          r.push_back(std::move(column));
        }
        rows.push_back(std::move(r));
      },
      [&](const cell_summary& summary) {
        row r = cell_columns(summary, report);
        r.insert(r.end(), {"-", "-", "-", "-", "-", "-", "-", "-", "not in the baseline"});
        rows.push_back(std::move(r));
      });
  print_table(out, header, rows, cell_titles(report).size() + 1);
}

/// Stores: per cell and compared figure, every store's median side by side, then each store's
/// ratio to the reference.
void print_side_by_side(std::ostream& out, const bench_report& report) {
  const std::string& reference = report.stores.front().name;
  out << "\nStores side by side: medians, then each store's over " << reference
      << "'s (the reference)\n";
  row header = cell_only_titles(report);
  header.emplace_back("figure");
  const std::size_t left = header.size();
  for (const auto& store : report.stores) {
    header.push_back(store.name);
  }
  for (std::size_t i = 1; i < report.stores.size(); ++i) {
    header.push_back(report.stores[i].name + "/" + reference);
  }
  std::vector<row> rows;
  for (const auto& line : side_by_side(report.summaries)) {
    row r = cell_only_columns(line.stores.front()->measured, report);
    r.push_back(column_title(line.shown));
    for (const auto* summary : line.stores) {
      r.push_back(median_text(*summary, line.shown));
    }
    for (std::size_t i = 1; i < line.stores.size(); ++i) {
      const auto& c = line.stores[i]->versus[static_cast<std::size_t>(line.shown)];
      r.push_back(c && c->judged ? ratio_text(*c) : "-");
    }
    rows.push_back(std::move(r));
  }
  print_table(out, header, rows, left);
}

/// Stores: each store's compared figures against the reference, with the statistics.
void print_store_comparison(std::ostream& out, const bench_report& report) {
  const std::string& reference = report.stores.front().name;
  print_side_by_side(out, report);
  out << "\nAgainst " << reference << " (the reference store): ";
  print_method(out, report);
  row header{"cell", "store", "figure"};
  for (auto& title : comparison_titles(report.settings->judging, report.reference, reference)) {
    header.push_back(std::move(title));
  }
  std::vector<row> rows;
  for_each_comparison(
      report.summaries,
      [&](const cell_summary& summary, figure f, const comparison& c) {
        row r{describe(summary.measured), report.stores[summary.store].name, column_title(f)};
        for (auto& column : comparison_columns(f, c, report.reference)) {
          r.push_back(std::move(column));
        }
        rows.push_back(std::move(r));
      },
      [](const cell_summary&) {});
  print_table(out, header, rows, 3);
}

} // namespace

std::string verification_text(const bench_settings& settings) {
  return settings.verify ? "content verified (a hash of every byte read, the ETag of every put)"
                         : "content NOT verified, lengths only (--no-verify)";
}

std::string median_text(const cell_summary& summary, figure f) {
  const auto& s = summary.figures[static_cast<std::size_t>(f)];
  return s ? format_figure(f, s->median) : "-";
}

std::string range_text(const cell_summary& summary, figure f) {
  const auto& s = summary.figures[static_cast<std::size_t>(f)];
  return s ? "[" + format_figure(f, s->min) + ".." + format_figure(f, s->max) + "]" : "";
}

std::string sampled_processes(const bench_settings& settings) {
  std::string text;
  for (const auto& store : settings.stores) {
    std::string sampled = store.cgroup ? store.cgroup->describe() : "";
    for (const int pid : store.pids) {
      sampled += (sampled.empty() ? "pid " : ", ") + std::to_string(pid);
    }
    if (!sampled.empty()) {
      text +=
          (text.empty() ? "" : "; ") + (store.name.empty() ? sampled : store.name + ": " + sampled);
    }
  }
  return text;
}

namespace {

/// " on b" after a cell, when several stores run it.
std::string on_store(const run_position& position) {
  return position.store != nullptr && position.store_count > 1 ? " on " + position.store->name : "";
}

} // namespace

std::string run_line(const run_position& position, const run_result& result) {
  auto figure_text = [&](figure f) {
    const auto& value = result.values[static_cast<std::size_t>(f)];
    return value ? format_figure(f, *value) : std::string("-");
  };
  std::string line =
      "[" + std::to_string(position.cell_index + 1) + "/" + std::to_string(position.cell_count) +
      "] round " + std::to_string(position.round) + "/" + std::to_string(position.rounds) +
      (result.leg == 1 ? " (control)" : "") + " " + describe(result.measured) + on_store(position) +
      (result.cut_short ? " (cut short)" : "") +
      (result.workers != 0 && result.workers != result.measured.concurrency
           ? " (" + std::to_string(result.workers) +
                 (result.workers == 1 ? " client here)" : " clients here)")
           : "") +
      ": " + figure_text(figure::mib_per_second) + " MiB/s, " +
      figure_text(figure::ops_per_second) + " ops/s, latency p50 " +
      figure_text(figure::latency_p50_ms) + " p99 " + figure_text(figure::latency_p99_ms) +
      " ms, TTFB p50 " + figure_text(figure::ttfb_p50_ms) + " ms, " + figure_text(figure::errors) +
      " errors, " + figure_text(figure::retries) + " retries";
  if (result.values[static_cast<std::size_t>(figure::store_rss_max_mib)]) {
    line += "; store RSS max " + figure_text(figure::store_rss_max_mib) + " MiB, threads max " +
            figure_text(figure::store_threads_max) + ", CPU mean " +
            figure_text(figure::store_cpu_mean_percent) + " %";
  }
  return line;
}

std::string progress_line(const run_position& position, const run_progress& progress,
                          const bench_settings& settings) {
  char text[256];
  const std::string limit = settings.count ? std::to_string(progress.operations) + " of " +
                                                 std::to_string(*settings.count) + " ops"
                                           : seconds_text(progress.elapsed_seconds) + " of " +
                                                 seconds_text(settings.duration.count() / 1000.0);
  std::snprintf(text, sizeof text, "[%zu/%zu] round %u/%u%s %s%s: %s, %.2f MiB/s",
                position.cell_index + 1, position.cell_count, position.round, position.rounds,
                position.leg == 1 ? " (control)" : "", describe(*position.measured).c_str(),
                on_store(position).c_str(), limit.c_str(), progress.recent_mib_per_second);
  return text;
}

std::string sharding_caption(const bench_report& report) {
  if (report.shards > 1) {
    return "; merged from " + std::to_string(report.shards) +
           " shards (rates over each run's whole window)";
  }
  const auto& shard = report.settings->shard;
  if (shard.sharded()) {
    return "; shard " + shard.text() + ": this process's share of each cell's clients only";
  }
  return "";
}

namespace {

/// A table with the cell's columns, then one column per figure: `title(f)` over `value(summary,
/// f)`.
template <class Title, class Value>
void print_figure_table(std::ostream& out, const bench_report& report,
                        const std::vector<figure>& figures, Title&& title, Value&& value) {
  row header = cell_titles(report);
  for (const auto f : figures) {
    header.push_back(title(f));
  }
  std::vector<row> rows;
  for (const auto& summary : report.summaries) {
    row r = cell_columns(summary, report);
    for (const auto f : figures) {
      r.push_back(value(summary, f));
    }
    rows.push_back(std::move(r));
  }
  print_table(out, header, rows, 2);
}

void print_medians(std::ostream& out, const bench_report& report) {
  const auto& settings = *report.settings;
  out << "\n"
      << medians_heading(report) << "; throughput [min..max]; latency and TTFB in ms"
      << (settings.mix.empty() ? "" : "; mix: " + describe_mix(settings.mix))
      << sharding_caption(report) << "\n";
  row header = cell_titles(report);
  header.insert(header.end(), {column_title(figure::mib_per_second), "",
                               column_title(figure::ops_per_second), ""});
  for (const auto f : summary_figures) {
    header.push_back(column_title(f));
  }
  std::vector<row> rows;
  for (const auto& summary : report.summaries) {
    row r = cell_columns(summary, report);
    for (const auto f : {figure::mib_per_second, figure::ops_per_second}) {
      r.push_back(median_text(summary, f));
      r.push_back(range_text(summary, f));
    }
    for (const auto f : summary_figures) {
      r.push_back(median_text(summary, f));
    }
    rows.push_back(std::move(r));
  }
  print_table(out, header, rows, 2);
}

/// With --store-pid, the store processes' figures; with --control, the noise bands.
void print_store_and_noise(std::ostream& out, const bench_report& report) {
  if (any_store_figures(report.summaries)) {
    out << "\nStore processes (" << sampled_processes(*report.settings)
        << "), medians over the runs of each cell\n";
    print_figure_table(out, report, {std::begin(store_figures), std::end(store_figures)},
                       column_title, median_text);
  }
  if (any_noise(report.summaries)) {
    out << "\nNoise band (widest difference within a control pair, % of the level)\n";
    print_figure_table(
        out, report, compared_figures(), [](figure f) { return column_title(f) + " ±%"; },
        [](const cell_summary& summary, figure f) {
          const auto& noise = summary.noise_percent[static_cast<std::size_t>(f)];
          return noise ? format_percent(*noise, false) : std::string("-");
        });
  }
}

/// The first error of each cell with errors, the notes, and store processes not sampled.
void print_problems(std::ostream& out, const bench_report& report) {
  bool errors_seen = false;
  for (const auto& summary : report.summaries) {
    if (summary.first_error.empty()) {
      continue;
    }
    if (!errors_seen) {
      out << "\nFirst error of each cell with errors\n";
      errors_seen = true;
    }
    out << "  " << describe(report, summary) << ": " << summary.first_error << "\n";
  }
  for (const auto& summary : report.summaries) {
    if (!summary.note.empty()) {
      out << "note, " << describe(report, summary) << ": " << summary.note << "\n";
    }
  }
  for (const auto& summary : report.summaries) {
    if (!summary.store_error.empty()) {
      out << "store sampling, " << describe(report, summary) << ": " << summary.store_error << "\n";
    }
  }
}

/// "24 runs of 8 cells in 9.1 s; no operation failed; content verified (...)".
void print_closing_line(std::ostream& out, const bench_report& report) {
  std::uint64_t errors = 0;
  for (const auto& run : report.runs) {
    errors += static_cast<std::uint64_t>(
        run.values[static_cast<std::size_t>(figure::errors)].value_or(0));
  }
  out << "\n"
      << report.runs.size() << (report.runs.size() == 1 ? " run of " : " runs of ")
      << report.cells.size() << (report.cells.size() == 1 ? " cell" : " cells")
      << (several_stores(report) ? " on " + std::to_string(report.stores.size()) + " stores" : "")
      << " in " << seconds_text(report.seconds) << "; "
      << (errors == 0 ? "no operation failed" : std::to_string(errors) + " operations failed")
      << "; " << verification_text(*report.settings) << (report.interrupted ? "; interrupted" : "")
      << "\n";
}

} // namespace

void print_summary(std::ostream& out, const bench_report& report) {
  print_medians(out, report);
  print_store_and_noise(out, report);
  if (report.reference == reference_kind::baseline) {
    print_baseline_table(out, report);
  } else if (report.reference == reference_kind::store) {
    print_store_comparison(out, report);
  }
  if (report.timeline) {
    const auto rules = drift_rules_of(*report.settings);
    out << "\n"
        << metrics::drift_text(metrics::judge_drift(report.timeline->intervals, rules), rules,
                               *report.timeline);
  }
  print_problems(out, report);
  print_closing_line(out, report);
  // Last, where a terminal leaves the eye; the HTML page opens with the same lines.
  const auto verdict = verdict_of(report);
  out << verdict.headline << "\n";
  for (const auto& line : verdict.details) {
    out << "  " << line << "\n";
  }
}

} // namespace s3fault::bench
