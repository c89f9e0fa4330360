// stall and request-stall: a body stops once for a while at a byte offset, then carries on: a
// store that goes quiet mid-body (trips a client's read timeout), or one that stops taking an
// upload (trips its write timeout). One action type applied in either direction.
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
  stall_action(std::string_view type, action_phase phase, std::uint64_t after,
               clock::duration duration)
      : type_(type), phase_(phase), after_(after), duration_(duration) {}

  std::string_view type() const override { return type_; }
  action_phase phase() const override { return phase_; }
  nlohmann::json to_json() const override {
    return {{"type", type()}, {"after", after_}, {"duration", format_duration(duration_)}};
  }

  std::unique_ptr<body_filter> make_body_filter(random_engine&) const override {
    return std::make_unique<stall_filter>(after_, duration_);
  }

private:
  std::string_view type_; // a literal from this file
  action_phase phase_;
  std::uint64_t after_;
  clock::duration duration_;
};

constexpr std::array<std::string_view, 2> stall_parameters = {"after", "duration"};

action_kind stall_kind_for(std::string_view type, action_phase phase, std::string_view summary,
                           std::string_view example) {
  auto parse = [type, phase](const nlohmann::json& json,
                             error_list& errors) -> std::shared_ptr<const fault_action> {
    param_reader params(type, json, errors, stall_parameters);
    const auto after = params.size("after", need::required);
    const auto duration = params.duration("duration", need::required);
    if (!params.ok()) {
      return nullptr;
    }
    return std::make_shared<stall_action>(type, phase, *after, *duration);
  };
  return {type,    phase,
          summary, {"after", "duration"},
          parse,   {stall_parameters.begin(), stall_parameters.end()},
          example};
}

} // namespace

action_kind stall_kind() {
  return stall_kind_for("stall", action_phase::response_body,
                        "pause the response body once, for a duration, after a number of bytes",
                        "stall 64KiB 5s");
}

action_kind request_stall_kind() {
  return stall_kind_for("request-stall", action_phase::request_body,
                        "pause the request body on its way to the store once, for a duration, "
                        "after a number of bytes",
                        "request-stall 1MiB 10s op=UploadPart");
}

} // namespace s3fault::faults::actions
