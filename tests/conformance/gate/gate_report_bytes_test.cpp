// The gate's JUnit XML and table, byte for byte, for two hand-made reports: a reader's with every
// outcome (a failure, not exercised, not judged, a run the gate's error stopped, an unplanned
// scenario, names that need XML escaping) and an interrupted writer's. They pin what the shared
// report scaffold (conformance/report) writes for the gate; a change to either output shows here.
#include "conformance/gate/gate_reports.hpp"
#include "conformance/gate/gate_runner.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace s3fault::gate {
namespace {

/// The escape character written as "\e", so that coloured text can be compared as plain text.
std::string visible(std::string text) {
  for (std::size_t at = 0; (at = text.find('\x1b', at)) != std::string::npos;) {
    text.replace(at, 1, "\\e");
  }
  return text;
}

run_result pinned_run(const std::string& scenario, const std::string& shape, run_outcome outcome,
                      verdict result) {
  run_result run;
  run.scenario = scenario;
  run.shape = shape;
  run.key = "gate/" + scenario + "/" + shape;
  run.seed = 7;
  run.rules = nlohmann::json::array({{{"action", "reset"}, {"match", "a&b"}}});
  run.judged.outcome = outcome;
  run.judged.result = result;
  run.judged.observed = result;
  run.judged.why = "why of " + scenario + " <" + shape + ">";
  run.exit_code = 0;
  run.seconds = 0.5;
  run.seen.by_operation = {{"GetObject", 3}, {"HeadObject", 1}};
  run.seen.retries = 1;
  run.seen.faults_injected = 2;
  run.seen.bytes_to_reader = 3 * 1024 * 1024;
  run.seen.bytes_from_reader = 1024 * 1024;
  return run;
}

/// A reader's report: baseline passed, "strip&<x>" failed, not exercised and not judged, one run
/// stopped by the gate's error, and "parts" unplanned.
struct reader_sample {
  scenario baseline, strip, parts;
  gate_report report;

  reader_sample() {
    baseline.name = "baseline";
    strip.name = "strip&<x>";
    strip.expect = expectation::must_not_corrupt;
    parts.name = "parts";
    report.role = run_role::reader;
    report.client = "builtin:robust \"quoted\" <reader>";
    report.upstream = "embedded origin";
    report.started_at = "2026-12-06T07:00:00Z";
    report.seconds = 12.25;
    report.repro_dir = "/tmp/repro";
    report.scenarios = {&baseline, &strip, &parts};
    report.unplanned = {{&parts, "needs a multipart shape; none selected"}};
    report.runs.push_back(pinned_run("baseline", "1KiB", run_outcome::passed, verdict::correct));
    auto failed = pinned_run("strip&<x>", "1KiB", run_outcome::failed, verdict::silent_corruption);
    failed.expect = expectation::must_not_corrupt;
    failed.stderr_tail = "line one\nline <two> & \"three\"";
    failed.repro = "#!/bin/bash\necho repro\n";
    failed.repro_file = "/tmp/repro/strip/repro.sh";
    report.runs.push_back(failed);
    report.runs.push_back(
        pinned_run("strip&<x>", "5MiB", run_outcome::not_exercised, verdict::not_exercised));
    report.runs.push_back(
        pinned_run("strip&<x>", "0B", run_outcome::not_judged, verdict::not_judged));
    report.cut_off.push_back(
        pinned_run("strip&<x>", "11MiB", run_outcome::passed, verdict::correct));
    report.runs_planned = 5;
  }
};

/// A writer's report interrupted after two runs, with each kind of open-upload note.
struct writer_sample {
  scenario baseline, reset;
  gate_report report;

  writer_sample() {
    baseline.name = "baseline";
    reset.name = "reset";
    report.role = run_role::writer;
    report.client = "builtin:writer";
    report.upstream = "embedded origin";
    report.started_at = "2026-12-06T07:00:00Z";
    report.seconds = 3.5;
    report.interrupted = true;
    report.scenarios = {&baseline, &reset};
    auto stored = pinned_run("baseline", "1KiB", run_outcome::passed, verdict::stored);
    stored.open_uploads = 0;
    report.runs.push_back(stored);
    auto rejected = pinned_run("reset", "1KiB", run_outcome::passed, verdict::rejected);
    rejected.open_uploads = 2;
    report.runs.push_back(rejected);
    auto unknown = pinned_run("reset", "8MiB", run_outcome::passed, verdict::stored);
    unknown.open_uploads_problem = "ListMultipartUploads: 501";
    report.runs.push_back(unknown);
    report.cut_off.push_back(pinned_run("reset", "11MiB", run_outcome::passed, verdict::stored));
    report.runs_planned = 4;
  }
};

std::string table(const gate_report& report, bool colour, bool show_repro) {
  std::ostringstream out;
  gate_text_report text(out, colour, show_repro);
  text.begin(report.role, report.client, report.upstream, "http://127.0.0.1:4567");
  for (const auto& run : report.runs) {
    text.run_done(run);
  }
  text.finish(report);
  return visible(out.str());
}

TEST(PinnedGateReport, JunitOfAReader) {
  const reader_sample sample;
  EXPECT_EQ(gate_junit_report(sample.report), R"pin(<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="s3fault gate of builtin:robust &quot;quoted&quot; &lt;reader>" tests="12" failures="2" errors="0" skipped="4" time="12.25">
  <testsuite name="gate.baseline" tests="1" failures="0" errors="0" skipped="0" time="0.5">
    <testcase classname="gate.baseline" name="1KiB [must-recover]" time="0.5">
      <properties>
        <property name="key" value="gate/baseline/1KiB" />
        <property name="seed" value="7" />
        <property name="rules" value="[{&quot;action&quot;:&quot;reset&quot;,&quot;match&quot;:&quot;a&amp;b&quot;}]" />
      </properties>
      <system-out>CORRECT: why of baseline &lt;1KiB&gt;; 3 GetObject + 1 HeadObject, 1 retry, 2 faults, 3.0 MiB to the reader</system-out>
    </testcase>
  </testsuite>
  <testsuite name="gate.strip&amp;&lt;x>" tests="4" failures="1" errors="0" skipped="3" time="1.5">
    <testcase classname="gate.strip&amp;&lt;x>" name="1KiB [must-not-corrupt]" time="0.5">
      <properties>
        <property name="key" value="gate/strip&amp;&lt;x>/1KiB" />
        <property name="seed" value="7" />
        <property name="rules" value="[{&quot;action&quot;:&quot;reset&quot;,&quot;match&quot;:&quot;a&amp;b&quot;}]" />
      </properties>
      <failure type="SILENT_CORRUPTION" message="SILENT_CORRUPTION: why of strip&amp;&lt;x> &lt;1KiB>; 3 GetObject + 1 HeadObject, 1 retry, 2 faults, 3.0 MiB to the reader">SILENT_CORRUPTION: why of strip&amp;&lt;x&gt; &lt;1KiB&gt;; 3 GetObject + 1 HeadObject, 1 retry, 2 faults, 3.0 MiB to the reader
reader stderr (tail):
line one
line &lt;two&gt; &amp; "three"

repro: bash /tmp/repro/strip/repro.sh

repro.sh:
#!/bin/bash
echo repro
</failure>
    </testcase>
    <testcase classname="gate.strip&amp;&lt;x>" name="5MiB [must-recover]" time="0.5">
      <properties>
        <property name="key" value="gate/strip&amp;&lt;x>/5MiB" />
        <property name="seed" value="7" />
        <property name="rules" value="[{&quot;action&quot;:&quot;reset&quot;,&quot;match&quot;:&quot;a&amp;b&quot;}]" />
      </properties>
      <skipped message="NOT_EXERCISED: why of strip&amp;&lt;x> &lt;5MiB>; 3 GetObject + 1 HeadObject, 1 retry, 2 faults, 3.0 MiB to the reader" />
    </testcase>
    <testcase classname="gate.strip&amp;&lt;x>" name="0B [must-recover]" time="0.5">
      <properties>
        <property name="key" value="gate/strip&amp;&lt;x>/0B" />
        <property name="seed" value="7" />
        <property name="rules" value="[{&quot;action&quot;:&quot;reset&quot;,&quot;match&quot;:&quot;a&amp;b&quot;}]" />
      </properties>
      <skipped message="NOT_JUDGED: why of strip&amp;&lt;x> &lt;0B>; 3 GetObject + 1 HeadObject, 1 retry, 2 faults, 3.0 MiB to the reader" />
    </testcase>
    <testcase classname="gate.strip&amp;&lt;x>" name="11MiB [must-recover]" time="0">
      <skipped message="not run: the gate stopped on an error" />
    </testcase>
  </testsuite>
  <testsuite name="gate.parts" tests="1" failures="0" errors="0" skipped="1" time="0">
    <testcase classname="gate.parts" name="no selected shape" time="0">
      <skipped message="needs a multipart shape; none selected" />
    </testcase>
  </testsuite>
  <testsuite name="gate.coverage" tests="5" failures="0" errors="0" skipped="0" time="0">
    <testcase classname="gate.coverage" name="all runs" time="0">
      <properties>
        <property name="runs" value="4" />
        <property name="judged" value="2" />
        <property name="not_exercised" value="1" />
        <property name="not_judged" value="1" />
      </properties>
      <system-out>2 of 4 runs judged; 1 not exercised; 1 not judged</system-out>
    </testcase>
    <testcase classname="gate.coverage" name="expectation must-recover" time="0">
      <properties>
        <property name="runs" value="3" />
        <property name="judged" value="1" />
        <property name="not_exercised" value="1" />
        <property name="not_judged" value="1" />
      </properties>
      <system-out>1 of 3 runs judged; 1 not exercised; 1 not judged</system-out>
    </testcase>
    <testcase classname="gate.coverage" name="expectation must-not-corrupt" time="0">
      <properties>
        <property name="runs" value="1" />
        <property name="judged" value="1" />
        <property name="not_exercised" value="0" />
        <property name="not_judged" value="0" />
      </properties>
      <system-out>1 of 1 runs judged; 0 not exercised; 0 not judged</system-out>
    </testcase>
    <testcase classname="gate.coverage" name="scenario baseline" time="0">
      <properties>
        <property name="runs" value="1" />
        <property name="judged" value="1" />
        <property name="not_exercised" value="0" />
        <property name="not_judged" value="0" />
      </properties>
      <system-out>1 of 1 runs judged; 0 not exercised; 0 not judged</system-out>
    </testcase>
    <testcase classname="gate.coverage" name="scenario strip&amp;&lt;x>" time="0">
      <properties>
        <property name="runs" value="3" />
        <property name="judged" value="1" />
        <property name="not_exercised" value="1" />
        <property name="not_judged" value="1" />
      </properties>
      <system-out>1 of 3 runs judged; 1 not exercised; 1 not judged</system-out>
    </testcase>
  </testsuite>
  <testsuite name="gate.exit-status" tests="1" failures="1" errors="0" skipped="0" time="12.25">
    <testcase classname="gate.exit-status" name="exit status" time="12.25">
      <failure type="FAILED" message="exit status 1: some run had a verdict its scenario does not accept" />
    </testcase>
  </testsuite>
</testsuites>
)pin");
}

TEST(PinnedGateReport, JunitOfAnInterruptedWriter) {
  const writer_sample sample;
  EXPECT_EQ(gate_junit_report(sample.report), R"pin(<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="s3fault gate of builtin:writer" tests="9" failures="0" errors="2" skipped="0" time="3.5">
  <testsuite name="gate.baseline" tests="1" failures="0" errors="0" skipped="0" time="0.5">
    <testcase classname="gate.baseline" name="1KiB [must-recover]" time="0.5">
      <properties>
        <property name="key" value="gate/baseline/1KiB" />
        <property name="seed" value="7" />
        <property name="rules" value="[{&quot;action&quot;:&quot;reset&quot;,&quot;match&quot;:&quot;a&amp;b&quot;}]" />
      </properties>
      <system-out>STORED: why of baseline &lt;1KiB&gt;; 3 GetObject + 1 HeadObject, 1 retry, 2 faults, 1.0 MiB from the writer; no open upload</system-out>
    </testcase>
  </testsuite>
  <testsuite name="gate.reset" tests="3" failures="0" errors="1" skipped="0" time="1">
    <testcase classname="gate.reset" name="1KiB [must-recover]" time="0.5">
      <properties>
        <property name="key" value="gate/reset/1KiB" />
        <property name="seed" value="7" />
        <property name="rules" value="[{&quot;action&quot;:&quot;reset&quot;,&quot;match&quot;:&quot;a&amp;b&quot;}]" />
      </properties>
      <system-out>REJECTED: why of reset &lt;1KiB&gt;; 3 GetObject + 1 HeadObject, 1 retry, 2 faults, 1.0 MiB from the writer; 2 open uploads left (the gate aborted them)</system-out>
    </testcase>
    <testcase classname="gate.reset" name="8MiB [must-recover]" time="0.5">
      <properties>
        <property name="key" value="gate/reset/8MiB" />
        <property name="seed" value="7" />
        <property name="rules" value="[{&quot;action&quot;:&quot;reset&quot;,&quot;match&quot;:&quot;a&amp;b&quot;}]" />
      </properties>
      <system-out>STORED: why of reset &lt;8MiB&gt;; 3 GetObject + 1 HeadObject, 1 retry, 2 faults, 1.0 MiB from the writer; open uploads unknown: ListMultipartUploads: 501</system-out>
    </testcase>
    <testcase classname="gate.reset" name="11MiB [must-recover]" time="0">
      <error type="INTERRUPTED" message="cut off before its verdict: the gate was interrupted" />
    </testcase>
  </testsuite>
  <testsuite name="gate.coverage" tests="4" failures="0" errors="0" skipped="0" time="0">
    <testcase classname="gate.coverage" name="all runs" time="0">
      <properties>
        <property name="runs" value="3" />
        <property name="judged" value="3" />
        <property name="not_exercised" value="0" />
        <property name="not_judged" value="0" />
      </properties>
      <system-out>3 of 3 runs judged; 0 not exercised; 0 not judged</system-out>
    </testcase>
    <testcase classname="gate.coverage" name="expectation must-recover" time="0">
      <properties>
        <property name="runs" value="3" />
        <property name="judged" value="3" />
        <property name="not_exercised" value="0" />
        <property name="not_judged" value="0" />
      </properties>
      <system-out>3 of 3 runs judged; 0 not exercised; 0 not judged</system-out>
    </testcase>
    <testcase classname="gate.coverage" name="scenario baseline" time="0">
      <properties>
        <property name="runs" value="1" />
        <property name="judged" value="1" />
        <property name="not_exercised" value="0" />
        <property name="not_judged" value="0" />
      </properties>
      <system-out>1 of 1 runs judged; 0 not exercised; 0 not judged</system-out>
    </testcase>
    <testcase classname="gate.coverage" name="scenario reset" time="0">
      <properties>
        <property name="runs" value="2" />
        <property name="judged" value="2" />
        <property name="not_exercised" value="0" />
        <property name="not_judged" value="0" />
      </properties>
      <system-out>2 of 2 runs judged; 0 not exercised; 0 not judged</system-out>
    </testcase>
  </testsuite>
  <testsuite name="gate.exit-status" tests="1" failures="0" errors="1" skipped="0" time="3.5">
    <testcase classname="gate.exit-status" name="exit status" time="3.5">
      <error type="INTERRUPTED" message="exit status 130: interrupted after 3 of 4 runs; 1 were cut off before their verdict" />
    </testcase>
  </testsuite>
</testsuites>
)pin");
}

TEST(PinnedGateReport, TableOfAReaderWithItsRepro) {
  const reader_sample sample;
  EXPECT_EQ(table(sample.report, false, true),
            R"pin(s3fault gate: reader builtin:robust "quoted" <reader>
store embedded origin, fault proxy http://127.0.0.1:4567

  pass CORRECT           baseline                   1KiB           must-recover     500 ms  3 GetObject + 1 HeadObject, 1 retry, 2 faults, 3.0 MiB to the reader
  FAIL SILENT_CORRUPTION strip&<x>                  1KiB           must-not-corrupt 500 ms  3 GetObject + 1 HeadObject, 1 retry, 2 faults, 3.0 MiB to the reader
                         why of strip&<x> <1KiB>
                         | line one
                           line <two> & "three"
  --   NOT_EXERCISED     strip&<x>                  5MiB           must-recover     500 ms  3 GetObject + 1 HeadObject, 1 retry, 2 faults, 3.0 MiB to the reader
                         why of strip&<x> <5MiB>
  --   NOT_JUDGED        strip&<x>                  0B             must-recover     500 ms  3 GetObject + 1 HeadObject, 1 retry, 2 faults, 3.0 MiB to the reader
                         why of strip&<x> <0B>

repro of strip&<x> / 1KiB:
#!/bin/bash
echo repro

not run: parts: needs a multipart shape; none selected
coverage: 2 of 4 runs judged; 1 not exercised (25 %); 1 not judged
  by expectation: must-recover 1 of 3 judged, 1 not exercised, 1 not judged; must-not-corrupt 1 of 1 judged
  by scenario:
    baseline                   1 of 1 judged
    strip&<x>                  1 of 3 judged, 1 not exercised, 1 not judged
1 passed, 1 failed, 1 not exercised, 1 not judged (verdicts of the 2 judged runs: 1 correct, 0 rejected, 1 silent corruption, 0 hung; 12.2 s)
  FAIL strip&<x> / 1KiB: SILENT_CORRUPTION where must-not-corrupt: why of strip&<x> <1KiB>
       repro: bash /tmp/repro/strip/repro.sh
the failed runs' repro.sh are in /tmp/repro (bash a repro.sh from any directory: exit 1 when its failure reproduces)
exit status 1: some run had a verdict its scenario does not accept
)pin");
}

TEST(PinnedGateReport, ColouredTableOfAnInterruptedWriter) {
  const writer_sample sample;
  EXPECT_EQ(table(sample.report, true, false), R"pin(\e[1ms3fault gate\e[0m: writer builtin:writer
store embedded origin, fault proxy http://127.0.0.1:4567

  \e[32mpass \e[0m\e[32mSTORED            \e[0mbaseline                   1KiB           must-recover     500 ms  3 GetObject + 1 HeadObject, 1 retry, 2 faults, 1.0 MiB from the writer; no open upload
  \e[33mpass \e[0m\e[33mREJECTED          \e[0mreset                      1KiB           must-recover     500 ms  3 GetObject + 1 HeadObject, 1 retry, 2 faults, 1.0 MiB from the writer; 2 open uploads left (the gate aborted them)
                         why of reset <1KiB>
  \e[32mpass \e[0m\e[32mSTORED            \e[0mreset                      8MiB           must-recover     500 ms  3 GetObject + 1 HeadObject, 1 retry, 2 faults, 1.0 MiB from the writer; open uploads unknown: ListMultipartUploads: 501

\e[33minterrupted: 3 of 4 runs done\e[0m
coverage: \e[32m3 of 3 runs judged; 0 not exercised (0 %)\e[0m
  by expectation: must-recover 3 of 3 judged
  by scenario:
    baseline                   \e[32m1 of 1 judged\e[0m
    reset                      \e[32m2 of 2 judged\e[0m
\e[32m3 passed\e[0m, \e[32m0 failed\e[0m, \e[32m0 not exercised\e[0m, \e[32m0 not judged\e[0m (verdicts of the 3 judged runs: 2 stored, 1 rejected, 0 silent loss, 0 torn, 0 hung; 3.5 s)
exit status 130: interrupted after 3 of 4 runs; 1 were cut off before their verdict
)pin");
}

} // namespace
} // namespace s3fault::gate
