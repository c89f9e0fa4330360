#pragma once
// What `s3fault bench` writes: lines and tables for the terminal, and CSV, JSON and HTML files
// that carry the same figures with the same digits (all go through format_figure). The CSV and
// JSON files are also what --baseline reads back.
#include "conformance/bench/bench_runner.hpp"

#include <optional>
#include <ostream>
#include <string>

namespace s3fault::bench {

/// One finished run, one line: "[2/6] round 1/3 get 10MiB c=32: 1234.57 MiB/s, ..." (with
/// "(cut short)" after the cell when a stop signal ended it early).
std::string run_line(const run_position& position, const run_result& result);
/// The progress line of a run in progress (for a terminal; no newline).
std::string progress_line(const run_position& position, const run_progress& progress,
                          const bench_settings& settings);

/// What was checked of the content: "content verified (...)" or "content NOT verified, ...".
std::string verification_text(const bench_settings& settings);

/// A summary's median of `f` as printed ("-" where it has none), and its range "[min..max]"
/// ("" where it has none): the same text in the terminal's tables and the page's.
std::string median_text(const cell_summary& summary, figure f);
std::string range_text(const cell_summary& summary, figure f);

/// The processes sampled (--store-pid): "pid 41, 42", or per store "a: pid 41; b: pid 57".
std::string sampled_processes(const bench_settings& settings);

/// What the medians are of when not of one whole process: "; merged from 3 shards (...)" or
/// "; shard 1/3: this process's share ...", else "". The terminal's caption and the page's.
std::string sharding_caption(const bench_report& report);

/// The tables after the last run: medians with the throughput range, store usage (with
/// --store-pid), noise bands (with --control), the baseline comparison (with --baseline), the
/// first error of each cell with errors, a closing line, and last the verdict (verdict_of: the
/// lines the HTML page opens with).
void print_summary(std::ostream& out, const bench_report& report);

/// The JSON report's "format": 2 added what `bench merge` reads (each run's counts, histogram
/// buckets and times, the seed, the shard); merge refuses reports of another format.
inline constexpr int report_format = 2;

std::string csv_report(const bench_report& report);
std::string json_report(const bench_report& report);
std::string html_report(const bench_report& report);

/// The reports of a bench that could not run (bad options, an unusable store): `error` in each
/// format; the JSON names the shard, so that `bench merge` says which one failed.
std::string error_json_report(const std::string& error, const runtime::shard& shard);
std::string error_csv_report(const std::string& error);
std::string error_html_report(const std::string& error);

/// Reads an earlier bench's CSV or JSON (told apart by the first character). nullopt with
/// `error` saying which line or field is wrong.
std::optional<baseline> load_baseline(const std::string& path, std::string& error);
/// --baseline FILE or FILE:NAME: the cells of the store NAME of a bench of several stores (a
/// file of one store needs no NAME; one of several refuses to guess). nullopt with `error`.
std::optional<baseline> load_baseline_of_store(const std::string& argument, std::string& error);
std::optional<baseline> parse_baseline(const std::string& text, const std::string& source,
                                       std::string& error);

} // namespace s3fault::bench
