#include "conformance/origin/read_plan.hpp"

#include "text/content_range.hpp"
#include "text/text.hpp"

#include <string>

namespace s3fault::origin {
namespace {

constexpr unsigned max_part_number = 10000;

/// Content-Range of `length` (> 0) bytes from `offset` of an object of `total` bytes.
std::string content_range(std::uint64_t offset, std::uint64_t length, std::uint64_t total) {
  return text::format_content_range(offset, offset + length - 1, total);
}

/// A date condition holds when the object was (not) modified after the given second.
bool modified_since(const object_facts& object, const std::string& date_text, bool& parsed) {
  const auto date = parse_http_date(date_text);
  parsed = date.has_value();
  return parsed && whole_seconds(object.last_modified) > *date;
}

read_plan plan_part(const object_facts& object, unsigned number, std::optional<s3_error>& error) {
  read_plan plan;
  plan.part_number = number;
  if (object.part_sizes.empty()) {
    // An object from a single PUT is one part: partNumber=1 reads all of it.
    if (number != 1) {
      error = errors::invalid_part_number();
      return plan;
    }
    plan.length = object.size;
    if (object.size > 0) {
      plan.status = 206;
      plan.content_range = content_range(0, object.size, object.size);
    }
    return plan;
  }
  if (number > object.part_sizes.size()) {
    error = errors::invalid_part_number();
    return plan;
  }
  std::uint64_t offset = 0;
  for (unsigned i = 1; i < number; ++i) {
    offset += object.part_sizes[i - 1];
  }
  plan.offset = offset;
  plan.length = object.part_sizes[number - 1];
  plan.parts_count = static_cast<unsigned>(object.part_sizes.size());
  if (plan.length > 0) {
    plan.status = 206;
    plan.content_range = content_range(offset, plan.length, object.size);
  }
  return plan;
}

} // namespace

std::variant<std::optional<unsigned>, s3_error>
parse_part_number(const std::optional<std::string>& text) {
  if (!text) {
    return std::optional<unsigned>{};
  }
  const auto value = text::parse_whole_number(*text);
  if (!value || *value < 1 || *value > max_part_number) {
    return errors::invalid_argument("Part number must be an integer between 1 and 10000, inclusive",
                                    "partNumber", *text);
  }
  return std::optional<unsigned>{static_cast<unsigned>(*value)};
}

std::optional<s3_error> check_part_number_with_range(const read_request& request) {
  if (request.part_number && request.range) {
    return errors::invalid_request("Cannot specify both Range header and partNumber query "
                                   "parameter");
  }
  return std::nullopt;
}

bool etag_list_matches(std::string_view list, std::string_view etag) {
  while (!list.empty()) {
    const auto comma = list.find(',');
    std::string_view item = text::trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (item == "*") {
      return true;
    }
    if (item.starts_with("W/")) {
      item.remove_prefix(2);
    }
    if (item.size() >= 2 && item.front() == '"' && item.back() == '"') {
      item = item.substr(1, item.size() - 2);
    }
    if (item == etag) {
      return true;
    }
  }
  return false;
}

precondition_outcome evaluate_preconditions(const object_facts& object,
                                            const read_request& request) {
  bool parsed = false;
  if (request.if_match) {
    if (!etag_list_matches(*request.if_match, object.etag)) {
      return precondition_outcome::failed_if_match;
    }
  } else if (request.if_unmodified_since &&
             modified_since(object, *request.if_unmodified_since, parsed) && parsed) {
    return precondition_outcome::failed_if_unmodified;
  }
  if (request.if_none_match) {
    if (etag_list_matches(*request.if_none_match, object.etag)) {
      return precondition_outcome::not_modified;
    }
  } else if (request.if_modified_since) {
    const bool modified = modified_since(object, *request.if_modified_since, parsed);
    if (parsed && !modified) {
      return precondition_outcome::not_modified;
    }
  }
  return precondition_outcome::proceed;
}

std::optional<byte_span> resolve_range(const byte_range_spec& range, std::uint64_t size) {
  if (size == 0) {
    return std::nullopt;
  }
  if (!range.first) {
    const std::uint64_t suffix = *range.last;
    if (suffix == 0) {
      return std::nullopt;
    }
    const std::uint64_t length = std::min(suffix, size);
    return byte_span{size - length, length};
  }
  if (*range.first >= size) {
    return std::nullopt;
  }
  const std::uint64_t last = range.last ? std::min(*range.last, size - 1) : size - 1;
  return byte_span{*range.first, last - *range.first + 1};
}

std::variant<read_plan, s3_error> plan_read(const object_facts& object,
                                            const read_request& request) {
  if (auto error = check_part_number_with_range(request)) {
    return *error;
  }
  switch (evaluate_preconditions(object, request)) {
  case precondition_outcome::failed_if_match:
    return errors::precondition_failed("If-Match");
  case precondition_outcome::failed_if_unmodified:
    return errors::precondition_failed("If-Unmodified-Since");
  case precondition_outcome::not_modified: {
    read_plan plan;
    plan.status = 304;
    return plan;
  }
  case precondition_outcome::proceed:
    break;
  }
  if (request.part_number) {
    std::optional<s3_error> error;
    read_plan plan = plan_part(object, *request.part_number, error);
    if (error) {
      return *error;
    }
    return plan;
  }
  read_plan whole;
  whole.length = object.size;
  if (!request.range || request.head) {
    return whole; // HEAD ignores Range
  }
  const auto spec = parse_range(*request.range);
  if (!spec) {
    return whole;
  }
  const auto span = resolve_range(*spec, object.size);
  if (!span) {
    return errors::invalid_range(*request.range, object.size);
  }
  read_plan ranged;
  ranged.status = 206;
  ranged.offset = span->offset;
  ranged.length = span->length;
  ranged.content_range = content_range(span->offset, span->length, object.size);
  return ranged;
}

} // namespace s3fault::origin
