// A rule made only of actions that may change nothing (body filters, header removals) counts as
// injected in an exchange only when one of them changed something: a cut past the end, a reset
// after more bytes than came, offsets beyond the body, an exchange without that body or a strip
// of a header the response lacks are taken back as skipped.
#include "../fake_response_head.hpp"
#include "faults/config/build_rules.hpp"
#include "faults/response_document.hpp"
#include "faults/rule_set.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace s3fault::faults;
using s3fault::faults::testing::fake_head;

namespace {

rule_set rules_of(std::vector<std::string> specs) {
  auto built = config::build_rules(specs, {}, {}, 1);
  EXPECT_TRUE(built.ok()) << ::testing::PrintToString(built.errors);
  return rule_set(std::move(built.rules), 1, clock::now());
}

/// Rules from a JSON document, for rules with several actions.
rule_set rules_from_json(const char* document) {
  auto built = config::parse_rule_document(nlohmann::json::parse(document));
  EXPECT_TRUE(built.ok()) << ::testing::PrintToString(built.errors);
  return rule_set(std::move(built.rules), 1, clock::now());
}

const s3_request request = classify_request({"GET", "/b/k", "127.0.0.1", {}});

/// Decides one exchange, applies its header actions to `head` (when the store answered), feeds
/// a body of `length` bytes (declared) through its response filters as the proxy would, then
/// settles. Returns the decision.
exchange_decision exchange(const rule_set& rules, std::uint64_t length, fake_head* head = nullptr) {
  auto decision = rules.decide(request, "GET", {}, clock::now());
  if (head != nullptr) {
    decision.apply_head_actions(*head);
  }
  std::string body(length, 'b');
  for (auto& filter : decision.response_filters) {
    filter->announce_length(length);
    std::uint64_t offset = 0;
    std::span<char> rest(body);
    while (!rest.empty()) {
      const auto step = filter->on_bytes(rest, offset, clock::now());
      if (step.end != body_step::ending::none || step.body_complete ||
          (step.pass == 0 && step.pause == clock::duration::zero())) {
        break;
      }
      offset += step.pass;
      rest = rest.subspan(step.pass);
    }
  }
  rules.settle_injections(decision, request);
  return decision;
}

struct counts {
  std::uint64_t matched, injected, skipped;
  bool operator==(const counts&) const = default;
};
counts counters(const rule_set& rules, std::size_t index = 0) {
  const auto& state = *rules.rules().at(index).state;
  return {state.matched.load(), state.injected.load(), state.skipped.load()};
}

} // namespace

TEST(FilterSettle, FiltersThatChangedNothingAreTakenBack) {
  for (const char* spec :
       {"truncate 100%", "truncate 5000", "truncate 1000 mode=consistent",
        "truncate 100% mode=length-only", "reset-after 2000", "corrupt 4000", "stall 4000 1ms"}) {
    SCOPED_TRACE(spec);
    const auto rules = rules_of({spec});
    const auto decision = exchange(rules, 1000);
    EXPECT_TRUE(decision.injected.empty());
    EXPECT_EQ(counters(rules), (counts{1, 0, 1}));
  }
}

TEST(FilterSettle, FiltersThatChangedTheBodyCount) {
  for (const char* spec :
       {"truncate 50%", "truncate 999 mode=consistent", "truncate 0 mode=length-only",
        "reset-after 10", "reset-after 1000", "reset-after 50%", "corrupt 0", "stall 10 1ms"}) {
    SCOPED_TRACE(spec);
    const auto rules = rules_of({spec});
    const auto decision = exchange(rules, 1000);
    ASSERT_EQ(decision.injected.size(), 1u);
    EXPECT_EQ(counters(rules), (counts{1, 1, 0}));
  }
}

TEST(FilterSettle, AnExchangeWithoutTheBodyDoesNotCount) {
  const auto rules = rules_of({"truncate 10"});
  auto decision = rules.decide(request, "GET", {}, clock::now());
  ASSERT_EQ(decision.injected.size(), 1u); // pending until the exchange ends
  rules.settle_injections(decision, request);
  EXPECT_TRUE(decision.injected.empty());
  EXPECT_EQ(counters(rules), (counts{1, 0, 1}));
}

TEST(FilterSettle, RulesWithOtherActionsAlwaysCountAndOthersAreUntouched) {
  const auto rules = rules_of({"truncate 100% name=cut", "set-header x-a b name=tag"});
  const auto decision = exchange(rules, 1000);
  ASSERT_EQ(decision.injected.size(), 1u);
  EXPECT_EQ(decision.injected[0].rule, "tag");
  EXPECT_EQ(counters(rules, 0), (counts{1, 0, 1}));
  EXPECT_EQ(counters(rules, 1), (counts{1, 1, 0}));
}

TEST(FilterSettle, ATakenBackInjectionFreesItsPlaceInTimes) {
  const auto rules = rules_of({"truncate 500 times=1"});
  exchange(rules, 100);                                 // nothing to cut: taken back
  EXPECT_EQ(exchange(rules, 1000).injected.size(), 1u); // so this one may still inject
  EXPECT_EQ(exchange(rules, 1000).injected.size(), 0u); // and then times is used up
  EXPECT_EQ(counters(rules), (counts{3, 1, 2}));
}

TEST(HeadSettle, AStripOfAnAbsentHeaderIsTakenBack) {
  const auto rules = rules_of({"strip-header x-amz-checksum-crc32"});
  fake_head head;
  const auto decision = exchange(rules, 0, &head);
  EXPECT_TRUE(decision.injected.empty());
  EXPECT_EQ(counters(rules), (counts{1, 0, 1}));
  EXPECT_EQ(head.fields_.size(), 3u);
}

TEST(HeadSettle, AStripThatRemovedTheFieldCounts) {
  const auto rules = rules_of({"strip-header x-amz-mp-parts-count name=strip"});
  fake_head head;
  const auto decision = exchange(rules, 0, &head);
  ASSERT_EQ(decision.injected.size(), 1u);
  EXPECT_EQ(decision.injected[0].rule, "strip");
  EXPECT_EQ(decision.injected[0].action, "strip-header");
  EXPECT_EQ(counters(rules), (counts{1, 1, 0}));
}

TEST(HeadSettle, AStripWithoutAHeadToStripFromIsTakenBack) {
  // The store never answered: no head reached the actions.
  const auto rules = rules_of({"strip-header x-amz-mp-parts-count"});
  EXPECT_TRUE(exchange(rules, 0).injected.empty());
  EXPECT_EQ(counters(rules), (counts{1, 0, 1}));
}

TEST(HeadSettle, ATakenBackStripFreesItsPlaceInTimes) {
  const auto rules = rules_of({"strip-header x-amz-mp-parts-count times=1"});
  fake_head without;
  without.remove_header("x-amz-mp-parts-count");
  exchange(rules, 0, &without); // nothing to strip: taken back
  fake_head with;
  EXPECT_EQ(exchange(rules, 0, &with).injected.size(), 1u); // so this one may still inject
  fake_head again;
  EXPECT_EQ(exchange(rules, 0, &again).injected.size(), 0u); // and then times is used up
  EXPECT_TRUE(again.header("x-amz-mp-parts-count"));
  EXPECT_EQ(counters(rules), (counts{3, 1, 2}));
}

TEST(HeadSettle, ARuleOfStripsAndFiltersCountsWhenAnyOfThemChangedSomething) {
  const auto rules = rules_from_json(R"({"rules": [{"name": "both", "actions": [
      {"strip-header": "x-amz-checksum-crc32"}, {"truncate": 500}]}]})");
  fake_head head;
  EXPECT_TRUE(exchange(rules, 400, &head).injected.empty());   // no field, nothing to cut
  EXPECT_EQ(exchange(rules, 1000, &head).injected.size(), 2u); // the cut: both named
  head.set_header("x-amz-checksum-crc32", "AAAAAA==");
  EXPECT_EQ(exchange(rules, 400, &head).injected.size(), 2u); // the strip
  EXPECT_EQ(counters(rules), (counts{3, 2, 1}));
}

TEST(HeadSettle, AStripBesideAnActionThatAlwaysActsAlwaysCounts) {
  const auto rules = rules_from_json(R"({"rules": [{"name": "tag", "actions": [
      {"strip-header": "x-amz-checksum-crc32"}, {"set-header": ["x-note", "1"]}]}]})");
  fake_head head;
  EXPECT_EQ(exchange(rules, 0, &head).injected.size(), 2u);
  EXPECT_EQ(counters(rules), (counts{1, 1, 0}));
}

namespace {

/// Decides one exchange whose store answered `status` with `body`, applies the document actions
/// to it as the proxy does (unless the body was too long to buffer: `buffered` false), settles.
exchange_decision document_exchange(const rule_set& rules, unsigned status, const std::string& body,
                                    bool buffered = true) {
  auto decision = rules.decide(request, "GET", {}, clock::now());
  rules.decide_on_status(decision, request, status, clock::now());
  fake_head head;
  head.status_ = status;
  decision.apply_head_actions(head);
  if (buffered) {
    response_document document(head, body, false);
    decision.apply_document_actions(document, request);
  }
  rules.settle_injections(decision, request);
  return decision;
}

const std::string error_with_resource =
    "<Error><Code>NoSuchKey</Code><Resource>/b/k</Resource></Error>";

} // namespace

TEST(DocumentSettle, AnEditThatFoundItsElementCounts) {
  const auto rules = rules_of({"xml-remove Error/Resource name=rgw"});
  const auto decision = document_exchange(rules, 404, error_with_resource);
  ASSERT_EQ(decision.injected.size(), 1u);
  EXPECT_EQ(decision.injected[0].action, "xml-remove");
  EXPECT_EQ(counters(rules), (counts{1, 1, 0}));
}

TEST(DocumentSettle, AnEditThatChangedNothingIsTakenBack) {
  for (const char* spec : {"xml-remove Error/Message", "xml-set Error/Code NoSuchKey",
                           "xml-set Other/Code x", "xml-set Error/Code x times=1"}) {
    SCOPED_TRACE(spec);
    const auto rules = rules_of({spec});
    EXPECT_TRUE(document_exchange(rules, 404, "not xml").injected.empty());
    EXPECT_TRUE(document_exchange(rules, 404, error_with_resource, false).injected.empty());
    if (std::string_view(spec).starts_with("xml-set Error/Code x")) {
      // Taken back, so `times` still has room for an exchange that changes something.
      EXPECT_EQ(document_exchange(rules, 404, error_with_resource).injected.size(), 1u);
      EXPECT_EQ(counters(rules), (counts{3, 1, 2}));
    } else {
      EXPECT_TRUE(document_exchange(rules, 404, error_with_resource).injected.empty());
      EXPECT_EQ(counters(rules), (counts{3, 0, 3}));
    }
  }
}

TEST(DocumentSettle, ReplaceWithErrorOnAStatusCountsWhenTheBodyWasThere) {
  const auto rules = rules_of({"replace-with-error InternalError 500 status=404"});
  EXPECT_EQ(document_exchange(rules, 404, error_with_resource).injected.size(), 1u);
  EXPECT_EQ(document_exchange(rules, 404, "").injected.size(), 1u);
  EXPECT_TRUE(document_exchange(rules, 200, error_with_resource).injected.empty()); // no match
  EXPECT_TRUE(document_exchange(rules, 404, error_with_resource, false).injected.empty());
  EXPECT_EQ(counters(rules), (counts{3, 2, 1}));
}

TEST(DocumentSettle, AnEditBesideAnActionThatAlwaysActsAlwaysCounts) {
  const auto rules = rules_from_json(R"({"rules": [{"name": "both", "actions": [
      {"xml-remove": "Error/Message"}, {"set-header": ["x-note", "1"]}]}]})");
  EXPECT_EQ(document_exchange(rules, 404, error_with_resource).injected.size(), 2u);
  EXPECT_EQ(counters(rules), (counts{1, 1, 0}));
}

TEST(DocumentSettle, EditsApplyInRuleOrderWhetherOrNotTheirRulesWaitedForTheStatus) {
  // The replacement waits for the status and the edit does not, yet the edit comes second.
  const auto rules = rules_of({"replace-with-error InternalError 500 status=404 name=replace",
                               "xml-set Error/Message '' name=quiet"});
  auto decision = rules.decide(request, "GET", {}, clock::now());
  rules.decide_on_status(decision, request, 404, clock::now());
  fake_head head;
  head.status_ = 404;
  response_document document(head, error_with_resource, false);
  decision.apply_document_actions(document, request);
  const std::string body = document.take_body();
  EXPECT_NE(body.find("<Code>InternalError</Code><Message></Message>"), std::string::npos) << body;
  EXPECT_EQ(head.status(), 500u);
  rules.settle_injections(decision, request);
  EXPECT_EQ(decision.injected.size(), 2u);
}
