// robust-parts: recovers what can be recovered (a missing or wrong parts count, SlowDowns, cut
// connections) and fails loudly on what cannot (a changed object, a consistently short part).
#include "tests/conformance/readers/readers_test_support.hpp"

#include <atomic>

namespace s3fault::readers::testing {
namespace {

class RobustPartsReader : public ::testing::Test {
protected:
  void SetUp() override {
    data_ = seeded_bytes(11 * mib, 31);
    store_.put_multipart("object", data_, {5 * mib, 5 * mib, mib});
  }

  logged_read read_through(const std::vector<std::string>& fault_specs) {
    faulty_proxy proxy(store_.url(), fault_specs);
    return run_reader(read_robust_parts, request_for(proxy.url(), "object", output()));
  }
  std::string output() const { return dir_.file("out"); }

  /// The read succeeded and the output is the object.
  void expect_whole_object(const logged_read& run) {
    ASSERT_TRUE(run.result.ok) << run.result.error << "\n" << run.log;
    EXPECT_EQ(run.result.bytes_written, data_.size());
    EXPECT_TRUE(file_holds(output(), data_)) << run.log;
  }

  test_store store_;
  scratch_dir dir_;
  std::string data_;
};

TEST_F(RobustPartsReader, AStrippedPartsCountIsMadeUpForByOneRange) {
  const auto run = read_through({"strip-header x-amz-mp-parts-count op=GetObject,HeadObject"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.requests, 2u); // part 1, then bytes=5242880-11534335
  EXPECT_NE(run.log.find("GET Range bytes=5242880-11534335 -> 206"), std::string::npos) << run.log;
}

TEST_F(RobustPartsReader, APartsCountTooLowIsMadeUpForByOneRange) {
  const auto run =
      read_through({"set-header x-amz-mp-parts-count 2 op=GetObject query=partNumber"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.requests, 3u); // parts 1 and 2, then bytes=10485760-11534335
}

TEST_F(RobustPartsReader, APartsCountTooHighStopsOnceEveryByteIsCovered) {
  const auto run =
      read_through({"set-header x-amz-mp-parts-count 5 op=GetObject query=partNumber"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.requests, 3u);
  EXPECT_NE(run.log.find("parts count 5 is higher than the truth"), std::string::npos) << run.log;
}

TEST_F(RobustPartsReader, TwoSlowDownsAreRetried) {
  const auto run = read_through({"error SlowDown op=GetObject first=2"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.retries, 2u);
  EXPECT_EQ(run.result.requests, 5u);
}

TEST_F(RobustPartsReader, AnInternalErrorOnEachPartIsRetried) {
  const auto run = read_through({"error InternalError op=GetObject first=1 per-key"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.retries, 1u);
}

TEST_F(RobustPartsReader, ABodyCutShortOfItsContentLengthIsRetried) {
  const auto run = read_through({"truncate 50% mode=close op=GetObject part=2 first=1"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.retries, 1u);
  EXPECT_EQ(run.result.requests, 4u);
}

TEST_F(RobustPartsReader, AFirstPartCutShortIsRetriedToo) {
  const auto run = read_through({"truncate 1MiB mode=close op=GetObject first=1"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.retries, 1u);
}

TEST_F(RobustPartsReader, RetriesStopAtMaxAttempts) {
  faulty_proxy proxy(store_.url(), {"error SlowDown op=GetObject part=2"});
  auto request = request_for(proxy.url(), "object", output());
  request.max_attempts = 3;
  const auto run = run_reader(read_robust_parts, request);
  EXPECT_FALSE(run.result.ok);
  EXPECT_EQ(run.result.error, "GET partNumber=2: gave up after 3 attempts, last: 503 SlowDown");
  EXPECT_EQ(run.result.requests, 4u);
  EXPECT_EQ(run.result.retries, 2u);
}

TEST_F(RobustPartsReader, A412OnALaterPartSaysTheObjectChanged) {
  const auto run = read_through({"error PreconditionFailed 412 op=GetObject part=2"});
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("GET partNumber=2: the object changed since the first read"),
            std::string::npos)
      << run.result.error;
  EXPECT_EQ(run.result.retries, 0u);
}

TEST_F(RobustPartsReader, AnObjectReplacedBetweenPartReadsIsRefusedByIfMatch) {
  std::atomic<bool> replaced{false};
  faulty_proxy proxy(store_.url(), {}, [&](const proxy::exchange_record& exchange) {
    // After part 1 has been served, and before part 2 is asked for.
    if (!replaced.exchange(true)) {
      store_.replace("object", seeded_bytes(11 * mib, 32));
    }
    (void)exchange;
  });
  const auto run = run_reader(read_robust_parts, request_for(proxy.url(), "object", output()));
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("the object changed since the first read (If-Match refused: "
                                  "412 PreconditionFailed)"),
            std::string::npos)
      << run.result.error << "\n"
      << run.log;
  EXPECT_EQ(run.result.bytes_written, 5 * mib);
}

TEST_F(RobustPartsReader, AConsistentlyShortPartMakesThePartsMisalign) {
  const auto run = read_through({"truncate 50% mode=consistent op=GetObject part=2"});
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("GET partNumber=3: Content-Range bytes 10485760-11534335/"
                                  "11534336 starts at byte 10485760 but the bytes before end at "
                                  "7864320: the parts do not line up"),
            std::string::npos)
      << run.result.error;
}

TEST_F(RobustPartsReader, AConsistentlyShortLastPartIsCompletedByRange) {
  // The parts end early; the byte range read (no partNumber, so no truncation) fills the gap.
  const auto run = read_through({"truncate 50% mode=consistent op=GetObject part=3"});
  expect_whole_object(run);
  EXPECT_EQ(run.result.requests, 4u);
}

TEST_F(RobustPartsReader, AnObjectShortenedEverywhereFailsLoudly) {
  store_.put_single("single", data_);
  faulty_proxy proxy(store_.url(), {"truncate 50% mode=consistent op=GetObject"});
  const auto run = run_reader(read_robust_parts, request_for(proxy.url(), "single", output()));
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("the range ends before the object's 11534336 bytes"),
            std::string::npos)
      << run.result.error << "\n"
      << run.log;
}

TEST_F(RobustPartsReader, A206WithoutContentRangeCannotBePlaced) {
  const auto run = read_through({"strip-header content-range op=GetObject"});
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("206 without Content-Range"), std::string::npos)
      << run.result.error;
}

} // namespace
} // namespace s3fault::readers::testing
