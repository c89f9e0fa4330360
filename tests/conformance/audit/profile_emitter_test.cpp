// --emit-profile: each known deviation becomes its rule, an unknown one is listed as not
// reproduced with what the store did, a check that passed or erred makes nothing, and what is
// written loads as a profile.
#include "conformance/audit/profile_emitter.hpp"

#include "faults/config/profiles.hpp"
#include "faults/config/rule_file.hpp"

#include <gtest/gtest.h>

namespace s3fault::audit {
namespace {

check_result result(const std::string& id, verdict v, const std::string& observed,
                    const std::string& reason = "") {
  check_result r;
  r.id = id;
  r.outcome.result = v;
  r.outcome.reason = reason;
  if (!observed.empty()) {
    r.outcome.expectations.push_back({"what the contract says", observed, false});
  }
  return r;
}

audit_report report_of(std::vector<check_result> results) {
  audit_report report;
  report.endpoint = "http://127.0.0.1:1";
  report.store_server = "Store/1.2";
  report.started_at = "2026-12-01T00:00:00Z";
  report.results = std::move(results);
  return report;
}

faults::config::rule_build load(const emitted_profile& emitted) {
  faults::error_list errors;
  const auto document = faults::config::read_rule_text(emitted.yaml, "emitted.yaml", errors);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors) << emitted.yaml;
  EXPECT_TRUE(document.profile.has_value()) << emitted.yaml;
  if (document.profile) {
    EXPECT_TRUE(faults::config::read_profile_description(*document.profile, "e", errors))
        << ::testing::PrintToString(errors);
  }
  return faults::config::parse_rules(document.entries);
}

TEST(ProfileEmitter, AStoreThatIgnoresPartNumberGetsTheStripQueryRule) {
  const auto report =
      report_of({result("part.status", verdict::fail, "part 1: status 200"),
                 result("part.count-header", verdict::fail, "no x-amz-mp-parts-count"),
                 result("range.closed", verdict::pass, "")});
  const auto emitted = emit_profile(report, default_identity(report));
  EXPECT_EQ(emitted.rules, 1u);
  EXPECT_EQ(emitted.reproduced, (std::vector<std::string>{"part.status", "part.count-header"}));
  EXPECT_TRUE(emitted.not_reproduced.empty());
  const auto built = load(emitted);
  ASSERT_TRUE(built.ok()) << ::testing::PrintToString(built.errors);
  ASSERT_EQ(built.rules.size(), 1u);
  EXPECT_EQ(built.rules[0].name, "store-1.2-ignores-part-number");
  EXPECT_EQ(built.rules[0].definition["actions"][0]["type"], "strip-query");
}

TEST(ProfileEmitter, OnlyAMissingCountGetsTheStripHeaderRule) {
  const auto report =
      report_of({result("part.status", verdict::pass, ""),
                 result("part.count-header", verdict::fail, "no x-amz-mp-parts-count")});
  const auto built = load(emit_profile(report, default_identity(report)));
  ASSERT_EQ(built.rules.size(), 1u);
  EXPECT_EQ(built.rules[0].definition["actions"][0]["type"], "strip-header");
  EXPECT_EQ(built.rules[0].definition["actions"][0]["name"], "x-amz-mp-parts-count");
}

TEST(ProfileEmitter, AStoreThatAnswersARangedHeadAsAGetGetsTheHeadAsGetRule) {
  const auto report =
      report_of({result("range.head-ignored", verdict::fail, "HEAD single bytes=0-9: status 206")});
  const auto emitted = emit_profile(report, default_identity(report));
  EXPECT_EQ(emitted.reproduced, (std::vector<std::string>{"range.head-ignored"}));
  const auto built = load(emitted);
  ASSERT_TRUE(built.ok()) << ::testing::PrintToString(built.errors) << emitted.yaml;
  ASSERT_EQ(built.rules.size(), 1u);
  EXPECT_EQ(built.rules[0].name, "store-1.2-ranged-head");
  EXPECT_EQ(built.rules[0].definition["match"],
            nlohmann::json::parse(R"({"operations": ["HeadObject"], "headers": {"range": "*"}})"));
  EXPECT_EQ(built.rules[0].definition["actions"][0]["type"], "head-as-get");
}

TEST(ProfileEmitter, UnknownDeviationsAreListedWithWhatTheStoreDid) {
  const auto report = report_of({result("range.zero-byte", verdict::fail, "status 206"),
                                 result("etag.quoted", verdict::deviation, "ETag: abc")});
  const auto emitted = emit_profile(report, default_identity(report));
  EXPECT_EQ(emitted.rules, 0u);
  ASSERT_EQ(emitted.not_reproduced.size(), 2u);
  EXPECT_EQ(emitted.not_reproduced[0].first, "range.zero-byte");
  EXPECT_EQ(emitted.not_reproduced[0].second,
            "expected what the contract says, observed status 206");
  EXPECT_NE(emitted.yaml.find("#   not reproduced: range.zero-byte"), std::string::npos);
  EXPECT_TRUE(load(emitted).ok());
}

TEST(ProfileEmitter, PassesAndErrorsMakeNothing) {
  const auto report = report_of({result("part.status", verdict::error, "status 200"),
                                 result("auth.anonymous", verdict::pass, "")});
  const auto emitted = emit_profile(report, default_identity(report));
  EXPECT_EQ(emitted.rules, 0u);
  EXPECT_TRUE(emitted.not_reproduced.empty());
  EXPECT_TRUE(emitted.reproduced.empty());
}

TEST(ProfileEmitter, ValuesTheStoreAnsweredWithAreCarriedOver) {
  const auto report = report_of(
      {result("upload.complete-unknown-upload", verdict::fail,
              "Complete of an upload id never issued: status 503 SlowDown"),
       result("version.get-older", verdict::skip, "",
              "PutBucketVersioning refused: 501 Not Implemented, 10 body bytes, S3 error "
              "NotImplemented (no)"),
       result("auth.wrong-secret", verdict::fail, "GET signed with a wrong secret key: status 200"),
       result("auth.presign-expired", verdict::fail, "status 200")});
  const auto built = load(emit_profile(report, {"x", "X", "1", "test"}));
  ASSERT_TRUE(built.ok()) << ::testing::PrintToString(built.errors);
  ASSERT_EQ(built.rules.size(), 3u);
  EXPECT_EQ(built.rules[0].definition["actions"][0]["presigned"], "resign");
  EXPECT_EQ(built.rules[1].definition["actions"][0]["code"], "SlowDown");
  EXPECT_EQ(built.rules[1].definition["actions"][0]["status"], 503);
  EXPECT_EQ(built.rules[2].definition["actions"][0]["code"], "NotImplemented");
  EXPECT_EQ(built.rules[2].definition["actions"][0]["status"], 501);
}

} // namespace
} // namespace s3fault::audit
