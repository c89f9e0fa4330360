// Counting a reader's traffic from exchange records: only the watched key, per operation,
// retries after failures and faults, bytes.
#include "conformance/gate/traffic_counter.hpp"

#include <gtest/gtest.h>

namespace s3fault::gate {
namespace {

proxy::exchange_record exchange(std::string method, std::string target, unsigned status,
                                std::string faults = "",
                                proxy::outcome_kind outcome = proxy::outcome_kind::ok) {
  proxy::exchange_record record;
  record.method = std::move(method);
  record.target = std::move(target);
  record.status = status;
  record.store_status = status;
  record.response_bytes = 100;
  record.faults = std::move(faults);
  record.outcome.kind = outcome;
  return record;
}

TEST(TrafficCounter, CountsOnlyTheWatchedKeyPerOperation) {
  traffic_counter counter;
  counter.watch("b", "k");
  counter.count(exchange("GET", "/b/k?partNumber=1", 206));
  counter.count(exchange("GET", "/b/k?partNumber=2", 206));
  counter.count(exchange("HEAD", "/b/k", 200));
  counter.count(exchange("GET", "/b/other", 200));
  const auto seen = counter.snapshot();
  EXPECT_EQ(seen.requests, 3u);
  EXPECT_EQ(seen.by_operation.at("GetObject"), 2u);
  EXPECT_EQ(seen.by_operation.at("HeadObject"), 1u);
  EXPECT_EQ(seen.bytes_to_reader, 300u);
  EXPECT_EQ(seen.retries, 0u);
}

TEST(TrafficCounter, ARepeatAfterAFailureOrAFaultIsARetry) {
  traffic_counter counter;
  counter.watch("b", "k");
  counter.count(exchange("GET", "/b/k?partNumber=1", 503, "slow:error"));
  counter.count(exchange("GET", "/b/k?partNumber=1", 206));
  counter.count(exchange("GET", "/b/k?partNumber=2", 206, "", proxy::outcome_kind::fault_body_cut));
  counter.count(exchange("GET", "/b/k?partNumber=2", 206));
  counter.count(exchange("GET", "/b/k?partNumber=2", 206)); // after a success: not a retry
  const auto seen = counter.snapshot();
  EXPECT_EQ(seen.retries, 2u);
  EXPECT_EQ(seen.errors, 2u);
  EXPECT_EQ(seen.faults_injected, 1u);
}

TEST(TrafficCounter, WatchStartsFromZero) {
  traffic_counter counter;
  counter.watch("b", "k");
  counter.count(exchange("GET", "/b/k", 200, "a:strip-header,b:truncate"));
  EXPECT_EQ(counter.snapshot().faults_injected, 2u);
  counter.watch("b", "k2");
  EXPECT_EQ(counter.snapshot().requests, 0u);
}

TEST(TrafficCounter, ABodyFaultOnAnErrorAnswerDoesNotTouchTheObject) {
  // The empty object's GET answers 416: a truncation of that error body cut no object byte.
  traffic_counter counter;
  counter.watch("b", "empty");
  counter.count(exchange("GET", "/b/empty", 416, "cut:truncate"));
  counter.count(exchange("GET", "/b/empty", 416, "cut:corrupt,cut:reset-after"));
  auto seen = counter.snapshot();
  EXPECT_EQ(seen.faults_injected, 3u);
  EXPECT_EQ(seen.faults_on_object, 0u);
  EXPECT_EQ(seen.faults_elsewhere, std::set<std::string>{"GetObject 416"});
  counter.count(exchange("GET", "/b/empty", 200, "cut:truncate"));
  EXPECT_EQ(counter.snapshot().faults_on_object, 1u);
}

TEST(TrafficCounter, AHeaderFaultCountsOnA2xxGetOrHeadOfTheObject) {
  traffic_counter counter;
  counter.watch("b", "k");
  counter.count(exchange("HEAD", "/b/k", 200, "strip:strip-header"));
  counter.count(exchange("GET", "/b/k?partNumber=1", 206, "strip:strip-header"));
  counter.count(exchange("GET", "/b/k?partNumber=9", 416, "strip:strip-header"));
  counter.count(exchange("HEAD", "/b/k", 200, "cut:truncate")); // a HEAD has no body
  const auto seen = counter.snapshot();
  EXPECT_EQ(seen.faults_on_object, 2u);
  EXPECT_EQ(seen.faults_elsewhere, (std::set<std::string>{"GetObject 416", "HeadObject 200"}));
}

TEST(TrafficCounter, AFaultInsteadOfTheStoreAlwaysTouchesTheReader) {
  traffic_counter counter;
  counter.watch("b", "k");
  auto refused = exchange("GET", "/b/k", 503, "slow:error");
  refused.store_status = 0; // the proxy answered; the store never saw the request
  counter.count(refused);
  auto hung = exchange("GET", "/b/k", 0, "silent:hang");
  counter.count(hung);
  EXPECT_EQ(counter.snapshot().faults_on_object, 2u);
}

TEST(TrafficCounter, AWritersFaultCountsOnlyOnTheUpload) {
  traffic_counter counter;
  counter.watch("b", "k", run_role::writer);
  counter.count(exchange("PUT", "/b/k", 503, "slow:error"));
  counter.count(exchange("PUT", "/b/k?partNumber=1&uploadId=u", 200, "etag:set-header"));
  counter.count(exchange("POST", "/b/k?uploadId=u", 500, "ie:error"));
  counter.count(exchange("HEAD", "/b/k", 404, "slow:error"));
  const auto seen = counter.snapshot();
  EXPECT_EQ(seen.faults_injected, 4u);
  EXPECT_EQ(seen.faults_on_object, 3u);
  EXPECT_EQ(seen.faults_elsewhere, std::set<std::string>{"HeadObject 404"});
}

} // namespace
} // namespace s3fault::gate
