// `s3fault journal`: journal lines read and checked (cli/journal_lines), the summary's counts and
// exact percentiles (cli/journal_summary), and the HAR made from them (cli/journal_har).
#include "cli/journal_har.hpp"
#include "cli/journal_lines.hpp"
#include "cli/journal_summary.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace {

using nlohmann::json;
using s3fault::cli::har_document;
using s3fault::cli::har_entry;
using s3fault::cli::har_url;
using s3fault::cli::journal_entry;
using s3fault::cli::nearest_rank_percentile;
using s3fault::cli::parse_journal_line;
using s3fault::cli::read_journal_files;
using s3fault::cli::render_summary_table;
using s3fault::cli::summarize_journal;
using s3fault::cli::summary_json;

/// A journal line with every required field; tests change what they look at.
json journal_line(const std::string& operation, int status, double duration_ms) {
  return {{"time", "2026-12-03T14:30:00.123Z"},
          {"client", "127.0.0.1:40112"},
          {"method", "GET"},
          {"target", "/photos/cat.jpg"},
          {"operation", operation},
          {"status", status},
          {"request_bytes", 0},
          {"response_bytes", 100},
          {"duration_ms", duration_ms},
          {"outcome", "ok"},
          {"request_headers", json::array({json::array({"Host", "127.0.0.1:8080"})})}};
}

journal_entry parsed(const json& line) {
  std::string why;
  auto entry = parse_journal_line(line.dump(), why);
  EXPECT_TRUE(entry) << why << " in " << line.dump();
  return entry.value_or(journal_entry{});
}

std::string parse_error(const std::string& text) {
  std::string why;
  EXPECT_FALSE(parse_journal_line(text, why)) << text;
  return why;
}

/// A file under the test's own temporary directory, removed with it.
class JournalFiles : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("s3fault-journal-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write_file(const std::string& name, const std::string& text) {
    const auto path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  std::filesystem::path dir_;
};

// --- lines -------------------------------------------------------------------------------------

TEST(JournalLines, ReadsEveryFieldOfTheDocumentedLine) {
  const auto entry = parsed(json::parse(
      R"({"time":"2026-12-03T14:30:00.123Z","client":"127.0.0.1:40112","method":"GET","target":"/photos/cat.jpg?partNumber=2","operation":"GetObject","bucket":"photos","key":"cat.jpg","part":2,"status":206,"request_bytes":0,"response_bytes":8388608,"ttfb_ms":1.84,"store_ttfb_ms":1.52,"duration_ms":12.5,"outcome":"ok","request_id":"1733236200123-000042","request_headers":[["Host","127.0.0.1:8080"],["Authorization","REDACTED"],["x-amz-date","20261203T143000Z"]]})"));
  EXPECT_EQ(entry.time, "2026-12-03T14:30:00.123Z");
  EXPECT_EQ(entry.operation, "GetObject");
  EXPECT_EQ(entry.status, 206);
  EXPECT_EQ(entry.response_bytes, 8388608u);
  EXPECT_EQ(entry.ttfb_ms, 1.84);
  EXPECT_EQ(entry.store_ttfb_ms, 1.52);
  EXPECT_EQ(entry.duration_ms, 12.5);
  EXPECT_EQ(entry.part, 2u);
  EXPECT_EQ(entry.request_id, "1733236200123-000042");
  ASSERT_EQ(entry.request_headers.size(), 3u);
  EXPECT_EQ(entry.request_headers[1],
            std::make_pair(std::string("Authorization"), std::string("REDACTED")));
  EXPECT_TRUE(entry.faults.empty());
  EXPECT_TRUE(entry.error_code.empty());
}

TEST(JournalLines, EachRequiredFieldIsRequired) {
  for (const char* field : {"time", "method", "target", "operation", "status", "request_bytes",
                            "response_bytes", "duration_ms", "outcome"}) {
    auto line = journal_line("GetObject", 200, 1);
    line.erase(field);
    EXPECT_EQ(parse_error(line.dump()), std::string("missing field \"") + field + "\"");
  }
}

TEST(JournalLines, WrongTypesAndNonJsonAreNamed) {
  auto line = journal_line("GetObject", 200, 1);
  line["status"] = "200";
  EXPECT_EQ(parse_error(line.dump()), "\"status\": must be a whole number from 0 to 999");
  line = journal_line("GetObject", 200, -1);
  EXPECT_EQ(parse_error(line.dump()), "\"duration_ms\": must be a number >= 0");
  line = journal_line("GetObject", 200, 1);
  line["request_headers"] = json::array({"Host"});
  EXPECT_EQ(parse_error(line.dump()),
            "\"request_headers\": must be an array of [name, value] pairs of strings");
  EXPECT_EQ(parse_error("[1, 2]"), "not a JSON object");
  EXPECT_EQ(parse_error("{\"time\":").rfind("not JSON: ", 0), 0u);
}

TEST_F(JournalFiles, ABadLineNamesItsFileAndLine) {
  const auto good = journal_line("GetObject", 200, 1).dump() + "\n";
  auto without_status = journal_line("PutObject", 200, 1);
  without_status.erase("status");
  const auto first = write_file("s3.1.jsonl", good + good);
  // Line 2 is blank (skipped, still counted); line 3 lacks its status.
  const auto second = write_file("s3.jsonl", good + "\n" + without_status.dump() + "\n" + good);
  const auto reading = read_journal_files({first, second});
  EXPECT_EQ(reading.error, second + ":3: missing field \"status\"");
  EXPECT_TRUE(reading.entries.empty());

  const auto garbage = write_file("garbage.jsonl", good + "not json\n");
  EXPECT_EQ(read_journal_files({garbage}).error.rfind(garbage + ":2: not JSON: ", 0), 0u);
}

TEST_F(JournalFiles, FilesAreReadInTheOrderGivenAndBlankLinesSkipped) {
  const auto older = write_file("s3.1.jsonl", journal_line("PutObject", 200, 1).dump() + "\n\n");
  const auto newer = write_file("s3.jsonl", "\n" + journal_line("GetObject", 200, 1).dump());
  const auto reading = read_journal_files({older, newer});
  ASSERT_EQ(reading.error, "");
  ASSERT_EQ(reading.entries.size(), 2u);
  EXPECT_EQ(reading.entries[0].operation, "PutObject");
  EXPECT_EQ(reading.entries[1].operation, "GetObject");
}

TEST_F(JournalFiles, AMissingFileIsAnError) {
  const auto missing = (dir_ / "absent.jsonl").string();
  EXPECT_EQ(read_journal_files({missing}).error,
            "cannot read " + missing + ": No such file or directory");
}

// --- summary -----------------------------------------------------------------------------------

TEST(JournalSummary, NearestRankPercentilesAreValuesOfTheSet) {
  EXPECT_EQ(nearest_rank_percentile({100, 2.5, 1.5}, 50), 2.5);
  EXPECT_EQ(nearest_rank_percentile({100, 2.5, 1.5}, 90), 100);
  EXPECT_EQ(nearest_rank_percentile({7}, 1), 7);
  EXPECT_FALSE(nearest_rank_percentile({}, 50));
}

TEST(JournalSummary, ExactPercentilesAndCountsPerOperationAndClass) {
  std::vector<journal_entry> entries;
  // GetObject 2xx: durations 1..20 in a shuffled order; ttfb on the odd ones only.
  for (int i : {7, 3, 19, 1, 12, 20, 5, 16, 9, 2, 14, 11, 18, 4, 8, 15, 6, 13, 10, 17}) {
    auto line = journal_line("GetObject", 200, i * 1.5);
    if (i % 2 == 1) {
      line["ttfb_ms"] = i * 0.25;
    }
    entries.push_back(parsed(line));
  }
  auto slow_down = journal_line("GetObject", 503, 4);
  slow_down["error_code"] = "SlowDown";
  slow_down["faults"] = "r1:s3-error";
  slow_down["request_bytes"] = 7;
  entries.push_back(parsed(slow_down));
  auto reset = journal_line("PutObject", 0, 30);
  reset["outcome"] = "fault: connection reset";
  entries.push_back(parsed(reset));

  const auto rows = summarize_journal(entries);
  ASSERT_EQ(rows.size(), 4u);
  const auto& ok = rows[0];
  EXPECT_EQ(ok.operation, "GetObject");
  EXPECT_EQ(ok.status_class, "2xx");
  EXPECT_EQ(ok.requests, 20u);
  EXPECT_EQ(ok.errors, 0u);
  EXPECT_EQ(ok.bytes_out, 2000u);
  EXPECT_EQ(ok.duration_p50_ms, 15.0); // rank 10 of 20: 10 * 1.5
  EXPECT_EQ(ok.duration_p90_ms, 27.0); // rank 18: 18 * 1.5
  EXPECT_EQ(ok.duration_p99_ms, 30.0); // rank 20
  EXPECT_EQ(ok.ttfb_p50_ms, 2.25);     // odd 1..19: rank 5 is 9, * 0.25
  EXPECT_EQ(ok.ttfb_p99_ms, 4.75);     // rank 10 is 19
  EXPECT_EQ(rows[1].status_class, "5xx");
  EXPECT_EQ(rows[1].errors, 1u);
  EXPECT_EQ(rows[1].faults, 1u);
  EXPECT_EQ(rows[1].bytes_in, 7u);
  EXPECT_FALSE(rows[1].ttfb_p50_ms);
  EXPECT_EQ(rows[2].operation, "PutObject");
  EXPECT_EQ(rows[2].status_class, "none");
  EXPECT_EQ(rows[2].errors, 1u);
  const auto& all = rows[3];
  EXPECT_EQ(all.operation, "all");
  EXPECT_EQ(all.requests, 22u);
  EXPECT_EQ(all.errors, 2u);
  EXPECT_EQ(all.duration_p50_ms, 15.0); // rank 11 of 22: 1.5, 3, 4 (the 503), 4.5, ... 15
  EXPECT_EQ(all.duration_p99_ms, 30.0);
}

TEST(JournalSummary, AnEmptyJournalIsAHeaderAndAnAllRowOfZeros) {
  const auto rows = summarize_journal({});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(render_summary_table(rows),
            "operation  status  requests  errors  faults  bytes_in  bytes_out  p50_ms  p90_ms  "
            "p99_ms  ttfb_p50_ms  ttfb_p99_ms\n"
            "all        all            0       0       0         0          0       -       -  "
            "     -            -            -\n");
  const json json_rows = summary_json(rows);
  EXPECT_EQ(json_rows[0]["requests"], 0);
  EXPECT_TRUE(json_rows[0]["p50_ms"].is_null());
}

TEST(JournalSummary, JsonCarriesTheTablesFigures) {
  auto line = journal_line("HeadObject", 404, 2.5);
  line["ttfb_ms"] = 1.25;
  const auto rows = summarize_journal({parsed(line)});
  const json json_rows = summary_json(rows);
  ASSERT_EQ(json_rows.size(), 2u);
  EXPECT_EQ(json_rows[0]["operation"], "HeadObject");
  EXPECT_EQ(json_rows[0]["status"], "4xx");
  EXPECT_EQ(json_rows[0]["errors"], 1);
  EXPECT_EQ(json_rows[0]["p90_ms"], 2.5);
  EXPECT_EQ(json_rows[0]["ttfb_p99_ms"], 1.25);
  EXPECT_EQ(json_rows[1]["operation"], "all");
}

// --- HAR ---------------------------------------------------------------------------------------

TEST(JournalHar, UrlComesFromTheHostFieldAndTheTarget) {
  auto line = journal_line("ListObjectsV2", 200, 1);
  line["target"] = "/photos?list-type=2";
  line["request_headers"] = json::array({json::array({"hOsT", "photos.example:9000"})});
  EXPECT_EQ(har_url(parsed(line)), "http://photos.example:9000/photos?list-type=2");
  line["request_headers"] = json::array();
  EXPECT_EQ(har_url(parsed(line)), "http://localhost/photos?list-type=2");
}

TEST(JournalHar, QueryStringIsDecodedAndBareNamesHaveEmptyValues) {
  auto line = journal_line("ListObjectsV2", 200, 1);
  line["target"] = "/b?prefix=a%2Fb%20c&versions&max-keys=5";
  const json entry = har_entry(parsed(line));
  EXPECT_EQ(entry["request"]["queryString"],
            json::parse(R"([{"name":"prefix","value":"a/b c"},{"name":"versions","value":""},
                            {"name":"max-keys","value":"5"}])"));
}

// A journal from before the redaction decoded names (or written by hand) still gives no
// presigned credential to the HAR, whose queryString decodes X%2DAmz%2DSignature to the name.
TEST(JournalHar, PresignedCredentialsAreRedactedAsTheJournalIsRead) {
  auto line = journal_line("GetObject", 200, 1);
  line["target"] = "/b/k?X%2DAmz%2DSignature=deadbeef&X-Amz-Credential=AKID%2F1&partNumber=1";
  const journal_entry read = parsed(line);
  EXPECT_EQ(read.target, "/b/k?X%2DAmz%2DSignature=REDACTED&X-Amz-Credential=REDACTED&"
                         "partNumber=1");
  const json entry = har_entry(read);
  EXPECT_EQ(entry["request"]["queryString"],
            json::parse(R"([{"name":"X-Amz-Signature","value":"REDACTED"},
                            {"name":"X-Amz-Credential","value":"REDACTED"},
                            {"name":"partNumber","value":"1"}])"));
  EXPECT_EQ(entry["request"]["url"].get<std::string>().find("deadbeef"), std::string::npos);
}

TEST(JournalHar, TimingsAddUpToTheEntrysTime) {
  auto line = journal_line("GetObject", 206, 12.5);
  line["ttfb_ms"] = 1.84;
  const json entry = har_entry(parsed(line));
  const auto& timings = entry["timings"];
  EXPECT_EQ(entry["time"], 12.5);
  EXPECT_EQ(timings["send"], 0);
  EXPECT_EQ(timings["wait"], 1.84);
  EXPECT_EQ(timings["receive"], 10.66);
  EXPECT_NEAR(timings["send"].get<double>() + timings["wait"].get<double>() +
                  timings["receive"].get<double>(),
              12.5, 1e-9);
}

TEST(JournalHar, AnExchangeWithoutAStatusIsStatusZeroAndAllWait) {
  auto line = journal_line("PutObject", 0, 30);
  line["outcome"] = "fault: connection reset";
  line["faults"] = "reset-puts:reset";
  line["request_bytes"] = 4096;
  const json entry = har_entry(parsed(line));
  EXPECT_EQ(entry["response"]["status"], 0);
  EXPECT_EQ(entry["response"]["statusText"], "");
  EXPECT_EQ(entry["request"]["bodySize"], 4096);
  EXPECT_EQ(entry["timings"]["wait"], 30.0);
  EXPECT_EQ(entry["timings"]["receive"], 0.0);
  EXPECT_EQ(entry["_s3fault"]["outcome"], "fault: connection reset");
  EXPECT_EQ(entry["_s3fault"]["faults"], "reset-puts:reset");
}

TEST(JournalHar, S3faultFieldsAndResponseFigures) {
  auto line = journal_line("GetObject", 503, 4);
  line["error_code"] = "SlowDown";
  line["request_id"] = "req-7";
  line["bucket"] = "photos";
  line["key"] = "cat.jpg";
  line["part"] = 3;
  line["range"] = "bytes=0-9";
  line["response_bytes"] = 250;
  line["ttfb_ms"] = 2.5;
  line["store_ttfb_ms"] = 1.75;
  const json entry = har_entry(parsed(line));
  EXPECT_EQ(entry["response"]["statusText"], "Service Unavailable");
  EXPECT_EQ(entry["response"]["content"], json::parse(R"({"size":250,"mimeType":""})"));
  EXPECT_EQ(entry["response"]["bodySize"], 250);
  EXPECT_EQ(entry["_s3fault"],
            json::parse(R"({"operation":"GetObject","outcome":"ok","client":"127.0.0.1:40112",
                            "bucket":"photos","key":"cat.jpg","part":3,"range":"bytes=0-9",
                            "error_code":"SlowDown","request_id":"req-7","ttfb_ms":2.5,
                            "store_ttfb_ms":1.75})"));
}

TEST(JournalHar, RedactedHeaderValuesPassThroughUnchanged) {
  auto line = journal_line("GetObject", 200, 1);
  line["request_headers"] =
      json::array({json::array({"Host", "h:1"}), json::array({"Authorization", "REDACTED"}),
                   json::array({"X-Amz-Security-Token", "REDACTED"})});
  line["target"] = "/b/k?X-Amz-Signature=REDACTED";
  const json entry = har_entry(parsed(line));
  EXPECT_EQ(entry["request"]["headers"], json::parse(R"([{"name":"Host","value":"h:1"},
                            {"name":"Authorization","value":"REDACTED"},
                            {"name":"X-Amz-Security-Token","value":"REDACTED"}])"));
  EXPECT_EQ(entry["request"]["url"], "http://h:1/b/k?X-Amz-Signature=REDACTED");
}

TEST(JournalHar, TheResponseHeadIsTheHarResponsesHeadersAndMimeType) {
  auto line = journal_line("GetObject", 200, 1);
  line["response_headers"] = json::array(
      {json::array({"Content-Type", "text/csv"}), json::array({"Set-Cookie", "REDACTED"})});
  const json entry = har_entry(parsed(line));
  EXPECT_EQ(entry["response"]["headers"],
            json::parse(R"([{"name":"Content-Type","value":"text/csv"},
                            {"name":"Set-Cookie","value":"REDACTED"}])"));
  EXPECT_EQ(entry["response"]["content"]["mimeType"], "text/csv");
  line["response_headers"] = json::array({json::array({"Content-Type"})});
  std::string why;
  EXPECT_FALSE(parse_journal_line(line.dump(), why));
  EXPECT_NE(why.find("response_headers"), std::string::npos) << why;
}

TEST(JournalHar, DocumentIsHar12WithTheCreatorGiven) {
  const json document = har_document({parsed(journal_line("GetObject", 200, 1))}, "9.9.9");
  EXPECT_EQ(document["log"]["version"], "1.2");
  EXPECT_EQ(document["log"]["creator"], json::parse(R"({"name":"s3fault","version":"9.9.9"})"));
  ASSERT_EQ(document["log"]["entries"].size(), 1u);
  EXPECT_EQ(document["log"]["entries"][0]["request"]["httpVersion"], "HTTP/1.1");
}

} // namespace
