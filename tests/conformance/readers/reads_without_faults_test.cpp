// Every reader reads every object shape byte-exactly from a store that keeps the contract: the
// embedded origin, directly and through a proxy without rules.
#include "tests/conformance/readers/readers_test_support.hpp"

namespace s3fault::readers::testing {
namespace {

struct object_shape {
  std::string name;
  std::uint64_t size;
  std::vector<std::uint64_t> part_sizes; // empty: one PUT
};

const std::vector<object_shape>& shapes() {
  static const std::vector<object_shape> all = {
      {"empty", 0, {}},
      {"one_byte", 1, {}},
      {"single_put", mib + 17, {}},
      {"multipart_one_part", mib + 5, {mib + 5}},
      {"multipart_5_5_1", 11 * mib, {5 * mib, 5 * mib, mib}},
      {"multipart_uneven", 10 * mib + 4133, {5 * mib, 5 * mib, 4133}},
  };
  return all;
}

struct reader_and_shape {
  std::string reader;
  object_shape shape;
};

void PrintTo(const reader_and_shape& param, std::ostream* out) {
  *out << param.reader << " on " << param.shape.name;
}

class ReadsWithoutFaults : public ::testing::TestWithParam<reader_and_shape> {};

TEST_P(ReadsWithoutFaults, WritesTheObjectByteExactly) {
  const auto& [reader, shape] = GetParam();
  test_store store;
  const auto data = seeded_bytes(shape.size, 7);
  if (shape.part_sizes.empty()) {
    store.put_single("object", data);
  } else {
    store.put_multipart("object", data, shape.part_sizes);
  }
  faulty_proxy pass_through(store.url(), {});
  scratch_dir dir;
  for (const auto& endpoint : {store.url(), pass_through.url()}) {
    auto request = request_for(endpoint, "object", dir.file("out"));
    request.range_size = 3 * mib; // several ranges, the last one short
    const auto run = run_reader(find_reader(reader), request);
    ASSERT_TRUE(run.result.ok) << run.result.error << "\n" << run.log;
    EXPECT_EQ(run.result.bytes_written, shape.size);
    EXPECT_EQ(run.result.retries, 0u);
    EXPECT_TRUE(file_holds(dir.file("out"), data)) << run.log;
  }
}

std::vector<reader_and_shape> every_reader_and_shape() {
  std::vector<reader_and_shape> all;
  for (const auto name : reader_names()) {
    for (const auto& shape : shapes()) {
      all.push_back({std::string(name), shape});
    }
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(EveryReader, ReadsWithoutFaults,
                         ::testing::ValuesIn(every_reader_and_shape()),
                         [](const ::testing::TestParamInfo<reader_and_shape>& info) {
                           std::string name = info.param.reader + "_" + info.param.shape.name;
                           for (auto& c : name) {
                             c = c == '-' ? '_' : c;
                           }
                           return name;
                         });

TEST(ReadsWithoutFaults, RequestCountsFollowEachAlgorithm) {
  test_store store;
  const auto data = seeded_bytes(11 * mib, 8);
  store.put_multipart("object", data, {5 * mib, 5 * mib, mib});
  scratch_dir dir;
  auto request = request_for(store.url(), "object", dir.file("out"));
  request.range_size = 4 * mib;
  // Parts 1, 2, 3; the same for robust-parts (the parts cover everything); HEAD + 3 ranges.
  EXPECT_EQ(run_reader(read_naive_parts, request).result.requests, 3u);
  EXPECT_EQ(run_reader(read_robust_parts, request).result.requests, 3u);
  EXPECT_EQ(run_reader(read_ranged, request).result.requests, 4u);
}

} // namespace
} // namespace s3fault::readers::testing
