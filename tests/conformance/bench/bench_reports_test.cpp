// The files of a bench carry the figures the terminal shows, digit for digit, and read back as
// a baseline with the same medians; bad baseline files are refused with the line or entry.
#include "conformance/bench/bench_reports.hpp"
#include "conformance/bench/bench_run_record.hpp"
#include "conformance/bench/bench_verdict.hpp"
#include "page_reading.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <sstream>

namespace s3fault::bench {
namespace {

using namespace page_reading;

struct sample_report {
  bench_settings settings;
  bench_report report;

  sample_report() {
    settings.operations = {operation::named("get"), operation::named("put")};
    settings.sizes = {1 << 20};
    settings.concurrencies = {4};
    settings.rounds = 2;
    settings.stores = {{"", {}, {}}};
    report.settings = &settings;
    report.stores = {{"", "http://127.0.0.1:1", "b"}};
    report.cells = plan_cells(settings);
    double level = 1000.123;
    for (unsigned round = 1; round <= 2; ++round) {
      for (std::size_t i = 0; i < report.cells.size(); ++i) {
        run_result run;
        run.measured = report.cells[i];
        run.cell_index = i;
        run.round = round;
        for (std::size_t f = 0; f < figure_count; ++f) {
          if (!info(figure_at(f)).from_store) {
            run.values[f] =
                round_to(level + static_cast<double>(f) * 1.37, info(figure_at(f)).decimals);
          }
        }
        level += 11.111;
        report.runs.push_back(run);
      }
    }
    report.runs[1].first_error = "PUT k: 503, \"SlowDown\"";
    report.summaries = summarize_cells(report.cells, 1, report.runs);
  }
};

std::vector<std::string> split(const std::string& line, char by) {
  std::vector<std::string> out(1);
  for (const char c : line) {
    if (c == by) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

TEST(BenchReports, TheCsvMediansAreThePrintedOnes) {
  sample_report sample;
  std::ostringstream printed;
  print_summary(printed, sample.report);
  std::istringstream csv(csv_report(sample.report));
  std::string header_line;
  std::getline(csv, header_line);
  const auto header = split(header_line, ',');
  const auto operation_column = static_cast<std::size_t>(
      std::find(header.begin(), header.end(), "operation") - header.begin());
  ASSERT_LT(operation_column, header.size());
  std::string line;
  std::size_t rows = 0;
  while (std::getline(csv, line)) {
    const auto fields = split(line, ',');
    ++rows;
    // Every median in the CSV row appears, as text, on the table row of its cell.
    std::istringstream table(printed.str());
    std::string table_line;
    std::string cell_row;
    while (std::getline(table, table_line)) {
      if (table_line.find("   " + fields[operation_column] + " ") != std::string::npos &&
          table_line.find("[") != std::string::npos) {
        cell_row = table_line;
      }
    }
    ASSERT_FALSE(cell_row.empty()) << printed.str();
    for (const auto* key : {"mib_per_second", "ops_per_second", "latency_p50_ms", "latency_p99_ms",
                            "ttfb_max_ms", "errors", "retries"}) {
      const auto at = std::find(header.begin(), header.end(), key) - header.begin();
      ASSERT_LT(static_cast<std::size_t>(at), fields.size());
      EXPECT_NE(cell_row.find(" " + fields[static_cast<std::size_t>(at)]), std::string::npos)
          << key << " " << fields[static_cast<std::size_t>(at)] << " not in: " << cell_row;
    }
  }
  EXPECT_EQ(rows, 2u);
}

TEST(BenchReports, CsvAndJsonReadBackAsTheSameBaseline) {
  sample_report sample;
  std::string error;
  const auto from_csv = parse_baseline(csv_report(sample.report), "a.csv", error);
  ASSERT_TRUE(from_csv) << error;
  const auto from_json = parse_baseline(json_report(sample.report), "a.json", error);
  ASSERT_TRUE(from_json) << error;
  ASSERT_EQ(from_csv->cells.size(), 2u);
  ASSERT_EQ(from_json->cells.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    const auto& summary = sample.report.summaries[c];
    EXPECT_EQ(from_csv->cells[c].op, summary.measured.op);
    EXPECT_EQ(from_json->cells[c].size, summary.measured.size);
    for (std::size_t f = 0; f < figure_count; ++f) {
      if (!summary.figures[f]) {
        EXPECT_FALSE(from_csv->cells[c].figures[f]);
        continue;
      }
      EXPECT_DOUBLE_EQ(from_csv->cells[c].figures[f]->median, summary.figures[f]->median);
      EXPECT_DOUBLE_EQ(from_json->cells[c].figures[f]->median, summary.figures[f]->median);
      EXPECT_DOUBLE_EQ(from_csv->cells[c].figures[f]->max, summary.figures[f]->max);
    }
  }
}

TEST(BenchReports, EveryCsvRowHasTheHeadersFieldsAndAMixReadsBack) {
  // The settings' mix once had a value on every row and no column in the header: the fields
  // after it (first_error, note) slid one column right, and a baseline never knew its mix.
  sample_report sample;
  sample.settings.mix = {{operation::named("get"), 70}, {operation::named("put"), 30}};
  const auto csv = csv_report(sample.report);
  const auto header = split(csv.substr(0, csv.find('\n')), ',');
  const auto mix_at = std::find(header.begin(), header.end(), "mix");
  ASSERT_NE(mix_at, header.end());
  std::string error;
  const auto earlier = parse_baseline(csv, "a.csv", error);
  ASSERT_TRUE(earlier) << error;
  EXPECT_EQ(earlier->settings.mix, "get=70,put=30");
  EXPECT_EQ(header.back(), "note");
  // The put cell's first error is in its own column, not in the note's.
  EXPECT_NE(csv.find(",\"PUT k: 503, \"\"SlowDown\"\"\",\n"), std::string::npos) << csv;
}

TEST(BenchReports, JsonCarriesEveryRunAndTheFirstError) {
  sample_report sample;
  const auto document = nlohmann::json::parse(json_report(sample.report));
  EXPECT_EQ(document["runs"].size(), 4u);
  EXPECT_EQ(document["cells"][1]["first_error"], "PUT k: 503, \"SlowDown\"");
  EXPECT_EQ(document["cells"][0]["figures"]["mib_per_second"]["median"].get<double>(),
            sample.report.summaries[0].figures[0]->median);
}

/// The figures that are counts (operations, errors, retries, the store's peak threads): those
/// printed without decimals.
std::vector<std::string> count_keys() {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < figure_count; ++i) {
    if (info(figure_at(i)).decimals == 0) {
      keys.emplace_back(info(figure_at(i)).key);
    }
  }
  return keys;
}

TEST(BenchReports, CountsAreWholeNumbersInTheJson) {
  // They were written as 1816.0: a count read as a float by every other tool.
  sample_report sample;
  const auto text = json_report(sample.report);
  const auto document = nlohmann::json::parse(text);
  ASSERT_EQ(count_keys(),
            (std::vector<std::string>{"operations", "errors", "retries", "store_threads_max"}));
  std::size_t checked = 0;
  for (const auto& key : count_keys()) {
    for (const auto& cell : document["cells"]) {
      if (cell["figures"].contains(key)) {
        for (const auto* column : {"median", "min", "max"}) {
          EXPECT_TRUE(cell["figures"][key][column].is_number_integer())
              << key << "." << column << ": " << cell["figures"][key][column].dump();
          ++checked;
        }
      }
    }
    for (const auto& run : document["runs"]) {
      if (run["figures"].contains(key)) {
        EXPECT_TRUE(run["figures"][key].is_number_integer()) << key << ": " << run["figures"][key];
        ++checked;
      }
      EXPECT_TRUE(run["counts"]["succeeded"].is_number_integer());
    }
  }
  EXPECT_EQ(checked, 2u * 3 * 3 + 4u * 3); // 2 cells and 4 runs of operations, errors, retries
  EXPECT_TRUE(document["settings"]["rounds"].is_number_integer());
  EXPECT_EQ(
      document["cells"][0]["figures"]["operations"]["median"].get<double>(),
      sample.report.summaries[0].figures[static_cast<std::size_t>(figure::operations)]->median);
}

TEST(BenchReports, AJsonBaselineWithCountsWrittenAsFloatsReadsBack) {
  // Files written before counts were whole numbers still serve as baselines.
  sample_report sample;
  auto document = nlohmann::json::parse(json_report(sample.report));
  for (auto& cell : document["cells"]) {
    for (const auto& key : count_keys()) {
      if (cell["figures"].contains(key)) {
        for (const auto* column : {"median", "min", "max"}) {
          cell["figures"][key][column] = cell["figures"][key][column].get<double>() + 0.0;
        }
      }
    }
  }
  const auto old_text = document.dump();
  ASSERT_NE(old_text.find(".0,"), std::string::npos) << "counts written as floats";
  std::string error;
  const auto earlier = parse_baseline(old_text, "old.json", error);
  ASSERT_TRUE(earlier) << error;
  ASSERT_EQ(earlier->cells.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    for (const auto f : {figure::operations, figure::errors, figure::retries}) {
      const auto i = static_cast<std::size_t>(f);
      EXPECT_DOUBLE_EQ(earlier->cells[c].figures[i]->median,
                       sample.report.summaries[c].figures[i]->median);
      EXPECT_DOUBLE_EQ(earlier->cells[c].figures[i]->max,
                       sample.report.summaries[c].figures[i]->max);
    }
  }
}

TEST(BenchReports, TheHtmlIsOneFileWithChartsAndNoScripts) {
  sample_report sample;
  const auto html = html_report(sample.report);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("<polyline"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_NE(html.find(format_figure(figure::mib_per_second,
                                    sample.report.summaries[0].figures[0]->median)),
            std::string::npos);
  // What was checked of the content, and a mix's operations, are on the page.
  EXPECT_NE(html.find("content verified (a hash of every byte read"), std::string::npos);
  EXPECT_EQ(html.find("mix get="), std::string::npos);
  sample.settings.mix = {{operation::named("get"), 70}, {operation::named("put"), 30}};
  sample.settings.verify = false;
  const auto mixed = html_report(sample.report);
  EXPECT_NE(mixed.find("; mix get=70,put=30"), std::string::npos);
  EXPECT_NE(mixed.find("content NOT verified, lengths only (--no-verify)"), std::string::npos);
}

/// The sample report against a baseline read back from its own JSON, every compared figure
/// `factor` times better there (throughput higher, latency lower): 20 makes every compared
/// figure of the sample a regression, 1/20 none.
struct judged_sample : sample_report {
  baseline earlier;

  explicit judged_sample(double factor) {
    std::string error;
    earlier = *parse_baseline(json_report(report), "fast.json", error);
    for (auto& c : earlier.cells) {
      for (std::size_t i = 0; i < figure_count; ++i) {
        const double by = info(figure_at(i)).direction == better::higher ? factor : 1 / factor;
        if (c.figures[i]) {
          c.figures[i]->median *= by;
        }
        for (auto& value : c.rounds[i]) {
          value *= by;
        }
      }
    }
    report.earlier = &earlier;
    report.baseline_source = earlier.source;
    summarize_and_compare(report, &earlier);
  }
};

TEST(BenchReports, ThePageOpensWithTheTerminalsVerdict) {
  judged_sample slower(20);
  const auto printed = printed_verdict(slower.report);
  // 5 compared figures of each of the 2 cells, all 20 times worse.
  ASSERT_EQ(printed.size(), 11u);
  EXPECT_EQ(printed[0], "Verdict: 10 regressions against the baseline fast.json (10 figures of 2 "
                        "cells)");
  // The figures of the comparison table's baseline and now columns.
  const auto& judged = *slower.report.summaries[0].versus[0];
  EXPECT_EQ(printed[1],
            "get 1MiB c=4 MiB/s: " + format_figure(figure::mib_per_second, judged.baseline) +
                " → " + format_figure(figure::mib_per_second, judged.current) +
                " (-95.0 %, slower; p <0.001)");
  EXPECT_EQ(
      printed[3],
      "get 1MiB c=4 lat p50: " +
          format_figure(figure::latency_p50_ms, slower.report.summaries[0].versus[2]->baseline) +
          " → " +
          format_figure(figure::latency_p50_ms, slower.report.summaries[0].versus[2]->current) +
          " ms (+1900.0 %, worse; p <0.001)");
  const auto html = html_report(slower.report);
  EXPECT_EQ(page_verdict(html), printed);
  // First on the page: before the first chart.
  EXPECT_LT(html.find("class=\"verdict regressed\""), html.find("<svg"));

  judged_sample faster(1.0 / 20);
  EXPECT_EQ(printed_verdict(faster.report),
            std::vector<std::string>{
                "Verdict: no regressions: 10 figures of 2 cells compared with the baseline "
                "fast.json, every one able to tell a change of 10.0 % (--min-change) from none"});
  EXPECT_EQ(page_verdict(html_report(faster.report)), printed_verdict(faster.report));

  sample_report alone;
  EXPECT_EQ(printed_verdict(alone.report),
            std::vector<std::string>{
                "Verdict: none, there was no baseline to compare with (--baseline FILE)"});
  EXPECT_EQ(page_verdict(html_report(alone.report)), printed_verdict(alone.report));
}

TEST(BenchReports, AFigureNotJudgedIsInTheVerdictWithWhy) {
  judged_sample failed(1);
  for (auto& c : failed.earlier.cells) {
    c.rounds[static_cast<std::size_t>(figure::mib_per_second)].clear();
  }
  summarize_and_compare(failed.report, &failed.earlier);
  const auto printed = printed_verdict(failed.report);
  // The other 8 figures are the baseline's own rounds again, 2 a side about 2 % apart: too few
  // to see a change of 10 %, so they could not tell either, and are listed after.
  ASSERT_EQ(printed.size(), 12u);
  EXPECT_EQ(printed[0], "Verdict: not judged, so the bench does not pass: 2 of 10 figures of 2 "
                        "cells compared with the baseline fast.json could not be judged; 8 "
                        "figures could not tell");
  EXPECT_EQ(printed[1], "get 1MiB c=4 MiB/s: not judged: the baseline has no value (every "
                        "operation of the cell failed)");
  EXPECT_TRUE(printed[3].starts_with("the smallest change these rounds could detect: "))
      << printed[3];
  EXPECT_EQ(page_verdict(html_report(failed.report)), printed);
  EXPECT_EQ(bench_exit_status(failed.report), 1);
}

/// The rounds of `f` in every cell of the baseline made this run's own: no change, and with 2
/// rounds a side about 2 % apart, too weak to see one of 10 %.
void same_as_this_run(judged_sample& sample, figure f) {
  const auto index = static_cast<std::size_t>(f);
  for (std::size_t c = 0; c < sample.earlier.cells.size(); ++c) {
    sample.earlier.cells[c].rounds[index] = sample.report.summaries[c].rounds[index];
  }
  summarize_and_compare(sample.report, &sample.earlier);
}

TEST(BenchReports, OneFigureThatCouldNotTellAmongJudgedOnesIsInconclusive) {
  // Every figure 20 times better in this run (flagged: told), but one; no operation failed.
  judged_sample sample(1.0 / 20);
  for (auto& run : sample.report.runs) {
    run.values[static_cast<std::size_t>(figure::errors)] = 0;
  }
  summarize_and_compare(sample.report, &sample.earlier);
  ASSERT_EQ(bench_exit_status(sample.report), 0);
  same_as_this_run(sample, figure::latency_p99_ms);
  const auto& weak =
      *sample.report.summaries[0].versus[static_cast<std::size_t>(figure::latency_p99_ms)];
  ASSERT_TRUE(weak.judged);
  ASSERT_FALSE(weak.conclusive);
  ASSERT_TRUE(weak.rounds_needed);
  const auto printed = printed_verdict(sample.report);
  ASSERT_EQ(printed.size(), 4u);
  EXPECT_EQ(printed[0], "Verdict: inconclusive, so the bench does not pass: 2 of 10 figures of 2 "
                        "cells compared with the baseline fast.json could not tell a change of "
                        "10.0 % (--min-change) from none");
  EXPECT_EQ(printed[1], "the smallest change these rounds could detect: -" +
                            format_percent(weak.detectable_drop_percent, false) + "/+" +
                            format_percent(weak.detectable_rise_percent, false) +
                            " % (get 1MiB c=4 lat p99, 2/2 rounds); " +
                            std::to_string(*weak.rounds_needed) +
                            " rounds on each side (this run and a baseline measured the same "
                            "way) would bring every figure under 10.0 % at this noise");
  EXPECT_TRUE(printed[2].starts_with("get 1MiB c=4 lat p99: cannot tell: detectable -"))
      << printed[2];
  EXPECT_EQ(bench_exit_status(sample.report), 1);
  const auto html = html_report(sample.report);
  EXPECT_EQ(page_verdict(html), printed);
  EXPECT_NE(html.find("class=\"verdict inconclusive\""), std::string::npos);
  // In the files: the verdict, the figures that could not tell and the rounds they need.
  const auto document = nlohmann::json::parse(json_report(sample.report));
  EXPECT_EQ(document["verdict"]["outcome"], "inconclusive");
  EXPECT_EQ(document["verdict"]["headline"], printed[0]);
  ASSERT_EQ(document["inconclusive"].size(), 2u);
  EXPECT_EQ(document["inconclusive"][0]["figure"], "get 1MiB c=4 lat p99");
  EXPECT_EQ(document["inconclusive"][0]["rounds_needed"], *weak.rounds_needed);
  EXPECT_EQ(document["cells"][0]["versus"]["latency_p99_ms"]["change"], "cannot tell");
  EXPECT_EQ(document["cells"][0]["versus"]["mib_per_second"]["change"], "faster");
  const auto csv = csv_report(sample.report);
  EXPECT_NE(csv.find(",cannot tell," + std::to_string(*weak.rounds_needed) + ","),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",baseline fast.json,inconclusive,"), std::string::npos) << csv;

  // Allowed: the same verdict, named as passed with the option, and exit 0.
  sample.settings.allow_inconclusive = true;
  EXPECT_TRUE(printed_verdict(sample.report)[0].starts_with(
      "Verdict: inconclusive, passed with --allow-inconclusive: 2 of 10 figures"));
  EXPECT_EQ(bench_exit_status(sample.report), 0);
}

TEST(BenchReports, AfterAnInterruptionTheReportsSayTheRoundsThatRan) {
  sample_report sample;
  EXPECT_EQ(rounds_text(sample.report), "2 rounds");
  EXPECT_EQ(medians_heading(sample.report), "Medians of 2 runs per cell");
  // Ctrl-C after round 1: the runs of round 2 never happened.
  std::erase_if(sample.report.runs, [](const run_result& run) { return run.round == 2; });
  sample.report.interrupted = true;
  sample.report.summaries = summarize_cells(sample.report.cells, 1, sample.report.runs);
  EXPECT_EQ(rounds_text(sample.report), "1 of 2 rounds ran");
  const std::string heading = "Figures of 1 run per cell (1 of 2 rounds ran, interrupted)";
  EXPECT_EQ(medians_heading(sample.report), heading);
  std::ostringstream printed;
  print_summary(printed, sample.report);
  EXPECT_NE(printed.str().find("\n" + heading + "; throughput"), std::string::npos)
      << printed.str();
  const auto html = html_report(sample.report);
  EXPECT_NE(html.find("<h2 class=\"medians-heading\">" + heading + "</h2>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"rounds\">1 of 2 rounds ran</span>"), std::string::npos);
  EXPECT_EQ(html.find("Medians of 2"), std::string::npos);
  // The run in progress when the signal came was cut short: said, and kept in the JSON.
  sample.report.runs.back().cut_short = true;
  EXPECT_EQ(medians_heading(sample.report),
            "Figures of 1 run per cell (1 of 2 rounds ran, 1 run cut short, interrupted)");
  const auto runs = nlohmann::json::parse(json_report(sample.report))["runs"];
  EXPECT_EQ(runs.back().value("cut_short", false), true);
  EXPECT_EQ(runs.front().contains("cut_short"), false);
  std::string why;
  EXPECT_TRUE(read_run_record(runs.back(), {""}, why)->cut_short) << why;
  // Cut off within round 1: the cells differ.
  sample.report.runs.pop_back();
  sample.report.summaries = summarize_cells(sample.report.cells, 1, sample.report.runs);
  EXPECT_EQ(rounds_text(sample.report), "1 of 2 rounds ran for 1 cell, none for 1 cell");
  EXPECT_EQ(medians_heading(sample.report),
            "Figures of 0 to 1 run per cell (1 of 2 rounds ran for 1 cell, none for 1 cell, "
            "interrupted)");
}

TEST(BenchReports, EachSizeHasItsOwnChartsWithALogAxisWhereTheSpreadNeedsIt) {
  judged_sample slower(20);
  const auto html = html_report(slower.report);
  // get and put of one size: one throughput and one latency chart each.
  EXPECT_EQ(occurrences(html, "class=\"chart throughput\""), 2u);
  EXPECT_EQ(occurrences(html, "class=\"chart latency\""), 2u);
  // A baseline 20 times faster is 20 times this run's medians: a log axis, said in the title.
  EXPECT_EQ(occurrences(html, "data-scale=\"log\""), 4u);
  EXPECT_NE(html.find("get 1MiB: throughput (log scale)"), std::string::npos);
  // Without a baseline the sample's medians lie within a few percent: linear.
  sample_report alone;
  EXPECT_EQ(occurrences(html_report(alone.report), "data-scale=\"linear\""), 4u);

  // Two sizes: a chart of each kind per operation and size.
  sample_report sized;
  sized.settings.sizes = {1 << 20, 10 << 20};
  sized.report.cells = plan_cells(sized.settings);
  sized.report.summaries = summarize_cells(sized.report.cells, 1, {});
  const auto two = html_report(sized.report);
  EXPECT_EQ(occurrences(two, "class=\"chart throughput\""), 4u);
  EXPECT_NE(two.find("data-operation=\"put\" data-size=\"10MiB\""), std::string::npos);
}

TEST(BenchReports, BaselineBarsAndNoiseBandsAreDrawn) {
  judged_sample slower(20);
  for (auto& c : slower.earlier.cells) {
    c.noise_percent[static_cast<std::size_t>(figure::mib_per_second)] = 8.0;
  }
  summarize_and_compare(slower.report, &slower.earlier);
  const auto html = html_report(slower.report);
  // One band per cell around the baseline's throughput (the only figure with a band here).
  EXPECT_EQ(occurrences(html, "class=\"noise-band\""), 2u);
  EXPECT_NE(html.find("control noise band ±8.0 % around the baseline"), std::string::npos);
  // Every baseline bar is at least a few pixels tall and wide, with a solid outline.
  std::size_t bars = 0;
  for (auto at = html.find("<rect class=\"baseline-mark\""); at != std::string::npos;
       at = html.find("<rect class=\"baseline-mark\"", at + 1), ++bars) {
    const auto bar = html.substr(at, html.find('>', at) - at);
    EXPECT_GE(std::stod(bar.substr(bar.find("height=\"") + 8)), 3.0) << bar;
    EXPECT_GE(std::stod(bar.substr(bar.find("width=\"") + 7)), 5.0) << bar;
    EXPECT_NE(bar.find("stroke-width=\"2\""), std::string::npos) << bar;
    EXPECT_EQ(bar.find("dasharray"), std::string::npos) << bar;
  }
  EXPECT_EQ(bars, 6u); // p50, p90 and p99 of 2 cells
}

TEST(BenchReports, AnUnknownBaselineOperationComesWithTheNearest) {
  std::string error;
  EXPECT_FALSE(parse_baseline(
      "{\"cells\": [{\"operation\": \"get-part\", \"size_bytes\": 1, \"concurrency\": 1}]}",
      "x.json", error));
  EXPECT_EQ(error, "x.json: cells[0]: operation 'get-part' is unknown (nearest: get-parts; "
                   "known: put, get, get-parts, get-ranges, list, delete, put-multipart, mix)");
  EXPECT_FALSE(
      parse_baseline("operation,size_bytes,concurrency\nget,10,4\ndelet,10,4\n", "x.csv", error));
  EXPECT_EQ(error, "x.csv: line 3: operation 'delet' is unknown (nearest: delete; known: put, "
                   "get, get-parts, get-ranges, list, delete, put-multipart, mix)");
}

TEST(BenchReports, BadBaselinesAreRefusedWithWhere) {
  std::string error;
  EXPECT_FALSE(parse_baseline("", "x.csv", error));
  EXPECT_EQ(error, "x.csv: empty");
  EXPECT_FALSE(parse_baseline("a,b\n1,2\n", "x.csv", error));
  EXPECT_NE(error.find("line 1: no \"operation\" column"), std::string::npos) << error;
  EXPECT_FALSE(
      parse_baseline("operation,size_bytes,concurrency\nget,10,4\nfly,10,4\n", "x.csv", error));
  EXPECT_NE(error.find("x.csv: line 3"), std::string::npos) << error;
  EXPECT_FALSE(parse_baseline("{\"cells\": [{\"operation\": \"get\"}]}", "x.json", error));
  EXPECT_NE(error.find("x.json: cells[0]: needs operation, size_bytes and concurrency"),
            std::string::npos)
      << error;
  EXPECT_FALSE(parse_baseline("{\"runs\": []}", "x.json", error));
  EXPECT_NE(error.find("no \"cells\" array"), std::string::npos) << error;
  std::string missing;
  EXPECT_FALSE(load_baseline("/nonexistent/base.csv", missing));
  EXPECT_EQ(missing, "/nonexistent/base.csv: cannot be read");
}

} // namespace
} // namespace s3fault::bench
