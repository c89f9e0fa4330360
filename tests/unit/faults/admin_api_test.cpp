// The admin API's logic without HTTP: a seed in a change body belongs to the whole rule set.
// PUT /rules with one reseeds the store; POST /rules may only repeat the seed in force.
#include "faults/admin_api.hpp"

#include <gtest/gtest.h>

#include <tuple>

namespace s3fault::faults {
namespace {

constexpr std::string_view one_rule = R"({"name": "slow", "actions": ["delay 1s"]})";

admin_reply call(rule_store& store, std::string_view method, std::string_view body = "") {
  return handle_admin_request(store, method, "/rules", body, "test");
}

std::string with_seed(std::uint64_t seed, std::string_view rules) {
  return R"({"seed": )" + std::to_string(seed) + R"(, "rules": )" + std::string(rules) + "}";
}

TEST(admin_api_seed, put_with_a_seed_reseeds_the_rule_set) {
  rule_store store(1, clock::now());
  const auto reply = call(store, "PUT", with_seed(77, "[" + std::string(one_rule) + "]"));
  ASSERT_EQ(reply.status, 200u) << reply.body.dump();
  EXPECT_EQ(reply.body["seed"], 77u);
  EXPECT_EQ(store.seed(), 77u);
  EXPECT_EQ(store.current()->seed(), 77u);
  EXPECT_EQ(call(store, "GET").body["seed"], 77u);
}

TEST(admin_api_seed, put_without_a_seed_keeps_the_seed_in_force) {
  rule_store store(1, clock::now());
  ASSERT_EQ(call(store, "PUT", with_seed(77, "[]")).status, 200u);
  const auto reply = call(store, "PUT", "[" + std::string(one_rule) + "]");
  ASSERT_EQ(reply.status, 200u) << reply.body.dump();
  EXPECT_EQ(reply.body["seed"], 77u);
  EXPECT_EQ(call(store, "DELETE").body["seed"], 77u);
}

TEST(admin_api_seed, a_one_line_fault_may_carry_the_seed) {
  rule_store store(1, clock::now());
  const auto reply = call(store, "PUT", R"({"fault": "delay 1s name=slow", "seed": 9})");
  ASSERT_EQ(reply.status, 200u) << reply.body.dump();
  EXPECT_EQ(reply.body["seed"], 9u);
  EXPECT_EQ(store.current()->rules().size(), 1u);
}

TEST(admin_api_seed, the_seed_reaches_the_dice) {
  // Stores started with different seeds and reseeded to the same one decide the same; reseeded
  // to another, they do not.
  const auto pattern = [](std::uint64_t started_with, std::uint64_t reseeded_to) {
    rule_store store(started_with, clock::now());
    const auto body =
        with_seed(reseeded_to,
                  R"([{"name": "coin", "schedule": {"probability": 0.5}, "actions": ["reset"]}])");
    EXPECT_EQ(call(store, "PUT", body).status, 200u);
    const auto snapshot = store.current();
    const auto request = classify_request({"GET", "/b/k", "127.0.0.1", {}});
    std::string out;
    for (int i = 0; i < 200; ++i) {
      out += snapshot->decide(request, "GET", {}, clock::now()).injected.empty() ? '0' : '1';
    }
    return out;
  };
  EXPECT_EQ(pattern(1, 5), pattern(2, 5));
  EXPECT_NE(pattern(1, 5), pattern(1, 6));
}

TEST(admin_api_seed, post_with_the_seed_in_force_adds) {
  rule_store store(42, clock::now());
  const auto reply = call(store, "POST", with_seed(42, "[" + std::string(one_rule) + "]"));
  ASSERT_EQ(reply.status, 201u) << reply.body.dump();
  EXPECT_EQ(reply.body["seed"], 42u);
  EXPECT_EQ(reply.body["rules"].size(), 1u);
}

TEST(admin_api_seed, post_with_another_seed_is_refused_and_changes_nothing) {
  rule_store store(42, clock::now());
  ASSERT_EQ(call(store, "POST", one_rule).status, 201u);
  const auto before = store.current();
  for (const std::string& body : {with_seed(7, R"([{"name": "other", "actions": ["reset"]}])"),
                                  std::string(R"({"fault": "reset name=other", "seed": 7})")}) {
    const auto reply = call(store, "POST", body);
    EXPECT_EQ(reply.status, 400u) << body;
    EXPECT_EQ(reply.body["error"]["code"], "seed_differs");
    EXPECT_EQ(reply.body["error"]["message"],
              "seed 7 differs from the seed 42 in force; a seed belongs to the whole rule set, so "
              "adding rules cannot change it: PUT /rules with the seed and every rule instead; "
              "nothing was changed");
    EXPECT_EQ(store.current(), before);
    EXPECT_EQ(store.seed(), 42u);
  }
}

TEST(admin_api_seed, a_bad_seed_is_a_named_validation_error) {
  rule_store store(42, clock::now());
  const auto reply = call(store, "PUT", R"({"seed": "x", "rules": []})");
  EXPECT_EQ(reply.status, 400u);
  EXPECT_EQ(reply.body["error"]["code"], "invalid_rules");
  EXPECT_EQ(reply.body["error"]["details"],
            nlohmann::json::array({"request body: seed: must be a whole number >= 0 (got \"x\")"}));
  EXPECT_EQ(store.seed(), 42u);
}

TEST(admin_api_counters, a_load_shaped_rule_shows_its_in_flight_peak_and_refusals) {
  rule_store store(1, clock::now());
  const auto added = call(
      store, "POST", R"({"fault": "error SlowDown name=admit op=PutObject in-flight-over=2"})");
  ASSERT_EQ(added.status, 201u) << added.body.dump();
  ASSERT_EQ(call(store, "POST", one_rule).status, 201u);
  const auto snapshot = store.current();
  const auto upload = classify_request({"PUT", "/b/k", "127.0.0.1", {}});
  std::vector<exchange_decision> held;
  for (int i = 0; i < 5; ++i) {
    held.push_back(snapshot->decide(upload, "PUT", {}, clock::now()));
  }
  held.erase(held.begin()); // the first upload ends
  const auto shown = handle_admin_request(store, "GET", "/rules/admit", "", "test");
  ASSERT_EQ(shown.status, 200u);
  EXPECT_EQ(shown.body["counters"],
            nlohmann::json::parse(R"({"matched": 5, "injected": 3, "skipped": 2,
                                      "in_flight": 1, "peak_in_flight": 2, "refusals": 3})"));
  EXPECT_EQ(shown.body["definition"]["schedule"],
            nlohmann::json::parse(R"({"in_flight_over": 2})"));
  // A rule without a load-shaped schedule keeps the three counters it always had.
  const auto plain = handle_admin_request(store, "GET", "/rules/slow", "", "test");
  EXPECT_FALSE(plain.body["counters"].contains("in_flight"));
  EXPECT_EQ(plain.body["counters"].size(), 3u);
}

TEST(admin_api_counters, a_bad_load_schedule_is_refused_with_its_reason) {
  rule_store store(1, clock::now());
  const auto reply = call(store, "POST", R"({"fault": "error SlowDown rate-per=prefix"})");
  EXPECT_EQ(reply.status, 400u);
  EXPECT_EQ(reply.body["error"]["details"],
            nlohmann::json::array({"--fault 1 ('error SlowDown rate-per=prefix'): "
                                   "schedule.rate_per: needs schedule.rate (the rate it divides)"}))
      << "the same words as `s3fault proxy --check --fault ...`";
}

} // namespace
} // namespace s3fault::faults

namespace s3fault::faults {
namespace {

std::vector<std::string> rule_names(const rule_store& store) {
  std::vector<std::string> names;
  for (const auto& r : store.current()->rules()) {
    names.push_back(r.name);
  }
  return names;
}

std::string details(const admin_reply& reply) {
  return reply.body["error"]["details"].dump();
}

TEST(admin_api_bodies, presets_and_one_line_rules_are_built_as_on_the_command_line) {
  rule_store store(1, clock::now());
  const auto reply = call(store, "POST",
                          R"({"faults": ["delay 1s name=slow", "reset op=PutObject name=cut"],
                              "presets": "rustfs-parts-count"})");
  ASSERT_EQ(reply.status, 201u) << reply.body.dump();
  // Presets first, then the one-line rules, as with --preset and --fault.
  EXPECT_EQ(rule_names(store), (std::vector<std::string>{"rustfs-parts-count", "slow", "cut"}));
}

TEST(admin_api_bodies, every_mistake_of_a_sources_body_is_named_and_nothing_changes) {
  rule_store store(1, clock::now());
  const auto reply = call(store, "PUT",
                          R"({"faults": ["truncate abc", "delay 1s"], "presets": ["nope"],
                              "extra": 1})");
  ASSERT_EQ(reply.status, 400u) << reply.body.dump();
  EXPECT_EQ(reply.body["error"]["code"], "invalid_rules");
  EXPECT_NE(details(reply).find("extra: unknown key"), std::string::npos) << details(reply);
  const auto built = call(store, "PUT", R"({"faults": ["truncate abc"], "presets": ["nope"]})");
  ASSERT_EQ(built.status, 400u);
  EXPECT_NE(details(built).find("--fault 1 ('truncate abc')"), std::string::npos) << details(built);
  EXPECT_NE(details(built).find("--preset 1 ('nope')"), std::string::npos) << details(built);
  EXPECT_EQ(call(store, "PUT", R"({"faults": [1]})").status, 400u);
  EXPECT_TRUE(rule_names(store).empty());
}

TEST(admin_api_bodies, a_yaml_rules_document_is_read_as_a_rules_file_is) {
  rule_store store(1, clock::now());
  const auto reply = call(store, "PUT",
                          "seed: 5\nrules:\n  - name: slow\n    match: {operations: [GetObject]}\n"
                          "    actions: [{type: error, code: SlowDown}]\n");
  ASSERT_EQ(reply.status, 200u) << reply.body.dump();
  EXPECT_EQ(rule_names(store), (std::vector<std::string>{"slow"}));
  EXPECT_EQ(store.seed(), 5u);
  const auto broken = call(store, "PUT", "rules:\n  - name: bad\n    actions: [{type: nope}]\n");
  ASSERT_EQ(broken.status, 400u) << broken.body.dump();
  // The line of the field that is wrong (the action), not of the rule.
  EXPECT_NE(details(broken).find("request body:3: rule 1 (bad): actions[1]"), std::string::npos)
      << details(broken);
  EXPECT_EQ(call(store, "PUT", "rules: [\n").status, 400u);
  EXPECT_EQ(call(store, "PUT", "{not json").body["error"]["code"], "invalid_json");
  EXPECT_EQ(rule_names(store), (std::vector<std::string>{"slow"}));
}

} // namespace
} // namespace s3fault::faults

namespace s3fault::faults {
namespace {

// Every error the router sends has the one documented shape, details included (empty when the
// error has none), so a client reads every refusal the same way.
TEST(admin_api_errors, every_error_has_code_message_and_details) {
  rule_store store(1, clock::now());
  ASSERT_EQ(call(store, "POST", one_rule).status, 201u);
  const std::vector<std::tuple<std::string_view, std::string_view, std::string_view, unsigned>>
      requests = {{"GET", "/nope", "", 404},
                  {"PATCH", "/rules", "", 405},
                  {"PATCH", "/rules/slow", "", 405},
                  {"PUT", "/rules/slow", "", 400},
                  {"GET", "/rules/nope", "", 404},
                  {"POST", "/rules", "{bad", 400},
                  {"POST", "/rules", "rules: [\n", 400},
                  {"POST", "/rules", one_rule, 409}};
  for (const auto& [method, target, body, status] : requests) {
    const auto reply = handle_admin_request(store, method, target, body, "test");
    EXPECT_EQ(reply.status, status) << method << " " << target;
    ASSERT_EQ(reply.body.size(), 1u) << reply.body.dump();
    ASSERT_TRUE(reply.body.contains("error") && reply.body.at("error").is_object())
        << reply.body.dump();
    const auto& error = reply.body.at("error");
    ASSERT_TRUE(error.contains("code") && error.contains("message") && error.contains("details"))
        << reply.body.dump();
    EXPECT_EQ(error.size(), 3u) << reply.body.dump();
    EXPECT_TRUE(error.at("code").is_string()) << reply.body.dump();
    EXPECT_FALSE(error.at("message").get<std::string>().empty()) << reply.body.dump();
    EXPECT_TRUE(error.at("details").is_array()) << reply.body.dump();
  }
}

} // namespace
} // namespace s3fault::faults

namespace s3fault::faults {
namespace {

admin_reply call_on(rule_store& store, std::string_view method, std::string_view target,
                    std::string_view body = "") {
  return handle_admin_request(store, method, target, body, "test");
}

/// A store with rules a, b, c, each matched once by a request.
void three_matched_rules(rule_store& store) {
  ASSERT_EQ(call_on(store, "PUT", "/rules",
                    R"({"faults": ["delay 1ms name=a", "delay 2ms name=b", "delay 3ms name=c"]})")
                .status,
            200u);
  const auto request = classify_request({"GET", "/b/k", "127.0.0.1", {}});
  store.current()->decide(request, "GET", {}, clock::now());
}

TEST(admin_api_put_one, a_changed_rule_takes_its_place_and_starts_anew) {
  rule_store store(1, clock::now());
  three_matched_rules(store);
  const auto reply = call_on(store, "PUT", "/rules/b", R"({"fault": "delay 5ms op=GetObject"})");
  ASSERT_EQ(reply.status, 200u) << reply.body.dump();
  EXPECT_EQ(reply.body["name"], "b");
  EXPECT_EQ(reply.body["fault"], "delay 5ms name=b op=GetObject");
  EXPECT_EQ(reply.body["counters"]["matched"], 0u);
  EXPECT_EQ(rule_names(store), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(call_on(store, "GET", "/rules/a").body["counters"]["matched"], 1u);
}

TEST(admin_api_put_one, an_unchanged_rule_keeps_its_counters) {
  rule_store store(1, clock::now());
  three_matched_rules(store);
  const auto reply = call_on(store, "PUT", "/rules/b", R"({"fault": "delay 2ms name=b"})");
  ASSERT_EQ(reply.status, 200u) << reply.body.dump();
  EXPECT_EQ(reply.body["counters"]["matched"], 1u);
}

TEST(admin_api_put_one, mistakes_change_nothing) {
  rule_store store(1, clock::now());
  three_matched_rules(store);
  const auto version = store.version();
  const auto expect_refused = [&](std::string_view target, std::string_view body, unsigned status,
                                  std::string_view code) {
    const auto reply = call_on(store, "PUT", target, body);
    EXPECT_EQ(reply.status, status) << reply.body.dump();
    EXPECT_EQ(reply.body["error"]["code"], code) << reply.body.dump();
  };
  expect_refused("/rules/b", R"({"fault": "delay 5ms name=other"})", 400, "name_differs");
  expect_refused("/rules/zz", R"({"fault": "delay 5ms"})", 404, "no_such_rule");
  expect_refused("/rules/b", R"({"fault": "delya 5ms"})", 400, "invalid_rules");
  expect_refused("/rules/b", R"({"faults": ["delay 1ms name=b", "delay 1ms name=d"]})", 400,
                 "one_rule_expected");
  EXPECT_EQ(store.version(), version);
  EXPECT_EQ(call_on(store, "GET", "/rules/b").body["fault"], "delay 2ms name=b");
}

} // namespace
} // namespace s3fault::faults
