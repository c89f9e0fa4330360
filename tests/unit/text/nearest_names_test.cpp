#include "text/nearest_names.hpp"

#include <gtest/gtest.h>

namespace s3fault::text {
namespace {

const std::vector<std::string> scenarios{"baseline", "slowdown-first-2", "internal-error-once",
                                         "truncate-consistent", "truncate-consistent-second"};

TEST(EditDistance, CountsInsertionsDeletionsReplacementsAndSwaps) {
  EXPECT_EQ(edit_distance("slowdwn", "slowdown"), 1u);
  EXPECT_EQ(edit_distance("stauts", "status"), 1u); // one swap
  EXPECT_EQ(edit_distance("GetObject", "getobject"), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(NearestNames, OffersTheNameATypoMeant) {
  EXPECT_EQ(nearest_names("slowdwn-first-2", scenarios),
            std::vector<std::string>{"slowdown-first-2"});
  EXPECT_EQ(quoted_with_nearest("slowdwn-first-2", scenarios),
            "'slowdwn-first-2' (nearest: slowdown-first-2)");
}

TEST(NearestNames, NearestFirstAndAtMostThree) {
  const auto near = nearest_names("truncate-consistent-secnd", scenarios);
  ASSERT_FALSE(near.empty());
  EXPECT_EQ(near.front(), "truncate-consistent-second");
  EXPECT_LE(nearest_names("a", {"b", "c", "d", "e"}).size(), 3u);
}

TEST(NearestNames, APartOfANameFindsTheWholeName) {
  EXPECT_EQ(nearest_names("internal", scenarios), std::vector<std::string>{"internal-error-once"});
}

TEST(NearestNames, NothingNearIsNothingOffered) {
  EXPECT_TRUE(nearest_names("zzzzzzzz", scenarios).empty());
  EXPECT_EQ(quoted_with_nearest("zzzzzzzz", scenarios), "'zzzzzzzz'");
}

} // namespace
} // namespace s3fault::text
