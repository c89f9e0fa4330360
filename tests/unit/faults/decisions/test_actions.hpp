#pragma once
// A minimal action for testing the decision engine: it only records that it was applied.
#include "faults/fault_action.hpp"

namespace s3fault::faults::testing {

class marker_action final : public fault_action {
public:
  explicit marker_action(action_phase phase) : phase_(phase) {}
  std::string_view type() const override { return "marker"; }
  action_phase phase() const override { return phase_; }
  nlohmann::json to_json() const override { return {{"type", "marker"}}; }
  void apply_before_store(before_store_effect& effect, const s3_request&,
                          random_engine&) const override {
    effect.end_without_answer = no_answer{};
  }

private:
  action_phase phase_;
};

inline rule make_rule(std::string name, match_spec match = {}, schedule_spec schedule = {},
                      action_phase phase = action_phase::before_store) {
  rule r;
  r.name = std::move(name);
  r.match = std::move(match);
  r.schedule = schedule;
  r.actions.push_back(std::make_shared<marker_action>(phase));
  return r;
}

} // namespace s3fault::faults::testing
