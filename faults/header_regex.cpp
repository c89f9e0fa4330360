#include "faults/header_regex.hpp"

#include "faults/values.hpp"

#include <re2/re2.h>

namespace s3fault::faults {
namespace {

/// The first back-reference in `pattern` (`\1`, `\12`, ...), or empty. RE2 refuses `\1` as an
/// unknown escape but reads `\12` as an octal escape; in the ECMAScript syntax header patterns
/// used before both are back-references, so both are refused instead of quietly matching
/// something else. `\0NN` (octal) and `\x..` stay allowed; `\Q...\E` is literal text.
std::string_view first_back_reference(std::string_view pattern) {
  for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] != '\\') {
      continue;
    }
    const char next = pattern[i + 1];
    if (next == 'Q') {
      const std::size_t end = pattern.find("\\E", i + 2);
      if (end == std::string_view::npos) {
        return {};
      }
      i = end + 1;
      continue;
    }
    if (next >= '1' && next <= '9') {
      const std::size_t end = pattern.find_first_not_of("0123456789", i + 1);
      return pattern.substr(i, end == std::string_view::npos ? end : end - i);
    }
    ++i; // an escaped character
  }
  return {};
}

/// RE2's "missing ): bytes=(0" as "missing ) at 'bytes=(0'".
std::string syntax_problem(const re2::RE2& compiled) {
  std::string text = compiled.error();
  const std::string& fragment = compiled.error_arg();
  if (!fragment.empty() && text.ends_with(": " + fragment)) {
    text.resize(text.size() - fragment.size() - 2);
    text += " at '" + shortened(fragment) + "'";
  }
  return text;
}

} // namespace

std::shared_ptr<const header_regex> header_regex::compile(std::string_view pattern,
                                                          std::string& problem) {
  if (const auto reference = first_back_reference(pattern); !reference.empty()) {
    problem = "holds the back-reference '" + shortened(reference) +
              "': back-references are not supported (RE2 syntax)";
    return nullptr;
  }
  re2::RE2::Options options;
  options.set_encoding(re2::RE2::Options::EncodingLatin1);
  options.set_case_sensitive(false);
  options.set_max_mem(max_memory);
  options.set_log_errors(false); // the caller reports the problem with the rule and field
  auto compiled =
      std::make_unique<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (compiled->error_code() == re2::RE2::ErrorPatternTooLarge) {
    problem = "is too large: RE2 would need more than " + std::to_string(max_memory >> 20) +
              " MiB for it";
    return nullptr;
  }
  if (!compiled->ok()) {
    problem = "is not valid RE2 syntax: " + syntax_problem(*compiled);
    return nullptr;
  }
  return std::make_shared<const header_regex>(std::move(compiled));
}

header_regex::header_regex(std::unique_ptr<const re2::RE2> compiled)
    : compiled_(std::move(compiled)) {}

header_regex::~header_regex() = default;

bool header_regex::found_in(std::string_view value) const {
  return re2::RE2::PartialMatch(re2::StringPiece(value.data(), value.size()), *compiled_);
}

std::optional<std::string> header_regex::rewrite_problem(std::string_view rewrite) const {
  std::string problem;
  if (compiled_->CheckRewriteString(re2::StringPiece(rewrite.data(), rewrite.size()), &problem)) {
    return std::nullopt;
  }
  return problem;
}

std::optional<std::string> header_regex::replace_first(std::string_view value,
                                                       std::string_view rewrite) const {
  std::string out(value);
  if (!re2::RE2::Replace(&out, *compiled_, re2::StringPiece(rewrite.data(), rewrite.size()))) {
    return std::nullopt;
  }
  return out;
}

} // namespace s3fault::faults
