#include "text/markup.hpp"

namespace s3fault::text {
namespace {

/// What is escaped besides & < >, which always are.
struct also_escaped {
  bool quote = false;
  bool carriage_return = false;
};

std::string escape_markup(std::string_view text, also_escaped also) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"' && also.quote) {
      out += "&quot;";
    } else if (c == '\r' && also.carriage_return) {
      out += "&#13;";
    } else {
      out += c;
    }
  }
  return out;
}

} // namespace

std::string escape_html(std::string_view text) {
  return escape_markup(text, {.quote = true});
}

std::string escape_xml_text(std::string_view text) {
  return escape_markup(text, {.carriage_return = true});
}

} // namespace s3fault::text
