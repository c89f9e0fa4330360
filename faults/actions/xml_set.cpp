// xml-set: set the text of one element of the store's S3 XML body, e.g. an empty ETag in a
// CompleteMultipartUploadResult (Ceph RGW 16.2) or an empty Error/Message. The body is buffered
// whole and sent with its new length (faults/response_document.hpp); it counts as injected only
// in exchanges whose body had the element with other text.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"
#include "faults/response_document.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class xml_set_action final : public fault_action {
public:
  xml_set_action(xml_path path, std::string value)
      : path_(std::move(path)), value_(std::move(value)) {}

  std::string_view type() const override { return "xml-set"; }
  action_phase phase() const override { return action_phase::response_document; }
  nlohmann::json to_json() const override {
    return {{"type", type()}, {"path", path_.text()}, {"value", value_}};
  }

  bool apply_to_document(response_document& document, const s3_request&) const override {
    return document.set_element_text(path_, value_);
  }

private:
  xml_path path_;
  std::string value_;
};

constexpr std::array<std::string_view, 2> xml_set_parameters = {"path", "value"};

std::shared_ptr<const fault_action> parse_xml_set(const nlohmann::json& json, error_list& errors) {
  param_reader params("xml-set", json, errors, xml_set_parameters);
  const auto path_text = params.text("path", need::required, xml_path_example);
  const auto value = params.text("value", need::required, "the element's new text (may be \"\")");
  std::optional<xml_path> path;
  if (path_text) {
    path = parse_xml_path(*path_text);
    if (!path) {
      params.reject("path", xml_path_example);
    }
  }
  if (value && !is_xml_text(*value)) {
    params.reject("value", "UTF-8 text without control characters other than tab, CR and LF");
  }
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<xml_set_action>(std::move(*path), *value);
}

} // namespace

action_kind xml_set_kind() {
  return {"xml-set",
          action_phase::response_document,
          "set the text of one element of the store's S3 XML body (a path from the root, "
          "namespaces ignored); the body goes out with its new length; counted as injected only "
          "when the element was there and its text changed",
          {"path", "value"},
          parse_xml_set,
          {xml_set_parameters.begin(), xml_set_parameters.end()},
          "xml-set CompleteMultipartUploadResult/ETag \"\" op=CompleteMultipartUpload"};
}

} // namespace s3fault::faults::actions
