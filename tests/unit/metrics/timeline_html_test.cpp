// The timeline page on synthetic timelines whose drift is known (built as drift_test.cpp builds
// them): the verdict comes before any chart and says the drift in the verdict's colours, the
// table has a row per figure with its verdict, strings from the input are escaped, and a long
// run gives a small page whose series are drawn as one path each.
#include "metrics/timeline_html.hpp"
#include "synthetic_timeline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <regex>

// Not an anonymous namespace of s3fault::metrics alone: the tests compile in unity batches with
// drift_test.cpp, whose helpers have the same purpose.
namespace s3fault::metrics::timeline_html_test {
namespace {

/// A synthetic timeline (synthetic_timeline.hpp) with a store whose memory and threads grow.
std::vector<timeline_interval> intervals_of(std::size_t count, int requests, std::uint64_t seed,
                                            const std::function<double(std::size_t)>& median_us) {
  auto out = synthetic::synthetic_timeline(count, requests, seed, median_us);
  for (std::size_t second = 0; second < out.size(); ++second) {
    out[second].store = store_interval{(200 + second) << 20, (100 + second) << 20, 10 + second / 10,
                                       static_cast<double>(second), 25};
  }
  return out;
}

timeline_record record_with(std::vector<timeline_interval> intervals) {
  timeline_record record;
  record.interval_seconds = 1;
  record.resolution_seconds = 1;
  record.byte_cap = 32u << 20;
  record.store = "cgroup /docker/abc (v2)";
  record.intervals = std::move(intervals);
  return record;
}

std::string page_of(const timeline_record& record, const std::string& title = "run.json") {
  const drift_rules rules;
  return timeline_html(record, judge_drift(record.intervals, rules), rules, title);
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

/// The table row of one operation and figure, from <tr to </tr>.
std::string row_of(const std::string& page, const std::string& table, const std::string& figure) {
  const auto from = page.find("<table class=\"" + table + "\"");
  const auto at = page.find("data-figure=\"" + figure + "\"", from);
  if (from == std::string::npos || at == std::string::npos) {
    return "";
  }
  const auto start = page.rfind("<tr", at);
  return page.substr(start, page.find("</tr>", at) - start);
}

const auto growing = [](std::size_t s) { return 20000.0 * (1 + static_cast<double>(s) / 600); };
const auto steady = [](std::size_t) { return 20000.0; };

TEST(TimelineHtml, TheVerdictComesBeforeTheFirstChart) {
  const auto page = page_of(record_with(intervals_of(600, 30, 5, growing)));
  const auto verdict = page.find("<section class=\"verdict ");
  const auto first_chart = page.find("<svg");
  ASSERT_NE(verdict, std::string::npos);
  ASSERT_NE(first_chart, std::string::npos);
  EXPECT_LT(verdict, first_chart);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  for (const auto* fetch : {" src=", " href=", "url(", "@import"}) {
    EXPECT_EQ(page.find(fetch), std::string::npos) << fetch << ": the page fetches nothing";
  }
  // Latency of the one operation; MiB/s, requests/s and errors; threads, memory and CPU.
  EXPECT_EQ(count_of(page, "<svg "), 7u);
  for (const auto* kind :
       {"latency", "throughput", "requests", "errors", "threads", "memory", "cpu"}) {
    EXPECT_NE(page.find("data-chart=\"" + std::string(kind) + "\""), std::string::npos) << kind;
  }
  // The time axis in minutes from 0 (a 600 s run), never "-0".
  EXPECT_NE(page.find("text-anchor=\"middle\">0</text>"), std::string::npos);
  EXPECT_EQ(page.find(">-0</text>"), std::string::npos);
  EXPECT_NE(page.find("minutes since the start"), std::string::npos);
  // Both sixths shaded in every chart.
  EXPECT_EQ(count_of(page, "<rect class=\"sixth\""), 14u);
}

TEST(TimelineHtml, ALatencyThatGrowsShowsDriftInRedAndTheRowSlower) {
  const auto page = page_of(record_with(intervals_of(600, 30, 5, growing)));
  EXPECT_NE(page.find("<section class=\"verdict drift\">\n<p class=\"headline\">Drift: drift, "),
            std::string::npos)
      << page.substr(0, 4000);
  EXPECT_NE(page.find(".verdict.drift,.verdict.worse{border-color:#c62828"), std::string::npos);
  const auto row = row_of(page, "drift", "latency p50");
  EXPECT_NE(row.find("<tr class=\"worse\" data-operation=\"GetObject\""), std::string::npos) << row;
  EXPECT_NE(row.find("class=\"name change-worse\" data-column=\"verdict\">slower</td>"),
            std::string::npos)
      << row;
  EXPECT_NE(page.find("td.change-worse{color:#c62828"), std::string::npos);
  // A row per figure of the operation: p50, p90 and MiB/s.
  EXPECT_EQ(count_of(page, "data-operation=\"GetObject\" data-figure="), 3u);
}

TEST(TimelineHtml, ASteadyRunSaysNoDriftInGreen) {
  const auto page = page_of(record_with(intervals_of(600, 30, 9, steady)));
  EXPECT_NE(page.find("<section class=\"verdict no-drift\">\n<p class=\"headline\">Drift: no "
                      "drift, "),
            std::string::npos)
      << page.substr(0, 4000);
  EXPECT_NE(page.find(".verdict.no-drift,.verdict.no-difference{border-color:#2e7d32"),
            std::string::npos);
  const auto row = row_of(page, "drift", "latency p50");
  EXPECT_NE(row.find("change-none\" data-column=\"verdict\">no change</td>"), std::string::npos)
      << row;
}

TEST(TimelineHtml, ARunTooShortIsNotJudgedInAmberWithoutShading) {
  const auto page = page_of(record_with(intervals_of(11, 30, 3, steady)));
  EXPECT_NE(page.find("<section class=\"verdict not-judged\">"), std::string::npos);
  EXPECT_NE(page.find(".verdict.cannot-tell,.verdict.not-judged{border-color:#e09000"),
            std::string::npos);
  EXPECT_EQ(page.find("class=\"sixth\""), std::string::npos);
  EXPECT_NE(page.find("<p>Not judged: the traffic spans 11 intervals"), std::string::npos);
}

TEST(TimelineHtml, StringsFromTheInputAreEscaped) {
  auto intervals = intervals_of(60, 5, 1, steady);
  for (auto& interval : intervals) {
    interval.operations["<img src=x onerror=alert(1)>"] = interval.operations["GetObject"];
  }
  auto record = record_with(std::move(intervals));
  record.store = "<script>alert(\"store\")</script>";
  const auto page = page_of(record, "run <script>.json");
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(&quot;store&quot;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("<title>run &lt;script&gt;.json</title>"), std::string::npos);
  EXPECT_NE(page.find("data-operation=\"&lt;img src=x onerror=alert(1)&gt;\""), std::string::npos);
}

TEST(TimelineHtml, ALongRunGivesASmallPageOfOnePathPerSeries) {
  const auto record = record_with(intervals_of(20000, 3, 7, growing));
  const auto page = page_of(record);
  EXPECT_LT(page.size(), 2u * 1024 * 1024);
  // p50 p90 p99; MiB/s; requests/s; errors and retries; threads; total and anonymous; CPU.
  EXPECT_EQ(count_of(page, "<path class=\"series\""), 11u);
  const std::regex points("data-points=\"(\\d+)\"");
  std::size_t series = 0;
  for (std::sregex_iterator it(page.begin(), page.end(), points), end; it != end; ++it) {
    ++series;
    const auto kept = std::stoul((*it)[1].str());
    EXPECT_GT(kept, 100u);
    EXPECT_LE(kept, 1500u);
  }
  EXPECT_EQ(series, 11u);
  EXPECT_NE(page.find("The 20000 intervals are more than a chart's"), std::string::npos);
}

TEST(TimelineHtml, ALatencyLineBreaksWhereItsOperationHadNoRequests) {
  auto intervals = intervals_of(60, 5, 1, steady);
  for (std::size_t i = 20; i < 30; ++i) {
    intervals[i].operations.clear();
  }
  const auto page = page_of(record_with(std::move(intervals)));
  const auto p50 = page.find("data-series=\"p50\"");
  ASSERT_NE(p50, std::string::npos);
  const auto d = page.substr(page.find("d=\"", p50), page.find("/>", p50) - page.find("d=\"", p50));
  EXPECT_EQ(count_of(d, "M"), 2u) << d;
  EXPECT_EQ(count_of(d, "L"), 48u) << d; // 50 points: lines of 20 and 30
}

TEST(TimelineHtml, TheRunsComparisonFollowsTheVerdict) {
  const drift_rules rules;
  const auto first = record_with(intervals_of(120, 30, 2, steady));
  const auto second = record_with(intervals_of(120, 30, 3, [](std::size_t) { return 40000.0; }));
  const auto compared = compare_runs(first.intervals, second.intervals, rules);
  const auto page = timeline_html(first, judge_drift(first.intervals, rules), rules, "a.json",
                                  &compared, "a.json", "b.json");
  const auto comparison = page.find("<section class=\"verdict comparison worse\">\n<p "
                                    "class=\"headline\">b.json against a.json: worse");
  ASSERT_NE(comparison, std::string::npos) << page.substr(0, 4000);
  EXPECT_LT(page.find("<section class=\"verdict "), comparison);
  EXPECT_LT(comparison, page.find("<svg"));
  const auto row = row_of(page, "runs", "latency p50");
  EXPECT_NE(row.find(">slower</td>"), std::string::npos) << row;
  EXPECT_NE(page.find("<th>a.json</th><th>b.json</th>"), std::string::npos);
}

} // namespace
} // namespace s3fault::metrics::timeline_html_test
