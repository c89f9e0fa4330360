// A shape's size and parts: what S3 and the gate allow, each mistake with its line.
#include "conformance/gate/gate_matrix.hpp"

#include "matrix_test_support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace s3fault::gate {
namespace {

using testing::errors_of;
using testing::one_shape;
using testing::read_good;
using texts = std::vector<std::string>;

TEST(ShapeSize, WholeBytesOrSizesUpToOneGiB) {
  EXPECT_EQ(read_good(one_shape("    size: 1GiB\n")).shapes.at(0).size, 1u << 30);
  EXPECT_EQ(read_good(one_shape("    size: 0\n")).shapes.at(0).size, 0u);
  EXPECT_EQ(errors_of(one_shape("    size: 1025MiB\n")),
            (texts{"t.yaml:4: shape 1 (s): size: must be at most 1GiB (the gate holds each object "
                   "in memory) (got \"1025MiB\")"}));
  EXPECT_EQ(errors_of(one_shape("    size: -1\n")),
            (texts{"t.yaml:4: shape 1 (s): size: must be a size in bytes like 8388609, or like "
                   "12MiB (got -1)"}));
  EXPECT_EQ(errors_of(one_shape("    size: 1.5\n")).size(), 1u);
}

TEST(ShapeParts, EveryPartButTheLastIsAtLeastFiveMiB) {
  EXPECT_EQ(errors_of(one_shape("    size: 10MiB\n    parts:\n      - 4MiB\n      - 6MiB\n")),
            (texts{"t.yaml:6: shape 1 (s): parts[1]: must be at least 5MiB: S3's minimum for "
                   "every part but the last (got \"4MiB\")"}));
  EXPECT_TRUE(errors_of(one_shape("    size: 5242881\n    parts: [5MiB, 1]\n")).empty());
}

TEST(ShapeParts, NoEmptyPartNoEmptyListNoMoreThanTenThousand) {
  EXPECT_EQ(errors_of(one_shape("    size: 5MiB\n    parts: [5MiB, 0]\n")),
            (texts{"t.yaml:5: shape 1 (s): parts[2]: must be at least 1 byte (only a whole object "
                   "may be empty) (got 0)"}));
  EXPECT_EQ(errors_of(one_shape("    size: 0\n    parts: []\n")),
            (texts{"t.yaml:5: shape 1 (s): parts: must be a list of part sizes like [5MiB, 5MiB, "
                   "2MiB] (leave it out for one PUT) (got [])"}));
  std::string many = "    size: 10001\n    parts: [1";
  for (int i = 1; i < 10001; ++i) {
    many += ", 1";
  }
  EXPECT_EQ(errors_of(one_shape(many + "]\n")),
            (texts{"t.yaml:5: shape 1 (s): parts: 10001 parts: S3 allows at most 10000 parts in "
                   "one upload"}));
}

TEST(ShapeFields, ChecksumAndContentType) {
  const auto shape =
      read_good(one_shape("    size: 1\n    checksum: none\n    content_type: text/plain\n"))
          .shapes.at(0);
  EXPECT_EQ(shape.checksum, "none");
  EXPECT_EQ(shape.content_type, "text/plain");
  EXPECT_EQ(errors_of(one_shape("    size: 1\n    checksum: md5\n")),
            (texts{"t.yaml:5: shape 1 (s): checksum: must be one of crc32, crc32c, sha1, sha256, "
                   "none (got \"md5\")"}));
}

} // namespace
} // namespace s3fault::gate
