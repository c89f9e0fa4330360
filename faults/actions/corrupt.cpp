// corrupt and request-corrupt: flip every bit of chosen body bytes (xor 0xFF) of the response on
// its way to the client, or of the upload on its way to the store; the length is unchanged, so
// only a checksum, a Content-MD5 or a content comparison notices. One action type applied in
// either direction.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

#include <algorithm>
#include <unordered_set>

namespace s3fault::faults::actions {
namespace {

/// Where random offsets fall when the body's length is unknown (chunked or close-delimited).
constexpr std::uint64_t unknown_length_span = 64 * 1024;
constexpr std::uint64_t max_count = 1'000'000;

using offset_list = std::vector<std::uint64_t>;

/// `count` distinct offsets in [0, length), sorted (Floyd's sampling: one draw per offset).
offset_list choose_offsets(std::uint64_t count, std::uint64_t length, random_engine& random) {
  offset_list chosen;
  if (count >= length) {
    chosen.resize(length);
    for (std::uint64_t i = 0; i < length; ++i) {
      chosen[i] = i;
    }
    return chosen;
  }
  std::unordered_set<std::uint64_t> taken;
  for (std::uint64_t j = length - count; j < length; ++j) {
    const std::uint64_t pick = std::uniform_int_distribution<std::uint64_t>(0, j)(random);
    taken.insert(taken.contains(pick) ? j : pick);
  }
  chosen.assign(taken.begin(), taken.end());
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

/// Per exchange: the sorted offsets to flip (fixed, or drawn once the length is known).
class corrupt_filter final : public body_filter {
public:
  explicit corrupt_filter(std::shared_ptr<const offset_list> offsets)
      : offsets_(std::move(offsets)) {}
  corrupt_filter(std::uint64_t count, random_engine::result_type seed)
      : count_(count), random_(seed) {}

  std::optional<length_announcement>
  announce_length(std::optional<std::uint64_t> declared) override {
    choose(declared);
    return std::nullopt;
  }

  body_step on_bytes(std::span<char> bytes, std::uint64_t offset, clock::time_point) override {
    if (!offsets_) {
      choose(std::nullopt);
    }
    const auto end = offset + bytes.size();
    for (auto it = std::lower_bound(offsets_->begin(), offsets_->end(), offset);
         it != offsets_->end() && *it < end; ++it) {
      bytes[*it - offset] = static_cast<char>(bytes[*it - offset] ^ 0xFF);
      changed_ = true;
    }
    return {.pass = bytes.size()};
  }

  bool changed_body() const override { return changed_; }

private:
  void choose(std::optional<std::uint64_t> length) {
    if (!offsets_) {
      offsets_ = std::make_shared<const offset_list>(
          choose_offsets(count_, length.value_or(unknown_length_span), random_));
    }
  }

  std::shared_ptr<const offset_list> offsets_;
  std::uint64_t count_ = 0;
  random_engine random_;
  bool changed_ = false;
};

class corrupt_action final : public fault_action {
public:
  corrupt_action(std::string_view type, action_phase phase, offset_list offsets)
      : type_(type), phase_(phase),
        offsets_(std::make_shared<const offset_list>(std::move(offsets))) {}
  corrupt_action(std::string_view type, action_phase phase, std::uint64_t count)
      : type_(type), phase_(phase), count_(count) {}

  std::string_view type() const override { return type_; }
  action_phase phase() const override { return phase_; }
  nlohmann::json to_json() const override {
    if (offsets_) {
      return {{"type", type()}, {"offsets", *offsets_}};
    }
    return {{"type", type()}, {"count", count_}};
  }

  std::unique_ptr<body_filter> make_body_filter(random_engine& random) const override {
    if (offsets_) {
      return std::make_unique<corrupt_filter>(offsets_);
    }
    // Its own engine, seeded from the rule set's: the offsets are drawn later, once the length
    // is known, and stay reproducible for a given seed.
    return std::make_unique<corrupt_filter>(count_, random());
  }

private:
  std::string_view type_; // a literal from this file
  action_phase phase_;
  std::shared_ptr<const offset_list> offsets_; // fixed offsets, sorted and distinct
  std::uint64_t count_ = 0;                    // otherwise this many random ones
};

constexpr std::array<std::string_view, 2> corrupt_parameters = {"offsets", "count"};

std::shared_ptr<const fault_action> parse_corrupt(std::string_view type, action_phase phase,
                                                  const nlohmann::json& json, error_list& errors) {
  param_reader params(type, json, errors, corrupt_parameters);
  auto offsets = params.size_list("offsets", need::optional);
  const auto count = params.whole_number("count", need::optional, 1, max_count,
                                         "a whole number from 1 to 1000000");
  if (params.has("offsets") && params.has("count")) {
    params.fail("offsets", "give offsets or count, not both");
  } else if (!params.has("offsets") && !params.has("count")) {
    params.fail("offsets", "missing (give offsets, a list of sizes like [0, 1MiB], or count, a "
                           "whole number of random offsets)");
  }
  if (!params.ok()) {
    return nullptr;
  }
  if (offsets) {
    std::sort(offsets->begin(), offsets->end());
    offsets->erase(std::unique(offsets->begin(), offsets->end()), offsets->end());
    return std::make_shared<corrupt_action>(type, phase, std::move(*offsets));
  }
  return std::make_shared<corrupt_action>(type, phase, *count);
}

action_kind corrupt_kind_for(std::string_view type, action_phase phase, std::string_view summary,
                             std::string_view example) {
  auto parse = [type, phase](const nlohmann::json& json, error_list& errors) {
    return parse_corrupt(type, phase, json, errors);
  };
  return {type,        phase, summary,
          {"offsets"}, parse, {corrupt_parameters.begin(), corrupt_parameters.end()},
          example};
}

} // namespace

action_kind corrupt_kind() {
  return corrupt_kind_for("corrupt", action_phase::response_body,
                          "flip all bits of response body bytes at given offsets, or at count "
                          "random ones; the length is unchanged",
                          "corrupt 0,4096");
}

action_kind request_corrupt_kind() {
  return corrupt_kind_for("request-corrupt", action_phase::request_body,
                          "flip all bits of request body bytes at given offsets, or at count "
                          "random ones, on the way to the store (offsets of the body as sent: "
                          "chunk framing and chunk signatures count); the length is unchanged",
                          "request-corrupt 0 op=UploadPart");
}

} // namespace s3fault::faults::actions
