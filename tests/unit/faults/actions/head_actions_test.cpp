#include "../fake_response_head.hpp"
#include "action_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace s3fault::faults;
using namespace s3fault::faults::testing;
using namespace std::chrono_literals;

TEST(StripHeader, RemovesTheFieldWhateverItsCase) {
  fake_head head;
  EXPECT_TRUE(
      make_action("strip-header", R"({"name": "X-Amz-Mp-Parts-Count"})")->apply_to_head(head));
  EXPECT_FALSE(head.header("x-amz-mp-parts-count"));
  EXPECT_EQ(head.header("Content-Length"), "8388608");
  EXPECT_EQ(head.status(), 206u);
}

TEST(StripHeader, OfAnAbsentFieldChangesNothingAndSaysSo) {
  fake_head head;
  const auto action = make_action("strip-header", R"({"name": "x-amz-checksum-crc32"})");
  EXPECT_FALSE(action->apply_to_head(head));
  EXPECT_EQ(head.fields_.size(), 3u);
  EXPECT_TRUE(action->may_change_nothing()); // so its rule is counted only when it removed one
}

TEST(HeadActions, ThatAlwaysChangeTheHeadSaySoAndCountWhateverHappens) {
  fake_head head;
  for (const auto& [type, params] : std::vector<std::pair<std::string, std::string>>{
           {"set-header", R"({"name": "ETag", "value": "\"abc-3\""})"},
           {"set-status", R"({"code": 206})"}}) {
    const auto action = make_action(type, params);
    EXPECT_TRUE(action->apply_to_head(head)) << type;
    EXPECT_FALSE(action->may_change_nothing()) << type;
  }
  const auto delay = make_action("first-byte-delay", R"({"duration": "1s"})");
  EXPECT_FALSE(delay->apply_to_head(head)); // it holds the head, it does not edit it
  EXPECT_FALSE(delay->may_change_nothing());
}

TEST(SetHeader, ReplacesOrAdds) {
  fake_head head;
  make_action("set-header", R"({"name": "x-amz-mp-parts-count", "value": "1"})")
      ->apply_to_head(head);
  make_action("set-header", R"({"name": "x-extra", "value": "yes"})")->apply_to_head(head);
  EXPECT_EQ(head.header("x-amz-mp-parts-count"), "1");
  EXPECT_EQ(head.header("x-extra"), "yes");
  EXPECT_EQ(head.fields_.size(), 4u);
}

TEST(SetStatus, ChangesOnlyTheStatus) {
  fake_head head;
  make_action("set-status", R"({"code": 200})")->apply_to_head(head);
  EXPECT_EQ(head.status(), 200u);
  EXPECT_EQ(head.fields_.size(), 3u);
}

TEST(FirstByteDelay, GivesItsDurationAndLeavesTheHead) {
  fake_head head;
  const auto action = make_action("first-byte-delay", R"({"duration": "1500ms"})");
  action->apply_to_head(head);
  EXPECT_EQ(action->first_byte_delay(), 1500ms);
  EXPECT_EQ(head.status(), 206u);
  EXPECT_EQ(head.fields_.size(), 3u);
}

TEST(HeadActions, HaveNoBodyFilterAndNoDelayUnlessTheyAreOne) {
  random_engine random(1);
  for (const auto& [type, params] : std::vector<std::pair<std::string, std::string>>{
           {"strip-header", R"({"name": "ETag"})"},
           {"set-header", R"({"name": "ETag", "value": "x"})"},
           {"set-status", R"({"code": 500})"}}) {
    const auto action = make_action(type, params);
    EXPECT_EQ(action->make_body_filter(random), nullptr) << type;
    EXPECT_EQ(action->first_byte_delay(), clock::duration::zero()) << type;
  }
}
