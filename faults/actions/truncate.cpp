// truncate: the response body stops early, at a byte offset or a fraction of its length.
//
//   mode close (default)   Content-Length as the store sent it; the client gets the bytes
//                          before the cut, then the connection closes: a short read.
//   mode consistent        Content-Length (and the end of Content-Range) rewritten to the cut;
//                          the body ends normally there: a silently short object.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

enum class truncate_mode { close, consistent };

/// Per exchange: where the cut falls once the body's length is known.
class truncate_filter final : public body_filter {
public:
  truncate_filter(size_or_fraction at, truncate_mode mode) : at_(at), mode_(mode) {}

  std::optional<std::uint64_t> announce_length(std::optional<std::uint64_t> declared) override {
    resolve(declared);
    if (mode_ == truncate_mode::consistent && cut_ && declared) {
      changed_ = true; // the client is told the shorter length
      return cut_;
    }
    return std::nullopt;
  }

  body_step on_bytes(std::span<char> bytes, std::uint64_t offset, clock::time_point) override {
    if (!resolved_) {
      resolve(std::nullopt); // never announced: only a byte offset can apply
    }
    if (!cut_ || offset + bytes.size() <= *cut_) {
      return {.pass = bytes.size()}; // the cut comes with later bytes, if there are any
    }
    body_step step;
    changed_ = true;
    step.pass = *cut_ > offset ? static_cast<std::size_t>(*cut_ - offset) : 0;
    if (mode_ == truncate_mode::close) {
      step.end = body_step::ending::close;
    } else {
      step.body_complete = true;
    }
    return step;
  }

  bool changed_body() const override { return changed_; }

private:
  void resolve(std::optional<std::uint64_t> declared) {
    resolved_ = true;
    cut_ = at_.resolve(declared);
    if (cut_ && declared && *cut_ >= *declared) {
      cut_.reset(); // at or past the end: nothing to cut
    }
  }

  size_or_fraction at_;
  truncate_mode mode_;
  bool resolved_ = false;
  bool changed_ = false;
  std::optional<std::uint64_t> cut_;
};

class truncate_action final : public fault_action {
public:
  truncate_action(size_or_fraction at, truncate_mode mode) : at_(at), mode_(mode) {}

  std::string_view type() const override { return "truncate"; }
  action_phase phase() const override { return action_phase::response_body; }
  nlohmann::json to_json() const override {
    return {{"type", type()},
            {"at", at_.to_json()},
            {"mode", mode_ == truncate_mode::close ? "close" : "consistent"}};
  }

  std::unique_ptr<body_filter> make_body_filter(random_engine&) const override {
    return std::make_unique<truncate_filter>(at_, mode_);
  }

private:
  size_or_fraction at_;
  truncate_mode mode_;
};

constexpr std::array<std::string_view, 2> truncate_parameters = {"at", "mode"};

std::shared_ptr<const fault_action> parse_truncate(const nlohmann::json& json, error_list& errors) {
  param_reader params("truncate", json, errors, truncate_parameters);
  const auto at = params.offset_or_fraction("at", need::required);
  const auto mode = params.choice("mode", need::optional, {"close", "consistent"});
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<truncate_action>(*at, mode == "consistent" ? truncate_mode::consistent
                                                                     : truncate_mode::close);
}

} // namespace

action_kind truncate_kind() {
  return {"truncate",
          action_phase::response_body,
          "cut the response body at a byte offset or a fraction of its length; mode close keeps "
          "Content-Length and closes, mode consistent shortens Content-Length to match",
          {"at", "mode"},
          parse_truncate,
          {truncate_parameters.begin(), truncate_parameters.end()},
          "truncate 50% mode=consistent"};
}

} // namespace s3fault::faults::actions
