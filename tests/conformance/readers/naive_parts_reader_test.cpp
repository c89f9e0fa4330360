// naive-parts: correct on a store that keeps the contract, and wrong in exactly the documented
// way when the parts count is missing: part 1 alone, reported as a success.
#include "tests/conformance/readers/readers_test_support.hpp"

namespace s3fault::readers::testing {
namespace {

class NaivePartsReader : public ::testing::Test {
protected:
  void SetUp() override {
    data_ = seeded_bytes(11 * mib, 21);
    store_.put_multipart("object", data_, {5 * mib, 5 * mib, mib});
  }

  logged_read read_through(const std::vector<std::string>& fault_specs) {
    faulty_proxy proxy(store_.url(), fault_specs);
    return run_reader(read_naive_parts, request_for(proxy.url(), "object", output()));
  }
  std::string output() const { return dir_.file("out"); }

  test_store store_;
  scratch_dir dir_;
  std::string data_;
};

TEST_F(NaivePartsReader, AStrippedPartsCountSilentlyReturnsPartOneOnly) {
  const auto run = read_through({"strip-header x-amz-mp-parts-count op=GetObject,HeadObject"});
  // The bug, on purpose: a success with 5 MiB of an 11 MiB object.
  ASSERT_TRUE(run.result.ok) << run.result.error;
  EXPECT_EQ(run.result.bytes_written, 5 * mib);
  EXPECT_EQ(run.result.requests, 1u);
  EXPECT_TRUE(file_holds(output(), std::string_view(data_).substr(0, 5 * mib)));
  EXPECT_NE(run.log.find("naive-parts: GET partNumber=1 -> 206, 5242880 bytes"), std::string::npos)
      << run.log;
  EXPECT_NE(run.log.find("no parts count (taken as 1)"), std::string::npos) << run.log;
}

TEST_F(NaivePartsReader, APartsCountTooLowIsBelievedToo) {
  const auto run =
      read_through({"set-header x-amz-mp-parts-count 2 op=GetObject query=partNumber=1"});
  ASSERT_TRUE(run.result.ok) << run.result.error;
  EXPECT_EQ(run.result.bytes_written, 10 * mib);
  EXPECT_TRUE(file_holds(output(), std::string_view(data_).substr(0, 10 * mib)));
}

TEST_F(NaivePartsReader, AConsistentlyShortenedPartGoesUnnoticed) {
  const auto run = read_through({"truncate 50% mode=consistent op=GetObject part=2"});
  ASSERT_TRUE(run.result.ok) << run.result.error;
  EXPECT_EQ(run.result.bytes_written, 11 * mib - 5 * mib / 2);
  const std::string expected =
      data_.substr(0, 5 * mib) + data_.substr(5 * mib, 5 * mib / 2) + data_.substr(10 * mib);
  EXPECT_TRUE(file_holds(output(), expected));
}

TEST_F(NaivePartsReader, AShortBodyIsATransportFailure) {
  const auto run = read_through({"truncate 50% mode=close op=GetObject part=2"});
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("GET partNumber=2"), std::string::npos) << run.result.error;
  EXPECT_EQ(run.result.requests, 2u);
}

TEST_F(NaivePartsReader, AnErrorStatusFailsItWithoutARetry) {
  const auto run = read_through({"error SlowDown op=GetObject first=1"});
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("503 SlowDown"), std::string::npos) << run.result.error;
  EXPECT_EQ(run.result.requests, 1u);
  EXPECT_EQ(run.result.retries, 0u);
}

TEST_F(NaivePartsReader, AnUnreadablePartsCountIsAFailure) {
  const auto run =
      read_through({"set-header x-amz-mp-parts-count three op=GetObject query=partNumber=1"});
  EXPECT_FALSE(run.result.ok);
  EXPECT_NE(run.result.error.find("unreadable x-amz-mp-parts-count 'three'"), std::string::npos)
      << run.result.error;
}

} // namespace
} // namespace s3fault::readers::testing
