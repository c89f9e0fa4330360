// The files of a bench carry the figures the terminal shows, digit for digit, and read back as
// a baseline with the same medians; bad baseline files are refused with the line or entry.
#include "conformance/bench/bench_reports.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <sstream>

namespace s3fault::bench {
namespace {

struct sample_report {
  bench_settings settings;
  bench_report report;

  sample_report() {
    settings.operations = {operation::get, operation::put};
    settings.sizes = {1 << 20};
    settings.concurrencies = {4};
    settings.rounds = 2;
    report.settings = &settings;
    report.endpoint = "http://127.0.0.1:1";
    report.bucket = "b";
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
    report.summaries = summarize_cells(report.cells, report.runs, nullptr);
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
      if (table_line.find("   " + fields[0] + " ") != std::string::npos &&
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

TEST(BenchReports, JsonCarriesEveryRunAndTheFirstError) {
  sample_report sample;
  const auto document = nlohmann::json::parse(json_report(sample.report));
  EXPECT_EQ(document["runs"].size(), 4u);
  EXPECT_EQ(document["cells"][1]["first_error"], "PUT k: 503, \"SlowDown\"");
  EXPECT_EQ(document["cells"][0]["figures"]["mib_per_second"]["median"].get<double>(),
            sample.report.summaries[0].figures[0]->median);
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
  sample.settings.mix = {{operation::get, 70}, {operation::put, 30}};
  sample.settings.verify = false;
  const auto mixed = html_report(sample.report);
  EXPECT_NE(mixed.find("; mix get=70,put=30"), std::string::npos);
  EXPECT_NE(mixed.find("content NOT verified, lengths only (--no-verify)"), std::string::npos);
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
