#include "action_test_support.hpp"
#include "text/text.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace s3fault::faults;
using namespace s3fault::faults::testing;
using namespace std::chrono_literals;
using s3fault::text::iequal;

namespace {

/// A response head in memory, as the proxy's editor presents one.
class fake_head final : public response_head_editor {
public:
  unsigned status() const override { return status_; }
  void set_status(unsigned status) override { status_ = status; }
  std::optional<std::string> header(std::string_view name) const override {
    for (const auto& [field, value] : fields_) {
      if (iequal(field, name)) {
        return value;
      }
    }
    return std::nullopt;
  }
  void remove_header(std::string_view name) override {
    std::erase_if(fields_, [&](const auto& field) { return iequal(field.first, name); });
  }
  void set_header(std::string_view name, std::string_view value) override {
    remove_header(name);
    fields_.emplace_back(name, value);
  }

  unsigned status_ = 206;
  std::vector<std::pair<std::string, std::string>> fields_ = {
      {"Content-Length", "8388608"},
      {"x-amz-mp-parts-count", "3"},
      {"ETag", "\"abc-3\""},
  };
};

} // namespace

TEST(StripHeader, RemovesTheFieldWhateverItsCase) {
  fake_head head;
  make_action("strip-header", R"({"name": "X-Amz-Mp-Parts-Count"})")->apply_to_head(head);
  EXPECT_FALSE(head.header("x-amz-mp-parts-count"));
  EXPECT_EQ(head.header("Content-Length"), "8388608");
  EXPECT_EQ(head.status(), 206u);
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
