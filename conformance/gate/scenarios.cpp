#include "conformance/gate/scenarios.hpp"

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
