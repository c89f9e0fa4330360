// Bytes damaged on the way (the gate's `corrupt` scenario: 16 bytes of every GetObject body
// flipped, Content-Length unchanged): robust-parts catches them through x-amz-checksum-* and the
// MD5 ETag, ranged through the MD5 ETag only; what neither can check is asserted as such.
#include "conformance/s3/hashing.hpp"
#include "tests/conformance/readers/readers_test_support.hpp"

namespace s3fault::readers::testing {
namespace {

const std::string corrupt_every_get = "corrupt count=16 op=GetObject";
const std::string corrupt_first_get = "corrupt count=16 op=GetObject first=1";

std::string crc32_of(std::string_view bytes) {
  auto sum = s3::checksum::create("crc32");
  sum->update(bytes);
  return sum->base64_digest();
}

/// The offsets where the file and `expected` (of the same length) differ.
std::vector<std::uint64_t> differing_offsets(const std::string& path, const std::string& expected) {
  const auto actual = file_bytes(path);
  std::vector<std::uint64_t> offsets;
  if (actual.size() != expected.size()) {
    ADD_FAILURE() << path << " has " << actual.size() << " bytes, expected " << expected.size();
    return offsets;
  }
  for (std::uint64_t i = 0; i < actual.size(); ++i) {
    if (actual[i] != expected[i]) {
      offsets.push_back(i);
    }
  }
  return offsets;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

class CorruptedBytes : public ::testing::Test {
protected:
  void SetUp() override { data_ = seeded_bytes(11 * mib, 51); }

  /// `reader` on `key` through a proxy with `fault_specs`; ranged takes 1 MiB ranges.
  logged_read read(reader_function reader, const std::string& key,
                   const std::vector<std::string>& fault_specs) {
    faulty_proxy proxy(store_.url(), fault_specs);
    auto request = request_for(proxy.url(), key, output());
    request.range_size = mib;
    return run_reader(reader, request);
  }
  std::string output() const { return dir_.file("out"); }

  void expect_whole_object(const logged_read& run) {
    ASSERT_TRUE(run.result.ok) << run.result.error << "\n" << run.log;
    EXPECT_EQ(run.result.bytes_written, data_.size());
    EXPECT_TRUE(file_holds(output(), data_)) << run.log;
  }

  /// The parts of the multipart objects below.
  const std::vector<std::uint64_t> parts_{5 * mib, 5 * mib, mib};

  test_store store_;
  scratch_dir dir_;
  std::string data_;
};

TEST_F(CorruptedBytes, RobustPartsRefusesAPartThatDoesNotMatchItsChecksum) {
  store_.put_multipart("object", data_, parts_, "crc32");
  const auto run = read(read_robust_parts, "object", {corrupt_every_get});
  EXPECT_FALSE(run.result.ok) << run.log;
  const auto part_1 = crc32_of(std::string_view(data_).substr(0, 5 * mib));
  EXPECT_EQ(run.result.error.find("GET partNumber=1: gave up after 5 attempts, last: "
                                  "x-amz-checksum-crc32 mismatch: expected " +
                                  part_1 + ", got "),
            0u)
      << run.result.error;
  EXPECT_NE(run.result.error.find(" over the 5242880 bytes received"), std::string::npos)
      << run.result.error;
  EXPECT_EQ(run.result.requests, 5u);
  EXPECT_EQ(run.result.retries, 4u);
  EXPECT_EQ(occurrences(run.log, "x-amz-checksum-crc32 mismatch"), 5u) << run.log;
  EXPECT_NE(run.log.find("[attempt 5/5]"), std::string::npos) << run.log;
}

TEST_F(CorruptedBytes, RobustPartsRefusesAOnePutObjectThatDoesNotMatchItsChecksum) {
  store_.put_single("single", data_, "crc32");
  const auto run = read(read_robust_parts, "single", {corrupt_every_get});
  EXPECT_FALSE(run.result.ok) << run.log;
  EXPECT_EQ(run.result.error.find("GET partNumber=1: gave up after 5 attempts, last: "
                                  "x-amz-checksum-crc32 mismatch: expected " +
                                  crc32_of(data_) + ", got "),
            0u)
      << run.result.error;
  EXPECT_EQ(run.result.retries, 4u);
}

TEST_F(CorruptedBytes, RobustPartsRefusesAOnePutObjectWithoutChecksumByItsMd5Etag) {
  store_.put_single("plain", data_);
  const auto run = read(read_robust_parts, "plain", {corrupt_every_get});
  EXPECT_FALSE(run.result.ok) << run.log;
  EXPECT_EQ(run.result.error.find("MD5 of the object ("), 0u) << run.result.error;
  EXPECT_NE(run.result.error.find(") does not match its ETag \"" + s3::md5_hex(data_) + "\""),
            std::string::npos)
      << run.result.error;
  // Nothing told the reader during the read: one request, no retry, every byte written.
  EXPECT_EQ(run.result.requests, 1u);
  EXPECT_EQ(run.result.retries, 0u);
  EXPECT_EQ(run.result.bytes_written, data_.size());
  EXPECT_NE(run.log.find("no x-amz-checksum-* in the response: bytes not checked"),
            std::string::npos)
      << run.log;
}

TEST_F(CorruptedBytes, RobustPartsRecoversFromOneDamagedPartByRetrying) {
  store_.put_multipart("object", data_, parts_, "crc32");
  const auto run = read(read_robust_parts, "object", {corrupt_first_get});
  expect_whole_object(run);
  EXPECT_EQ(run.result.requests, 4u); // part 1 twice, parts 2 and 3
  EXPECT_EQ(run.result.retries, 1u);
  EXPECT_NE(run.log.find("GET partNumber=1 -> 206, 5242880 bytes, Content-Range bytes "
                         "0-5242879/11534336, parts count 3 [attempt 1/5]: x-amz-checksum-crc32 "
                         "mismatch: expected " +
                         crc32_of(std::string_view(data_).substr(0, 5 * mib)) + ", got "),
            std::string::npos)
      << run.log;
  EXPECT_EQ(occurrences(run.log, "x-amz-checksum-crc32 checked"), 3u) << run.log;
  EXPECT_NE(run.log.find("MD5 not checked: ETag \""), std::string::npos) << run.log;
}

TEST_F(CorruptedBytes, RobustPartsChecksEveryPartWithoutFaults) {
  store_.put_multipart("object", data_, parts_, "crc32");
  const auto run = read(read_robust_parts, "object", {});
  expect_whole_object(run);
  EXPECT_EQ(run.result.requests, 3u);
  EXPECT_EQ(occurrences(run.log, "x-amz-checksum-crc32 checked"), 3u) << run.log;
}

TEST_F(CorruptedBytes, RobustPartsRecoversAOnePutObjectAndChecksItsMd5) {
  store_.put_single("single", data_, "crc32");
  const auto run = read(read_robust_parts, "single", {corrupt_first_get});
  expect_whole_object(run);
  EXPECT_EQ(run.result.retries, 1u);
  EXPECT_NE(run.log.find("x-amz-checksum-crc32 checked"), std::string::npos) << run.log;
  EXPECT_NE(run.log.find("MD5 of the object matches its ETag \"" + s3::md5_hex(data_) + "\""),
            std::string::npos)
      << run.log;
}

TEST_F(CorruptedBytes, RobustPartsCannotCheckTheByteRangeThatMakesUpForAMissingPartsCount) {
  // Documented limit: a ranged GET comes back without a checksum, and a multipart ETag is no
  // MD5 of the object, so damage in the part of the object read by range passes.
  store_.put_multipart("object", data_, parts_, "crc32");
  const auto run = read(read_robust_parts, "object",
                        {"strip-header x-amz-mp-parts-count op=GetObject,HeadObject",
                         "corrupt count=16 op=GetObject header=range"});
  ASSERT_TRUE(run.result.ok) << run.result.error << "\n" << run.log;
  const auto damaged = differing_offsets(output(), data_);
  ASSERT_EQ(damaged.size(), 16u);
  EXPECT_GE(damaged.front(), 5 * mib); // all in bytes=5242880-11534335
  EXPECT_NE(run.log.find("x-amz-checksum-crc32 checked"), std::string::npos) << run.log;
  EXPECT_NE(run.log.find("GET Range bytes=5242880-11534335 -> 206, 6291456 bytes, Content-Range "
                         "bytes 5242880-11534335/11534336: no x-amz-checksum-* in the response"),
            std::string::npos)
      << run.log;
}

TEST_F(CorruptedBytes, RangedRefusesAOnePutObjectByItsMd5Etag) {
  for (const std::string checksum : {"", "crc32"}) {
    store_.put_single("single", data_, checksum);
    const auto run = read(read_ranged, "single", {corrupt_every_get});
    EXPECT_FALSE(run.result.ok) << checksum << "\n" << run.log;
    EXPECT_EQ(run.result.error.find("MD5 of the object ("), 0u) << run.result.error;
    EXPECT_NE(run.result.error.find(") does not match its ETag \"" + s3::md5_hex(data_) + "\""),
              std::string::npos)
        << run.result.error;
    EXPECT_EQ(run.result.requests, 12u); // HEAD + 11 ranges, none retried
    EXPECT_EQ(run.result.bytes_written, data_.size());
  }
}

TEST_F(CorruptedBytes, RangedPassesDamagedBytesOfAMultipartObject) {
  // Documented limit (see ranged_reader.cpp): ranges carry no checksum and the multipart ETag
  // "MD5-N" cannot be checked without the part boundaries. The read says it trusts bytes that
  // are wrong: 16 in each of the 11 ranges.
  store_.put_multipart("object", data_, parts_, "crc32");
  const auto run = read(read_ranged, "object", {corrupt_every_get});
  ASSERT_TRUE(run.result.ok) << run.result.error << "\n" << run.log;
  EXPECT_EQ(run.result.bytes_written, data_.size());
  EXPECT_EQ(differing_offsets(output(), data_).size(), 11u * 16u);
  EXPECT_NE(run.log.find("MD5 not checked: ETag \""), std::string::npos) << run.log;
  EXPECT_NE(run.log.find("is a multipart ETag (an MD5 of part MD5s), not the object's MD5; "
                         "ranged GETs carry no checksum, the bytes are unchecked"),
            std::string::npos)
      << run.log;
}

TEST_F(CorruptedBytes, RangedReadsAChecksummedMultipartObjectWithoutFaults) {
  store_.put_multipart("object", data_, parts_, "crc32");
  const auto run = read(read_ranged, "object", {});
  expect_whole_object(run);
  EXPECT_EQ(run.result.requests, 12u);
}

TEST_F(CorruptedBytes, RangedPassesOneDamagedRangeOfAMultipartObject) {
  // The same limit with only the first GET damaged: no retry, 16 wrong bytes in one 1 MiB range
  // (whichever of the four threads' first GETs reached the proxy first), and success.
  store_.put_multipart("object", data_, parts_, "crc32");
  const auto run = read(read_ranged, "object", {corrupt_first_get});
  ASSERT_TRUE(run.result.ok) << run.result.error << "\n" << run.log;
  EXPECT_EQ(run.result.retries, 0u);
  const auto damaged = differing_offsets(output(), data_);
  ASSERT_EQ(damaged.size(), 16u);
  EXPECT_EQ(damaged.front() / mib, damaged.back() / mib);
  EXPECT_LT(damaged.front(), 4 * mib); // one of the four ranges asked for first
}

TEST_F(CorruptedBytes, RangedChecksAnUndamagedOnePutObjectByItsMd5) {
  store_.put_single("single", data_);
  const auto run = read(read_ranged, "single", {});
  expect_whole_object(run);
  EXPECT_NE(run.log.find("MD5 of the object matches its ETag \"" + s3::md5_hex(data_) + "\""),
            std::string::npos)
      << run.log;
}

TEST_F(CorruptedBytes, NaivePartsChecksNothing) {
  // The bug on purpose: damaged bytes are handed on as the object.
  store_.put_multipart("object", data_, parts_, "crc32");
  const auto run = read(read_naive_parts, "object", {corrupt_every_get});
  ASSERT_TRUE(run.result.ok) << run.result.error << "\n" << run.log;
  EXPECT_EQ(differing_offsets(output(), data_).size(), 3u * 16u);
}

} // namespace
} // namespace s3fault::readers::testing
