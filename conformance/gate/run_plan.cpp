#include "conformance/gate/run_plan.hpp"

#include "conformance/gate/fixture_upload.hpp"
#include "faults/rule.hpp"
#include "text/nearest_names.hpp"

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

bool glob_matches_a_name(const std::string& glob, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    if (faults::glob_matches(glob, name)) {
      return true;
    }
  }
  return false;
}

/// "--shapes: no shape matches '1KB' (nearest: 1KiB)", one clause per glob that matches
/// nothing; empty when every glob matches a name.
std::string unknown_globs(const std::string& option, const std::string& what,
                          const std::vector<std::string>& globs,
                          const std::vector<std::string>& names) {
  std::string text;
  for (const auto& glob : globs) {
    if (!glob_matches_a_name(glob, names)) {
      text += (text.empty() ? option + ": no " + what + " matches " : ", nor ") +
              text::quoted_with_nearest(glob, names);
    }
  }
  return text;
}

/// Every glob of the three options must match a name: a typo in a list is refused, never
/// dropped while the rest runs.
void refuse_unknown_globs(const gate_matrix& matrix, const std::vector<std::string>& scenario_globs,
                          const std::vector<std::string>& shape_globs,
                          const std::vector<std::string>& exclude_globs) {
  std::vector<std::string> scenario_names, shape_names;
  for (const auto& s : matrix.scenarios) {
    scenario_names.push_back(s.name);
  }
  for (const auto& shape : matrix.shapes) {
    shape_names.push_back(shape.name);
  }
  std::vector<std::string> either = scenario_names;
  either.insert(either.end(), shape_names.begin(), shape_names.end());
  std::string errors;
  for (const auto& clause :
       {unknown_globs("--scenarios", "scenario", scenario_globs, scenario_names),
        unknown_globs("--shapes", "shape", shape_globs, shape_names),
        unknown_globs("--exclude", "scenario or shape", exclude_globs, either)}) {
    if (!clause.empty()) {
      errors += (errors.empty() ? "" : "; ") + clause;
    }
  }
  if (!errors.empty()) {
    throw std::invalid_argument(errors + " ('s3fault gate --list' shows the names)");
  }
}

bool applies_to(const scenario& s, const object_shape& shape) {
  return matches_any(s.shape_globs, shape.name) && (!s.multipart_only || shape.multipart());
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) {
    text += (text.empty() ? "" : ", ") + name;
  }
  return text;
}

/// Why `s` applies to none of `shapes`: its own shape list, or its need of parts.
std::string why_no_shape(const scenario& s, const std::vector<const object_shape*>& shapes) {
  for (const auto* shape : shapes) {
    if (matches_any(s.shape_globs, shape->name)) {
      return "needs a multipart shape; none selected";
    }
  }
  return "runs only on the shapes " + joined(s.shape_globs) +
         (s.multipart_only ? " (multipart)" : "") + "; none selected";
}

planned_run make_run(const scenario& s, const object_shape& shape, std::uint64_t gate_seed) {
  return {&s, &shape, "gate/" + s.name + "/" + shape.name, run_seed(gate_seed, s.name, shape.name),
          s.name == "baseline"};
}

} // namespace

run_plan plan_runs(const gate_matrix& matrix, const std::vector<std::string>& scenario_globs,
                   const std::vector<std::string>& shape_globs,
                   const std::vector<std::string>& exclude_globs, std::uint64_t gate_seed) {
  refuse_unknown_globs(matrix, scenario_globs, shape_globs, exclude_globs);
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
    const auto runs_before = plan.runs.size();
    for (const auto* shape : plan.shapes) {
      if (s == baseline || applies_to(*s, *shape)) {
        plan.runs.push_back(make_run(*s, *shape, gate_seed));
      }
    }
    if (plan.runs.size() == runs_before) {
      plan.unplanned.push_back({s, why_no_shape(*s, plan.shapes)});
    }
  }
  return plan;
}

} // namespace s3fault::gate
