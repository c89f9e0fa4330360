#pragma once
// Helpers for the fault action tests: building actions through the registry (as rule files
// do), and a stand-in for the proxy that feeds a body through a filter in fixed-size chunks.
#include "faults/action_registry.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace s3fault::faults::testing {

/// An action built from JSON text through the registry; nullptr (and `errors`) when invalid.
struct parsed_action {
  std::shared_ptr<const fault_action> action;
  error_list errors;
};

inline parsed_action parse_action(std::string_view type, const nlohmann::json& params) {
  parsed_action out;
  const action_kind* kind = find_action_kind(type);
  if (kind == nullptr) {
    out.errors.push_back("unknown type " + std::string(type));
    return out;
  }
  out.action = kind->parse(params, out.errors);
  return out;
}

/// Parses an action that must be valid.
inline std::shared_ptr<const fault_action> make_action(std::string_view type,
                                                       const std::string& params_json) {
  auto parsed = parse_action(type, nlohmann::json::parse(params_json));
  EXPECT_TRUE(parsed.errors.empty()) << ::testing::PrintToString(parsed.errors);
  EXPECT_NE(parsed.action, nullptr);
  return parsed.action;
}

/// What the client (or the store, for request bodies) would have received.
struct filter_run {
  std::optional<std::uint64_t> announced; // the length the client is told instead
  bool range_follows = false;             // ... and whether Content-Range moves with it
  std::string output;
  body_step::ending end = body_step::ending::none;
  bool body_complete = false;
  /// Each pause with the body offset it happened at.
  std::vector<std::pair<std::uint64_t, clock::duration>> pauses;
  clock::duration total_pause{};
  std::size_t largest_step = 0;
  std::size_t dropped = 0; // bytes dropped by steps that passed nothing
};

/// Feeds `body` through `filter` the way the proxy does: `chunk`-byte pieces as they arrive,
/// bytes not passed offered again (dropped after a step that passes nothing without pausing),
/// a virtual clock that advances only by the pauses.
inline filter_run run_filter(body_filter& filter, std::string body, std::size_t chunk,
                             std::optional<std::uint64_t> declared) {
  filter_run run;
  if (const auto announcement = filter.announce_length(declared)) {
    run.announced = announcement->length;
    run.range_follows = announcement->range_follows;
  }
  clock::time_point now{};
  std::uint64_t offset = 0;
  for (std::size_t start = 0; start < body.size(); start += chunk) {
    std::span<char> piece(body.data() + start, std::min(chunk, body.size() - start));
    while (!piece.empty()) {
      const body_step step = filter.on_bytes(piece, offset, now);
      if (step.pass > piece.size()) {
        ADD_FAILURE() << "filter passed " << step.pass << " of " << piece.size() << " bytes";
        return run;
      }
      if (step.pause > clock::duration::zero()) {
        run.pauses.emplace_back(offset, step.pause);
        run.total_pause += step.pause;
        now += step.pause;
      }
      run.output.append(piece.data(), step.pass);
      run.largest_step = std::max(run.largest_step, step.pass);
      offset += step.pass;
      piece = piece.subspan(step.pass);
      if (step.end != body_step::ending::none) {
        run.end = step.end;
        return run;
      }
      if (step.body_complete) {
        run.body_complete = true;
        return run;
      }
      if (step.pass == 0 && step.pause <= clock::duration::zero()) {
        run.dropped += piece.size();
        break;
      }
    }
  }
  return run;
}

/// A body whose bytes differ from their neighbours, so cuts and flips are visible.
inline std::string patterned_body(std::size_t size) {
  std::string body(size, '\0');
  for (std::size_t i = 0; i < size; ++i) {
    body[i] = static_cast<char>((i * 131 + i / 256) & 0xFF);
  }
  return body;
}

/// The chunk sizes every body test runs with: they must all give the same result.
inline const std::vector<std::size_t>& chunk_sizes() {
  static const std::vector<std::size_t> sizes = {1, 7, 64 * 1024};
  return sizes;
}

} // namespace s3fault::faults::testing
