// xml-remove: remove one element of the store's S3 XML body, e.g. Error/Resource (Ceph RGW's
// error bodies have none). The body is buffered whole and sent with its new length
// (faults/response_document.hpp); it counts as injected only in exchanges whose body had the
// element.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"
#include "faults/response_document.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class xml_remove_action final : public fault_action {
public:
  explicit xml_remove_action(xml_path path) : path_(std::move(path)) {}

  std::string_view type() const override { return "xml-remove"; }
  action_phase phase() const override { return action_phase::response_document; }
  nlohmann::json to_json() const override { return {{"type", type()}, {"path", path_.text()}}; }

  bool apply_to_document(response_document& document, const s3_request&) const override {
    return document.remove_element(path_);
  }

private:
  xml_path path_;
};

constexpr std::array<std::string_view, 1> xml_remove_parameters = {"path"};

std::shared_ptr<const fault_action> parse_xml_remove(const nlohmann::json& json,
                                                     error_list& errors) {
  param_reader params("xml-remove", json, errors, xml_remove_parameters);
  const auto path_text = params.text("path", need::required, xml_path_example);
  std::optional<xml_path> path;
  if (path_text) {
    path = parse_xml_path(*path_text);
    if (!path) {
      params.reject("path", xml_path_example);
    } else if (path->steps.size() < 2) {
      params.fail("path", "names the root element \"" + *path_text +
                              "\", and a body without its root is no document (name an element "
                              "inside it, like Error/Resource; to replace the whole answer use "
                              "replace-with-error)");
    }
  }
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<xml_remove_action>(std::move(*path));
}

} // namespace

action_kind xml_remove_kind() {
  return {"xml-remove",
          action_phase::response_document,
          "remove one element of the store's S3 XML body (a path from the root, namespaces "
          "ignored); the body goes out with its new length; counted as injected only when the "
          "element was there",
          {"path"},
          parse_xml_remove,
          {xml_remove_parameters.begin(), xml_remove_parameters.end()},
          "xml-remove Error/Resource status=4xx,5xx"};
}

} // namespace s3fault::faults::actions
