// Known answers for the digests and checksums S3 uses, and strict base64.
#include "conformance/s3/crc32c.hpp"
#include "conformance/s3/hashing.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace s3fault::s3 {
namespace {

std::string hex_of_base64(const std::string& text) {
  const auto raw = base64_decode(text);
  EXPECT_TRUE(raw.has_value()) << text;
  return to_hex(raw.value_or(""));
}

std::string checksum_of(std::string_view algorithm, std::string_view data) {
  auto sum = checksum::create(algorithm);
  EXPECT_NE(sum, nullptr) << algorithm;
  if (sum == nullptr) {
    return {};
  }
  sum->update(data);
  return sum->base64_digest();
}

TEST(Sha256, MatchesFips180Examples) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_raw("abc").size(), 32u);
  EXPECT_EQ(to_hex(sha256_raw("abc")), sha256_hex("abc"));
}

TEST(Sha256, HashesTheAwsPutObjectExampleBody) {
  // "Welcome to Amazon S3." is the body of the AWS SigV4 PUT Object example.
  EXPECT_EQ(sha256_hex("Welcome to Amazon S3."),
            "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
}

TEST(Md5, MatchesRfc1321Examples) {
  EXPECT_EQ(md5_hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(md5_hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(md5_hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(md5_raw("abc").size(), 16u);
}

TEST(HmacSha256, MatchesRfc4231TestCases) {
  // Test case 1: key = 0x0b * 20, data = "Hi There".
  EXPECT_EQ(to_hex(hmac_sha256_raw(std::string(20, '\x0b'), "Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  // Test case 2: a key shorter than the output.
  EXPECT_EQ(to_hex(hmac_sha256_raw("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Test case 6: a key longer than the block size is hashed first.
  EXPECT_EQ(to_hex(hmac_sha256_raw(std::string(131, '\xaa'),
                                   "Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(Checksum, Crc32OfTheCheckString) {
  const auto digest = checksum_of("crc32", "123456789");
  EXPECT_EQ(hex_of_base64(digest), "cbf43926");
  EXPECT_EQ(digest, "y/Q5Jg==");
}

TEST(Checksum, Crc32cOfTheCheckString) {
  const auto digest = checksum_of("crc32c", "123456789");
  EXPECT_EQ(hex_of_base64(digest), "e3069283");
  EXPECT_EQ(digest, "4waSgw==");
}

TEST(Checksum, Crc32cOfTheAwsTrailerExample) {
  // The AWS signed-trailer example uploads 66560 bytes of 'a' with
  // x-amz-checksum-crc32c:sOO8/Q==; fed in uneven pieces to exercise the incremental form.
  auto sum = checksum::create("CRC32C");
  ASSERT_NE(sum, nullptr);
  const std::string data(66560, 'a');
  sum->update(std::string_view(data).substr(0, 1));
  sum->update(std::string_view(data).substr(1, 65535));
  sum->update(std::string_view(data).substr(65536));
  EXPECT_EQ(sum->base64_digest(), "sOO8/Q==");
}

/// CRC-32C one bit at a time, as its definition reads: the reference for ISA-L's folding.
std::uint32_t crc32c_bit_by_bit(std::string_view data) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (const char c : data) {
    crc ^= static_cast<unsigned char>(c);
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 1u) != 0 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
    }
  }
  return ~crc;
}

TEST(Checksum, Crc32cOfVariedBytesInAnyPiecesIsTheDefinitions) {
  std::string data(300 * 1024 + 13, '\0');
  std::mt19937 generator(7);
  for (auto& c : data) {
    c = static_cast<char>(generator());
  }
  // Lengths around the vector code's block sizes, and the whole buffer in uneven pieces.
  for (const std::size_t size : {0u, 1u, 7u, 8u, 15u, 16u, 63u, 64u, 255u, 256u, 1023u, 4097u}) {
    const auto head = std::string_view(data).substr(0, size);
    EXPECT_EQ(crc32c_update(0, head), crc32c_bit_by_bit(head)) << size << " bytes";
  }
  for (const std::size_t piece : {1u, 5u, 4096u, 65536u - 3}) {
    std::uint32_t crc = 0;
    for (std::size_t at = 0; at < data.size(); at += piece) {
      crc = crc32c_update(crc, std::string_view(data).substr(at, piece));
    }
    EXPECT_EQ(crc, crc32c_bit_by_bit(data)) << "pieces of " << piece;
  }
}

TEST(Checksum, ShaAlgorithmsGiveBase64OfTheRawDigest) {
  EXPECT_EQ(hex_of_base64(checksum_of("sha1", "abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(hex_of_base64(checksum_of("SHA256", "abc")), sha256_hex("abc"));
}

TEST(Checksum, DigestCanBeReadMidStreamAndStreamingContinues) {
  auto sum = checksum::create("sha256");
  ASSERT_NE(sum, nullptr);
  sum->update("ab");
  EXPECT_EQ(hex_of_base64(sum->base64_digest()), sha256_hex("ab"));
  sum->update("c");
  EXPECT_EQ(hex_of_base64(sum->base64_digest()), sha256_hex("abc"));
}

TEST(Checksum, NamesAreCaseInsensitiveAndUnknownOnesRefused) {
  for (const auto* name : {"crc32", "CRC32", "crc32c", "Crc32C", "sha1", "SHA1", "sha256"}) {
    auto sum = checksum::create(name);
    ASSERT_NE(sum, nullptr) << name;
    std::string lower(name);
    for (char& c : lower) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    EXPECT_EQ(sum->name(), lower);
  }
  EXPECT_EQ(checksum::create("md5"), nullptr);
  EXPECT_EQ(checksum::create("crc64nvme"), nullptr);
  EXPECT_EQ(checksum::create(""), nullptr);
}

TEST(DigestStream, IncrementalEqualsOneShot) {
  digest_stream md5(digest_stream::kind::md5);
  digest_stream sha(digest_stream::kind::sha256);
  for (const auto* piece : {"The quick ", "brown fox ", "", "jumps over the lazy dog"}) {
    md5.update(piece);
    sha.update(piece);
  }
  EXPECT_EQ(to_hex(md5.finish_raw()), "9e107d9d372bb6826bd81d3542a419d6");
  EXPECT_EQ(to_hex(sha.finish_raw()), sha256_hex("The quick brown fox jumps over the lazy dog"));
}

TEST(Base64, MatchesRfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [raw, text] : vectors) {
    EXPECT_EQ(base64_encode(raw), text);
    EXPECT_EQ(base64_decode(text), std::optional<std::string>(raw)) << text;
  }
}

TEST(Base64, RoundTripsEveryByteValueAndLength) {
  std::string raw;
  for (int i = 0; i < 300; ++i) {
    raw.push_back(static_cast<char>((i * 37 + 11) & 0xFF));
    const auto decoded = base64_decode(base64_encode(raw));
    ASSERT_TRUE(decoded.has_value()) << i;
    EXPECT_EQ(*decoded, raw) << i;
  }
}

TEST(Base64, RefusesMalformedInput) {
  for (const auto* text : {"Zg=", "Zg=a", "Z===", "====", "Zm9v\n", "Zm 9v", " Zm9v",
                           "Zm9v====", "=Zm9", "Zm-v", "Zm_v", "Zg==Zg==", "Zm9vY", "Zm9v!A=="}) {
    EXPECT_EQ(base64_decode(text), std::nullopt) << text;
  }
  EXPECT_EQ(base64_decode(std::string_view("Zm\0v", 4)), std::nullopt);
}

} // namespace
} // namespace s3fault::s3
