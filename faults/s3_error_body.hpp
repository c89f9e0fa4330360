#pragma once
// Renders the XML body S3 uses for errors, so every error s3fault itself produces (gateway errors,
// injected faults) looks like one a real store would send.
#include <string>
#include <string_view>

namespace s3fault {

/// `<Error><Code/><Message/><Resource/><RequestId/></Error>` with an XML declaration, escaped.
std::string render_s3_error_xml(std::string_view code, std::string_view message,
                                std::string_view resource, std::string_view request_id);

/// The `<Code>` of an S3 error document; empty when `body` is not one.
std::string s3_error_code_of(std::string_view body);

/// A request id in the style of S3's (16 upper-case hex digits), unique within this process.
std::string make_request_id();

} // namespace s3fault
