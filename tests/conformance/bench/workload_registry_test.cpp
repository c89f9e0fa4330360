// The bench's workloads come from one registry (conformance/bench/workloads/registry.cpp): the
// names --ops and --mix accept, the "known: ..." lists of messages and --ops's help are its.
#include "conformance/bench/workload_registry.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace s3fault::bench {
namespace {

std::vector<std::string> registered_names() {
  std::vector<std::string> names;
  for (const auto* entry : registered_workloads()) {
    names.emplace_back(entry->name());
  }
  return names;
}

TEST(WorkloadRegistry, EveryWorkloadHasANameOfItsOwn) {
  const auto names = registered_names();
  ASSERT_FALSE(names.empty());
  const std::set<std::string> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), names.size());
  for (const auto& name : names) {
    EXPECT_FALSE(name.empty());
    EXPECT_EQ(name.find_first_of(", ="), std::string::npos) << name << " cannot be listed in --ops";
  }
}

// Reports sort cells by workload in this order, and the lists users see give it: a new
// workload goes after these, so that nothing earlier moves.
TEST(WorkloadRegistry, ListsTheFirstWorkloadsInTheOrderUsersKnow) {
  const std::vector<std::string> known{"put",  "get",    "get-parts",     "get-ranges",
                                       "list", "delete", "put-multipart", "mix"};
  const auto names = registered_names();
  ASSERT_GE(names.size(), known.size());
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + known.size()), known);
}

// The CLI reads --ops with parse_operation and --mix with parse_mix: every registered name and
// no other is accepted, and each names its own workload.
TEST(WorkloadRegistry, TheCommandLineAcceptsExactlyTheRegisteredNames) {
  for (const auto* entry : registered_workloads()) {
    const auto parsed = parse_operation(entry->name());
    ASSERT_TRUE(parsed.has_value()) << entry->name();
    EXPECT_EQ(&parsed->workload(), entry);
    EXPECT_EQ(to_string(*parsed), entry->name());
    std::vector<std::string> problems;
    const auto mix = parse_mix({std::string(entry->name()) + "=1"}, problems);
    EXPECT_EQ(mix.size(), entry->draws_from_mix() ? 0u : 1u) << entry->name();
  }
  EXPECT_FALSE(parse_operation("get_parts").has_value());
  EXPECT_FALSE(parse_operation("GET").has_value());
  EXPECT_FALSE(parse_operation("nonesuch").has_value());
}

TEST(WorkloadRegistry, MessagesAndHelpListEveryRegisteredName) {
  std::string known;
  for (const auto& name : registered_names()) {
    known += (known.empty() ? "(known: " : ", ") + name;
  }
  EXPECT_EQ(operation_choices("zzz"), known + ")");
  // --ops's help, word for word as it was written by hand before the registry.
  EXPECT_EQ(describe_workloads().rfind(
                "put, get, get-parts (?partNumber of multipart objects), get-ranges (ranged GETs "
                "of --part-size), list (every page of the --objects), delete, put-multipart (parts "
                "of --part-size), mix (see --mix)",
                0),
            0u);
  for (const auto& name : registered_names()) {
    EXPECT_NE(describe_workloads().find(name), std::string::npos) << name;
  }
}

TEST(WorkloadRegistry, OperationsOrderAndCompareByTheirPlaceInTheRegistry) {
  EXPECT_LT(operation::named("put"), operation::named("get"));
  EXPECT_LT(operation::named("delete"), operation::named("mix"));
  EXPECT_EQ(operation::named("list"), *parse_operation("list"));
  EXPECT_THROW(operation::named("nonesuch"), std::logic_error);
}

TEST(WorkloadRegistry, ReadsAndListingsHaveTheirFixturesWrittenFirst) {
  EXPECT_TRUE(operation::named("get").workload().fixtures().single_objects);
  EXPECT_TRUE(operation::named("get-ranges").workload().fixtures().single_objects);
  EXPECT_TRUE(operation::named("list").workload().fixtures().single_objects);
  EXPECT_TRUE(operation::named("get-parts").workload().fixtures().multipart_objects);
  EXPECT_FALSE(operation::named("put").workload().fixtures().single_objects);
  EXPECT_EQ(operation::named("list").workload().throughput_figure(), figure::ops_per_second);
  EXPECT_EQ(operation::named("delete").workload().throughput_figure(), figure::ops_per_second);
  EXPECT_EQ(operation::named("get").workload().throughput_figure(), figure::mib_per_second);
  EXPECT_TRUE(operation::named("delete").workload().times_part_only());
}

} // namespace
} // namespace s3fault::bench
