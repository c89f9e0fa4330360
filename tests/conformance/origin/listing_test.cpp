// ListObjects page selection: prefix, delimiter roll-up, resuming after a key or a common
// prefix, max-keys and truncation, walked page by page like a client would.
#include "conformance/origin/listing.hpp"

#include <gtest/gtest.h>

#include <map>

namespace s3fault::origin {
namespace {

using keys = std::vector<std::string>;

std::map<std::string, int> bucket_of(const keys& names) {
  std::map<std::string, int> out;
  for (const auto& name : names) {
    out.emplace(name, 0);
  }
  return out;
}

const auto sample = bucket_of({"a.txt", "dir/x", "dir/y", "dir/z/deep", "dir2/q", "e", "f/g"});

TEST(Listing, AllKeysInByteOrder) {
  const auto page = select_listing(sample, listing_request{});
  EXPECT_EQ(page.keys, keys({"a.txt", "dir/x", "dir/y", "dir/z/deep", "dir2/q", "e", "f/g"}));
  EXPECT_TRUE(page.common_prefixes.empty());
  EXPECT_FALSE(page.truncated);
}

TEST(Listing, PrefixSelectsContiguousKeys) {
  listing_request request;
  request.prefix = "dir/";
  EXPECT_EQ(select_listing(sample, request).keys, keys({"dir/x", "dir/y", "dir/z/deep"}));
}

TEST(Listing, DelimiterRollsUpCommonPrefixes) {
  listing_request request;
  request.delimiter = "/";
  const auto page = select_listing(sample, request);
  EXPECT_EQ(page.keys, keys({"a.txt", "e"}));
  EXPECT_EQ(page.common_prefixes, keys({"dir/", "dir2/", "f/"}));
}

TEST(Listing, DelimiterBelowAPrefix) {
  listing_request request;
  request.prefix = "dir/";
  request.delimiter = "/";
  const auto page = select_listing(sample, request);
  EXPECT_EQ(page.keys, keys({"dir/x", "dir/y"}));
  EXPECT_EQ(page.common_prefixes, keys({"dir/z/"}));
}

TEST(Listing, MultiCharacterDelimiter) {
  const auto bucket = bucket_of({"a--b", "a--c", "ab"});
  listing_request request;
  request.delimiter = "--";
  const auto page = select_listing(bucket, request);
  EXPECT_EQ(page.keys, keys({"ab"}));
  EXPECT_EQ(page.common_prefixes, keys({"a--"}));
}

TEST(Listing, EachCommonPrefixCountsOnceAgainstMaxKeys) {
  listing_request request;
  request.delimiter = "/";
  request.max_keys = 2;
  const auto page = select_listing(sample, request);
  EXPECT_EQ(page.keys, keys({"a.txt"}));
  EXPECT_EQ(page.common_prefixes, keys({"dir/"}));
  EXPECT_TRUE(page.truncated);
  EXPECT_EQ(page.last_entry, "dir/");
}

TEST(Listing, ExactlyMaxKeysLeftIsNotTruncated) {
  listing_request request;
  request.max_keys = 7;
  EXPECT_FALSE(select_listing(sample, request).truncated);
  request.max_keys = 6;
  EXPECT_TRUE(select_listing(sample, request).truncated);
}

TEST(Listing, MaxKeysZeroIsAnEmptyUntruncatedPage) {
  listing_request request;
  request.max_keys = 0;
  const auto page = select_listing(sample, request);
  EXPECT_TRUE(page.keys.empty());
  EXPECT_FALSE(page.truncated);
}

TEST(Listing, StartAfterIsExclusive) {
  listing_request request;
  request.after = "dir/y";
  EXPECT_EQ(select_listing(sample, request).keys, keys({"dir/z/deep", "dir2/q", "e", "f/g"}));
}

TEST(Listing, StartAfterBeforeThePrefixStartsAtThePrefix) {
  listing_request request;
  request.prefix = "e";
  request.after = "a";
  EXPECT_EQ(select_listing(sample, request).keys, keys({"e"}));
}

TEST(Listing, ResumingAfterACommonPrefixSkipsEverythingItRollsUp) {
  listing_request request;
  request.delimiter = "/";
  request.after = "dir/";
  const auto page = select_listing(sample, request);
  EXPECT_EQ(page.keys, keys({"e"}));
  EXPECT_EQ(page.common_prefixes, keys({"dir2/", "f/"}));
}

// Walks every page with max-keys 1..8 and checks that the concatenation is the full listing,
// without repeats, for both a flat and a delimited listing.
TEST(Listing, PagingVisitsEveryEntryOnce) {
  for (const std::string delimiter : {"", "/"}) {
    listing_request whole;
    whole.delimiter = delimiter;
    const auto all = select_listing(sample, whole);
    keys expected = all.keys;
    expected.insert(expected.end(), all.common_prefixes.begin(), all.common_prefixes.end());
    std::sort(expected.begin(), expected.end());
    for (unsigned max = 1; max <= 8; ++max) {
      listing_request request;
      request.delimiter = delimiter;
      request.max_keys = max;
      keys seen;
      for (int pages = 0; pages < 20; ++pages) {
        const auto page = select_listing(sample, request);
        seen.insert(seen.end(), page.keys.begin(), page.keys.end());
        seen.insert(seen.end(), page.common_prefixes.begin(), page.common_prefixes.end());
        EXPECT_LE(page.keys.size() + page.common_prefixes.size(), max);
        if (!page.truncated) {
          break;
        }
        request.after = page.last_entry;
      }
      std::sort(seen.begin(), seen.end());
      EXPECT_EQ(seen, expected) << "delimiter '" << delimiter << "' max-keys " << max;
    }
  }
}

TEST(Listing, KeysAreOrderedAsBytesNotAsSignedChars) {
  const auto bucket = bucket_of({"\xc3\xa9", "z", "A"});
  EXPECT_EQ(select_listing(bucket, listing_request{}).keys, keys({"A", "z", "\xc3\xa9"}));
}

TEST(PrefixSuccessor, IncrementsTheLastByteAndDropsFFs) {
  EXPECT_EQ(prefix_successor("dir/"), "dir0");
  EXPECT_EQ(prefix_successor(std::string("a\xff")), "b");
  EXPECT_EQ(prefix_successor(std::string("\xff\xff")), "");
}

} // namespace
} // namespace s3fault::origin
