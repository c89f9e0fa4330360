// Figures print with fixed decimals and never as "-0"; sizes print in their exact unit;
// operations and settings are checked with messages that name the option.
#include "conformance/bench/bench_figures.hpp"
#include "conformance/bench/bench_settings.hpp"

#include <gtest/gtest.h>

namespace s3fault::bench {
namespace {

TEST(BenchFigures, PrintWithTheFigureDecimals) {
  EXPECT_EQ(format_figure(figure::mib_per_second, 1234.5), "1234.50");
  EXPECT_EQ(format_figure(figure::mib_per_second, 1234.567), "1234.57");
  EXPECT_EQ(format_figure(figure::ops_per_second, 99.95), "100.0");
  EXPECT_EQ(format_figure(figure::latency_p99_ms, 12.3456), "12.346");
  EXPECT_EQ(format_figure(figure::errors, 3), "3");
  EXPECT_EQ(format_figure(figure::latency_p50_ms, -0.0001), "0.000");
}

TEST(BenchFigures, PercentsCarryASignOnlyWhenAsked) {
  EXPECT_EQ(format_percent(12.34, true), "+12.3");
  EXPECT_EQ(format_percent(-4.0, true), "-4.0");
  EXPECT_EQ(format_percent(-0.01, true), "+0.0");
  EXPECT_EQ(format_percent(5.05, false), "5.1");
}

TEST(BenchFigures, EveryFigureHasAUniqueKeyFoundByName) {
  for (std::size_t i = 0; i < figure_count; ++i) {
    const auto found = figure_named(info(figure_at(i)).key);
    ASSERT_TRUE(found) << info(figure_at(i)).key;
    EXPECT_EQ(*found, figure_at(i));
  }
  EXPECT_FALSE(figure_named("no_such_figure"));
  EXPECT_EQ(column_title(figure::latency_p99_ms), "lat p99");
  EXPECT_EQ(column_title(figure::ttfb_p50_ms), "ttfb p50");
  EXPECT_EQ(compared_figures().size(), 5u);
}

TEST(BenchSettings, SizesPrintInTheirExactUnit) {
  EXPECT_EQ(format_size(4096), "4KiB");
  EXPECT_EQ(format_size(10 * 1024 * 1024), "10MiB");
  EXPECT_EQ(format_size(1536 * 1024), "1.5MiB");
  EXPECT_EQ(format_size(1000), "1000B");
  EXPECT_EQ(format_size(1024ull * 1024 * 1024 * 2), "2GiB");
  EXPECT_EQ(format_size(1025), "1025B");
}

TEST(BenchSettings, OperationsByName) {
  for (const auto* name :
       {"put", "get", "get-parts", "get-ranges", "list", "delete", "put-multipart", "mix"}) {
    const auto op = parse_operation(name);
    ASSERT_TRUE(op) << name;
    EXPECT_EQ(to_string(*op), name);
  }
  EXPECT_FALSE(parse_operation("GET"));
  EXPECT_FALSE(parse_operation("head"));
}

TEST(BenchSettings, AnUnknownOperationComesWithTheNearest) {
  EXPECT_EQ(operation_choices("gte"), "(nearest: get; known: put, get, get-parts, get-ranges, "
                                      "list, delete, put-multipart, mix)");
  EXPECT_EQ(operation_choices("zzzzzz"),
            "(known: put, get, get-parts, get-ranges, list, delete, put-multipart, mix)");
}

TEST(BenchSettings, CellsRunOperationsThenSizesThenConcurrency) {
  bench_settings settings;
  settings.operations = {operation::named("put"), operation::named("get")};
  settings.sizes = {4096, 1 << 20};
  settings.concurrencies = {1, 8};
  const auto cells = plan_cells(settings);
  ASSERT_EQ(cells.size(), 8u);
  EXPECT_EQ(describe(cells[0]), "put 4KiB c=1");
  EXPECT_EQ(describe(cells[1]), "put 4KiB c=8");
  EXPECT_EQ(describe(cells[2]), "put 1MiB c=1");
  EXPECT_EQ(describe(cells[7]), "get 1MiB c=8");
  // --prefill is the outermost loop: every cell at each stored volume.
  settings.prefill = {0, 1ull << 30};
  const auto swept = plan_cells(settings);
  ASSERT_EQ(swept.size(), 16u);
  EXPECT_EQ(describe(swept[7]), "get 1MiB c=8");
  EXPECT_EQ(describe(swept[8]), "put 4KiB c=1 stored=1GiB");
}

TEST(BenchSettings, ProblemsNameTheOption) {
  bench_settings settings;
  settings.sizes = {0};
  settings.concurrencies = {0};
  settings.rounds = 0;
  settings.objects = 10001;
  settings.part_size = 1024;
  settings.count = 0;
  settings.prefill = {1 << 30, 1 << 20};
  settings.operations = {operation::named("mix")};
  settings.judging.alpha = 0.9;
  const auto problems = validate(settings);
  auto mentions = [&](const std::string& text) {
    for (const auto& problem : problems) {
      if (problem.find(text) != std::string::npos) {
        return true;
      }
    }
    return false;
  };
  EXPECT_TRUE(mentions("--sizes: 0 bytes"));
  EXPECT_TRUE(mentions("--concurrency: 0"));
  EXPECT_TRUE(mentions("--rounds"));
  EXPECT_TRUE(mentions("--objects: 10001"));
  EXPECT_TRUE(mentions("--part-size: 1KiB"));
  EXPECT_TRUE(mentions("--count"));
  EXPECT_TRUE(mentions("--prefill: the stored volumes must grow"));
  EXPECT_TRUE(mentions("--mix: a mix cell needs operations with weights"));
  EXPECT_TRUE(mentions("--alpha: must be above 0 and at most 0.5"));
  EXPECT_TRUE(validate(bench_settings{}).empty());
}

} // namespace
} // namespace s3fault::bench
