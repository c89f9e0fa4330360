#include "faults/response_document.hpp"

#include "text/markup.hpp"
#include "text/utf8.hpp"

#include <pugixml.hpp>

#include <cstring>

namespace s3fault::faults {
namespace {

// Parsed without decoding escapes, converting line ends or normalising attributes, and written
// back without escaping (format_no_escapes): text and attributes the edits leave alone go out as
// the store wrote them. Blank text between elements is kept (parse_ws_pcdata), so an indented
// document stays indented. Comments and processing instructions inside the root are kept too.
constexpr unsigned xml_parse_options = pugi::parse_cdata | pugi::parse_comments | pugi::parse_pi |
                                       pugi::parse_doctype | pugi::parse_declaration |
                                       pugi::parse_ws_pcdata;
constexpr unsigned xml_write_options =
    pugi::format_raw | pugi::format_no_escapes | pugi::format_no_empty_element_tags;
constexpr std::string_view xml_blanks = " \t\r\n";

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/// The name without its namespace prefix.
std::string_view local_name(const char* name) {
  const char* colon = std::strrchr(name, ':');
  return colon == nullptr ? std::string_view(name) : std::string_view(colon + 1);
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(xml_blanks) == std::string_view::npos;
}

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

/// The value of a character reference's digits ("#38", "#x26"), or nullopt.
std::optional<std::uint32_t> character_reference(std::string_view digits) {
  if (digits.size() < 2 || digits[0] != '#') {
    return std::nullopt;
  }
  const bool hex = digits[1] == 'x';
  digits.remove_prefix(hex ? 2 : 1);
  if (digits.empty() || digits.size() > 8) {
    return std::nullopt;
  }
  std::uint32_t value = 0;
  for (const char c : digits) {
    int digit = -1;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (hex && c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (hex && c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    }
    if (digit < 0) {
      return std::nullopt;
    }
    value = value * (hex ? 16 : 10) + static_cast<std::uint32_t>(digit);
  }
  if (value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
    return std::nullopt;
  }
  return value;
}

/// Text as written in XML (entities and character references) to what it says; a reference
/// this does not know stays as written.
std::string decode_xml_text(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  while (!raw.empty()) {
    const std::size_t amp = raw.find('&');
    out.append(raw.substr(0, amp));
    if (amp == std::string_view::npos) {
      break;
    }
    raw.remove_prefix(amp);
    const std::size_t semicolon = raw.find(';');
    const std::string_view name =
        semicolon == std::string_view::npos ? std::string_view() : raw.substr(1, semicolon - 1);
    std::optional<std::uint32_t> code;
    if (name == "lt") {
      code = '<';
    } else if (name == "gt") {
      code = '>';
    } else if (name == "amp") {
      code = '&';
    } else if (name == "quot") {
      code = '"';
    } else if (name == "apos") {
      code = '\'';
    } else {
      code = character_reference(name);
    }
    if (!code) {
      out += '&';
      raw.remove_prefix(1);
      continue;
    }
    append_utf8(out, *code);
    raw.remove_prefix(semicolon + 1);
  }
  return out;
}

/// Whether the element's content is exactly `text`: text and CDATA only, saying `text`.
bool holds_text(pugi::xml_node element, std::string_view text) {
  std::string current;
  for (pugi::xml_node child = element.first_child(); child; child = child.next_sibling()) {
    if (child.type() == pugi::node_pcdata) {
      current += decode_xml_text(child.value());
    } else if (child.type() == pugi::node_cdata) {
      current += child.value();
    } else {
      return false;
    }
  }
  return current == text;
}

/// The next node after `node` in document order within `top`, without recursion (a hostile
/// body may nest deeper than the stack goes).
pugi::xml_node next_in_document(pugi::xml_node node, pugi::xml_node top) {
  if (node.first_child()) {
    return node.first_child();
  }
  while (node && node != top) {
    if (node.next_sibling()) {
      return node.next_sibling();
    }
    node = node.parent();
  }
  return {};
}

/// Attributes are written between double quotes; a value the store wrote between single quotes
/// may hold a double quote, which must then be written as a reference.
void quote_attribute_values(pugi::xml_node top) {
  for (pugi::xml_node node = top; node; node = next_in_document(node, top)) {
    for (pugi::xml_attribute attribute = node.first_attribute(); attribute;
         attribute = attribute.next_attribute()) {
      const std::string_view value = attribute.value();
      if (value.find('"') == std::string_view::npos) {
        continue;
      }
      std::string quoted;
      for (const char c : value) {
        quoted += c == '"' ? std::string("&quot;") : std::string(1, c);
      }
      attribute.set_value(quoted.c_str());
    }
  }
}

class string_writer final : public pugi::xml_writer {
public:
  explicit string_writer(std::string& out) : out_(out) {}
  void write(const void* data, std::size_t size) override {
    out_.append(static_cast<const char*>(data), size);
  }

private:
  std::string& out_;
};

} // namespace

std::string xml_path::text() const {
  std::string out;
  for (const auto& step : steps) {
    out += out.empty() ? "" : "/";
    out += step;
  }
  return out;
}

std::optional<xml_path> parse_xml_path(std::string_view text) {
  xml_path path;
  while (true) {
    const std::size_t slash = text.find('/');
    const std::string_view step = text.substr(0, slash);
    if (step.empty() || !is_name_start(step[0]) ||
        step.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789._-") != std::string_view::npos) {
      return std::nullopt;
    }
    path.steps.emplace_back(step);
    if (slash == std::string_view::npos) {
      return path;
    }
    text.remove_prefix(slash + 1);
  }
}

bool is_xml_text(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto character = text::read_utf8(text, i);
    if (!character) {
      return false;
    }
    const auto code = character->code;
    if ((code < 0x20 && code != '\t' && code != '\n' && code != '\r') || code == 0xFFFE ||
        code == 0xFFFF) {
      return false; // a control character, or not a character
    }
    i += character->length;
  }
  return true;
}

/// The body as a tree, and what is kept of it as the store sent it.
struct response_document::parsed_xml {
  pugi::xml_document document;
  pugi::xml_node root;
  std::string prefix;        // everything before the root element, as sent
  bool prefix_known = false; // else the whole document is written from the tree
  std::string suffix;        // the blanks that end the body, as sent
  bool edited = false;
};

response_document::response_document(response_head_editor& head, std::string body,
                                     bool head_request)
    : head_(head), body_(head_request ? std::string() : std::move(body)),
      head_request_(head_request) {}

response_document::~response_document() = default;

response_document::parsed_xml* response_document::xml() {
  if (xml_ || parse_failed_) {
    return xml_.get();
  }
  auto parsed = std::make_unique<parsed_xml>();
  const pugi::xml_parse_result result = parsed->document.load_buffer(
      body_.data(), body_.size(), xml_parse_options, pugi::encoding_utf8);
  std::size_t elements = 0;
  for (pugi::xml_node node = parsed->document.first_child(); node; node = node.next_sibling()) {
    if (node.type() == pugi::node_element) {
      ++elements;
      parsed->root = node;
    }
  }
  if (!result || elements != 1) {
    parse_failed_ = true; // not one XML document: what it is passes as it came
    return nullptr;
  }
  // The root's name starts one byte after its '<' in the parsed copy, which is the body byte
  // for byte (UTF-8 in, nothing converted).
  const std::ptrdiff_t name_at = parsed->root.offset_debug();
  const std::string_view name = parsed->root.name();
  if (name_at > 0 && static_cast<std::size_t>(name_at) + name.size() <= body_.size() &&
      body_[static_cast<std::size_t>(name_at) - 1] == '<' &&
      std::string_view(body_).substr(static_cast<std::size_t>(name_at), name.size()) == name) {
    parsed->prefix = body_.substr(0, static_cast<std::size_t>(name_at) - 1);
    parsed->prefix_known = true;
  }
  const std::size_t last = body_.find_last_not_of(xml_blanks);
  parsed->suffix = last == std::string::npos ? std::string() : body_.substr(last + 1);
  xml_ = std::move(parsed);
  return xml_.get();
}

namespace {

pugi::xml_node find_element(pugi::xml_node root, const xml_path& path) {
  if (path.steps.empty() || local_name(root.name()) != path.steps.front()) {
    return {};
  }
  pugi::xml_node node = root;
  for (std::size_t i = 1; i < path.steps.size() && node; ++i) {
    pugi::xml_node child = node.first_child();
    while (child &&
           !(child.type() == pugi::node_element && local_name(child.name()) == path.steps[i])) {
      child = child.next_sibling();
    }
    node = child;
  }
  return node;
}

} // namespace

bool response_document::set_element_text(const xml_path& path, std::string_view text) {
  parsed_xml* parsed = xml();
  if (parsed == nullptr) {
    return false;
  }
  pugi::xml_node element = find_element(parsed->root, path);
  if (!element || holds_text(element, text)) {
    return false;
  }
  while (element.first_child()) {
    element.remove_child(element.first_child());
  }
  if (!text.empty()) {
    element.append_child(pugi::node_pcdata).set_value(text::escape_xml_text(text).c_str());
  }
  parsed->edited = true;
  body_changed_ = true;
  return true;
}

bool response_document::remove_element(const xml_path& path) {
  parsed_xml* parsed = xml();
  if (parsed == nullptr) {
    return false;
  }
  pugi::xml_node element = find_element(parsed->root, path);
  if (!element || element == parsed->root) {
    return false; // without its root the body would be no document at all
  }
  pugi::xml_node parent = element.parent();
  const pugi::xml_node before = element.previous_sibling();
  if (before.type() == pugi::node_pcdata && is_blank(before.value())) {
    parent.remove_child(before);
  }
  parent.remove_child(element);
  parsed->edited = true;
  body_changed_ = true;
  return true;
}

void response_document::replace_body(std::string body) {
  body_ = head_request_ ? std::string() : std::move(body);
  xml_.reset();
  parse_failed_ = false;
  body_changed_ = true;
}

std::string response_document::take_body() {
  if (!xml_ || !xml_->edited) {
    return std::move(body_);
  }
  parsed_xml& parsed = *xml_;
  std::string out;
  string_writer writer(out);
  if (!parsed.prefix_known) {
    quote_attribute_values(parsed.document);
    parsed.document.save(writer, "", xml_write_options | pugi::format_no_declaration,
                         pugi::encoding_utf8);
  } else {
    out = parsed.prefix;
    for (pugi::xml_node node = parsed.root; node; node = node.next_sibling()) {
      quote_attribute_values(node);
      node.print(writer, "", xml_write_options, pugi::encoding_utf8);
    }
  }
  out += parsed.suffix;
  xml_.reset();
  return out;
}

} // namespace s3fault::faults
