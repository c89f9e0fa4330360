// mix: each operation one of --mix's workloads, drawn by weight from the operation's number and
// the seed (pick_from_mix), so every round runs the same sequence. Its fixtures are those of
// the workloads drawn (operations_of).
#include "conformance/bench/operation_context.hpp"
#include "conformance/bench/workload.hpp"

namespace s3fault::bench::workloads {
namespace {

class mix_workload_type final : public workload {
public:
  std::string_view name() const override { return "mix"; }
  std::string_view help() const override { return "see --mix"; }
  bool draws_from_mix() const override { return true; }

  void run(operation_context& context, const cell& c, std::uint64_t index,
           operation_outcome& outcome) const override {
    const auto& settings = context.settings();
    const auto& drawn = pick_from_mix(settings.mix, index, settings.seed).workload();
    if (drawn.draws_from_mix()) { // validate() keeps mix out of its own operations
      outcome.error = "mix inside a mix";
      return;
    }
    drawn.run(context, c, index, outcome);
  }
};

} // namespace

const workload& mix_workload() {
  static const mix_workload_type instance;
  return instance;
}

} // namespace s3fault::bench::workloads
