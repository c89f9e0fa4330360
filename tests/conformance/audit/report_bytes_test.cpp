// The audit's JUnit XML and table, byte for byte, for two hand-made reports: one with every
// verdict and names that need XML escaping, one interrupted. They pin what the shared report
// scaffold (conformance/report) writes for the audit; a change to either output shows here.
#include "conformance/audit/audit_reports.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace s3fault::audit {
namespace {

/// The escape character written as "\e", so that coloured text can be compared as plain text.
std::string visible(std::string text) {
  for (std::size_t at = 0; (at = text.find('\x1b', at)) != std::string::npos;) {
    text.replace(at, 1, "\\e");
  }
  return text;
}

check_result pinned_result(std::string id, level strength, verdict outcome, double seconds) {
  check_result r;
  r.id = std::move(id);
  r.area = r.id.substr(0, r.id.find('.'));
  r.title = "title of " + r.id + " & <more>";
  r.strength = strength;
  r.clause = "clause \"quoted\" & <text>";
  r.outcome.result = outcome;
  r.seconds = seconds;
  if (outcome == verdict::fail) {
    r.outcome.expectations.push_back({"x-amz-mp-parts-count: 3", "no x-amz-mp-parts-count", false});
    r.outcome.expectations.push_back({"status 206", "status 206", true});
    r.outcome.expectations.push_back({"ETag \"a\"", "ETag <none>", false});
  }
  if (outcome != verdict::pass && outcome != verdict::fail) {
    r.outcome.reason = "because <reasons> & \"quotes\"";
  }
  return r;
}

/// Every verdict, over three areas; a failure whose name and text need escaping.
audit_report every_verdict() {
  audit_report report;
  report.endpoint = "http://127.0.0.1:9000/?a=1&b=<2>";
  report.bucket = "b";
  report.started_at = "2026-12-06T07:00:00Z";
  report.seconds = 1.5;
  report.checks_selected = 5;
  report.results = {pinned_result("part.a", level::must, verdict::pass, 0.25),
                    pinned_result("part.b<&\"x\">", level::should, verdict::fail, 0.125),
                    pinned_result("range.c", level::must, verdict::deviation, 2.5),
                    pinned_result("range.d", level::may, verdict::skip, 0),
                    pinned_result("etag.e", level::may, verdict::error, 0.0625)};
  return report;
}

/// Interrupted after two checks: the third is cut off.
audit_report interrupted() {
  audit_report report;
  report.endpoint = "http://127.0.0.1:9000";
  report.bucket = "b";
  report.started_at = "2026-12-06T07:00:00Z";
  report.seconds = 0.75;
  report.checks_selected = 3;
  report.interrupted = true;
  report.results = {pinned_result("part.a", level::must, verdict::pass, 0.25),
                    pinned_result("range.c", level::must, verdict::deviation, 0.5)};
  report.cut_off = {pinned_result("range.d", level::may, verdict::pass, 0)};
  return report;
}

std::string table(const audit_report& report, bool colour) {
  std::ostringstream out;
  text_report text(out, colour);
  text.begin(report.endpoint, report.bucket);
  for (const auto& result : report.results) {
    text.check_done(result);
  }
  text.finish(report);
  return visible(out.str());
}

TEST(PinnedReport, JunitOfEveryVerdict) {
  EXPECT_EQ(junit_report(every_verdict()), R"pin(<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="s3fault audit of http://127.0.0.1:9000/?a=1&amp;b=&lt;2>" tests="6" failures="3" errors="1" skipped="1" time="1.5">
  <testsuite name="audit.part" tests="2" failures="1" errors="0" skipped="0" time="0.375" timestamp="2026-12-06T07:00:00Z">
    <testcase classname="audit.part" name="part.a [MUST]" time="0.25" />
    <testcase classname="audit.part" name="part.b&lt;&amp;&quot;x&quot;> [SHOULD]" time="0.125">
      <properties>
        <property name="cause" value="part.b&lt;&amp;&quot;x&quot;>" />
        <property name="fix" value="title of part.b&lt;&amp;&quot;x&quot;> &amp; &lt;more>" />
      </properties>
      <failure type="FAIL" message="FAIL title of part.b&lt;&amp;&quot;x&quot;> &amp; &lt;more>: no x-amz-mp-parts-count">SHOULD: clause "quoted" &amp; &lt;text&gt;
expected x-amz-mp-parts-count: 3
observed no x-amz-mp-parts-count
expected ETag "a"
observed ETag &lt;none&gt;
cause part.b&lt;&amp;"x"&gt; (1 check): title of part.b&lt;&amp;"x"&gt; &amp; &lt;more&gt;
</failure>
    </testcase>
  </testsuite>
  <testsuite name="audit.range" tests="2" failures="1" errors="0" skipped="1" time="2.5" timestamp="2026-12-06T07:00:00Z">
    <testcase classname="audit.range" name="range.c [MUST]" time="2.5">
      <properties>
        <property name="cause" value="range.c" />
        <property name="fix" value="title of range.c &amp; &lt;more>" />
        <property name="fix_first" value="1" />
      </properties>
      <failure type="DEVIATION" message="DEVIATION title of range.c &amp; &lt;more>: because &lt;reasons> &amp; &quot;quotes&quot;">MUST: clause "quoted" &amp; &lt;text&gt;
because &lt;reasons&gt; &amp; "quotes"
cause range.c (1 check, fix first #1): title of range.c &amp; &lt;more&gt;
</failure>
    </testcase>
    <testcase classname="audit.range" name="range.d [MAY]" time="0">
      <skipped message="because &lt;reasons> &amp; &quot;quotes&quot;" />
    </testcase>
  </testsuite>
  <testsuite name="audit.etag" tests="1" failures="0" errors="1" skipped="0" time="0.0625" timestamp="2026-12-06T07:00:00Z">
    <testcase classname="audit.etag" name="etag.e [MAY]" time="0.0625">
      <error message="because &lt;reasons> &amp; &quot;quotes&quot;" />
    </testcase>
  </testsuite>
  <testsuite name="audit.exit-status" tests="1" failures="1" errors="0" skipped="0" time="1.5">
    <testcase classname="audit.exit-status" name="exit status" time="1.5">
      <failure type="FAILED" message="exit status 1: 1 MUST check not met" />
    </testcase>
  </testsuite>
</testsuites>
)pin");
}

TEST(PinnedReport, JunitOfAnInterruptedAudit) {
  EXPECT_EQ(junit_report(interrupted()), R"pin(<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="s3fault audit of http://127.0.0.1:9000" tests="4" failures="1" errors="2" skipped="0" time="0.75">
  <testsuite name="audit.part" tests="1" failures="0" errors="0" skipped="0" time="0.25" timestamp="2026-12-06T07:00:00Z">
    <testcase classname="audit.part" name="part.a [MUST]" time="0.25" />
  </testsuite>
  <testsuite name="audit.range" tests="2" failures="1" errors="1" skipped="0" time="0.5" timestamp="2026-12-06T07:00:00Z">
    <testcase classname="audit.range" name="range.c [MUST]" time="0.5">
      <properties>
        <property name="cause" value="range.c" />
        <property name="fix" value="title of range.c &amp; &lt;more>" />
        <property name="fix_first" value="1" />
      </properties>
      <failure type="DEVIATION" message="DEVIATION title of range.c &amp; &lt;more>: because &lt;reasons> &amp; &quot;quotes&quot;">MUST: clause "quoted" &amp; &lt;text&gt;
because &lt;reasons&gt; &amp; "quotes"
cause range.c (1 check, fix first #1): title of range.c &amp; &lt;more&gt;
</failure>
    </testcase>
    <testcase classname="audit.range" name="range.d [MAY]" time="0">
      <error type="INTERRUPTED" message="not run: the audit was interrupted" />
    </testcase>
  </testsuite>
  <testsuite name="audit.exit-status" tests="1" failures="0" errors="1" skipped="0" time="0.75">
    <testcase classname="audit.exit-status" name="exit status" time="0.75">
      <error type="INTERRUPTED" message="exit status 130: interrupted after 2 of 3 checks; 1 did not run" />
    </testcase>
  </testsuite>
</testsuites>
)pin");
}

TEST(PinnedReport, JunitOfAPassingAudit) {
  auto report = interrupted();
  report.interrupted = false;
  report.cut_off.clear();
  report.results.resize(1);
  EXPECT_EQ(junit_report(report), R"pin(<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="s3fault audit of http://127.0.0.1:9000" tests="2" failures="0" errors="0" skipped="0" time="0.75">
  <testsuite name="audit.part" tests="1" failures="0" errors="0" skipped="0" time="0.25" timestamp="2026-12-06T07:00:00Z">
    <testcase classname="audit.part" name="part.a [MUST]" time="0.25" />
  </testsuite>
  <testsuite name="audit.exit-status" tests="1" failures="0" errors="0" skipped="0" time="0.75">
    <testcase classname="audit.exit-status" name="exit status" time="0.75">
      <system-out>exit status 0: every MUST check passed</system-out>
    </testcase>
  </testsuite>
</testsuites>
)pin");
}

TEST(PinnedReport, TableOfEveryVerdict) {
  EXPECT_EQ(table(every_verdict(), false),
            R"pin(s3fault audit of http://127.0.0.1:9000/?a=1&b=<2> (bucket b)

partNumber reads (GET and HEAD)
  PASS       MUST    part.a                               title of part.a & <more>                                           250 ms
  FAIL       SHOULD  part.b<&"x">                         title of part.b<&"x"> & <more>                                     125 ms
             expected x-amz-mp-parts-count: 3
             observed no x-amz-mp-parts-count
             expected ETag "a"
             observed ETag <none>

Range reads
  DEVIATION  MUST    range.c                              title of range.c & <more>                                          2.5 s
             because <reasons> & "quotes"
  SKIP       MAY     range.d                              title of range.d & <more>                                          0 ms
             because <reasons> & "quotes"

ETags
  ERROR      MAY     etag.e                               title of etag.e & <more>                                           62 ms
             because <reasons> & "quotes"

Failures by cause, fix these first (they decide the exit status):
  1. range.c (1 check): title of range.c & <more>
       range.c

Other failures by cause:
  - part.b<&"x"> (1 check): title of part.b<&"x"> & <more>
       part.b<&"x">

1 passed, 1 failed, 1 deviation, 1 skipped, 1 error (5 checks in 1.5 s)
1 MUST check not met: range.c
)pin");
}

TEST(PinnedReport, ColouredTableOfAnInterruptedAudit) {
  EXPECT_EQ(table(interrupted(), true),
            R"pin(\e[1ms3fault audit\e[0m of http://127.0.0.1:9000 (bucket b)

\e[1mpartNumber reads (GET and HEAD)\e[0m
  \e[32mPASS     \e[0m  MUST    part.a                               title of part.a & <more>                                           \e[2m250 ms\e[0m

\e[1mRange reads\e[0m
  \e[33mDEVIATION\e[0m  MUST    range.c                              title of range.c & <more>                                          \e[2m500 ms\e[0m
             because <reasons> & "quotes"

\e[1mFailures by cause, fix these first (they decide the exit status):\e[0m
  1. \e[1mrange.c\e[0m (1 check): title of range.c & <more>
       range.c

\e[32m1 passed\e[0m, \e[32m0 failed\e[0m, 1 deviation, 0 skipped, 0 errors (2 checks in 750 ms)
\e[33minterrupted: 2 of 3 checks ran\e[0m
\e[31m1 MUST check not met: \e[0mrange.c
\e[33mexit status 130: interrupted after 2 of 3 checks; 1 did not run\e[0m
)pin");
}

} // namespace
} // namespace s3fault::audit
