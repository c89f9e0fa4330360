#include "proxy/chunked_framing.hpp"

#include <gtest/gtest.h>

using s3fault::proxy::chunked_framing;

namespace {

// Feeds `wire` in pieces of `step` bytes; returns how many bytes were taken as body.
std::size_t scan_in_steps(chunked_framing& framing, std::string_view wire, std::size_t step) {
  std::size_t taken = 0;
  while (taken < wire.size() && !framing.done() && !framing.failed()) {
    const auto piece = wire.substr(taken, step);
    const std::size_t used = framing.scan(piece);
    taken += used;
    if (used < piece.size()) {
      break;
    }
  }
  return taken;
}

const std::string aws_chunked_like = "5;chunk-signature=abc\r\nhello\r\n"
                                     "A\r\n0123456789\r\n"
                                     "0\r\nx-amz-checksum-crc32: AAAAAA==\r\n\r\n";

} // namespace

TEST(ChunkedFraming, FindsTheEndAtEverySplitPoint) {
  const std::string next = "GET /next HTTP/1.1\r\n";
  const std::string wire = aws_chunked_like + next;
  for (std::size_t step = 1; step <= wire.size(); ++step) {
    chunked_framing framing;
    EXPECT_EQ(scan_in_steps(framing, wire, step), aws_chunked_like.size()) << "step " << step;
    EXPECT_TRUE(framing.done()) << "step " << step;
    EXPECT_EQ(framing.payload_bytes(), 15u);
  }
}

TEST(ChunkedFraming, IncompleteBodyIsNotDone) {
  chunked_framing framing;
  const std::string partial = "5\r\nhel";
  EXPECT_EQ(framing.scan(partial), partial.size());
  EXPECT_FALSE(framing.done());
  EXPECT_FALSE(framing.failed());
}

TEST(ChunkedFraming, UpperCaseHexAndLargeChunk) {
  chunked_framing framing;
  const std::string body(0x1F, 'x');
  const std::string wire = "1F\r\n" + body + "\r\n0\r\n\r\n";
  EXPECT_EQ(framing.scan(wire), wire.size());
  EXPECT_TRUE(framing.done());
  EXPECT_EQ(framing.payload_bytes(), 0x1Fu);
}

struct bad_case {
  const char* name;
  std::string wire;
};

// Keeps test output readable: gtest would otherwise print the struct's raw bytes.
void PrintTo(const bad_case& value, std::ostream* out) {
  *out << value.name;
}

class ChunkedFramingRejects : public ::testing::TestWithParam<bad_case> {};

TEST_P(ChunkedFramingRejects, MalformedFraming) {
  chunked_framing framing;
  framing.scan(GetParam().wire);
  EXPECT_TRUE(framing.failed()) << GetParam().name;
  EXPECT_FALSE(framing.error().empty());
  EXPECT_FALSE(framing.done());
}

INSTANTIATE_TEST_SUITE_P(
    Table, ChunkedFramingRejects,
    ::testing::Values(bad_case{"not hex", "zz\r\n"}, bad_case{"empty size", "\r\n"},
                      bad_case{"size too large", "1234567890ABCDEF0\r\n"},
                      bad_case{"bare LF after size", "5\nhello\r\n"},
                      bad_case{"data longer than size", "3\r\nhello\r\n0\r\n\r\n"},
                      bad_case{"junk after size", "5x\r\nhello\r\n"},
                      bad_case{"extension too long", "5;" + std::string(5000, 'e') + "\r\n"},
                      bad_case{"trailers too large",
                               "0\r\n" + std::string(20000, 't') + "\r\n\r\n"},
                      bad_case{"bad final line", "0\r\n\rX"},
                      bad_case{"bare LF in extension", "5;a\nhello\r\n0\r\n\r\n"},
                      bad_case{"NUL in extension", std::string("5;a\0b\r\nhello\r\n", 14)},
                      bad_case{"trailer not a field", "0\r\ngarbage\r\n\r\n"},
                      bad_case{"trailer without a name", "0\r\n: v\r\n\r\n"},
                      bad_case{"bare LF in trailer", "0\r\nx-t: a\nb\r\n\r\n"}),
    [](const auto& info) {
      std::string name = info.param.name;
      for (auto& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) {
          c = '_';
        }
      }
      return name;
    });

TEST(ChunkedPayload, JoinsTheChunksAndDropsSizesExtensionsAndTrailers) {
  EXPECT_EQ(s3fault::proxy::chunked_payload(aws_chunked_like), "hello0123456789");
  EXPECT_EQ(s3fault::proxy::chunked_payload("0\r\n\r\n"), "");
  EXPECT_EQ(s3fault::proxy::chunked_payload("3\r\n\r\n\r\r\n1;x=y\r\n<\r\n0\r\n\r\n"), "\r\n\r<");
}
