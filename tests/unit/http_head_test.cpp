#include "proxy/fault_application.hpp"
#include "proxy/http_head.hpp"

#include <boost/beast/http/error.hpp>
#include <gtest/gtest.h>

using namespace s3fault::proxy;

namespace {

template <class Parser> void parse_into(Parser& parser, std::string_view wire) {
  configure_head_parser(parser, 64 * 1024);
  boost::system::error_code ec;
  const std::size_t used = parser.put(boost::asio::buffer(wire.data(), wire.size()), ec);
  ASSERT_FALSE(ec) << ec.message();
  ASSERT_TRUE(parser.is_header_done());
  ASSERT_LE(used, wire.size());
}

} // namespace

TEST(HttpHead, RequestIsReproducedExactlyButHopByHop) {
  const std::string wire =
      "PUT /bucket/a%20b%2Fc?partNumber=2&uploadId=x%3Dy HTTP/1.1\r\n"
      "Host: 127.0.0.1:9000\r\n"
      "X-Amz-Date: 20261129T000000Z\r\n"
      "x-amz-content-sha256: UNSIGNED-PAYLOAD\r\n"
      "Connection: keep-alive, X-Hop\r\n"
      "X-Hop: 1\r\n"
      "Keep-Alive: timeout=5\r\n"
      "TE: trailers\r\n"
      "Authorization: AWS4-HMAC-SHA256 Credential=a/b, SignedHeaders=host, Signature=c\r\n"
      "x-amz-meta-Dup: one\r\n"
      "x-amz-meta-Dup: two\r\n"
      "Content-Length: 5\r\n"
      "\r\n";
  request_parser parser;
  parse_into(parser, wire);
  const std::string expected =
      "PUT /bucket/a%20b%2Fc?partNumber=2&uploadId=x%3Dy HTTP/1.1\r\n"
      "Host: 127.0.0.1:9000\r\n"
      "X-Amz-Date: 20261129T000000Z\r\n"
      "x-amz-content-sha256: UNSIGNED-PAYLOAD\r\n"
      "Authorization: AWS4-HMAC-SHA256 Credential=a/b, SignedHeaders=host, Signature=c\r\n"
      "x-amz-meta-Dup: one\r\n"
      "x-amz-meta-Dup: two\r\n"
      "Content-Length: 5\r\n"
      "\r\n";
  EXPECT_EQ(serialize_request_head(parser), expected);
  std::string why;
  auto framing = request_body_framing(parser, why);
  ASSERT_TRUE(framing);
  EXPECT_EQ(framing->how, body_framing::kind::length);
  EXPECT_EQ(framing->length, 5u);
}

TEST(HttpHead, ChunkedRequestKeepsTransferEncoding) {
  request_parser parser;
  parse_into(parser, "PUT /b/k HTTP/1.1\r\nHost: h\r\nContent-Encoding: aws-chunked\r\n"
                     "Transfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n");
  std::string why;
  auto framing = request_body_framing(parser, why);
  ASSERT_TRUE(framing);
  EXPECT_EQ(framing->how, body_framing::kind::chunked);
  EXPECT_TRUE(expects_continue(parser));
  EXPECT_NE(serialize_request_head(parser).find("Transfer-Encoding: chunked\r\n"),
            std::string::npos);
}

TEST(HttpHead, RequestWithoutBody) {
  request_parser parser;
  parse_into(parser, "GET /b/k HTTP/1.1\r\nHost: h\r\n\r\n");
  std::string why;
  auto framing = request_body_framing(parser, why);
  ASSERT_TRUE(framing);
  EXPECT_FALSE(framing->has_body());
  EXPECT_FALSE(expects_continue(parser));
}

TEST(HttpHead, ResponseFraming) {
  {
    response_parser parser;
    parse_into(parser, "HTTP/1.1 206 Partial Content\r\nContent-Length: 10\r\n"
                       "x-amz-mp-parts-count: 3\r\nConnection: close\r\n\r\n");
    auto framing = response_body_framing(parser, false);
    EXPECT_EQ(framing.how, body_framing::kind::length);
    EXPECT_EQ(serialize_response_head(parser, false),
              "HTTP/1.1 206 Partial Content\r\nContent-Length: 10\r\n"
              "x-amz-mp-parts-count: 3\r\n\r\n");
    EXPECT_EQ(serialize_response_head(parser, true),
              "HTTP/1.1 206 Partial Content\r\nContent-Length: 10\r\n"
              "x-amz-mp-parts-count: 3\r\nConnection: close\r\n\r\n");
  }
  {
    response_parser parser;
    parser.skip(true);
    parse_into(parser, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
    EXPECT_FALSE(response_body_framing(parser, true).has_body());
  }
  {
    response_parser parser;
    parse_into(parser, "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n");
    EXPECT_FALSE(response_body_framing(parser, false).has_body());
  }
  {
    response_parser parser;
    parse_into(parser, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n");
    EXPECT_EQ(response_body_framing(parser, false).how, body_framing::kind::until_close);
  }
  {
    response_parser parser;
    parse_into(parser, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    EXPECT_EQ(response_body_framing(parser, false).how, body_framing::kind::chunked);
  }
}

TEST(HttpHead, AmbiguousRequestFramingIsRejected) {
  // Beast itself may reject the pair while parsing; either way it must never be relayed.
  request_parser parser;
  configure_head_parser(parser, 64 * 1024);
  const std::string wire = "POST /b?delete HTTP/1.1\r\nHost: h\r\nContent-Length: "
                           "5\r\nTransfer-Encoding: chunked\r\n\r\n";
  boost::system::error_code ec;
  parser.put(boost::asio::buffer(wire), ec);
  std::string why;
  const bool rejected = ec || !request_body_framing(parser, why);
  EXPECT_TRUE(rejected);
}

TEST(EditedBodyFraming, AnEditedBodyGoesOutWithItsLengthAndWithoutTheStoresDigests) {
  response_parser parser;
  parse_into(parser, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-MD5: abc=\r\n"
                     "x-amz-checksum-crc32: AAAAAA==\r\nX-Amz-Checksum-Type: FULL_OBJECT\r\n"
                     "x-amz-checksum: kept\r\nETag: \"e\"\r\n\r\n");
  frame_edited_body(parser.get(), 42);
  EXPECT_EQ(serialize_response_head(parser, false),
            "HTTP/1.1 200 OK\r\nx-amz-checksum: kept\r\nETag: \"e\"\r\nContent-Length: 42\r\n\r\n");
}

TEST(HeadText, FieldsInOrderTrimmedAndSecretsRedactedUpToTheBlankLine) {
  const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type:  text/csv \r\nSet-Cookie: s=1\r\n"
                             "x-amz-request-id: R1\r\n\r\nbody: not a field\r\n";
  EXPECT_EQ(redacted_fields_in_head_text(answer),
            (std::vector<std::pair<std::string, std::string>>{{"Content-Type", "text/csv"},
                                                              {"Set-Cookie", "REDACTED"},
                                                              {"x-amz-request-id", "R1"}}));
  EXPECT_EQ(field_in_head_text(answer, "X-AMZ-REQUEST-ID"), "R1");
  EXPECT_EQ(field_in_head_text(answer, "body"), "");
}
