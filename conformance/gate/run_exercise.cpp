#include "conformance/gate/run_exercise.hpp"

namespace s3fault::gate {
namespace {

std::string joined(const std::set<std::string>& items) {
  std::string text;
  for (const auto& item : items) {
    text += (text.empty() ? "" : ", ") + item;
  }
  return text;
}

/// Why the scenario's faults, injected or not, never touched the object.
std::string missed_object(const traffic& seen, run_role role) {
  const std::string who(role_name(role));
  if (seen.faults_injected == 0) {
    return "the scenario's fault never reached the " + who + " (no injection on its key; it " +
           (role == run_role::writer ? "wrote" : "read") + " in a way no rule matches)";
  }
  return "the scenario's faults were injected " + std::to_string(seen.faults_injected) +
         (seen.faults_injected == 1 ? " time" : " times") + ", but never into " +
         (role == run_role::writer ? "a request of the upload or its answer"
                                   : "an answer carrying the object (2xx)") +
         ": only into " + joined(seen.faults_elsewhere);
}

std::string replacement_missed(const replacement_outcome& replaced) {
  if (!replaced.replaced) {
    return "the reader made no successful GET, so the object was never replaced";
  }
  return "the object was replaced after the reader's first GET, but the reader made no GET "
         "after that, so the replacement never reached it";
}

} // namespace

exercise run_exercise(const scenario& s, const traffic& seen, run_role role,
                      const replacement_outcome& replaced) {
  exercise result;
  if (s.needs_injection) {
    result.needed = true;
    if (seen.faults_on_object == 0) {
      result.happened = false;
      result.why_not = missed_object(seen, role);
      return result;
    }
  }
  if (s.action == scenario_action::replace_after_first_read) {
    result.needed = true;
    if (!replaced.replaced || replaced.reads_after == 0) {
      result.happened = false;
      result.why_not = replacement_missed(replaced);
    }
  }
  return result;
}

} // namespace s3fault::gate
