#include "conformance/gate/gate_reports.hpp"

#include <cmath>
#include <cstdio>

namespace s3fault::gate {
namespace {

namespace colour = report::colour;

const char* verdict_colour(const run_result& run) {
  switch (run.judged.outcome) {
  case run_outcome::failed:
    return colour::red;
  case run_outcome::passed:
    return verdict_succeeded(run.judged.result) ? colour::green : colour::yellow;
  default:
    return colour::yellow;
  }
}

std::string_view outcome_label(run_outcome outcome) {
  switch (outcome) {
  case run_outcome::passed:
    return "pass";
  case run_outcome::failed:
    return "FAIL";
  default:
    return "--";
  }
}

/// `text` with every line after the first indented by `indent` spaces.
std::string indented(std::string text, std::size_t indent) {
  for (std::size_t at = 0; (at = text.find('\n', at)) != std::string::npos; at += indent + 1) {
    text.replace(at, 1, "\n" + std::string(indent, ' '));
  }
  return text;
}

std::string mebibytes(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

} // namespace

std::string describe_traffic(const traffic& seen, run_role role) {
  std::string text;
  for (const auto& [operation, count] : seen.by_operation) {
    text += (text.empty() ? "" : " + ") + std::to_string(count) + " " + operation;
  }
  if (text.empty()) {
    text = "no requests";
  }
  text += ", " + std::to_string(seen.retries) + (seen.retries == 1 ? " retry" : " retries");
  text += ", " + std::to_string(seen.faults_injected) +
          (seen.faults_injected == 1 ? " fault" : " faults");
  text += role == run_role::writer ? ", " + mebibytes(seen.bytes_from_reader) + " from the writer"
                                   : ", " + mebibytes(seen.bytes_to_reader) + " to the reader";
  return text;
}

std::string describe_open_uploads(const run_result& run) {
  if (!run.open_uploads) {
    return "open uploads unknown: " + run.open_uploads_problem;
  }
  if (*run.open_uploads == 0) {
    return "no open upload";
  }
  return *run.open_uploads == 1
             ? "1 open upload left (the gate aborted it)"
             : std::to_string(*run.open_uploads) + " open uploads left (the gate aborted them)";
}

void gate_text_report::begin(run_role role, const std::string& client, const std::string& upstream,
                             const std::string& proxy, const runtime::shard& part) {
  role_ = role;
  out_ << paint_("s3fault gate", colour::bold) << ": " << role_name(role) << " " << client
       << (part.sharded() ? ", shard " + part.text() + " (" + part.source + ")" : "") << "\n"
       << "store " << upstream << ", fault proxy " << proxy << "\n\n";
  out_.flush();
}

void gate_text_report::begin_merged(const gate_report& merged) {
  role_ = merged.role;
  std::string files;
  for (const auto& part : merged.parts) {
    files += (files.empty() ? "" : ", ") + part.file;
  }
  out_ << paint_("s3fault gate merge", colour::bold) << ": " << role_name(merged.role) << " "
       << merged.client << ", " << merged.parts.size() << " shards: " << files << "\n"
       << "store " << (merged.store.empty() ? merged.upstream : merged.store) << "\n\n";
  out_.flush();
}

void gate_text_report::run_done(const run_result& run) {
  out_ << "  "
       << paint_(report::padded(outcome_label(run.judged.outcome), 5, 1), verdict_colour(run))
       << paint_(report::padded(to_string(run.judged.result), 18, 1), verdict_colour(run))
       << report::padded(run.scenario, 27, 1) << report::padded(run.shape, 15, 1)
       << report::padded(to_string(run.expect), 17, 1)
       << report::padded(report::duration_text(run.seconds), 8, 1)
       << describe_traffic(run.seen, role_)
       << (role_ == run_role::writer ? "; " + describe_open_uploads(run) : "")
       << (run.owned ? "" : " (not this shard's: judges its runs of the shape)") << "\n";
  if (!run.judged.passed() || !verdict_succeeded(run.judged.result)) {
    out_ << std::string(25, ' ') << run.judged.why << "\n";
  }
  if (run.judged.outcome == run_outcome::failed && !run.stderr_tail.empty()) {
    out_ << std::string(25, ' ') << "| " << indented(run.stderr_tail, 27) << "\n";
  }
  out_.flush();
}

std::string gate_text_report::verdict_counts(const gate_totals& totals) const {
  const auto count = [](std::size_t n, const char* what) { return std::to_string(n) + " " + what; };
  const auto& v = totals.judged;
  const std::size_t judged = totals.passed + totals.failed;
  // Only the judged runs: a NOT_EXERCISED run's verdict says nothing about its fault, and
  // counted here it would read as coverage ("85 correct" beside 49 passed).
  const std::string which = "verdicts of the " + std::to_string(judged) +
                            (judged == 1 ? " judged run: " : " judged runs: ");
  if (role_ == run_role::writer) {
    return which + count(v.stored, "stored, ") + count(v.rejected, "rejected, ") +
           count(v.silent_loss, "silent loss, ") + count(v.torn, "torn, ") + count(v.hung, "hung");
  }
  return which + count(v.correct, "correct, ") + count(v.rejected, "rejected, ") +
         count(v.silent_corruption, "silent corruption, ") + count(v.hung, "hung");
}

namespace {

long percent_of(std::size_t part, std::size_t whole) {
  return whole == 0 ? 0L
                    : std::lround(100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

/// "3 of 6 judged" and, when some were, ", 3 not exercised" and ", 1 not judged".
std::string coverage_cell(const coverage_count& count) {
  std::string text = std::to_string(count.judged) + " of " + std::to_string(count.runs) + " judged";
  if (count.not_exercised > 0) {
    text += ", " + std::to_string(count.not_exercised) + " not exercised";
  }
  if (count.not_judged > 0) {
    text += ", " + std::to_string(count.not_judged) + " not judged";
  }
  return text;
}

} // namespace

void gate_text_report::print_coverage(const gate_report& report) {
  const auto coverage = count_coverage(report);
  if (coverage.all.runs == 0) {
    return;
  }
  const bool partial = coverage.all.not_exercised > 0 || coverage.all.not_judged > 0;
  const auto& all = coverage.all;
  std::string whole = std::to_string(all.judged) + " of " + std::to_string(all.runs) +
                      " runs judged; " + std::to_string(all.not_exercised) + " not exercised (" +
                      std::to_string(percent_of(all.not_exercised, all.runs)) + " %)";
  if (all.not_judged > 0) {
    whole += "; " + std::to_string(all.not_judged) + " not judged";
  }
  out_ << "coverage: "
       << paint_(whole, coverage.limit_exceeded ? colour::red
                        : partial               ? colour::yellow
                                                : colour::green)
       << "\n";
  std::string by_expectation;
  for (const auto& [expect, count] : coverage.by_expectation) {
    by_expectation += std::string(by_expectation.empty() ? "" : "; ") +
                      std::string(to_string(expect)) + " " + coverage_cell(count);
  }
  out_ << "  by expectation: " << by_expectation << "\n"
       << "  by scenario:\n";
  for (const auto& [name, count] : coverage.by_scenario) {
    const bool whole = count.judged == count.runs;
    out_ << "    " << report::padded(name, 27, 1)
         << paint_(coverage_cell(count), whole ? colour::green : colour::yellow) << "\n";
  }
  if (report.max_not_exercised) {
    out_ << (coverage.limit_exceeded
                 ? paint_("not exercised: " + not_exercised_text(coverage.all) +
                              ", more than --max-not-exercised " + report.max_not_exercised->text +
                              " allows",
                          colour::red)
                 : "not exercised: " + not_exercised_text(coverage.all) +
                       ", within --max-not-exercised " + report.max_not_exercised->text)
         << "\n";
  }
}

void gate_text_report::finish(const gate_report& report) {
  const auto totals = count_runs(report);
  out_ << "\n";
  for (const auto& run : report.runs) {
    if (show_repro_ && run.judged.outcome == run_outcome::failed) {
      out_ << paint_("repro of " + run.scenario + " / " + run.shape, colour::bold) << ":\n"
           << run.repro << "\n";
    }
  }
  for (const auto& each : report.unplanned) {
    out_ << paint_("not run: ", colour::yellow) << each.selected->name << ": " << each.reason
         << "\n";
  }
  if (report.interrupted) {
    out_ << paint_("interrupted: " + std::to_string(totals.runs()) + " of " +
                       std::to_string(totals.runs() + report.cut_off.size()) + " runs done",
                   colour::yellow)
         << "\n";
    if (!report.parts.empty()) { // merged: which runs the interrupted shards did not finish
      for (const auto& run : report.cut_off) {
        out_ << paint_("  cut off: ", colour::yellow) << run.key << "\n";
      }
    }
  }
  print_coverage(report);
  out_ << report::passed_and_failed(paint_, totals.passed, totals.failed) << ", "
       << paint_(std::to_string(totals.not_exercised) + " not exercised",
                 totals.not_exercised ? colour::yellow : colour::green)
       << ", "
       << paint_(std::to_string(totals.not_judged) + " not judged",
                 totals.not_judged ? colour::red : colour::green)
       << " (" << verdict_counts(totals) << "; " << report::duration_text(report.seconds) << ")\n";
  print_failures(report);
  out_ << "exit status " << gate_exit_status(report) << ": " << exit_status_reason(report) << "\n";
  out_.flush();
}

void gate_text_report::print_failures(const gate_report& report) {
  bool any_repro = false, any_kept = false;
  for (const auto& run : report.runs) {
    if (run.judged.outcome != run_outcome::failed) {
      continue;
    }
    out_ << "  " << paint_("FAIL", colour::red) << " " << run.scenario << " / " << run.shape << ": "
         << to_string(run.judged.result) << " where " << to_string(run.expect) << ": "
         << run.judged.why << "\n";
    if (!run.repro_file.empty()) {
      out_ << "       repro: bash " << run.repro_file << "\n";
    }
    any_repro = any_repro || !run.repro_file.empty();
    any_kept = any_kept || !run.kept.empty();
  }
  if (any_repro) {
    out_ << "the failed runs' " << (any_kept ? "files and repro.sh" : "repro.sh") << " are in "
         << report.repro_dir
         << " (bash a repro.sh from any directory: exit 1 when its failure reproduces)\n";
  }
}

} // namespace s3fault::gate
