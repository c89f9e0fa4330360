#pragma once
// The store misbehaviours a reader is put through, each as fault rules for the gate's proxy and
// an expectation saying which verdicts are acceptable.
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::gate {

/// must-recover: the right bytes can be obtained, so only CORRECT passes.
/// must-not-corrupt: CORRECT or REJECTED pass (the reader may give up, loudly).
/// informational: anything but SILENT_CORRUPTION and HUNG passes (timing scenarios).
enum class expectation { must_recover, must_not_corrupt, informational };
std::string_view to_string(expectation value);

/// Something the gate does itself during a run, beyond fault rules.
enum class scenario_action {
  none,
  replace_after_first_read, // the object is replaced (same size, other bytes) after the first GET
};

struct scenario {
  std::string name;  // "strip-parts-count"
  std::string title; // "x-amz-mp-parts-count removed"
  expectation expect = expectation::must_recover;
  std::vector<std::string> rules; // one-line fault specs (docs/faults.md), installed per run
  bool multipart_only = false;    // the rules can only fire on multipart objects
  scenario_action action = scenario_action::none;
  std::string why; // one line: what it finds in a reader
};

/// Every scenario, in report order.
const std::vector<scenario>& scenarios();

} // namespace s3fault::gate
