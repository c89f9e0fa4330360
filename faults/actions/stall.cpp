// stall: the response body stops once for a while at a byte offset, then carries on: a store
// that goes quiet mid-body (trips idle/read timeouts).
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

/// Per exchange: whether the one pause has happened.
class stall_filter final : public body_filter {
public:
  stall_filter(std::uint64_t after, clock::duration duration)
      : after_(after), duration_(duration) {}

  body_step on_bytes(std::span<char> bytes, std::uint64_t offset, clock::time_point) override {
    if (stalled_) {
      return {.pass = bytes.size()};
    }
    if (offset >= after_) {
      stalled_ = true;
      return {.pass = bytes.size(), .pause = duration_};
    }
    if (offset + bytes.size() > after_) {
      // Send up to the stall point; the rest comes back to us starting exactly there.
      return {.pass = static_cast<std::size_t>(after_ - offset)};
    }
    return {.pass = bytes.size()};
  }

  bool changed_body() const override { return stalled_; }

private:
  std::uint64_t after_;
  clock::duration duration_;
  bool stalled_ = false;
};

class stall_action final : public fault_action {
public:
  stall_action(std::uint64_t after, clock::duration duration)
      : after_(after), duration_(duration) {}

  std::string_view type() const override { return "stall"; }
  action_phase phase() const override { return action_phase::response_body; }
  nlohmann::json to_json() const override {
    return {{"type", type()}, {"after", after_}, {"duration", format_duration(duration_)}};
  }

  std::unique_ptr<body_filter> make_body_filter(random_engine&) const override {
    return std::make_unique<stall_filter>(after_, duration_);
  }

private:
  std::uint64_t after_;
  clock::duration duration_;
};

constexpr std::array<std::string_view, 2> stall_parameters = {"after", "duration"};

std::shared_ptr<const fault_action> parse_stall(const nlohmann::json& json, error_list& errors) {
  param_reader params("stall", json, errors, stall_parameters);
  const auto after = params.size("after", need::required);
  const auto duration = params.duration("duration", need::required);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<stall_action>(*after, *duration);
}

} // namespace

action_kind stall_kind() {
  return {"stall",
          action_phase::response_body,
          "pause the response body once, for a duration, after a number of bytes",
          {"after", "duration"},
          parse_stall,
          {stall_parameters.begin(), stall_parameters.end()},
          "stall 64KiB 5s"};
}

} // namespace s3fault::faults::actions
