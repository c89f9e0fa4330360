#include "conformance/gate/run_plan.hpp"

#include "conformance/gate/fixture_upload.hpp"
#include "faults/rule.hpp"

#include <stdexcept>

namespace s3fault::gate {
namespace {

bool matches_any(const std::vector<std::string>& globs, const std::string& name) {
  for (const auto& glob : globs) {
    if (faults::glob_matches(glob, name)) {
      return true;
    }
  }
  return false;
}

bool applies_to(const scenario& s, const object_shape& shape) {
  return matches_any(s.shape_globs, shape.name) && (!s.multipart_only || shape.multipart());
}

planned_run make_run(const scenario& s, const object_shape& shape, std::uint64_t gate_seed) {
  return {&s, &shape, "gate/" + s.name + "/" + shape.name, run_seed(gate_seed, s.name, shape.name),
          s.name == "baseline"};
}

} // namespace

run_plan plan_runs(const gate_matrix& matrix, const std::vector<std::string>& scenario_globs,
                   const std::vector<std::string>& shape_globs,
                   const std::vector<std::string>& exclude_globs, std::uint64_t gate_seed) {
  run_plan plan;
  const scenario* baseline = nullptr;
  for (const auto& s : matrix.scenarios) {
    if (s.name == "baseline") {
      baseline = &s; // always run: every verdict rests on it
    } else if (matches_any(scenario_globs, s.name) && !matches_any(exclude_globs, s.name)) {
      plan.scenarios.push_back(&s);
    }
  }
  if (baseline == nullptr) {
    throw std::invalid_argument("the matrix has no scenario named baseline");
  }
  for (const auto& shape : matrix.shapes) {
    if (matches_any(shape_globs, shape.name) && !matches_any(exclude_globs, shape.name)) {
      plan.shapes.push_back(&shape);
    }
  }
  if (plan.shapes.empty()) {
    throw std::invalid_argument("--shapes and --exclude select no shape ('s3fault gate --list' "
                                "shows them)");
  }
  if (plan.scenarios.empty() && !matches_any(scenario_globs, "baseline")) {
    throw std::invalid_argument("--scenarios and --exclude select no scenario ('s3fault gate "
                                "--list' shows them)");
  }
  plan.scenarios.insert(plan.scenarios.begin(), baseline);
  for (const auto* s : plan.scenarios) {
    for (const auto* shape : plan.shapes) {
      if (s == baseline || applies_to(*s, *shape)) {
        plan.runs.push_back(make_run(*s, *shape, gate_seed));
      }
    }
  }
  return plan;
}

} // namespace s3fault::gate
