// The rule store's snapshots over time, with a clock the test moves: `after` and `until` count
// from when a rule was installed, and a rule keeps its install time exactly as long as it keeps
// its counters.
#include "faults/rule_store.hpp"

#include "faults/config/fault_spec.hpp"
#include "faults/config/rule_parser.hpp"

#include <gtest/gtest.h>

namespace s3fault::faults {
namespace {

using std::chrono::seconds;

/// Validated rules from one-line specs (asserting they are valid).
std::vector<rule> rules_from(const std::vector<std::string>& specs) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& spec : specs) {
    error_list errors;
    const auto rule_json = config::fault_spec_to_json(spec, errors);
    EXPECT_TRUE(rule_json) << spec << ": " << ::testing::PrintToString(errors);
    list.push_back(rule_json.value_or(nlohmann::json::object()));
  }
  auto build = config::parse_rule_document(list);
  EXPECT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  return std::move(build.rules);
}

/// A store whose clock is `now_`, moved by the test.
class rule_store_clock : public ::testing::Test {
protected:
  /// Names of the rules that inject into one GET at the clock's current time.
  std::vector<std::string> injecting() const {
    const auto request = classify_request({"GET", "/b/k", "127.0.0.1", {}});
    std::vector<std::string> names;
    for (const auto& injected : store_.current()->decide(request, "GET", {}, now_).injected) {
      names.push_back(injected.rule);
    }
    return names;
  }
  const rule& find(std::string_view name) const {
    for (const auto& r : store_.current()->rules()) {
      if (r.name == name) {
        return r;
      }
    }
    throw std::runtime_error("no rule " + std::string(name));
  }

  clock::time_point start_ = clock::now();
  clock::time_point now_ = start_;
  rule_store store_{1, start_, [this] { return now_; }};
};

using names = std::vector<std::string>;

TEST_F(rule_store_clock, a_rule_added_live_waits_for_after_from_its_installation) {
  store_.replace_all(rules_from({"reset after=2s name=early"}));
  now_ = start_ + seconds(10);
  EXPECT_EQ(injecting(), names{"early"});
  std::string taken;
  ASSERT_EQ(store_.add(rules_from({"reset after=2s name=late"}), taken),
            rule_store::change_error::none);
  EXPECT_EQ(find("late").installed, start_ + seconds(10));
  EXPECT_EQ(injecting(), names{"early"}); // not at once: 0s since installed
  now_ = start_ + seconds(11);
  EXPECT_EQ(injecting(), names{"early"});
  now_ = start_ + seconds(12);
  EXPECT_EQ(injecting(), (names{"early", "late"}));
}

TEST_F(rule_store_clock, until_counts_from_the_installation_too) {
  now_ = start_ + seconds(100);
  store_.replace_all(rules_from({"reset until=5s name=brief"}));
  now_ = start_ + seconds(104);
  EXPECT_EQ(injecting(), names{"brief"}); // 4s after installation, though 104s after start
  now_ = start_ + seconds(105);
  EXPECT_TRUE(injecting().empty());
}

TEST_F(rule_store_clock, an_unchanged_rule_keeps_its_install_time_a_changed_one_gets_a_new_one) {
  store_.replace_all(rules_from({"reset after=2s name=same", "reset after=2s name=changed"}));
  now_ = start_ + seconds(30);
  store_.replace_all(rules_from({"reset after=2s name=same", "reset after=3s name=changed"}));
  EXPECT_EQ(find("same").installed, start_);
  EXPECT_EQ(find("changed").installed, start_ + seconds(30));
  EXPECT_EQ(injecting(), names{"same"});
  now_ = start_ + seconds(33);
  EXPECT_EQ(injecting(), (names{"same", "changed"}));
  // Adding and removing other rules leaves both alone.
  std::string taken;
  ASSERT_EQ(store_.add(rules_from({"delay 1s name=other"}), taken), rule_store::change_error::none);
  ASSERT_EQ(store_.remove("other"), rule_store::change_error::none);
  EXPECT_EQ(find("same").installed, start_);
  EXPECT_EQ(find("changed").installed, start_ + seconds(30));
}

TEST_F(rule_store_clock, disable_and_enable_keep_the_install_time) {
  store_.replace_all(rules_from({"reset after=20s name=slow-start"}));
  now_ = start_ + seconds(10);
  ASSERT_EQ(store_.set_enabled("slow-start", false), rule_store::change_error::none);
  now_ = start_ + seconds(15);
  ASSERT_EQ(store_.set_enabled("slow-start", true), rule_store::change_error::none);
  EXPECT_EQ(find("slow-start").installed, start_);
  now_ = start_ + seconds(20);
  EXPECT_EQ(injecting(), names{"slow-start"}); // 20s after installation, not 5s after enabling
}

TEST_F(rule_store_clock, a_rule_replaced_by_the_same_name_with_a_new_definition_starts_over) {
  store_.replace_all(rules_from({"reset until=10s name=r"}));
  now_ = start_ + seconds(50);
  EXPECT_TRUE(injecting().empty());
  store_.replace_all(rules_from({"reset until=10s op=GetObject name=r"}));
  EXPECT_EQ(injecting(), names{"r"}); // the same schedule in a new definition: a new window
}

} // namespace
} // namespace s3fault::faults
