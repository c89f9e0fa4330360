#pragma once
// Text inside HTML and XML: the one escaping every page, report and XML body in s3fault uses.
#include <string>
#include <string_view>

namespace s3fault::text {

/// `text` safe in HTML content and attribute values: & < > " as character references.
std::string escape_html(std::string_view text);

/// `text` as an XML element's content: & < > as references, and CR as `&#13;` (a parser would
/// read a literal one as LF).
std::string escape_xml_text(std::string_view text);

} // namespace s3fault::text
