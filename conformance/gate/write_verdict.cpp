#include "conformance/gate/write_verdict.hpp"

#include <string>

namespace s3fault::gate {
namespace {

std::string exit_text(int exit_code) {
  return "exit " + std::to_string(exit_code);
}

/// "; first difference at offset 3" (sets `difference`), or "" when one is a prefix of the other
/// only by length.
std::string difference_text(std::string_view stored, std::string_view input,
                            std::optional<std::uint64_t>& difference) {
  difference = first_difference(stored, input);
  return difference ? "; first difference at offset " + std::to_string(*difference) : "";
}

/// The verdict the writer's exit and the stored bytes earn, with its one-line reason.
judged_run judge_stored(const write_evidence& e) {
  judged_run run;
  run.expected_bytes = e.input.size();
  run.actual_bytes = e.stored ? e.stored->size() : 0;
  const bool holds_input = e.stored && *e.stored == e.input;
  const bool holds_previous = e.stored && e.previous && *e.stored == *e.previous;
  if (e.timed_out) {
    run.result = verdict::hung;
    run.why = "still running after " + std::to_string(static_cast<long>(e.timeout_seconds)) +
              " s; its process group was killed";
  } else if (e.exit_code == 0 && holds_input) {
    run.result = verdict::stored;
    run.why = "exit 0, the store holds every byte of the input";
  } else if (e.exit_code == 0) {
    run.result = verdict::silent_loss;
    run.why = !e.stored ? "exit 0, but the store holds no object under the key"
              : holds_previous
                  ? "exit 0, but the key still holds the object it held before"
                  : "exit 0, but the key holds " + std::to_string(e.stored->size()) +
                        " bytes, not the " + std::to_string(e.input.size()) + " of the input" +
                        difference_text(*e.stored, e.input, run.first_difference);
  } else if (!e.stored || holds_previous || holds_input) {
    run.result = verdict::rejected;
    run.why = exit_text(e.exit_code) +
              (!e.stored        ? ", the key holds no object"
               : holds_previous ? ", the key holds the object it held before"
                                : ", though the store holds the input (the upload had landed)");
  } else {
    run.result = verdict::torn;
    run.why = exit_text(e.exit_code) + ", and the key holds " + std::to_string(e.stored->size()) +
              " bytes that are neither the input (" + std::to_string(e.input.size()) + " bytes" +
              difference_text(*e.stored, e.input, run.first_difference) + ")" +
              (e.previous ? " nor the object it held before" : "");
  }
  run.observed = run.result;
  return run;
}

} // namespace

judged_run judge_write(const write_evidence& evidence) {
  return settle_run(judge_stored(evidence), evidence.expect, evidence.exercised);
}

} // namespace s3fault::gate
