#pragma once
// The store's whole response as document actions see and change it
// (action_phase::response_document): the head through a response_head_editor, and the body read
// to its end and held in memory, so that an edit may change its length.
//
//   store body (at most document_body_limit) ──> response_document
//        xml-set / xml-remove ──> S3 XML tree (parsed on the first edit that needs it)
//        replace-with-error   ──> a new body (the tree is dropped)
//   take_body() ──> the body the client gets, sent with its new Content-Length by the proxy
//
// Only what an edit touches changes: the bytes before the root element (XML declaration,
// comments) and the trailing blanks stay as the store sent them, and text and attributes keep
// their escapes (&quot; stays &quot;). Elements written back without children use start and end
// tags (<ETag></ETag>, as S3 writes them).
#include "faults/fault_action.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::faults {

/// Bodies longer than this (on the wire, a chunked body's framing included) are not buffered:
/// they pass as they came and document actions do nothing to them.
inline constexpr std::uint64_t document_body_limit = 1024 * 1024;

/// One element of an S3 XML document, named by the local names of the elements from the root
/// down (`Error/Resource`); namespace prefixes and declarations are ignored when matching. At
/// each step the first child element of that name is taken.
struct xml_path {
  std::vector<std::string> steps;

  /// The steps joined with '/', as written.
  std::string text() const;
};

/// What an xml_path looks like, for messages.
inline constexpr std::string_view xml_path_example =
    "element names from the root down, separated by /, like CompleteMultipartUploadResult/ETag";

/// Parses "Root/Child/...": every step an XML name without a prefix (a letter or '_', then
/// letters, digits, '.', '-', '_'). nullopt for an empty path or step, or another character.
std::optional<xml_path> parse_xml_path(std::string_view text);

/// True for text an element may hold: UTF-8 without control characters other than tab, CR and
/// LF (which XML 1.0 forbids).
bool is_xml_text(std::string_view text);

class response_document {
public:
  /// `body` is the store's whole body, chunked coding removed (empty for HEAD); `head_request`:
  /// the answer carries no body whatever an edit puts there.
  response_document(response_head_editor& head, std::string body, bool head_request);
  ~response_document();
  response_document(const response_document&) = delete;
  response_document& operator=(const response_document&) = delete;

  response_head_editor& head() { return head_; }
  bool head_request() const { return head_request_; }

  /// Replaces the content of the element at `path` by `text` (escaped here). False, changing
  /// nothing, when the body is not one S3 XML document, the element is not there, or it already
  /// holds exactly that text.
  bool set_element_text(const xml_path& path, std::string_view text);
  /// Removes the element at `path`, with the blanks just before it (its line, in an indented
  /// document). False when the body is not XML or the element is not there.
  bool remove_element(const xml_path& path);
  /// The body becomes `body` (for a HEAD, none).
  void replace_body(std::string body);

  /// Whether an edit changed the body.
  bool body_changed() const { return body_changed_; }
  /// The body as the edits left it (the store's own when none changed it).
  std::string take_body();

private:
  struct parsed_xml;
  /// The parsed body, parsed now if it has not been; nullptr when it is not one XML document.
  parsed_xml* xml();

  response_head_editor& head_;
  std::string body_;
  bool head_request_;
  bool body_changed_ = false;
  bool parse_failed_ = false; // the current body is not XML: edits find nothing
  std::unique_ptr<parsed_xml> xml_;
};

} // namespace s3fault::faults
