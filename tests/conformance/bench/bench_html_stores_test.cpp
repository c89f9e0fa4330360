// The --html page of a bench of several stores, built by hand: a series per store in every
// chart, a ratio chart whose dots say what the comparisons said, the terminal's verdict and
// tables (a store column, the stores side by side, each store against the reference) with the
// same digits, and no table wider than 12 columns.
#include "conformance/bench/bench_reports.hpp"
#include "conformance/bench/bench_verdict.hpp"
#include "conformance/bench/comparison_text.hpp"
#include "page_reading.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

// A namespace of its own: the unity build compiles this file with bench_reports_test.cpp,
// whose helpers have the same names.
namespace s3fault::bench::stores_page_test {
namespace {

using namespace page_reading;

/// A bench of get and put of 1 MiB at concurrency 1 and 4, 3 rounds, on stores a, b, c, ...:
/// store i's throughput speeds[i] times the first's and its latency divided by it; each round
/// `jitter` apart (-jitter, 0, +jitter around the level). Compared with the first store.
struct stores_sample {
  bench_settings settings;
  bench_report report;

  explicit stores_sample(const std::vector<double>& speeds, double jitter = 0.01) {
    settings.operations = {operation::named("get"), operation::named("put")};
    settings.sizes = {1 << 20};
    settings.concurrencies = {1, 4};
    settings.rounds = 3;
    settings.stores.clear();
    report.settings = &settings;
    for (std::size_t s = 0; s < speeds.size(); ++s) {
      const std::string name(1, static_cast<char>('a' + s));
      settings.stores.push_back({name, {}, {}});
      report.stores.push_back({name, "http://127.0.0.1:900" + std::to_string(s), "bucket-" + name});
    }
    report.cells = plan_cells(settings);
    for (unsigned round = 1; round <= settings.rounds; ++round) {
      const double wobble = 1 + jitter * (static_cast<double>(round) - 2);
      for (std::size_t i = 0; i < report.cells.size(); ++i) {
        for (std::size_t s = 0; s < speeds.size(); ++s) {
          report.runs.push_back(run_of(i, s, round, speeds[s] * wobble));
        }
      }
    }
    summarize_and_compare(report, nullptr);
  }

  run_result run_of(std::size_t cell_index, std::size_t store, unsigned round, double speed) {
    run_result run;
    run.measured = report.cells[cell_index];
    run.cell_index = cell_index;
    run.store = store;
    run.round = round;
    for (std::size_t f = 0; f < figure_count; ++f) {
      const auto& about = info(figure_at(f));
      if (about.from_store) {
        continue;
      }
      const double level =
          100 + 10.0 * static_cast<double>(f) + 7.0 * static_cast<double>(cell_index);
      const bool throughput =
          figure_at(f) == figure::mib_per_second || figure_at(f) == figure::ops_per_second;
      run.values[f] = round_to(throughput ? level * speed : level / speed, about.decimals);
    }
    run.values[static_cast<std::size_t>(figure::errors)] = 0;
    run.values[static_cast<std::size_t>(figure::retries)] = 0;
    return run;
  }

  /// Every run of store `store` in cell `cell_index` without any throughput: not judged.
  void fail_throughput(std::size_t cell_index, std::size_t store) {
    for (auto& run : report.runs) {
      if (run.cell_index == cell_index && run.store == store) {
        run.values[static_cast<std::size_t>(figure::mib_per_second)] = 0;
      }
    }
    summarize_and_compare(report, nullptr);
  }
};

/// The lines of the terminal's table under the line starting with `title`, whitespace
/// collapsed: cells joined by single spaces.
std::vector<std::string> printed_table(const std::string& printed, const std::string& title) {
  std::istringstream lines(printed.substr(printed.find("\n" + title) + 1));
  std::string line;
  std::getline(lines, line); // the title
  std::vector<std::string> rows;
  static const std::regex spaces(" +");
  while (std::getline(lines, line) && !line.empty()) {
    rows.push_back(std::regex_replace(line.substr(line.find_first_not_of(' ')), spaces, " "));
  }
  return rows;
}

std::vector<std::string> joined_rows(const std::string& table) {
  std::vector<std::string> rows;
  for (const auto& cells : table_rows(table)) {
    std::string row;
    for (const auto& cell : cells) {
      // The terminal leaves out an empty cell's padding at the end of a line, not between.
      row += (row.empty() ? "" : " ") + cell;
    }
    rows.push_back(row);
  }
  return rows;
}

TEST(BenchHtmlStores, EveryChartHasASeriesPerStoreInItsColour) {
  stores_sample sample({1, 0.25});
  const auto html = html_report(sample.report);
  const auto throughput = elements(html, "svg", "class=\"chart throughput\"");
  const auto latency = elements(html, "svg", "class=\"chart latency\"");
  ASSERT_EQ(throughput.size(), 2u); // get and put of 1 MiB
  ASSERT_EQ(latency.size(), 2u);
  for (const auto& chart : throughput) {
    // Per store: a dot per concurrency, an I-beam of its rounds each, and a line.
    for (const std::string store : {"a", "b"}) {
      EXPECT_EQ(occurrences(chart, "<circle class=\"mark\" data-store=\"" + store + "\""), 2u);
      EXPECT_EQ(occurrences(chart, "<path class=\"spread\" data-store=\"" + store + "\""), 2u);
    }
    EXPECT_EQ(occurrences(chart, "<polyline "), 2u);
    EXPECT_NE(chart.find(">a (reference)</text>"), std::string::npos);
    EXPECT_NE(chart.find(">b</text>"), std::string::npos);
    EXPECT_NE(chart.find(">rounds' min..max</text>"), std::string::npos);
  }
  // Store b's dots in its colour, not in a's.
  const auto b_dots = tags_with(throughput[0], "class=\"mark\" data-store=\"b\"");
  const auto a_dots = tags_with(throughput[0], "class=\"mark\" data-store=\"a\"");
  ASSERT_FALSE(a_dots.empty() || b_dots.empty());
  EXPECT_NE(attribute(b_dots[0], "fill"), attribute(a_dots[0], "fill"));
  // A tooltip names the store and its value.
  const auto& b_get = *sample.report.summaries[1].figures[0];
  EXPECT_NE(throughput[0].find("get 1MiB c=1 on b: " +
                               format_figure(figure::mib_per_second, b_get.median) + " MiB/s"),
            std::string::npos);
  for (const auto& chart : latency) {
    // Per store p50, p90 and p99 of 2 concurrencies, in its colour, told apart by shade.
    for (const std::string store : {"a", "b"}) {
      const auto bars = tags_with(chart, "<rect class=\"mark\" data-store=\"" + store + "\"");
      ASSERT_EQ(bars.size(), 6u);
      std::set<std::string> fills, shades;
      for (const auto& bar : bars) {
        fills.insert(attribute(bar, "fill"));
        shades.insert(attribute(bar, "fill-opacity"));
      }
      EXPECT_EQ(fills.size(), 1u) << store;
      EXPECT_EQ(shades.size(), 3u) << store;
    }
    for (const std::string entry : {">a (reference)<", ">b<", ">p50<", ">p90<", ">p99<"}) {
      EXPECT_NE(chart.find(entry), std::string::npos) << entry;
    }
  }
}

TEST(BenchHtmlStores, TheRatioChartSaysEachStoresRatioAndChange) {
  // b 4 times slower, c the same as a: each compared with a.
  stores_sample sample({1, 0.25, 1});
  const auto html = html_report(sample.report);
  const auto charts = elements(html, "svg", "class=\"chart ratio\"");
  ASSERT_EQ(charts.size(), 2u); // get and put
  EXPECT_EQ(attribute(charts[0], "data-operation"), "get");
  EXPECT_EQ(attribute(charts[0], "data-figure"), "mib_per_second");
  // One row per compared cell and store: 2 concurrencies x stores b and c per operation.
  const auto marks = tags_with(html, "class=\"ratio-mark\"");
  ASSERT_EQ(marks.size(), 8u);
  std::size_t checked = 0;
  for (const auto& summary : sample.report.summaries) {
    const auto& c = summary.versus[static_cast<std::size_t>(figure::mib_per_second)];
    if (!c) {
      continue;
    }
    const std::string store = sample.report.stores[summary.store].name;
    const auto mark = std::find_if(marks.begin(), marks.end(), [&](const std::string& tag) {
      return attribute(tag, "data-cell") == describe(summary.measured) &&
             attribute(tag, "data-store") == store;
    });
    ASSERT_NE(mark, marks.end()) << describe(summary.measured) << " " << store;
    EXPECT_EQ(attribute(*mark, "data-ratio"), ratio_text(*c));
    EXPECT_EQ(attribute(*mark, "data-change"), store == "b" ? "slower" : "no difference");
    ++checked;
  }
  EXPECT_EQ(checked, 8u);
  EXPECT_NE(html.find("data-ratio=\"0.25x\" data-change=\"slower\""), std::string::npos);
  // Red for slower, grey for no difference; a line at 1x and the --min-change band around it.
  EXPECT_NE(html.find("data-change=\"slower\" cx"), std::string::npos);
  EXPECT_EQ(occurrences(charts[0], "class=\"one\""), 1u);
  EXPECT_EQ(occurrences(charts[0], "class=\"min-change-band\""), 1u);
  EXPECT_EQ(occurrences(charts[0], "class=\"ratio-interval\""), 4u);
  EXPECT_NE(charts[0].find("0.25x slower"), std::string::npos);
  // Before the operation's other charts, after its heading.
  EXPECT_LT(html.find("<h2>get</h2>"), html.find("class=\"chart ratio\""));
  EXPECT_LT(html.find("class=\"chart ratio\""), html.find("class=\"chart throughput\""));
}

TEST(BenchHtmlStores, WhatCouldNotTellIsAmberAndWhatWasNotJudgedIsHollow) {
  // b within 2 % of a, with rounds 30 % apart: these rounds cannot tell.
  stores_sample sample({1, 1.02}, 0.3);
  sample.fail_throughput(0, 1); // get 1MiB c=1 on b: no throughput at all
  const auto html = html_report(sample.report);
  const auto marks = tags_with(html, "class=\"ratio-mark\"");
  ASSERT_EQ(marks.size(), 4u);
  const auto& failed = *sample.report.summaries[1].versus[0];
  ASSERT_FALSE(failed.judged);
  EXPECT_EQ(attribute(marks[0], "data-change"), "not judged");
  EXPECT_EQ(attribute(marks[0], "data-ratio"), "-");
  EXPECT_EQ(attribute(marks[0], "fill"), "#fff");
  const auto hollow = elements(html, "circle", "data-change=\"not judged\"");
  ASSERT_EQ(hollow.size(), 1u);
  EXPECT_NE(hollow[0].find("not judged: " + failed.not_judged), std::string::npos);
  EXPECT_EQ(attribute(marks[1], "data-change"), "cannot tell");
  // In the tables: the rows that could not tell amber, as those not judged.
  const auto stores = elements(html, "table", "class=\"stores\"");
  const auto side = elements(html, "table", "class=\"side-by-side\"");
  ASSERT_EQ(stores.size(), 1u);
  ASSERT_EQ(side.size(), 1u);
  EXPECT_GT(occurrences(stores[0], "<tr class=\"cannot-tell\">"), 0u);
  EXPECT_GT(occurrences(stores[0], "<tr class=\"unjudged\">"), 0u);
  EXPECT_GT(occurrences(side[0], "<tr class=\"cannot-tell\">"), 0u);
  EXPECT_NE(html.find("<section class=\"verdict not-judged\">"), std::string::npos);
}

TEST(BenchHtmlStores, ThePageOpensWithTheTerminalsVerdict) {
  stores_sample sample({1, 0.25, 4});
  const auto printed = printed_verdict(sample.report);
  ASSERT_GE(printed.size(), 5u);
  EXPECT_TRUE(printed[0].starts_with("Verdict: judged: b and c compared with a (the reference)"))
      << printed[0];
  EXPECT_EQ(printed[1], "get MiB/s, b against a: 4.0x slower in 2 of 2 cells (0.25x of a)");
  const auto html = html_report(sample.report);
  EXPECT_EQ(page_verdict(html), printed);
  EXPECT_LT(html.find("<section class=\"verdict judged\">"), html.find("<svg"));

  // Could not tell: inconclusive, in the same words.
  stores_sample weak({1, 1.02}, 0.3);
  EXPECT_EQ(page_verdict(html_report(weak.report)), printed_verdict(weak.report));
  EXPECT_NE(html_report(weak.report).find("<section class=\"verdict inconclusive\">"),
            std::string::npos);
}

TEST(BenchHtmlStores, TheMediansTablesHaveAStoreColumn) {
  stores_sample sample({1, 0.25, 4});
  const auto html = html_report(sample.report);
  const auto tables = elements(html, "table", "class=\"medians\"");
  ASSERT_EQ(tables.size(), 2u);
  const auto rows = table_rows(tables[0]);
  ASSERT_EQ(rows.size(), 1 + sample.report.summaries.size());
  EXPECT_EQ(rows[0][3], "store");
  for (std::size_t i = 0; i < sample.report.summaries.size(); ++i) {
    const auto& summary = sample.report.summaries[i];
    EXPECT_EQ(rows[i + 1][3], sample.report.stores[summary.store].name);
    EXPECT_EQ(rows[i + 1][4], format_figure(figure::mib_per_second, summary.figures[0]->median));
  }
  // Every figure's hooks name its store (the first table has the latency).
  for (const auto& summary : sample.report.summaries) {
    const std::string hook = "data-cell=\"" + describe(summary.measured) +
                             "\" data-figure=\"latency_p99_ms\" data-column=\"median\" "
                             "data-store=\"" +
                             sample.report.stores[summary.store].name + "\">" +
                             format_figure(figure::latency_p99_ms, summary.figures[4]->median) +
                             "<";
    EXPECT_EQ(occurrences(tables[0], hook), 1u) << hook;
  }
}

TEST(BenchHtmlStores, TheStoresTablesAreTheTerminals) {
  stores_sample sample({1, 0.25, 4});
  const auto html = html_report(sample.report);
  const auto printed = printed_summary(sample.report);
  const auto side = elements(html, "table", "class=\"side-by-side\"");
  ASSERT_EQ(side.size(), 1u);
  EXPECT_EQ(joined_rows(side[0]), printed_table(printed, "Stores side by side"));
  const auto stores = elements(html, "table", "class=\"stores\"");
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_EQ(joined_rows(stores[0]), printed_table(printed, "Against a (the reference store)"));
  EXPECT_EQ(table_rows(stores[0])[0],
            (std::vector<std::string>{"cell", "store", "figure", "a", "median", "ratio", "rounds",
                                      "99.0 % interval", "p", "detectable %", "change"}));
  // Hooks on every figure, with the store compared.
  EXPECT_NE(stores[0].find("data-cell=\"get 1MiB c=4\" data-figure=\"mib_per_second\" "
                           "data-column=\"ratio\" data-store=\"c\">4.00x<"),
            std::string::npos);
  EXPECT_NE(side[0].find("data-cell=\"get 1MiB c=1\" data-figure=\"mib_per_second\" "
                         "data-column=\"ratio\" data-store=\"b\">0.25x<"),
            std::string::npos);
  EXPECT_NE(side[0].find("data-figure=\"mib_per_second\" data-column=\"median\" data-store=\"a\""),
            std::string::npos);
}

TEST(BenchHtmlStores, NoTableIsWiderThan12ColumnsForThreeStores) {
  stores_sample sample({1, 0.25, 4});
  sample.settings.control = true;
  for (auto& summary : sample.report.summaries) {
    summary.noise_percent[0] = 2.5;
  }
  const auto html = html_report(sample.report);
  const auto tables = elements(html, "table", "class=");
  EXPECT_EQ(tables.size(), 5u); // 2 medians, noise, side by side, stores
  for (const auto& table : tables) {
    EXPECT_LE(columns_of(table), 12u) << table.substr(0, 60);
  }
}

TEST(BenchHtmlStores, TheSettingsNameTheStoresAndTheKeyTheirSeries) {
  stores_sample sample({1, 0.25});
  const auto html = html_report(sample.report);
  EXPECT_NE(html.find("<p>Stores, the first the reference: a (http://127.0.0.1:9000, bucket "
                      "bucket-a); b (http://127.0.0.1:9001, bucket bucket-b), started"),
            std::string::npos);
  EXPECT_NE(html.find("A colour per store, named in each legend"), std::string::npos);
  EXPECT_NE(html.find("The ratio chart of each operation"), std::string::npos);
}

TEST(BenchHtmlStores, WithABaselineEveryStoreIsComparedWithIt) {
  // Stores a and b against a's cells of an earlier bench whose throughput was twice a's.
  stores_sample sample({1, 0.5});
  std::string error;
  auto earlier = *parse_baseline(json_report(sample.report), "two.json", error);
  ASSERT_TRUE(choose_baseline_store(earlier, "a", error)) << error;
  for (auto& c : earlier.cells) {
    for (auto& round : c.rounds[0]) {
      round *= 2;
    }
    c.figures[0]->median *= 2;
  }
  sample.report.earlier = &earlier;
  sample.report.baseline_source = earlier.source;
  summarize_and_compare(sample.report, &earlier);
  const auto html = html_report(sample.report);
  EXPECT_NE(html.find("<p>Stores: a (http://127.0.0.1:9000"), std::string::npos);
  // A ratio mark per cell and store, each against the baseline: a half, b a quarter.
  const auto marks = tags_with(html, "class=\"ratio-mark\"");
  ASSERT_EQ(marks.size(), 8u);
  for (const auto& mark : marks) {
    EXPECT_EQ(attribute(mark, "data-ratio"),
              attribute(mark, "data-store") == "a" ? "0.50x" : "0.25x");
    EXPECT_EQ(attribute(mark, "data-change"), "slower");
  }
  // The baseline in every chart: a dashed line, and a group of hollow bars per concurrency.
  for (const auto& chart : elements(html, "svg", "class=\"chart throughput\"")) {
    EXPECT_EQ(occurrences(chart, "<circle class=\"baseline-mark\""), 2u);
  }
  for (const auto& chart : elements(html, "svg", "class=\"chart latency\"")) {
    EXPECT_EQ(occurrences(chart, "<rect class=\"baseline-mark\""), 6u);
  }
  // The comparison table names the store and stays within 12 columns.
  const auto table = elements(html, "table", "class=\"baseline\"");
  ASSERT_EQ(table.size(), 1u);
  EXPECT_LE(columns_of(table[0]), 12u);
  EXPECT_EQ(table_rows(table[0])[0][1], "store");
  EXPECT_EQ(page_verdict(html), printed_verdict(sample.report));
}

TEST(BenchHtmlStores, OneStoreHasNoStoreHooksNorRatioChart) {
  stores_sample sample({1});
  const auto html = html_report(sample.report);
  EXPECT_EQ(html.find("data-store"), std::string::npos);
  EXPECT_EQ(html.find("ratio-mark"), std::string::npos);
  EXPECT_EQ(html.find("class=\"spread\""), std::string::npos);
  EXPECT_EQ(html.find("<th class=\"name\">store</th>"), std::string::npos);
  EXPECT_NE(html.find(">this run</text>"), std::string::npos);
}

} // namespace
} // namespace s3fault::bench::stores_page_test
