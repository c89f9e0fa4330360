#include "conformance/audit/audit_reports.hpp"
#include "conformance/audit/failure_causes.hpp"

namespace s3fault::audit {
namespace {

using report::colour::bold;
using report::colour::cyan;
using report::colour::dim;
using report::colour::green;
using report::colour::red;
using report::colour::yellow;

const char* verdict_colour(verdict value) {
  switch (value) {
  case verdict::pass:
    return green;
  case verdict::fail:
  case verdict::error:
    return red;
  case verdict::deviation:
    return yellow;
  case verdict::skip:
    return cyan;
  }
  return bold;
}

// Long failures (every part of every object) are cut to this many lines in the table; the JSON
// keeps them all.
constexpr std::size_t max_unmet_lines = 6;

std::string check_ids_of(const cause_group& group) {
  std::string ids;
  for (const auto* result : group.checks) {
    ids += (ids.empty() ? "" : ", ") + result->id;
  }
  return ids;
}

std::string counted_checks(std::size_t count) {
  return std::to_string(count) + (count == 1 ? " check" : " checks");
}

} // namespace

int audit_exit_status(const audit_report& report) {
  if (!report.error.empty()) {
    return 2;
  }
  if (report.interrupted) {
    return 130;
  }
  return count_verdicts(report).gating_failures == 0 ? 0 : 1;
}

std::string audit_exit_reason(const audit_report& report) {
  if (!report.error.empty()) {
    return "the audit could not run: " + report.error;
  }
  if (report.interrupted) {
    return "interrupted after " + std::to_string(report.results.size()) + " of " +
           std::to_string(report.checks_selected) + " checks; " +
           std::to_string(report.cut_off.size()) + " did not run";
  }
  const auto failures = count_verdicts(report).gating_failures;
  const std::string levels = report.strict ? "MUST and SHOULD" : "MUST";
  return failures == 0 ? "every " + levels + " check passed"
                       : std::to_string(failures) + " " + levels + " check" +
                             (failures == 1 ? "" : "s") + " not met";
}

void text_report::begin(const std::string& endpoint, const std::string& bucket) {
  out_ << paint_("s3fault audit", bold) << " of " << endpoint << " (bucket " << bucket << ")\n";
  out_.flush();
}

void text_report::check_done(const check_result& result) {
  if (result.area != area_) {
    area_ = result.area;
    out_ << "\n" << paint_(area_title(area_), bold) << "\n";
  }
  const auto name = to_string(result.outcome.result);
  out_ << "  " << paint_(report::padded(name, 9), verdict_colour(result.outcome.result)) << "  "
       << report::padded(to_string(result.strength), 6) << "  " << report::padded(result.id, 36)
       << " " << report::padded(result.title, 66) << " "
       << paint_(report::duration_text(result.seconds), dim) << "\n";
  const std::string indent(13, ' ');
  if (!result.outcome.reason.empty()) {
    out_ << indent << result.outcome.reason << "\n";
  }
  std::size_t shown = 0, unmet = 0;
  for (const auto& point : result.outcome.expectations) {
    if (point.met) {
      continue;
    }
    ++unmet;
    if (shown < max_unmet_lines) {
      out_ << indent << "expected " << point.expected << "\n"
           << indent << paint_("observed ", verdict_colour(result.outcome.result)) << point.observed
           << "\n";
      ++shown;
    }
  }
  if (unmet > shown) {
    out_ << indent << "... and " << (unmet - shown) << " more (all of them in --json)\n";
  }
  out_.flush();
}

void text_report::print_causes(const audit_report& report) {
  const auto groups = group_failures_by_cause(report);
  const std::string indent(7, ' ');
  bool others_heading = false;
  for (const auto& group : groups) {
    if (group.rank == 1) {
      out_ << "\n"
           << paint_("Failures by cause, fix these first (they decide the exit status):", bold)
           << "\n";
    } else if (group.rank == 0 && !others_heading) {
      out_ << "\n"
           << paint_(groups.front().rank == 1 ? "Other failures by cause:"
                                              : "Failures by cause (none decides the exit status):",
                     bold)
           << "\n";
      others_heading = true;
    }
    const std::string marker = group.rank > 0 ? std::to_string(group.rank) + "." : "-";
    out_ << "  " << marker << " " << paint_(group.id, bold) << " ("
         << counted_checks(group.checks.size()) << "): " << group.fix << "\n"
         << indent << check_ids_of(group) << "\n";
  }
}

void text_report::finish(const audit_report& report) {
  print_causes(report);
  const auto totals = count_verdicts(report);
  out_ << "\n"
       << report::passed_and_failed(paint_, totals.passed, totals.failed) << ", "
       << totals.deviations << (totals.deviations == 1 ? " deviation" : " deviations") << ", "
       << totals.skipped << " skipped, " << totals.errors
       << (totals.errors == 1 ? " error" : " errors") << " (" << report.results.size()
       << " checks in " << report::duration_text(report.seconds) << ")\n";
  if (report.interrupted) {
    out_ << paint_("interrupted: " + std::to_string(report.results.size()) + " of " +
                       std::to_string(report.checks_selected) + " checks ran",
                   yellow)
         << "\n";
  }
  std::string not_met;
  for (const auto& result : report.results) {
    if (is_gating_failure(result, report.strict)) {
      not_met += (not_met.empty() ? "" : ", ") + result.id;
    }
  }
  const std::string levels = report.strict ? "MUST and SHOULD" : "MUST";
  if (!not_met.empty()) {
    out_ << paint_(std::to_string(totals.gating_failures) + " " + levels + " check" +
                       (totals.gating_failures == 1 ? "" : "s") + " not met: ",
                   red)
         << not_met << "\n";
  }
  if (report.interrupted) {
    // The checks that ran say nothing of the others: never "every check passed".
    out_ << paint_("exit status 130: " + audit_exit_reason(report), yellow) << "\n";
  } else if (not_met.empty()) {
    out_ << paint_("every " + levels + " check passed", green) << "\n";
  }
  out_.flush();
}

} // namespace s3fault::audit
