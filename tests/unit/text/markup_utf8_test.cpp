// The one escaping for HTML and XML, and the one strict reading of UTF-8.
#include "text/markup.hpp"
#include "text/utf8.hpp"

#include <gtest/gtest.h>

#include <string>

namespace s3fault::text {
namespace {

TEST(Markup, HtmlEscapesQuotesAndXmlTextEscapesCarriageReturns) {
  EXPECT_EQ(escape_html("a<b>&\"c\"\r"), "a&lt;b&gt;&amp;&quot;c&quot;\r");
  EXPECT_EQ(escape_xml_text("a<b>&\"c\"\r"), "a&lt;b&gt;&amp;\"c\"&#13;");
  EXPECT_EQ(escape_html(""), "");
  EXPECT_EQ(escape_xml_text("plain ü"), "plain ü");
}

TEST(Utf8, ReadsEachLengthAndItsCodePoint) {
  const std::string text = "a\xC3\xBC\xE2\x82\xAC\xF0\x9F\x98\x80"; // a ü € 😀
  const auto a = read_utf8(text, 0);
  const auto u = read_utf8(text, 1);
  const auto euro = read_utf8(text, 3);
  const auto smile = read_utf8(text, 6);
  ASSERT_TRUE(a && u && euro && smile);
  EXPECT_EQ((std::pair{a->code, a->length}), (std::pair{0x61u, std::size_t{1}}));
  EXPECT_EQ((std::pair{u->code, u->length}), (std::pair{0xFCu, std::size_t{2}}));
  EXPECT_EQ((std::pair{euro->code, euro->length}), (std::pair{0x20ACu, std::size_t{3}}));
  EXPECT_EQ((std::pair{smile->code, smile->length}), (std::pair{0x1F600u, std::size_t{4}}));
  EXPECT_FALSE(read_utf8(text, text.size()));
}

TEST(Utf8, RefusesWhatIsNotWellFormed) {
  for (const std::string& bad : {
           std::string("\x80"),             // a continuation byte first
           std::string("\xC0\xAF"),         // overlong '/'
           std::string("\xE0\x80\xAF"),     // overlong, three bytes
           std::string("\xF0\x80\x80\xAF"), // overlong, four bytes
           std::string("\xED\xA0\x80"),     // a UTF-16 surrogate
           std::string("\xF4\x90\x80\x80"), // above U+10FFFF
           std::string("\xF5\x80\x80\x80"), // no lead byte of UTF-8
           std::string("\xE2\x82"),         // cut short
           std::string("\xC3\x28"),         // a second byte that does not continue
       }) {
    EXPECT_FALSE(read_utf8(bad, 0)) << testing::PrintToString(bad);
  }
}

} // namespace
} // namespace s3fault::text
