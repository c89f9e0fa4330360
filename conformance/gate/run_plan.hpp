#pragma once
// Which runs a gate makes, in which order: the selected scenarios and shapes (globs, excludes,
// a scenario's own shape list), the baseline first on every shape, each run's key and seed.
#include "conformance/gate/gate_matrix.hpp"

#include <string>
#include <vector>

namespace s3fault::gate {

struct planned_run {
  const scenario* run_scenario = nullptr;
  const object_shape* shape = nullptr;
  std::string key;        // gate/<scenario>/<shape>
  std::uint32_t seed = 0; // the object's bytes and the rules' dice
  bool baseline = false;
};

/// A selected scenario that has no run: it applies to none of the selected shapes.
struct unplanned_scenario {
  const scenario* selected = nullptr;
  std::string reason; // "needs a multipart shape; none selected"
};

struct run_plan {
  std::vector<const scenario*> scenarios; // selected, baseline first (the unplanned ones too)
  std::vector<const object_shape*> shapes;
  std::vector<planned_run> runs;             // baseline runs first, then scenario by scenario
  std::vector<unplanned_scenario> unplanned; // in the scenarios' order
};

/// The plan for `matrix` under the globs. Throws std::invalid_argument when a glob matches no
/// name (each one named with the nearest names), the selection is empty (naming the option) or
/// the matrix has no baseline scenario.
run_plan plan_runs(const gate_matrix& matrix, const std::vector<std::string>& scenario_globs,
                   const std::vector<std::string>& shape_globs,
                   const std::vector<std::string>& exclude_globs, std::uint64_t gate_seed);

} // namespace s3fault::gate
