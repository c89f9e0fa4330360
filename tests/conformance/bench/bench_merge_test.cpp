// bench merge on shards' reports made here with known samples: the merge equals one process
// that recorded every sample (counts summed, percentiles of all samples, rates over the whole
// window), and every refusal names what is wrong.
#include "conformance/bench/bench_merge.hpp"

#include "conformance/bench/bench_reports.hpp"
#include "conformance/bench/bench_schedule.hpp"
#include "text/markup.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <random>

namespace s3fault::bench {
namespace {

using namespace std::chrono_literals;

constexpr std::int64_t start_us = 1'800'000'000'000'000; // 2027-01-15, an arbitrary instant

/// Samples a shard's run recorded, and the histogram of all shards' samples.
struct samples {
  metrics::latency_histogram all_latency, all_ttfb;
};

/// One shard's report: 2 rounds of get 1MiB c=12 on each of `stores`, each run with samples
/// drawn from `seed` (store i's latencies i + 1 times store 0's), started at `offset_us` after
/// the common start (each run 3 s long, paced slots of 5.3 s).
struct shard_report {
  bench_settings settings;
  bench_report report;

  shard_report(unsigned k, unsigned n, samples& all, std::int64_t offset_us = 0,
               std::uint64_t size = 1 << 20, std::vector<std::string> stores = {""}) {
    settings.operations = {operation::named("get")};
    settings.sizes = {size};
    settings.concurrencies = {12};
    settings.duration = 3s;
    settings.rounds = 2;
    settings.shard = {k, n, "--shard " + std::to_string(k) + "/" + std::to_string(n)};
    settings.start_at = from_unix_micros(start_us);
    settings.stores.clear();
    for (const auto& name : stores) {
      settings.stores.push_back({name, {}, {}});
      report.stores.push_back({name, "http://127.0.0.1:1", "b" + std::to_string(k)});
    }
    report.settings = &settings;
    report.started_at = "2027-01-15T08:00:00.000Z";
    report.paced = true;
    report.clock_offset = std::chrono::milliseconds(100 * k);
    report.cells = plan_cells(settings);
    std::mt19937_64 engine(k * 1000 + size);
    for (unsigned round = 1; round <= 2; ++round) {
      for (std::size_t store = 0; store < stores.size(); ++store) {
        add_run(k, round, store, offset_us, all, engine);
      }
    }
    report.summaries = summarize_cells(report.cells, stores.size(), report.runs);
  }

  void add_run(unsigned k, unsigned round, std::size_t store, std::int64_t offset_us, samples& all,
               std::mt19937_64& engine) {
    std::lognormal_distribution<double> latency(std::log(4000.0 * k * (store + 1)), 0.8);
    metrics::latency_histogram lat, ttfb;
    run_result run;
    run.measured = report.cells[0];
    run.store = store;
    run.round = round;
    run.workers = static_cast<unsigned>(runtime::share_of(12, settings.shard));
    for (int i = 0; i < 1000 * static_cast<int>(k); ++i) {
      const auto v = static_cast<std::uint64_t>(latency(engine));
      lat.record(v);
      ttfb.record(v / 8);
      if (store == 0) {
        all.all_latency.record(v);
        all.all_ttfb.record(v / 8);
      }
    }
    run.counts.succeeded = lat.count() / (store + 1);
    run.counts.bytes = run.counts.succeeded * (1 << 20);
    run.counts.errors = k - 1;
    run.counts.retries = k;
    run.counts.latency = lat.nonzero_buckets();
    run.counts.latency_sum_us = lat.sum_micros();
    run.counts.latency_max_us = lat.max_micros();
    run.counts.ttfb = ttfb.nonzero_buckets();
    run.counts.ttfb_sum_us = ttfb.sum_micros();
    run.counts.ttfb_max_us = ttfb.max_micros();
    const auto slot = static_cast<std::int64_t>((round - 1) * report.stores.size() + store);
    run.started_unix_us = start_us + slot * 5'300'000 + offset_us + k * 1000;
    run.ended_unix_us = run.started_unix_us + 3'000'000 - k * 2000;
    run.seconds = static_cast<double>(run.ended_unix_us - run.started_unix_us) / 1e6;
    run.values = figures_from(run.counts, operation::named("get"), run.workers, run.seconds);
    report.runs.push_back(run);
  }

  part_file file() const {
    return {"part-" + std::to_string(settings.shard.index) + ".json", json_report(report)};
  }
};

std::string refusals_of(const merge_outcome& outcome) {
  std::string text;
  for (const auto& refusal : outcome.refusals) {
    text += refusal + "\n";
  }
  return text;
}

TEST(BenchMerge, EqualsOneProcessThatRecordedEverySample) {
  samples all;
  shard_report one(1, 3, all), two(2, 3, all), three(3, 3, all);
  const auto outcome = merge_bench_parts({three.file(), one.file(), two.file()}, nullptr);
  ASSERT_TRUE(outcome.merged) << refusals_of(outcome);
  const auto& report = outcome.merged->report;
  EXPECT_EQ(report.shards, 3u);
  ASSERT_EQ(report.runs.size(), 2u);
  const auto& run = report.runs[1];
  EXPECT_EQ(run.workers, 12u);
  EXPECT_EQ(run.measured.concurrency, 12u);
  EXPECT_EQ(run.counts.succeeded, 6000u);
  EXPECT_EQ(run.counts.errors, 0u + 1u + 2u);
  EXPECT_EQ(run.counts.retries, 1u + 2u + 3u);
  // The window: shard 1's start (+1 ms) to shard 1's end (3 s - 2 ms after its start).
  EXPECT_EQ(run.started_unix_us, start_us + 5'300'000 + 1000);
  EXPECT_EQ(run.ended_unix_us, start_us + 5'300'000 + 1000 + 3'000'000 - 2000);
  const double seconds = (3'000'000.0 - 2000) / 1e6;
  const auto value = [&](figure f) { return run.values[static_cast<std::size_t>(f)].value(); };
  EXPECT_DOUBLE_EQ(value(figure::ops_per_second), round_to(6000 / seconds, 1));
  EXPECT_DOUBLE_EQ(value(figure::mib_per_second), round_to(6000 / seconds, 2));
  // Both rounds' samples are in `all`; each round drew from the same distributions, so compare
  // a round's merged histogram with the sum of that round's parts instead.
  metrics::latency_histogram round_two;
  for (const auto* part : {&one, &two, &three}) {
    const auto& counts = part->report.runs[1].counts;
    round_two.add_buckets(counts.latency, counts.latency_sum_us, counts.latency_max_us);
  }
  EXPECT_DOUBLE_EQ(value(figure::latency_p50_ms),
                   round_to(static_cast<double>(round_two.quantile(0.5)) / 1000, 3));
  EXPECT_DOUBLE_EQ(value(figure::latency_p99_ms),
                   round_to(static_cast<double>(round_two.quantile(0.99)) / 1000, 3));
  EXPECT_EQ(run.counts.latency_max_us, round_two.max_micros());
  // Summed over both rounds, the merged buckets are every sample's.
  metrics::latency_histogram both_rounds;
  for (const auto& merged_run : report.runs) {
    both_rounds.add_buckets(merged_run.counts.latency, merged_run.counts.latency_sum_us,
                            merged_run.counts.latency_max_us);
  }
  EXPECT_EQ(both_rounds.nonzero_buckets(), all.all_latency.nonzero_buckets());
  EXPECT_EQ(both_rounds.sum_micros(), all.all_latency.sum_micros());
}

TEST(BenchMerge, TheMergedJsonSaysShardsAndCanBeReadAsABaseline) {
  samples all;
  shard_report one(1, 2, all), two(2, 2, all);
  const auto outcome = merge_bench_parts({one.file(), two.file()}, nullptr);
  ASSERT_TRUE(outcome.merged) << refusals_of(outcome);
  const auto document = nlohmann::json::parse(json_report(outcome.merged->report));
  EXPECT_EQ(document["shards"], 2);
  EXPECT_FALSE(document.contains("shard"));
  EXPECT_EQ(document["parts"].size(), 2u);
  EXPECT_EQ(document["parts"][1]["shard"], "2/2");
  EXPECT_EQ(document["cells"][0]["concurrency"], 12);
  EXPECT_EQ(document["runs"][0]["workers"], 12);
  std::string error;
  const auto earlier = parse_baseline(json_report(outcome.merged->report), "merged.json", error);
  ASSERT_TRUE(earlier) << error;
  EXPECT_EQ(earlier->cells.size(), 1u);
}

/// A part as versions before counts were whole numbers wrote it: every count figure (no
/// decimals) of its cells and runs, and its runs' counts, as floats ("operations": 1816.0).
part_file with_counts_as_floats(const part_file& part) {
  auto document = nlohmann::json::parse(part.text);
  const auto as_float = [](nlohmann::json& value) { value = value.get<double>() + 0.0; };
  for (std::size_t i = 0; i < figure_count; ++i) {
    const std::string key(info(figure_at(i)).key);
    if (info(figure_at(i)).decimals != 0) {
      continue;
    }
    for (auto& cell : document["cells"]) {
      if (cell["figures"].contains(key)) {
        for (const auto* column : {"median", "min", "max"}) {
          as_float(cell["figures"][key][column]);
        }
      }
    }
    for (auto& run : document["runs"]) {
      if (run["figures"].contains(key)) {
        as_float(run["figures"][key]);
      }
    }
  }
  for (auto& run : document["runs"]) {
    for (const auto* count : {"succeeded", "errors", "retries", "bytes"}) {
      as_float(run["counts"][count]);
    }
  }
  return {part.file, document.dump()};
}

TEST(BenchMerge, PartsWithCountsWrittenAsFloatsMergeAndTheMergeWritesWholeNumbers) {
  samples all;
  shard_report one(1, 2, all), two(2, 2, all);
  const auto old_one = with_counts_as_floats(one.file());
  ASSERT_NE(old_one.text.find("\"operations\":1000.0"), std::string::npos) << old_one.text;
  const auto outcome = merge_bench_parts({old_one, with_counts_as_floats(two.file())}, nullptr);
  ASSERT_TRUE(outcome.merged) << refusals_of(outcome);
  const auto as_now = merge_bench_parts({one.file(), two.file()}, nullptr);
  ASSERT_TRUE(as_now.merged) << refusals_of(as_now);
  const auto& run = outcome.merged->report.runs[0];
  EXPECT_EQ(run.counts.succeeded, 3000u);
  EXPECT_EQ(run.counts.errors, 1u);
  EXPECT_EQ(run.values, as_now.merged->report.runs[0].values);
  // Written again, the merged report's counts are whole numbers.
  const auto merged = nlohmann::json::parse(json_report(outcome.merged->report));
  for (const auto* key : {"operations", "errors", "retries"}) {
    EXPECT_TRUE(merged["runs"][0]["figures"][key].is_number_integer())
        << key << ": " << merged["runs"][0]["figures"][key];
    EXPECT_TRUE(merged["cells"][0]["figures"][key]["median"].is_number_integer())
        << key << ": " << merged["cells"][0]["figures"][key];
  }
  EXPECT_EQ(merged["cells"][0]["figures"]["operations"]["median"], 3000);
}

TEST(BenchMerge, TheMergedPageSaysItWasMergedAndFromWhichShards) {
  // The terminal said "3 shards of ..."; the page did not say it was merged at all.
  samples all;
  shard_report one(1, 3, all), two(2, 3, all), three(3, 3, all);
  const auto outcome = merge_bench_parts({three.file(), one.file(), two.file()}, nullptr);
  ASSERT_TRUE(outcome.merged) << refusals_of(outcome);
  const auto page = html_report(outcome.merged->report);
  const auto merged_at = page.find("<section class=\"merged\" data-shards=\"3\">");
  ASSERT_NE(merged_at, std::string::npos) << page;
  const auto section = page.substr(merged_at, page.find("</section>", merged_at) - merged_at);
  EXPECT_NE(section.find("Merged by s3fault bench merge from 3 shards"), std::string::npos)
      << section;
  // Each shard by its number and file, in shard order, then how the figures were put together.
  std::size_t at = 0;
  for (const auto* shard : {"1/3", "2/3", "3/3"}) {
    const std::string file = std::string("part-") + shard[0] + ".json";
    const auto item = section.find(std::string("<li data-shard=\"") + shard + "\">shard " + shard +
                                   " (--shard " + shard + "): " + file);
    EXPECT_NE(item, std::string::npos) << shard << " in " << section;
    EXPECT_GT(item, at) << shard;
    at = item;
  }
  for (const auto& note : outcome.merged->report.notes) {
    EXPECT_NE(section.find(text::escape_html(note)), std::string::npos) << note;
  }
  EXPECT_NE(page.find("; merged from 3 shards (rates over each run's whole window)"),
            std::string::npos)
      << "the medians' caption, as in the terminal";
  // A shard's own page says whose share it is, and an unsharded page says neither.
  const auto shard_page = html_report(one.report);
  EXPECT_EQ(shard_page.find("class=\"merged\""), std::string::npos);
  EXPECT_NE(shard_page.find("; shard 1/3: this process's share of each cell's clients only"),
            std::string::npos);
}

TEST(BenchMerge, RefusesPartsRunWithOtherSettings) {
  samples all;
  shard_report one(1, 2, all), two(2, 2, all, 0, 4096);
  const auto outcome = merge_bench_parts({one.file(), two.file()}, nullptr);
  EXPECT_FALSE(outcome.merged);
  EXPECT_NE(refusals_of(outcome).find("the parts were run with different --sizes: part-1.json "
                                      "has [1048576], part-2.json has [4096]"),
            std::string::npos)
      << refusals_of(outcome);
}

TEST(BenchMerge, RefusesMissingTwiceAndMismatchedShards) {
  samples all;
  shard_report one(1, 3, all), three(3, 3, all), other(2, 2, all);
  EXPECT_EQ(refusals_of(merge_bench_parts({one.file(), three.file()}, nullptr)),
            "shard 2/3 is missing\n");
  auto again = one.file();
  again.file = "copy.json";
  EXPECT_NE(refusals_of(merge_bench_parts({one.file(), again, three.file()}, nullptr))
                .find("shard 1/3 is there twice: part-1.json and copy.json"),
            std::string::npos);
  EXPECT_NE(refusals_of(merge_bench_parts({one.file(), other.file()}, nullptr))
                .find("the parts are shards of different wholes: part-1.json is shard 1/3, "
                      "part-2.json is shard 2/2"),
            std::string::npos);
  EXPECT_EQ(refusals_of(merge_bench_parts({}, nullptr)),
            "no parts given: name each shard's --json report\n");
}

TEST(BenchMerge, RefusesReportsItCannotRead) {
  samples all;
  shard_report one(1, 2, all);
  auto old = nlohmann::json::parse(json_report(one.report));
  old.erase("format");
  auto unsharded = nlohmann::json::parse(json_report(one.report));
  unsharded.erase("shard");
  auto no_counts = nlohmann::json::parse(json_report(one.report));
  no_counts["runs"][0].erase("counts");
  const auto refusal = [](const std::string& text) {
    return refusals_of(merge_bench_parts({{"p.json", text}}, nullptr));
  };
  EXPECT_NE(refusal(old.dump()).find("p.json: a report without \"format\""), std::string::npos);
  EXPECT_NE(refusal(unsharded.dump()).find("p.json: not a shard's report"), std::string::npos);
  EXPECT_NE(refusal(no_counts.dump()).find("p.json: a run: \"counts\" is missing"),
            std::string::npos);
  auto wrong_type = nlohmann::json::parse(json_report(one.report));
  wrong_type["started_at"] = 5;
  shard_report two(2, 2, all);
  EXPECT_NE(refusals_of(merge_bench_parts({{"p.json", wrong_type.dump()}, two.file()}, nullptr))
                .find("a part holds a field of an unexpected type"),
            std::string::npos);
  EXPECT_EQ(refusal("{"), "p.json: not JSON\n");
  EXPECT_EQ(refusal("{\"tool\": \"s3fault gate\"}"), "p.json: not an s3fault bench JSON report\n");
}

TEST(BenchMerge, RefusesClocksMoreThanTwoSecondsApart) {
  samples all;
  shard_report one(1, 2, all), two(2, 2, all);
  two.report.clock_offset = std::chrono::milliseconds(-2500); // one: +100 ms
  const auto outcome = merge_bench_parts({one.file(), two.file()}, nullptr);
  EXPECT_FALSE(outcome.merged);
  EXPECT_NE(refusals_of(outcome).find("the shards' clocks disagree by 2.600 s (the store's Date "
                                      "minus each shard's clock: part-1.json +0.100 s, "
                                      "part-2.json -2.500 s)"),
            std::string::npos)
      << refusals_of(outcome);
  two.report.clock_offset = std::chrono::milliseconds(-1800);
  EXPECT_TRUE(merge_bench_parts({one.file(), two.file()}, nullptr).merged);
}

TEST(BenchMerge, RefusesPacedRunsThatDidNotOverlap) {
  samples all;
  shard_report one(1, 2, all), two(2, 2, all, 400'000); // 0.4 s of 3 s late: 76 % together
  const auto outcome = merge_bench_parts({one.file(), two.file()}, nullptr);
  EXPECT_FALSE(outcome.merged);
  EXPECT_NE(refusals_of(outcome).find("get 1MiB c=12 round 1: the shards ran it 76 % together, "
                                      "less than 90 %"),
            std::string::npos)
      << refusals_of(outcome);
  shard_report late_but_close(2, 2, all, 100'000); // 94 %
  EXPECT_TRUE(merge_bench_parts({one.file(), late_but_close.file()}, nullptr).merged);
}

TEST(BenchMerge, UnpacedRunsAreMergedAndSaidToBe) {
  samples all;
  shard_report one(1, 2, all), two(2, 2, all, 2'000'000);
  one.report.paced = false;
  two.report.paced = false;
  const auto outcome = merge_bench_parts({one.file(), two.file()}, nullptr);
  ASSERT_TRUE(outcome.merged) << refusals_of(outcome);
  std::string notes;
  for (const auto& note : outcome.merged->report.notes) {
    notes += note + "\n";
  }
  EXPECT_NE(notes.find("the runs were not paced"), std::string::npos) << notes;
  // The window runs from shard 1's start to shard 2's end, 2 s later than shard 1's.
  const auto& run = outcome.merged->report.runs[0];
  EXPECT_EQ(run.ended_unix_us - run.started_unix_us, 2'000'000 + 2000 + 3'000'000 - 4000 - 1000);
}

TEST(BenchMerge, TheStoresOfABenchMergeStoreByStoreAndAreComparedWithTheFirst) {
  samples all;
  const std::vector<std::string> stores{"minio", "garage"};
  shard_report one(1, 2, all, 0, 1 << 20, stores), two(2, 2, all, 0, 1 << 20, stores);
  const auto outcome = merge_bench_parts({two.file(), one.file()}, nullptr);
  ASSERT_TRUE(outcome.merged) << refusals_of(outcome);
  const auto& report = outcome.merged->report;
  ASSERT_EQ(report.stores.size(), 2u);
  EXPECT_EQ(report.stores[1].name, "garage");
  EXPECT_EQ(report.reference, reference_kind::store);
  ASSERT_EQ(report.runs.size(), 4u);
  // Each merged run is its store's runs of both shards, never another store's.
  for (const auto& run : report.runs) {
    std::uint64_t succeeded = 0;
    for (const auto* part : {&one, &two}) {
      for (const auto& shard_run : part->report.runs) {
        if (shard_run.store == run.store && shard_run.round == run.round) {
          succeeded += shard_run.counts.succeeded;
        }
      }
    }
    EXPECT_EQ(run.counts.succeeded, succeeded) << run.store << " round " << run.round;
  }
  // One summary per cell and store; garage judged against minio.
  ASSERT_EQ(report.summaries.size(), 2u);
  EXPECT_FALSE(report.summaries[0].versus[0]);
  ASSERT_TRUE(report.summaries[1].versus[0]);
  EXPECT_EQ(report.summaries[1].versus[0]->current_rounds, 2u);
  // The merged JSON names the stores, cell by cell and run by run.
  const auto document = nlohmann::json::parse(json_report(report));
  EXPECT_EQ(document["cells"][1]["store"], "garage");
  EXPECT_EQ(document["runs"][1]["store"], "garage");
  EXPECT_EQ(document["reference"]["name"], "minio");

  // A baseline is for one store: with several, refused.
  baseline earlier;
  earlier.source = "base.json";
  EXPECT_NE(refusals_of(merge_bench_parts({one.file(), two.file()}, &earlier))
                .find("--baseline with parts of several stores"),
            std::string::npos);

  // Parts of other stores are not one bench.
  shard_report other(2, 2, all, 0, 1 << 20, {"minio", "rustfs"});
  EXPECT_NE(refusals_of(merge_bench_parts({one.file(), other.file()}, nullptr))
                .find("the parts were run with different --store: part-1.json has minio, "
                      "garage, part-2.json has minio, rustfs"),
            std::string::npos);
}

TEST(RunSchedule, GivesEveryPacedRunItsSlot) {
  bench_settings settings;
  settings.duration = 3s;
  settings.start_at = from_unix_micros(start_us);
  run_schedule paced(settings);
  EXPECT_TRUE(paced.paced());
  EXPECT_EQ(paced.next(3s), from_unix_micros(start_us));
  EXPECT_EQ(paced.next(3s), from_unix_micros(start_us + 5'300'000)); // 3 s + 2 s + 0.3 s
  EXPECT_EQ(paced.next(1s), from_unix_micros(start_us + 10'600'000));
  EXPECT_EQ(paced.next(3s), from_unix_micros(start_us + 13'700'000));
  settings.count = 100;
  run_schedule counted(settings);
  EXPECT_FALSE(counted.paced());
  EXPECT_EQ(counted.next(3s), from_unix_micros(start_us));
  EXPECT_EQ(counted.next(3s), std::nullopt);
  settings.start_at.reset();
  run_schedule unscheduled(settings);
  EXPECT_EQ(unscheduled.next(3s), std::nullopt);
}

} // namespace
} // namespace s3fault::bench
