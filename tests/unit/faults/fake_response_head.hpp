#pragma once
// A response head in memory, as the proxy's editor presents one, for tests of header actions
// and of how their rules are counted.
#include "faults/fault_action.hpp"
#include "text/text.hpp"

#include <string>
#include <utility>
#include <vector>

namespace s3fault::faults::testing {

class fake_head final : public response_head_editor {
public:
  unsigned status() const override { return status_; }
  void set_status(unsigned status) override { status_ = status; }
  std::optional<std::string> header(std::string_view name) const override {
    for (const auto& [field, value] : fields_) {
      if (text::iequal(field, name)) {
        return value;
      }
    }
    return std::nullopt;
  }
  bool remove_header(std::string_view name) override {
    return std::erase_if(fields_,
                         [&](const auto& field) { return text::iequal(field.first, name); }) > 0;
  }
  void set_header(std::string_view name, std::string_view value) override {
    remove_header(name);
    fields_.emplace_back(name, value);
  }

  unsigned status_ = 206;
  std::vector<std::pair<std::string, std::string>> fields_ = {
      {"Content-Length", "8388608"},
      {"x-amz-mp-parts-count", "3"},
      {"ETag", "\"abc-3\""},
  };
};

} // namespace s3fault::faults::testing
