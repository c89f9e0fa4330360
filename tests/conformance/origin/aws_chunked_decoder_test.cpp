// The aws-chunked decoder: AWS's published streaming example, signed and unsigned bodies with
// trailers split at every byte, bad framing and bad signatures.
#include "conformance/origin/aws_chunked_decoder.hpp"
#include "conformance/s3/hashing.hpp"
#include "conformance/s3/sigv4.hpp"

#include <gtest/gtest.h>

namespace s3fault::origin {
namespace {

// The example of the S3 documentation "Signature calculations for the Authorization header:
// transferring payload in multiple chunks": 65 KiB + 1 KiB of 'a'.
s3::signing_context aws_example_context() {
  s3::signing_context context;
  context.access_key = "AKIAIOSFODNN7EXAMPLE";
  context.region = "us-east-1";
  context.amz_date = "20130524T000000Z";
  context.scope = "20130524/us-east-1/s3/aws4_request";
  context.signing_key =
      s3::signing_key("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "20130524", "us-east-1");
  context.seed_signature = "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9";
  context.payload_hash = std::string(s3::streaming_signed_payload);
  return context;
}

std::string aws_example_body() {
  return "10000;chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648"
         "\r\n" +
         std::string(65536, 'a') +
         "\r\n400;chunk-signature="
         "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497\r\n" +
         std::string(1024, 'a') +
         "\r\n0;chunk-signature="
         "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9\r\n\r\n";
}

aws_chunked_decoder::settings signed_settings(s3::signing_context context, bool trailer = false) {
  aws_chunked_decoder::settings settings;
  settings.signed_chunks = true;
  settings.trailer = trailer;
  settings.context = std::move(context);
  return settings;
}

aws_chunked_decoder::settings unsigned_trailer_settings() {
  aws_chunked_decoder::settings settings;
  settings.trailer = true;
  return settings;
}

struct decoded {
  bool ok = false;
  std::string payload;
  aws_chunked_decoder::failure failure = aws_chunked_decoder::failure::none;
  std::string error;
  field_list trailers;
};

/// Feeds `body` in pieces cut at `cuts` (offsets), then finishes.
decoded decode_in_pieces(const aws_chunked_decoder::settings& settings, const std::string& body,
                         const std::vector<std::size_t>& cuts) {
  aws_chunked_decoder decoder(settings);
  decoded out;
  std::size_t from = 0;
  bool ok = true;
  for (std::size_t cut : cuts) {
    ok = ok && decoder.feed(std::string_view(body).substr(from, cut - from), out.payload);
    from = cut;
  }
  ok = ok && decoder.feed(std::string_view(body).substr(from), out.payload);
  ok = ok && decoder.finish();
  out.ok = ok;
  out.failure = decoder.failed();
  out.error = decoder.error();
  out.trailers = decoder.trailers();
  return out;
}

decoded decode_whole(const aws_chunked_decoder::settings& settings, const std::string& body) {
  return decode_in_pieces(settings, body, {});
}

/// A signed body (optionally with a signed trailer) built with the signing library.
std::string signed_body(const s3::signing_context& context, const std::vector<std::string>& chunks,
                        const std::string& trailer_line = "") {
  std::string body;
  std::string previous = context.seed_signature;
  auto add_chunk = [&](const std::string& data) {
    const std::string signature = s3::chunk_signature(context, previous, data);
    char size[32];
    std::snprintf(size, sizeof size, "%zx", data.size());
    body += std::string(size) + ";chunk-signature=" + signature + "\r\n" + data + "\r\n";
    previous = signature;
  };
  for (const auto& chunk : chunks) {
    add_chunk(chunk);
  }
  // The final chunk: "0;chunk-signature=...\r\n", then the trailer or the empty line.
  const std::string final_signature = s3::chunk_signature(context, previous, "");
  body += "0;chunk-signature=" + final_signature + "\r\n";
  if (trailer_line.empty()) {
    body += "\r\n";
    return body;
  }
  const std::string trailer_signature =
      s3::trailer_signature(context, final_signature, trailer_line + "\n");
  body += trailer_line + "\r\nx-amz-trailer-signature:" + trailer_signature + "\r\n\r\n";
  return body;
}

std::string unsigned_trailer_body(const std::vector<std::string>& chunks,
                                  const std::string& trailer_line) {
  std::string body;
  for (const auto& chunk : chunks) {
    char size[32];
    std::snprintf(size, sizeof size, "%zx", chunk.size());
    body += std::string(size) + "\r\n" + chunk + "\r\n";
  }
  return body + "0\r\n" + trailer_line + "\r\n\r\n";
}

std::string crc32_of(const std::string& data) {
  auto sum = s3::checksum::create("crc32");
  sum->update(data);
  return sum->base64_digest();
}

TEST(AwsChunked, DecodesTheAwsDocumentationExample) {
  const auto result = decode_whole(signed_settings(aws_example_context()), aws_example_body());
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(result.payload, std::string(66560, 'a'));
}

TEST(AwsChunked, AwsExampleSurvivesAnySplit) {
  const auto body = aws_example_body();
  for (std::size_t cut : {1ul, 10ul, 83ul, 84ul, 85ul, 86ul, 65620ul, 65621ul, 65622ul, 65623ul,
                          body.size() - 90, body.size() - 2, body.size() - 1}) {
    const auto result = decode_in_pieces(signed_settings(aws_example_context()), body, {cut});
    ASSERT_TRUE(result.ok) << "cut at " << cut << ": " << result.error;
    EXPECT_EQ(result.payload.size(), 66560u);
  }
}

TEST(AwsChunked, AwsExampleWithOneByteChangedFailsItsSignature) {
  auto body = aws_example_body();
  body[100] = 'b';
  const auto result = decode_whole(signed_settings(aws_example_context()), body);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failure, aws_chunked_decoder::failure::signature);
}

TEST(AwsChunked, SignedBodyWithSignedTrailerSplitAtEveryByte) {
  const auto context = aws_example_context();
  const std::string data1 = "hello, ", data2 = "aws-chunked world";
  const std::string trailer = "x-amz-checksum-crc32:" + crc32_of(data1 + data2);
  const auto body = signed_body(context, {data1, data2}, trailer);
  for (std::size_t cut = 0; cut <= body.size(); ++cut) {
    const auto result = decode_in_pieces(signed_settings(context, true), body, {cut});
    ASSERT_TRUE(result.ok) << "cut at " << cut << ": " << result.error;
    ASSERT_EQ(result.payload, data1 + data2) << "cut at " << cut;
    ASSERT_EQ(result.trailers.size(), 1u);
    EXPECT_EQ(result.trailers[0].first, "x-amz-checksum-crc32");
    EXPECT_EQ(result.trailers[0].second, crc32_of(data1 + data2));
  }
}

TEST(AwsChunked, OneByteAtATime) {
  const auto context = aws_example_context();
  const auto body = signed_body(context, {"abc", "defgh"});
  std::vector<std::size_t> every;
  for (std::size_t i = 1; i < body.size(); ++i) {
    every.push_back(i);
  }
  const auto result = decode_in_pieces(signed_settings(context), body, every);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(result.payload, "abcdefgh");
}

TEST(AwsChunked, UnsignedTrailerSplitAtEveryByte) {
  const std::string trailer = "x-amz-checksum-crc32:" + crc32_of("0123456789");
  const auto body = unsigned_trailer_body({"01234", "56789"}, trailer);
  for (std::size_t cut = 0; cut <= body.size(); ++cut) {
    const auto result = decode_in_pieces(unsigned_trailer_settings(), body, {cut});
    ASSERT_TRUE(result.ok) << "cut at " << cut << ": " << result.error;
    ASSERT_EQ(result.payload, "0123456789");
    ASSERT_EQ(result.trailers.size(), 1u);
  }
}

TEST(AwsChunked, EmptyPayload) {
  const auto context = aws_example_context();
  const auto result = decode_whole(signed_settings(context), signed_body(context, {}));
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_TRUE(result.payload.empty());
}

TEST(AwsChunked, WithoutContextSignaturesAreParsedNotChecked) {
  aws_chunked_decoder::settings settings;
  settings.signed_chunks = true;
  auto body = aws_example_body();
  body[100] = 'b';
  EXPECT_TRUE(decode_whole(settings, body).ok);
}

TEST(AwsChunked, TamperedChunkSignatureFails) {
  const auto context = aws_example_context();
  auto body = signed_body(context, {"abc"});
  const auto at = body.find("chunk-signature=") + 16;
  body[at] = body[at] == '0' ? '1' : '0';
  const auto result = decode_whole(signed_settings(context), body);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failure, aws_chunked_decoder::failure::signature);
}

TEST(AwsChunked, ReorderedChunksFailTheChain) {
  const auto context = aws_example_context();
  // Each chunk is validly signed, but against the seed: the chain is broken at the second.
  std::string body;
  for (const std::string data : {"abc", "def"}) {
    body += "3;chunk-signature=" + s3::chunk_signature(context, context.seed_signature, data) +
            "\r\n" + data + "\r\n";
  }
  const auto result = decode_whole(signed_settings(context),
                                   body + "0;chunk-signature=" + std::string(64, '0') + "\r\n\r\n");
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failure, aws_chunked_decoder::failure::signature);
}

TEST(AwsChunked, WrongTrailerSignatureFails) {
  const auto context = aws_example_context();
  auto body = signed_body(context, {"abc"}, "x-amz-checksum-crc32:" + crc32_of("abc"));
  const auto at = body.find("x-amz-trailer-signature:") + 24;
  body[at] = body[at] == 'a' ? 'b' : 'a';
  const auto result = decode_whole(signed_settings(context, true), body);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failure, aws_chunked_decoder::failure::signature);
}

TEST(AwsChunked, ChangedTrailerValueFailsTheTrailerSignature) {
  const auto context = aws_example_context();
  auto body = signed_body(context, {"abc"}, "x-amz-checksum-crc32:AAAAAA==");
  body.replace(body.find("AAAAAA=="), 8, "AAAAAB==");
  EXPECT_EQ(decode_whole(signed_settings(context, true), body).failure,
            aws_chunked_decoder::failure::signature);
}

struct framing_case {
  const char* name;
  std::string body;
  bool trailer;
};

// Test names say which case failed; gtest need not dump the bytes.
void PrintTo(const framing_case& c, std::ostream* out) {
  *out << c.name;
}

class AwsChunkedFraming : public ::testing::TestWithParam<framing_case> {};

TEST_P(AwsChunkedFraming, IsRejectedAsFraming) {
  const auto& c = GetParam();
  aws_chunked_decoder::settings settings;
  settings.trailer = c.trailer;
  const auto whole = decode_whole(settings, c.body);
  EXPECT_FALSE(whole.ok);
  EXPECT_EQ(whole.failure, aws_chunked_decoder::failure::framing) << whole.error;
  // The same verdict whichever way the bytes arrive.
  for (std::size_t cut = 0; cut <= c.body.size(); ++cut) {
    const auto split = decode_in_pieces(settings, c.body, {cut});
    EXPECT_FALSE(split.ok) << "cut at " << cut;
    EXPECT_EQ(split.failure, aws_chunked_decoder::failure::framing) << "cut at " << cut;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Bad, AwsChunkedFraming,
    ::testing::Values(
        framing_case{"size_not_hex", "zz\r\nabc\r\n0\r\n\r\n", false},
        framing_case{"size_empty", "\r\nabc\r\n0\r\n\r\n", false},
        framing_case{"data_longer_than_size", "2\r\nabc\r\n0\r\n\r\n", false},
        framing_case{"data_shorter_than_size", "4\r\nabc\r\n0\r\n\r\n", false},
        framing_case{"bare_lf", "3\nabc\r\n0\r\n\r\n", false},
        framing_case{"truncated_in_data", "3\r\nab", false},
        framing_case{"truncated_before_final_chunk", "3\r\nabc\r\n", false},
        framing_case{"missing_final_empty_line", "3\r\nabc\r\n0\r\n", false},
        framing_case{"bytes_after_final_chunk", "3\r\nabc\r\n0\r\n\r\nXYZ", false},
        framing_case{"trailer_line_without_colon", "3\r\nabc\r\n0\r\nbroken\r\n\r\n", true},
        framing_case{"trailer_not_terminated", "3\r\nabc\r\n0\r\nx-amz-checksum-crc32:x\r\n", true},
        framing_case{"line_too_long", std::string(5000, '1'), false}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(AwsChunked, SignedModeNeedsChunkSignatures) {
  aws_chunked_decoder::settings settings;
  settings.signed_chunks = true;
  const auto result = decode_whole(settings, "3\r\nabc\r\n0\r\n\r\n");
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failure, aws_chunked_decoder::failure::framing);
}

TEST(AwsChunked, SignedTrailerNeedsItsSignature) {
  const auto context = aws_example_context();
  auto body = signed_body(context, {"abc"}, "x-amz-checksum-crc32:" + crc32_of("abc"));
  const auto from = body.find("x-amz-trailer-signature:");
  body = body.substr(0, from) + "\r\n";
  const auto result = decode_whole(signed_settings(context, true), body);
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failure, aws_chunked_decoder::failure::framing);
}

TEST(AwsChunked, SignedChunkLargerThanTheLimitIsRefused) {
  auto settings = signed_settings(aws_example_context());
  settings.max_chunk_size = 1024;
  const auto result = decode_whole(settings, aws_example_body());
  EXPECT_FALSE(result.ok);
  EXPECT_EQ(result.failure, aws_chunked_decoder::failure::framing);
}

} // namespace
} // namespace s3fault::origin
