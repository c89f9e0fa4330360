// delete: DeleteObject of an object the worker PUT just before; only the DELETE is timed.
#include "conformance/bench/operation_context.hpp"
#include "conformance/bench/workload.hpp"

namespace s3fault::bench::workloads {
namespace {

class delete_workload_type final : public workload {
public:
  std::string_view name() const override { return "delete"; }
  figure throughput_figure() const override { return figure::ops_per_second; }
  bool times_part_only() const override { return true; }

  void run(operation_context& context, const cell& c, std::uint64_t index,
           operation_outcome& outcome) const override {
    const auto& fixtures = context.fixtures();
    const auto key = fixtures.delete_key(c.size, context.worker(), index);
    const auto written = context.put_content(key, c, index, outcome);
    if (!written.ok()) {
      outcome.error = "PUT " + key + " (to delete it): " + written.describe();
      return;
    }
    // Only the DELETE is timed.
    context.start_clock();
    const auto answer = context.send_with_retries(
        [&] { return context.client().delete_object(fixtures.bucket(), key); }, outcome);
    if (!answer.ok()) {
      outcome.error = "DELETE " + key + ": " + answer.describe();
      return;
    }
    outcome.ok = true;
  }
};

} // namespace

const workload& delete_workload() {
  static const delete_workload_type instance;
  return instance;
}

} // namespace s3fault::bench::workloads
