// ranged: parallel ranged GETs placed at their offsets, each checked; indifferent to the parts
// count, retries transient failures, refuses ranges it did not ask for and a changed object.
#include "tests/conformance/readers/readers_test_support.hpp"

#include <atomic>
#include <filesystem>

namespace s3fault::readers::testing {
namespace {

class RangedReader : public ::testing::Test {
protected:
  void SetUp() override {
    data_ = seeded_bytes(20 * mib, 41);
    store_.put_multipart("object", data_, {5 * mib, 5 * mib, 5 * mib, 5 * mib});
  }

  /// 1 MiB ranges, four threads.
  read_request request(const std::string& endpoint) const {
    auto r = request_for(endpoint, "object", dir_.file("out"));
    r.concurrency = 4;
    r.range_size = mib;
    return r;
  }
  logged_read read_through(const std::vector<std::string>& fault_specs) {
    faulty_proxy proxy(store_.url(), fault_specs);
    return run_reader(read_ranged, request(proxy.url()));
  }
  void expect_whole_object(const logged_read& run) {
    ASSERT_TRUE(run.result.ok) << run.result.error << "\n" << run.log;
    EXPECT_EQ(run.result.bytes_written, data_.size());
    EXPECT_TRUE(file_holds(dir_.file("out"), data_)) << run.log;
  }

  test_store store_;
  scratch_dir dir_;
  std::string data_;
};

TEST_F(RangedReader, FourThreadsOfOneMebibyteRangesWithThePartsCountStripped) {
  const auto run = read_through({"strip-header x-amz-mp-parts-count op=GetObject,HeadObject"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.requests, 21u); // HEAD + 20 ranges
  EXPECT_EQ(run.result.retries, 0u);
  EXPECT_NE(run.log.find("ranged: GET Range bytes=19922944-20971519 -> 206, 1048576 bytes, "
                         "Content-Range bytes 19922944-20971519/20971520"),
            std::string::npos)
      << run.log;
}

TEST_F(RangedReader, AShortLastRangeIsAskedForExactly) {
  auto r = request(store_.url());
  r.range_size = 3 * mib;
  const auto run = run_reader(read_ranged, r);
  expect_whole_object(run);
  EXPECT_EQ(run.result.requests, 8u); // HEAD + 6 full ranges + 2 MiB
  EXPECT_NE(run.log.find("GET Range bytes=18874368-20971519 -> 206"), std::string::npos) << run.log;
}

TEST_F(RangedReader, MoreThreadsThanRangesIsFine) {
  auto r = request(store_.url());
  r.range_size = 16 * mib;
  r.concurrency = 8;
  expect_whole_object(run_reader(read_ranged, r));
}

TEST_F(RangedReader, SlowDownsAreRetried) {
  const auto run = read_through({"error SlowDown op=GetObject first=2"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.retries, 2u);
  EXPECT_EQ(run.result.requests, 23u);
}

TEST_F(RangedReader, AHeadErrorIsRetried) {
  const auto run = read_through({"error InternalError op=HeadObject first=1"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.retries, 1u);
}

TEST_F(RangedReader, CutConnectionsAreRetried) {
  const auto run = read_through({"truncate 50% mode=close op=GetObject first=3"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.retries, 3u);
}

TEST_F(RangedReader, AConsistentlyShortRangeIsNotTheRangeAskedFor) {
  const auto run = read_through({"truncate 50% mode=consistent op=GetObject"});
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("is not the range asked for"), std::string::npos)
      << run.result.error;
}

TEST_F(RangedReader, A200ToARangedGetIsRefused) {
  const auto run = read_through({"set-status 200 op=GetObject"});
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("expected 206, got 200"), std::string::npos) << run.result.error;
}

TEST_F(RangedReader, AnObjectReplacedAfterHeadIsRefusedByIfMatch) {
  std::atomic<bool> replaced{false};
  faulty_proxy proxy(store_.url(), {}, [&](const proxy::exchange_record& exchange) {
    if (exchange.method == "HEAD" && !replaced.exchange(true)) {
      store_.replace("object", seeded_bytes(20 * mib, 42));
    }
  });
  const auto run = run_reader(read_ranged, request(proxy.url()));
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("the object changed since the first read (If-Match refused: "
                                  "412 PreconditionFailed)"),
            std::string::npos)
      << run.result.error;
}

TEST_F(RangedReader, AZeroByteObjectIsOnlyAHead) {
  store_.put_single("empty", "");
  auto r = request(store_.url());
  r.key = "empty";
  std::filesystem::remove(r.output_path);
  const auto run = run_reader(read_ranged, r);
  ASSERT_TRUE(run.result.ok) << run.result.error;
  EXPECT_EQ(run.result.requests, 1u);
  EXPECT_TRUE(std::filesystem::exists(r.output_path));
  EXPECT_EQ(std::filesystem::file_size(r.output_path), 0u);
}

TEST_F(RangedReader, ZeroConcurrencyOrRangeSizeIsRefused) {
  auto r = request(store_.url());
  r.concurrency = 0;
  EXPECT_FALSE(run_reader(read_ranged, r).result.ok);
  r.concurrency = 1;
  r.range_size = 0;
  EXPECT_FALSE(run_reader(read_ranged, r).result.ok);
}

} // namespace
} // namespace s3fault::readers::testing
