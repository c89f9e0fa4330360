#pragma once
// What the audit's and the gate's tables for people have in common: ANSI colour only when asked,
// columns padded to a width, durations as "250 ms" or "1.5 s", and the closing count of passed
// and failed.
#include <cstddef>
#include <string>
#include <string_view>

namespace s3fault::report {

/// ANSI colour codes (SGR parameters).
namespace colour {
inline constexpr const char* green = "32";
inline constexpr const char* red = "31";
inline constexpr const char* yellow = "33";
inline constexpr const char* cyan = "36";
inline constexpr const char* bold = "1";
inline constexpr const char* dim = "2";
} // namespace colour

/// Paints text with an ANSI colour code, or leaves it plain (not a terminal, --no-colour).
class painter {
public:
  explicit painter(bool colour) : colour_(colour) {}
  std::string operator()(std::string_view text, const char* code) const;

private:
  bool colour_;
};

/// `text` filled to `width` with blanks, and at least `gap` blanks after it (a name longer than
/// its column stays apart from the next one when `gap` is 1).
std::string padded(std::string_view text, std::size_t width, std::size_t gap = 0);

/// "250 ms" under a second, "1.5 s" from one second on.
std::string duration_text(double seconds);

/// "N passed, N failed", the failed count red when there are any, else green.
std::string passed_and_failed(const painter& paint, std::size_t passed, std::size_t failed);

} // namespace s3fault::report
