#include "faults/s3_error_body.hpp"

#include <pugixml.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <sstream>

namespace s3fault {

std::string render_s3_error_xml(std::string_view code, std::string_view message,
                                std::string_view resource, std::string_view request_id) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  auto error = doc.append_child("Error");
  error.append_child("Code").text().set(std::string(code).c_str());
  error.append_child("Message").text().set(std::string(message).c_str());
  error.append_child("Resource").text().set(std::string(resource).c_str());
  error.append_child("RequestId").text().set(std::string(request_id).c_str());
  std::ostringstream out;
  doc.save(out, "", pugi::format_raw);
  return out.str();
}

std::string s3_error_code_of(std::string_view body) {
  pugi::xml_document doc;
  if (!doc.load_buffer(body.data(), body.size(), pugi::parse_default, pugi::encoding_utf8)) {
    return {};
  }
  return doc.child("Error").child_value("Code");
}

std::string make_request_id() {
  // Time-seeded so ids from different runs differ; the counter keeps them unique within one.
  static const std::uint64_t base =
      static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  static std::atomic<std::uint64_t> counter{0};
  const std::uint64_t id = base * 0x9E3779B97F4A7C15ULL + counter.fetch_add(1);
  char text[17];
  std::snprintf(text, sizeof text, "%016llX", static_cast<unsigned long long>(id));
  return text;
}

} // namespace s3fault
