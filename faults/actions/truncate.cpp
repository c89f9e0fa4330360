// truncate: the response body stops early, at a byte offset or a fraction of its length.
//
//   mode close (default)   Content-Length as the store sent it; the client gets the bytes
//                          before the cut, then the connection closes: a short read.
//   mode consistent        Content-Length (and the end of Content-Range) rewritten to the cut;
//                          the body ends normally there: a silently short object.
//   mode length-only       Content-Length rewritten to the cut, Content-Range as the store sent
//                          it: a short body whose range still claims the full span, which only
//                          a client comparing the two notices.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>
#include <string_view>

namespace s3fault::faults::actions {
namespace {

enum class truncate_mode { close, consistent, length_only };

std::string_view mode_name(truncate_mode mode) {
  switch (mode) {
  case truncate_mode::close:
    return "close";
  case truncate_mode::consistent:
    return "consistent";
  case truncate_mode::length_only:
    return "length-only";
  }
  return "close";
}

/// Per exchange: where the cut falls once the body's length is known.
class truncate_filter final : public body_filter {
public:
  truncate_filter(size_or_fraction at, truncate_mode mode) : at_(at), mode_(mode) {}

  std::optional<length_announcement>
  announce_length(std::optional<std::uint64_t> declared) override {
    resolve(declared);
    if (mode_ == truncate_mode::close || !cut_ || !declared) {
      return std::nullopt;
    }
    changed_ = true; // the client is told the shorter length
    return length_announcement{.length = *cut_,
                               .range_follows = mode_ == truncate_mode::consistent};
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
    return {{"type", type()}, {"at", at_.to_json()}, {"mode", mode_name(mode_)}};
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
  const auto mode = params.choice("mode", need::optional, {"close", "consistent", "length-only"});
  if (!params.ok()) {
    return nullptr;
  }
  const truncate_mode chosen = mode == "consistent"    ? truncate_mode::consistent
                               : mode == "length-only" ? truncate_mode::length_only
                                                       : truncate_mode::close;
  return std::make_shared<truncate_action>(*at, chosen);
}

} // namespace

action_kind truncate_kind() {
  return {"truncate",
          action_phase::response_body,
          "cut the response body at a byte offset or a fraction of its length; mode close keeps "
          "Content-Length and closes, mode consistent shortens Content-Length and Content-Range "
          "to match, mode length-only shortens Content-Length and keeps Content-Range",
          {"at", "mode"},
          parse_truncate,
          {truncate_parameters.begin(), truncate_parameters.end()},
          "truncate 50% mode=length-only"};
}

} // namespace s3fault::faults::actions
