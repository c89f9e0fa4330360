// The one-line rule syntax (`--fault SPEC`): tokenising, typing, validation, and then the
// decisions of whatever rule came out, against a few classified requests.
#include "faults/config/build_rules.hpp"
#include "faults/rule_set.hpp"
#include "faults/s3_request.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace s3fault::faults;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string spec(reinterpret_cast<const char*>(data), size);
  auto build = config::build_rules({spec}, {}, {});
  if (!build.ok()) {
    // Every refusal says what is wrong.
    if (build.errors.empty()) {
      __builtin_trap();
    }
    return 0;
  }
  const auto started = clock::now();
  rule_set rules(std::move(build.rules), 7, started);
  const header_lookup headers = [](std::string_view name) -> std::optional<std::string_view> {
    if (name == "range") {
      return "bytes=0-9";
    }
    return std::nullopt;
  };
  for (const char* target : {"/b/k", "/b/k?partNumber=2", "/b?list-type=2", "/b/k?uploads"}) {
    const auto request = classify_request({.method = "GET", .target = target, .host = "h"});
    for (int exchange = 0; exchange < 3; ++exchange) {
      auto decision = rules.decide(request, "GET", headers, started);
      rules.decide_on_status(decision, request, 200, started);
      rules.decide_on_status(decision, request, 503, started);
    }
  }
  return 0;
}
