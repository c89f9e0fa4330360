// Every GetObject/HeadObject rule of the contract (docs/contract.md) through the pure
// planning functions: partNumber, Range, conditionals and their precedence.
#include "conformance/origin/read_plan.hpp"

#include <gtest/gtest.h>

namespace s3fault::origin {
namespace {

constexpr std::uint64_t mib = 1024 * 1024;

// 2015-10-21 07:28:00 UTC
const time_point modified = std::chrono::system_clock::from_time_t(1445412480);
constexpr const char* before = "Tue, 20 Oct 2015 07:28:00 GMT";
constexpr const char* at = "Wed, 21 Oct 2015 07:28:00 GMT";
constexpr const char* after = "Thu, 22 Oct 2015 07:28:00 GMT";

object_facts single(std::uint64_t size) {
  return object_facts{size, "etag1", modified, {}};
}

object_facts multipart_20mib() {
  return object_facts{20 * mib, "abc-3", modified, {8 * mib, 8 * mib, 4 * mib}};
}

read_plan expect_plan(const object_facts& object, const read_request& request) {
  auto result = plan_read(object, request);
  if (auto* error = std::get_if<s3_error>(&result)) {
    ADD_FAILURE() << "unexpected error " << error->status << " " << error->code;
    return {};
  }
  return std::get<read_plan>(result);
}

s3_error expect_error(const object_facts& object, const read_request& request) {
  auto result = plan_read(object, request);
  if (!std::holds_alternative<s3_error>(result)) {
    ADD_FAILURE() << "expected an error, got status " << std::get<read_plan>(result).status;
    return {};
  }
  return std::get<s3_error>(result);
}

read_request with_range(std::string range) {
  read_request request;
  request.range = std::move(range);
  return request;
}

read_request with_part(unsigned number) {
  read_request request;
  request.part_number = number;
  return request;
}

// ---- partNumber -------------------------------------------------------------------------

TEST(PartNumberParam, AcceptsOneToTenThousand) {
  EXPECT_EQ(std::get<std::optional<unsigned>>(parse_part_number(std::string("1"))), 1u);
  EXPECT_EQ(std::get<std::optional<unsigned>>(parse_part_number(std::string("10000"))), 10000u);
  EXPECT_FALSE(std::get<std::optional<unsigned>>(parse_part_number(std::nullopt)).has_value());
}

TEST(PartNumberParam, RejectsAnythingElseWith400InvalidArgument) {
  for (const char* bad :
       {"0", "10001", "-1", "+1", "abc", "", "1.5", "1.0", " 1", "99999999999999999999"}) {
    const auto result = parse_part_number(std::string(bad));
    ASSERT_TRUE(std::holds_alternative<s3_error>(result)) << bad;
    EXPECT_EQ(std::get<s3_error>(result).status, 400u) << bad;
    EXPECT_EQ(std::get<s3_error>(result).code, "InvalidArgument") << bad;
  }
}

TEST(PartRead, MultipartPartOneIs206WithPartsCountAndWholeTotal) {
  const auto plan = expect_plan(multipart_20mib(), with_part(1));
  EXPECT_EQ(plan.status, 206u);
  EXPECT_EQ(plan.offset, 0u);
  EXPECT_EQ(plan.length, 8 * mib);
  EXPECT_EQ(plan.content_range, "bytes 0-8388607/20971520");
  EXPECT_EQ(plan.parts_count, 3u);
}

TEST(PartRead, MultipartLastPartCoversTheTail) {
  const auto plan = expect_plan(multipart_20mib(), with_part(3));
  EXPECT_EQ(plan.status, 206u);
  EXPECT_EQ(plan.offset, 16 * mib);
  EXPECT_EQ(plan.length, 4 * mib);
  EXPECT_EQ(plan.content_range, "bytes 16777216-20971519/20971520");
  EXPECT_EQ(plan.parts_count, 3u);
}

TEST(PartRead, PastThePartCountIs416InvalidPartNumber) {
  const auto error = expect_error(multipart_20mib(), with_part(4));
  EXPECT_EQ(error.status, 416u);
  EXPECT_EQ(error.code, "InvalidPartNumber");
}

TEST(PartRead, NonMultipartPartOneIsTheWholeObjectAs206WithoutPartsCount) {
  const auto plan = expect_plan(single(1000), with_part(1));
  EXPECT_EQ(plan.status, 206u);
  EXPECT_EQ(plan.length, 1000u);
  EXPECT_EQ(plan.content_range, "bytes 0-999/1000");
  EXPECT_FALSE(plan.parts_count.has_value());
}

TEST(PartRead, NonMultipartPartTwoIs416InvalidPartNumber) {
  const auto error = expect_error(single(1000), with_part(2));
  EXPECT_EQ(error.status, 416u);
  EXPECT_EQ(error.code, "InvalidPartNumber");
}

TEST(PartRead, ZeroByteObjectPartOneSucceedsWithoutContentRange) {
  const auto plan = expect_plan(single(0), with_part(1));
  EXPECT_EQ(plan.status, 200u);
  EXPECT_EQ(plan.length, 0u);
  EXPECT_FALSE(plan.content_range.has_value());
  EXPECT_FALSE(plan.parts_count.has_value());
}

TEST(PartRead, WithRangeIs400InvalidRequest) {
  auto request = with_part(1);
  request.range = "bytes=0-9";
  const auto error = expect_error(multipart_20mib(), request);
  EXPECT_EQ(error.status, 400u);
  EXPECT_EQ(error.code, "InvalidRequest");
  EXPECT_TRUE(check_part_number_with_range(request).has_value());
}

TEST(PartRead, HeadGetsTheSameHeadersAsGet) {
  auto request = with_part(2);
  request.head = true;
  const auto plan = expect_plan(multipart_20mib(), request);
  EXPECT_EQ(plan.status, 206u);
  EXPECT_EQ(plan.content_range, "bytes 8388608-16777215/20971520");
  EXPECT_EQ(plan.parts_count, 3u);
}

TEST(PlainRead, HasNoPartsCountAndNoContentRange) {
  const auto plan = expect_plan(multipart_20mib(), read_request{});
  EXPECT_EQ(plan.status, 200u);
  EXPECT_EQ(plan.length, 20 * mib);
  EXPECT_FALSE(plan.parts_count.has_value());
  EXPECT_FALSE(plan.content_range.has_value());
}

// ---- Range --------------------------------------------------------------------------------

struct range_case {
  const char* name;
  const char* header;
  std::uint64_t size;
  unsigned status; // 200, 206 or 416
  std::uint64_t offset;
  std::uint64_t length;
  const char* content_range;
};

// Test names say which case failed; gtest need not dump the bytes.
void PrintTo(const range_case& c, std::ostream* out) {
  *out << c.name;
}

class RangeRead : public ::testing::TestWithParam<range_case> {};

TEST_P(RangeRead, FollowsTheContract) {
  const auto& c = GetParam();
  const auto result = plan_read(single(c.size), with_range(c.header));
  if (c.status == 416) {
    ASSERT_TRUE(std::holds_alternative<s3_error>(result));
    EXPECT_EQ(std::get<s3_error>(result).status, 416u);
    EXPECT_EQ(std::get<s3_error>(result).code, "InvalidRange");
    return;
  }
  ASSERT_TRUE(std::holds_alternative<read_plan>(result));
  const auto& plan = std::get<read_plan>(result);
  EXPECT_EQ(plan.status, c.status);
  EXPECT_EQ(plan.offset, c.offset);
  EXPECT_EQ(plan.length, c.length);
  if (c.content_range) {
    EXPECT_EQ(plan.content_range, c.content_range);
  } else {
    EXPECT_FALSE(plan.content_range.has_value());
  }
  EXPECT_FALSE(plan.parts_count.has_value());
}

INSTANTIATE_TEST_SUITE_P(
    Contract, RangeRead,
    ::testing::Values(
        range_case{"closed", "bytes=0-9", 100, 206, 0, 10, "bytes 0-9/100"},
        range_case{"middle", "bytes=10-19", 100, 206, 10, 10, "bytes 10-19/100"},
        range_case{"open", "bytes=90-", 100, 206, 90, 10, "bytes 90-99/100"},
        range_case{"suffix", "bytes=-10", 100, 206, 90, 10, "bytes 90-99/100"},
        range_case{"suffix_longer_than_object", "bytes=-500", 100, 206, 0, 100, "bytes 0-99/100"},
        range_case{"end_clamped", "bytes=50-1000", 100, 206, 50, 50, "bytes 50-99/100"},
        range_case{"single_last_byte", "bytes=99-99", 100, 206, 99, 1, "bytes 99-99/100"},
        range_case{"start_at_end", "bytes=100-", 100, 416, 0, 0, nullptr},
        range_case{"start_past_end", "bytes=200-300", 100, 416, 0, 0, nullptr},
        range_case{"suffix_zero", "bytes=-0", 100, 416, 0, 0, nullptr},
        range_case{"zero_byte_closed", "bytes=0-0", 0, 416, 0, 0, nullptr},
        range_case{"zero_byte_open", "bytes=0-", 0, 416, 0, 0, nullptr},
        range_case{"zero_byte_suffix", "bytes=-1", 0, 416, 0, 0, nullptr},
        range_case{"several_ranges_ignored", "bytes=0-1,5-6", 100, 200, 0, 100, nullptr},
        range_case{"other_unit_ignored", "items=0-1", 100, 200, 0, 100, nullptr},
        range_case{"reversed_ignored", "bytes=9-0", 100, 200, 0, 100, nullptr},
        range_case{"garbage_ignored", "bytes=abc", 100, 200, 0, 100, nullptr}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(RangeRead, HeadIgnoresRange) {
  auto request = with_range("bytes=0-9");
  request.head = true;
  const auto plan = expect_plan(single(100), request);
  EXPECT_EQ(plan.status, 200u);
  EXPECT_EQ(plan.length, 100u);
  EXPECT_FALSE(plan.content_range.has_value());
}

TEST(RangeRead, InvalidRangeErrorNamesTheSize) {
  const auto error = expect_error(single(100), with_range("bytes=100-"));
  ASSERT_EQ(error.details.size(), 2u);
  EXPECT_EQ(error.details[1].first, "ActualObjectSize");
  EXPECT_EQ(error.details[1].second, "100");
}

// ---- Conditional requests ---------------------------------------------------------------

struct condition_case {
  const char* name;
  const char* if_match;
  const char* if_none_match;
  const char* if_modified_since;
  const char* if_unmodified_since;
  unsigned status; // 200, 304 or 412
};

// Test names say which case failed; gtest need not dump the bytes.
void PrintTo(const condition_case& c, std::ostream* out) {
  *out << c.name;
}

class Conditional : public ::testing::TestWithParam<condition_case> {};

TEST_P(Conditional, FollowsThePrecedenceTable) {
  const auto& c = GetParam();
  read_request request;
  if (c.if_match) {
    request.if_match = c.if_match;
  }
  if (c.if_none_match) {
    request.if_none_match = c.if_none_match;
  }
  if (c.if_modified_since) {
    request.if_modified_since = c.if_modified_since;
  }
  if (c.if_unmodified_since) {
    request.if_unmodified_since = c.if_unmodified_since;
  }
  const auto result = plan_read(single(10), request);
  if (c.status == 412) {
    ASSERT_TRUE(std::holds_alternative<s3_error>(result));
    EXPECT_EQ(std::get<s3_error>(result).status, 412u);
    EXPECT_EQ(std::get<s3_error>(result).code, "PreconditionFailed");
  } else {
    ASSERT_TRUE(std::holds_alternative<read_plan>(result));
    EXPECT_EQ(std::get<read_plan>(result).status, c.status);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Contract, Conditional,
    ::testing::Values(
        condition_case{"if_match_true", "\"etag1\"", nullptr, nullptr, nullptr, 200},
        condition_case{"if_match_unquoted", "etag1", nullptr, nullptr, nullptr, 200},
        condition_case{"if_match_star", "*", nullptr, nullptr, nullptr, 200},
        condition_case{"if_match_in_list", "\"x\", \"etag1\"", nullptr, nullptr, nullptr, 200},
        condition_case{"if_match_false", "\"other\"", nullptr, nullptr, nullptr, 412},
        condition_case{"if_none_match_match", nullptr, "\"etag1\"", nullptr, nullptr, 304},
        condition_case{"if_none_match_star", nullptr, "*", nullptr, nullptr, 304},
        condition_case{"if_none_match_other", nullptr, "\"other\"", nullptr, nullptr, 200},
        condition_case{"if_modified_since_not_modified", nullptr, nullptr, after, nullptr, 304},
        condition_case{"if_modified_since_same_second", nullptr, nullptr, at, nullptr, 304},
        condition_case{"if_modified_since_modified", nullptr, nullptr, before, nullptr, 200},
        condition_case{"if_modified_since_bad_date_ignored", nullptr, nullptr, "yesterday", nullptr,
                       200},
        condition_case{"if_unmodified_since_modified", nullptr, nullptr, nullptr, before, 412},
        condition_case{"if_unmodified_since_not_modified", nullptr, nullptr, nullptr, after, 200},
        condition_case{"if_unmodified_since_bad_date_ignored", nullptr, nullptr, nullptr, "soon",
                       200},
        // The two rules the S3 documentation spells out:
        condition_case{"if_match_true_beats_if_unmodified_since_false", "\"etag1\"", nullptr,
                       nullptr, before, 200},
        condition_case{"if_none_match_false_with_if_modified_since_true_is_304", nullptr,
                       "\"etag1\"", before, nullptr, 304},
        // Further precedence: If-Match first, then If-None-Match.
        condition_case{"if_match_false_beats_if_none_match", "\"other\"", "\"etag1\"", nullptr,
                       nullptr, 412},
        condition_case{"if_none_match_other_beats_if_modified_since", nullptr, "\"other\"", after,
                       nullptr, 200},
        condition_case{"if_unmodified_false_beats_if_none_match", nullptr, "\"etag1\"", nullptr,
                       before, 412}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Conditional, NotModifiedComesBeforeRangeErrors) {
  read_request request = with_range("bytes=500-");
  request.if_none_match = "\"etag1\"";
  EXPECT_EQ(expect_plan(single(10), request).status, 304u);
}

TEST(Conditional, PreconditionComesBeforePartNumberErrors) {
  read_request request = with_part(9);
  request.if_match = "\"nope\"";
  EXPECT_EQ(expect_error(multipart_20mib(), request).status, 412u);
}

TEST(EtagList, MatchesQuotedUnquotedWeakAndStar) {
  EXPECT_TRUE(etag_list_matches("\"abc\"", "abc"));
  EXPECT_TRUE(etag_list_matches("abc", "abc"));
  EXPECT_TRUE(etag_list_matches("W/\"abc\"", "abc"));
  EXPECT_TRUE(etag_list_matches(" \"x\" , \"abc\" ", "abc"));
  EXPECT_TRUE(etag_list_matches("*", "abc"));
  EXPECT_FALSE(etag_list_matches("\"abcd\"", "abc"));
  EXPECT_FALSE(etag_list_matches("", "abc"));
}

} // namespace
} // namespace s3fault::origin
