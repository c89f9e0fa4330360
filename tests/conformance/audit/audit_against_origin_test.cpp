// A whole audit, in this process, against an embedded origin (which implements the contract):
// every check passes, the fixtures are removed afterwards, and an unreachable or refusing store
// is reported as unusable rather than as failed checks.
#include "conformance/audit/audit_reports.hpp"
#include "conformance/audit/audit_runner.hpp"
#include "conformance/origin/embedded_origin.hpp"

#include <gtest/gtest.h>

namespace s3fault::audit {
namespace {

audit_settings settings_for(const std::string& endpoint) {
  audit_settings settings;
  settings.client.endpoint = endpoint;
  settings.client.credentials = {"s3fault", "s3fault-secret", ""};
  return settings;
}

TEST(AuditAgainstOrigin, EveryCheckPassesAndNothingIsLeftBehind) {
  origin::embedded_origin origin;
  std::vector<std::string> progress;
  audit_observer observer;
  observer.check_done = [&](const check_result& r) { progress.push_back(r.id); };
  const auto report = run_audit(settings_for(origin.url()), observer);
  EXPECT_GE(report.results.size(), 40u);
  EXPECT_EQ(progress.size(), report.results.size());
  for (const auto& r : report.results) {
    EXPECT_EQ(r.outcome.result, verdict::pass)
        << r.id << ": " << r.outcome.reason
        << (r.outcome.expectations.empty() ? "" : " " + r.outcome.expectations[0].observed);
    EXPECT_FALSE(r.outcome.exchanges.empty()) << r.id << " made no request";
  }
  EXPECT_EQ(audit_exit_status(report), 0);

  client::s3_client client(settings_for(origin.url()).client);
  const auto buckets = client.list_buckets();
  ASSERT_TRUE(buckets.ok());
  EXPECT_TRUE(buckets.value->buckets.empty()) << "the audit's bucket was left behind";
}

TEST(AuditAgainstOrigin, KeepLeavesTheFixturesInAGivenBucket) {
  origin::embedded_origin origin;
  client::s3_client client(settings_for(origin.url()).client);
  ASSERT_TRUE(client.create_bucket("mine").ok());
  auto settings = settings_for(origin.url());
  settings.bucket = "mine";
  settings.keep = true;
  settings.check_globs = {"etag.*"};
  const auto report = run_audit(settings);
  EXPECT_EQ(report.bucket, "mine");
  for (const auto& r : report.results) {
    EXPECT_EQ(r.id.rfind("etag.", 0), 0u);
  }
  const auto listed = client.list_objects_v2("mine");
  ASSERT_TRUE(listed.ok());
  // Five fixtures plus the object etag.changes-with-content replaced.
  EXPECT_EQ(listed.value->contents.size(), 6u);
}

TEST(AuditAgainstOrigin, AGivenBucketIsKeptButEmptiedOfTheAuditsObjects) {
  origin::embedded_origin origin;
  client::s3_client client(settings_for(origin.url()).client);
  ASSERT_TRUE(client.create_bucket("mine").ok());
  auto settings = settings_for(origin.url());
  settings.bucket = "mine";
  settings.check_globs = {"etag.changes-with-content", "checksum.*"};
  run_audit(settings);
  const auto listed = client.list_objects_v2("mine");
  ASSERT_TRUE(listed.ok());
  EXPECT_TRUE(listed.value->contents.empty());
}

TEST(AuditAgainstOrigin, WrongCredentialsMakeTheStoreUnusable) {
  origin::embedded_origin origin;
  auto settings = settings_for(origin.url());
  settings.client.credentials.secret_key = "wrong";
  try {
    run_audit(settings);
    FAIL() << "expected store_unusable";
  } catch (const store_unusable& error) {
    EXPECT_NE(std::string(error.what()).find("403"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("SignatureDoesNotMatch"), std::string::npos)
        << error.what();
  }
}

TEST(AuditAgainstOrigin, NoStoreListeningMakesTheStoreUnusable) {
  std::string url;
  {
    origin::embedded_origin gone;
    url = gone.url();
  }
  EXPECT_THROW(run_audit(settings_for(url)), store_unusable);
}

TEST(AuditAgainstOrigin, GlobsThatSelectNothingAreRefusedBeforeAnyRequest) {
  EXPECT_THROW(
      [] {
        auto settings = settings_for("http://127.0.0.1:9");
        settings.check_globs = {"nothing.*"};
        run_audit(settings);
      }(),
      std::invalid_argument);
}

} // namespace
} // namespace s3fault::audit
