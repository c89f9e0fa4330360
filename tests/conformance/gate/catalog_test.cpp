// The scenario and shape catalogs: what the issue asks for is there, every scenario's rules are
// valid fault rules, shapes add up.
#include "conformance/gate/object_shapes.hpp"
#include "conformance/gate/scenarios.hpp"
#include "faults/config/build_rules.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

namespace s3fault::gate {
namespace {

TEST(Scenarios, EveryRuleParses) {
  for (const auto& s : scenarios()) {
    const auto built = faults::config::build_rules(s.rules, {}, {});
    EXPECT_TRUE(built.ok()) << s.name << ": " << (built.errors.empty() ? "" : built.errors[0]);
    EXPECT_EQ(built.rules.size(), s.rules.size()) << s.name;
  }
}

TEST(Scenarios, NamesAreUniqueAndTheRequiredOnesExist) {
  std::set<std::string> names;
  for (const auto& s : scenarios()) {
    EXPECT_TRUE(names.insert(s.name).second) << s.name;
    EXPECT_FALSE(s.title.empty()) << s.name;
    EXPECT_FALSE(s.why.empty()) << s.name;
  }
  for (const char* required :
       {"baseline", "strip-parts-count", "strip-content-range", "strip-both", "parts-count-low",
        "parts-count-high", "slowdown-first-2", "slowdown-always", "internal-error-once",
        "reset-before-headers-once", "truncate-close", "truncate-consistent-whole",
        "truncate-consistent-part-2", "corrupt", "replaced-between-reads", "throttled-body",
        "stalled-body"}) {
    EXPECT_TRUE(names.count(required)) << required;
  }
}

TEST(Scenarios, ExpectationsMatchWhatCanBeRecovered) {
  for (const auto& s : scenarios()) {
    if (s.name == "baseline" || s.name == "strip-parts-count" || s.name == "slowdown-first-2" ||
        s.name == "internal-error-once") {
      EXPECT_EQ(s.expect, expectation::must_recover) << s.name;
    }
    if (s.name == "slowdown-always" || s.name == "corrupt" || s.name == "truncate-close") {
      EXPECT_EQ(s.expect, expectation::must_not_corrupt) << s.name;
    }
  }
}

TEST(Shapes, PartsAddUpAndTheRequiredOnesExist) {
  std::set<std::string> names;
  for (const auto& shape : object_shapes()) {
    names.insert(shape.name);
    if (shape.multipart()) {
      EXPECT_EQ(std::accumulate(shape.part_sizes.begin(), shape.part_sizes.end(), 0ull), shape.size)
          << shape.name;
    }
  }
  for (const char* required :
       {"empty", "1KiB", "single-20MiB", "mp-20MiB-8-8-4", "mp-16MiB-8-8", "mp-8MiB+1"}) {
    EXPECT_TRUE(names.count(required)) << required;
  }
}

} // namespace
} // namespace s3fault::gate
