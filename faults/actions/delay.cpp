// delay: hold the request before it goes to the store, optionally with uniform jitter.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class delay_action final : public fault_action {
public:
  delay_action(clock::duration duration, clock::duration jitter)
      : duration_(duration), jitter_(jitter) {}

  std::string_view type() const override { return "delay"; }
  action_phase phase() const override { return action_phase::before_store; }
  nlohmann::json to_json() const override {
    nlohmann::json out = {{"type", type()}, {"duration", format_duration(duration_)}};
    if (jitter_ > clock::duration::zero()) {
      out["jitter"] = format_duration(jitter_);
    }
    return out;
  }

  /// Adds duration ± a uniform draw within jitter (never below zero: jitter <= duration).
  void apply_before_store(before_store_effect& effect, const s3_request&,
                          random_engine& random) const override {
    clock::duration delay = duration_;
    if (jitter_ > clock::duration::zero()) {
      std::uniform_int_distribution<clock::rep> spread(-jitter_.count(), jitter_.count());
      delay += clock::duration(spread(random));
    }
    effect.delay += delay;
  }

private:
  clock::duration duration_;
  clock::duration jitter_;
};

constexpr std::array<std::string_view, 2> delay_parameters = {"duration", "jitter"};

std::shared_ptr<const fault_action> parse_delay(const nlohmann::json& json, error_list& errors) {
  param_reader params("delay", json, errors, delay_parameters);
  const auto duration = params.duration("duration", need::required);
  const auto jitter = params.duration("jitter", need::optional);
  if (duration && jitter && *jitter > *duration) {
    params.fail("jitter", "must be at most the duration " + format_duration(*duration) + " (got " +
                              describe_got(*params.field("jitter")) + ")");
  }
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<delay_action>(*duration, jitter.value_or(clock::duration::zero()));
}

} // namespace

action_kind delay_kind() {
  return {
      "delay",
      action_phase::before_store,
      "hold the request for a duration (plus or minus uniform jitter) before it goes to the store",
      {"duration", "jitter"},
      parse_delay,
      {delay_parameters.begin(), delay_parameters.end()},
      "delay 2s jitter=500ms"};
}

} // namespace s3fault::faults::actions
