#include "conformance/gate/scenarios.hpp"

#include "conformance/gate/enum_names.hpp"

namespace s3fault::gate {

std::string_view to_string(expectation value) {
  switch (value) {
  case expectation::must_recover:
    return "must-recover";
  case expectation::must_not_corrupt:
    return "must-not-corrupt";
  case expectation::informational:
    return "informational";
  }
  return "?";
}

std::string_view to_string(scenario_action value) {
  switch (value) {
  case scenario_action::none:
    return "none";
  case scenario_action::replace_after_first_read:
    return "replace-after-first-read";
  case scenario_action::overwrite:
    return "overwrite";
  }
  return "?";
}

std::optional<expectation> expectation_from_string(std::string_view text) {
  return enum_named(text, std::array{expectation::must_recover, expectation::must_not_corrupt,
                                     expectation::informational});
}

std::optional<scenario_action> action_from_string(std::string_view text) {
  return enum_named(text,
                    std::array{scenario_action::none, scenario_action::replace_after_first_read,
                               scenario_action::overwrite});
}

bool action_fits(scenario_action action, bool writer) {
  switch (action) {
  case scenario_action::none:
    return true;
  case scenario_action::replace_after_first_read:
    return !writer;
  case scenario_action::overwrite:
    return writer;
  }
  return false;
}

} // namespace s3fault::gate
