// The plain reading of a response head must forward exactly what the Beast path forwards, or
// decline. Each case is checked against Beast's parse, and a seeded mutation run checks that
// every head the plain reading accepts is one Beast parses to the same bytes and framing.
#include "proxy/plain_response_head.hpp"
#include "tests/support/plain_vs_beast.hpp"

#include <boost/beast/http/error.hpp>
#include <gtest/gtest.h>

#include <random>

using namespace s3fault::proxy;
using s3fault::testing::plain_vs_beast;

namespace {

constexpr std::size_t head_limit = 8 * 1024;

/// Reads `wire` plainly; when accepted, checks it against Beast's reading and returns the head
/// that goes to the client.
std::optional<std::string> plain_forwarded(std::string_view wire, bool head_request = false,
                                           bool close = false) {
  plain_response_head head;
  if (!read_plain_response_head(wire, head_request, head_limit, head)) {
    return std::nullopt;
  }
  EXPECT_EQ(plain_vs_beast(wire, head_request, close, head_limit, head), "") << wire;
  return finish_response_head(head, close);
}

bool declined(std::string_view wire, bool head_request = false) {
  plain_response_head head;
  return !read_plain_response_head(wire, head_request, head_limit, head);
}

const std::string s3_get = "HTTP/1.1 200 OK\r\n"
                           "Server: nginx/1.22.1\r\n"
                           "Date: Thu, 03 Dec 2026 06:00:00 GMT\r\n"
                           "Content-Type: application/octet-stream\r\n"
                           "Content-Length: 4096\r\n"
                           "Last-Modified: Wed, 02 Dec 2026 10:00:00 GMT\r\n"
                           "Connection: keep-alive\r\n"
                           "ETag: \"5f1-abc\"\r\n"
                           "x-amz-mp-parts-count: 3\r\n"
                           "Accept-Ranges: bytes\r\n"
                           "\r\n";

} // namespace

TEST(PlainResponseHead, ForwardsTheStoreHeadWithoutItsConnectionLine) {
  const auto forwarded = plain_forwarded(s3_get + "body bytes");
  ASSERT_TRUE(forwarded);
  EXPECT_EQ(*forwarded, "HTTP/1.1 200 OK\r\n"
                        "Server: nginx/1.22.1\r\n"
                        "Date: Thu, 03 Dec 2026 06:00:00 GMT\r\n"
                        "Content-Type: application/octet-stream\r\n"
                        "Content-Length: 4096\r\n"
                        "Last-Modified: Wed, 02 Dec 2026 10:00:00 GMT\r\n"
                        "ETag: \"5f1-abc\"\r\n"
                        "x-amz-mp-parts-count: 3\r\n"
                        "Accept-Ranges: bytes\r\n"
                        "\r\n");
  plain_response_head head;
  ASSERT_TRUE(read_plain_response_head(s3_get + "body bytes", false, head_limit, head));
  EXPECT_EQ(head.size, s3_get.size());
  EXPECT_EQ(head.framing.how, body_framing::kind::length);
  EXPECT_EQ(head.framing.length, 4096u);
  EXPECT_TRUE(head.keep_alive);
}

TEST(PlainResponseHead, RepeatedFieldsKeepTheStoreOrder) {
  const std::string wire = "HTTP/1.1 200 OK\r\nx-amz-meta-a: 1\r\nServer: s\r\n"
                           "x-amz-meta-a: 2\r\nContent-Length: 0\r\n\r\n";
  const auto forwarded = plain_forwarded(wire);
  ASSERT_TRUE(forwarded);
  EXPECT_EQ(*forwarded, wire);
}

TEST(PlainResponseHead, ConnectionCloseIsReadAndAddedForTheClient) {
  const std::string wire = "HTTP/1.1 404 Not Found\r\nconnection: Close\r\nContent-Length: 0\r\n"
                           "x-amz-request-id: 1\r\n\r\n";
  plain_response_head head;
  ASSERT_TRUE(read_plain_response_head(wire, false, head_limit, head));
  EXPECT_FALSE(head.keep_alive);
  const auto forwarded = plain_forwarded(wire, false, true);
  ASSERT_TRUE(forwarded);
  EXPECT_EQ(*forwarded, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nx-amz-request-id: 1\r\n"
                        "Connection: close\r\n\r\n");
}

TEST(PlainResponseHead, HeadAnswersAndBodilessStatusesHaveNoBody) {
  ASSERT_TRUE(plain_forwarded(s3_get, true)); // HEAD: the length describes the GET's body
  plain_response_head head;
  ASSERT_TRUE(read_plain_response_head(s3_get, true, head_limit, head));
  EXPECT_EQ(head.framing.how, body_framing::kind::none);
  ASSERT_TRUE(plain_forwarded("HTTP/1.1 204 No Content\r\nx-amz-id-2: a\r\n\r\n"));
  ASSERT_TRUE(plain_forwarded("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n"));
}

TEST(PlainResponseHead, DeclinesWhatBeastMustRead) {
  const std::vector<std::string> not_plain = {
      "HTTP/1.1 100 Continue\r\n\r\n",
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n",
      "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nKeep-Alive: timeout=5\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: keep-alive, X-Hop\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1234567890123456789\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length:1\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length:  1\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1 \r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-Empty: \r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-Fold: a\r\n b\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1\nX: y\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX: \x01y\r\n\r\n",
      "HTTP/1.1 200 OK\r\nBad Name: y\r\nContent-Length: 1\r\n\r\n",
      "HTTP/1.1 200 OK\r\n\r\n", // a body until the store closes
      "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n",
      "HTTP/1.1 200OK\r\nContent-Length: 1\r\n\r\n",
      "HTTP/1.1 200 \r\nContent-Length: 1\r\n\r\n", // Beast would write "OK"
      "HTTP/1.1 2x0 OK\r\nContent-Length: 1\r\n\r\n",
      "HTTP/1.1 600 Odd\r\nContent-Length: 1\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n", // not whole yet
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r",
  };
  for (const auto& wire : not_plain) {
    EXPECT_TRUE(declined(wire)) << wire;
  }
}

TEST(PlainResponseHead, DeclinesAHeadLongerThanTheLimit) {
  std::string wire =
      "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-Big: " + std::string(head_limit, 'a') + "\r\n\r\n";
  EXPECT_TRUE(declined(wire));
}

// Every mutant the plain reading accepts must read as Beast reads it. A check the plain reading
// skipped (white space around a value, a second length, a hop-by-hop name) shows up here as a
// difference in the forwarded bytes or the framing.
TEST(PlainResponseHead, EveryAcceptedMutantReadsAsBeastReadsIt) {
  const std::vector<std::string> bases = {
      s3_get, "HTTP/1.1 204 No Content\r\nConnection: close\r\nx-amz-id-2: a b\r\n\r\n",
      "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-0/9\r\nContent-Length: 1\r\n\r\nx"};
  const std::string alphabet = " \t:\r\n,aAzZ09-\x01\x7f\x80\xff";
  std::mt19937 random(20261203);
  int accepted = 0;
  for (int i = 0; i < 40000; ++i) {
    std::string wire = bases[static_cast<std::size_t>(i) % bases.size()];
    for (int edits = 1 + static_cast<int>(random() % 3); edits > 0; --edits) {
      const std::size_t at = random() % wire.size();
      const char c = alphabet[random() % alphabet.size()];
      switch (random() % 3) {
      case 0:
        wire[at] = c;
        break;
      case 1:
        wire.insert(wire.begin() + static_cast<std::ptrdiff_t>(at), c);
        break;
      default:
        wire.erase(at, 1);
      }
    }
    if (plain_forwarded(wire, i % 7 == 0, i % 5 == 0)) {
      ++accepted;
    }
    if (HasFailure()) {
      FAIL() << "mutant " << i;
    }
  }
  EXPECT_GT(accepted, 1000); // the mutants reach the accepting paths, not only the declines
}

// Values are checked eight bytes at a time: a control byte must be caught at every position of
// values of every length around the word size, and text bytes (tab, obs-text) let through.
TEST(PlainResponseHead, ControlBytesAreCaughtAtEveryPositionOfAValue) {
  for (std::size_t length = 1; length <= 26; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      for (const char c : {'\x00', '\x01', '\x1f', '\x7f', '\r'}) {
        std::string value(length, 'v');
        value[at] = c;
        EXPECT_TRUE(
            declined("HTTP/1.1 200 OK\r\nX-Value: " + value + "\r\nContent-Length: 0\r\n\r\n"))
            << "length " << length << ", byte " << int(c) << " at " << at;
      }
      for (const char c : {'\t', '\x80', '\xff', '~'}) {
        if (c == '\t' && (at == 0 || at + 1 == length)) {
          continue; // white space at either end is Beast's to trim
        }
        std::string value(length, 'v');
        value[at] = c;
        EXPECT_TRUE(plain_forwarded("HTTP/1.1 200 OK\r\nX-Value: " + value +
                                    "\r\nContent-Length: 0\r\n\r\n"))
            << "length " << length << ", byte " << int(c) << " at " << at;
      }
    }
  }
}
