#pragma once
// Header value patterns (`match.headers`), compiled by RE2. RE2 matches in time linear in the
// value whatever the pattern, and bounds the memory of what it compiles, so a pattern from a
// rules file or from any admin API client cannot make the proxy explode; std::regex, used
// before, overflowed and built one state per repetition on hostile patterns (found by
// fuzz_fault_spec) and needed hand-written guards. RE2 stays inside header_regex.cpp.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace s3fault::faults {

/// A compiled header pattern in RE2 syntax, searched anywhere in a value (not anchored),
/// ignoring case. Patterns and values are read as bytes (Latin-1), as HTTP header values are
/// bytes: any pattern byte is allowed and `.` matches any byte.
class header_regex {
public:
  /// Memory RE2 may use for one pattern (its compiled programs and match caches); a pattern
  /// that does not fit is refused rather than run slower or fail later.
  static constexpr std::int64_t max_memory = 1 << 20;

  /// Compiles `pattern`. nullptr when it is refused, with `problem` completing the sentence
  /// "regex 'PATTERN' ...": it holds a back-reference (RE2 has none), it is not valid RE2
  /// syntax, or it is too large for `max_memory`.
  static std::shared_ptr<const header_regex> compile(std::string_view pattern,
                                                     std::string& problem);

  explicit header_regex(std::unique_ptr<const re2::RE2> compiled);
  ~header_regex();
  header_regex(const header_regex&) = delete;
  header_regex& operator=(const header_regex&) = delete;

  /// True when the pattern matches somewhere in `value`.
  bool found_in(std::string_view value) const;
  /// Why `rewrite` cannot replace this pattern's first match (it names a group the pattern lacks,
  /// or holds a backslash not followed by a digit or a backslash); nullopt when it can.
  std::optional<std::string> rewrite_problem(std::string_view rewrite) const;
  /// `value` with the first match replaced by `rewrite` (\0 the match, \1..\9 its groups);
  /// nullopt when the pattern does not match.
  std::optional<std::string> replace_first(std::string_view value, std::string_view rewrite) const;

private:
  std::unique_ptr<const re2::RE2> compiled_;
};

} // namespace s3fault::faults
