// The catalog's shape: enough checks, unique IDs named after their area, every one described
// (title, clause) so that a report line explains itself.
#include "conformance/audit/audit_runner.hpp"
#include "conformance/audit/check_catalog.hpp"
#include "faults/config/profiles.hpp"

#include <gtest/gtest.h>

#include <set>

namespace s3fault::audit {
namespace {

TEST(Catalog, HasAtLeastFortyChecksWithUniqueIds) {
  const auto& catalog = audit_catalog();
  EXPECT_GE(catalog.size(), 40u);
  std::set<std::string> ids;
  for (const auto& check : catalog) {
    EXPECT_TRUE(ids.insert(check.id).second) << "duplicate ID " << check.id;
  }
}

TEST(Catalog, EveryCheckIsDescribedAndNamedAfterItsArea) {
  for (const auto& check : audit_catalog()) {
    EXPECT_EQ(check.id.rfind(check.area + ".", 0), 0u) << check.id;
    EXPECT_FALSE(check.title.empty()) << check.id;
    EXPECT_FALSE(check.clause.empty()) << check.id;
    EXPECT_TRUE(static_cast<bool>(check.run)) << check.id;
    EXPECT_NE(area_title(check.area), check.area) << "no title for area " << check.area;
  }
}

TEST(Catalog, AreasAreContiguousSoTheTableGroupsThem) {
  std::set<std::string> finished;
  std::string current;
  for (const auto& check : audit_catalog()) {
    if (check.area != current) {
      EXPECT_FALSE(finished.count(check.area)) << check.area << " appears twice";
      finished.insert(current);
      current = check.area;
    }
  }
}

TEST(Catalog, CoversEveryClauseGroupOfTheContract) {
  std::set<std::string> areas;
  for (const auto& check : audit_catalog()) {
    areas.insert(check.area);
  }
  for (const char* area : {"part", "range", "cond", "etag", "error", "agree", "checksum", "attrs",
                           "version", "upload", "auth"}) {
    EXPECT_TRUE(areas.count(area)) << area;
  }
}

TEST(Catalog, TheWriteAuthAndVersionChecksHaveTheirLevels) {
  const std::vector<std::pair<std::string, level>> expected{
      {"cond.304-etag", level::must},
      {"cond.head-304-etag", level::must},
      {"cond.304-last-modified", level::should},
      {"cond.head-304-last-modified", level::should},
      {"cond.put-if-none-match-star", level::may},
      {"attrs.parts-agree", level::must},
      {"attrs.parts-pagination", level::should},
      {"version.get-older", level::must},
      {"version.part-read", level::must},
      {"version.range-read", level::must},
      {"version.delete-marker", level::must},
      {"upload.complete-retry", level::should},
      {"upload.complete-unknown-upload", level::must},
      {"auth.wrong-secret", level::must},
      {"auth.anonymous", level::must},
      {"auth.presign-expired", level::must}};
  for (const auto& [id, strength] : expected) {
    const auto chosen = select_checks({id});
    ASSERT_EQ(chosen.size(), 1u) << id;
    EXPECT_EQ(chosen[0]->strength, strength) << id;
  }
}

TEST(Catalog, TheCountHeaderChecksCoverGetAndHead) {
  const auto chosen = select_checks({"part.*count-header"});
  ASSERT_EQ(chosen.size(), 2u);
  EXPECT_EQ(chosen[0]->id, "part.count-header");
  EXPECT_EQ(chosen[1]->id, "part.head-count-header");
  EXPECT_EQ(chosen[0]->strength, level::must);
}

TEST(SelectChecks, GlobsPickInCatalogOrderWithoutDuplicates) {
  const auto chosen = select_checks({"range.suffix*", "range.*"});
  std::size_t ranges = 0;
  for (const auto& check : audit_catalog()) {
    ranges += check.area == "range";
  }
  EXPECT_EQ(chosen.size(), ranges);
  EXPECT_EQ(chosen.front()->id, "range.closed");
  EXPECT_TRUE(select_checks({"no.such.*"}).empty());
  EXPECT_EQ(select_checks({"*"}).size(), audit_catalog().size());
}

} // namespace
} // namespace s3fault::audit

// Every check a shipped store profile names (a rule's reproduces, a deviation not reproduced)
// is one of the catalog's: a renamed check cannot leave a profile proving nothing.
TEST(Catalog, ShippedProfilesNameOnlyRealChecks) {
  std::set<std::string> ids;
  for (const auto& check : s3fault::audit::audit_catalog()) {
    ids.insert(check.id);
  }
  for (const auto& shipped : s3fault::faults::config::shipped_profiles()) {
    s3fault::faults::error_list errors;
    const auto profile = s3fault::faults::config::load_profile(std::string(shipped.name), errors);
    ASSERT_TRUE(profile) << ::testing::PrintToString(errors);
    const bool audited = profile->description.source.starts_with("s3fault audit");
    for (const auto& [check, why] : profile->description.not_reproduced) {
      if (audited) {
        EXPECT_TRUE(ids.contains(check)) << shipped.name << " not_reproduced: " << check;
      }
      EXPECT_FALSE(why.empty()) << shipped.name << " " << check;
    }
    for (const auto& entry : profile->rules.entries) {
      for (const auto& id : entry.definition.value("reproduces", nlohmann::json::array())) {
        EXPECT_TRUE(ids.contains(id.get<std::string>())) << shipped.name << " reproduces " << id;
      }
    }
  }
}
