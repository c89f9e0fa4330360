// Rules files: YAML and JSON text through the same reading and validation as `--faults FILE`.
// The first byte picks the format; the rest is the file.
#include "faults/config/rule_file.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace s3fault::faults::config;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const rule_file_format formats[] = {rule_file_format::detect, rule_file_format::yaml,
                                      rule_file_format::json};
  const auto format = formats[data[0] % 3];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  s3fault::faults::error_list errors;
  const auto document = read_rule_text(text, "fuzz.yaml", errors, format);
  const auto build = parse_rules(document.entries);
  (void)build;
  return 0;
}
