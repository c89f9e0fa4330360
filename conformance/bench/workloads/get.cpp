// get: GetObject of a single-PUT fixture, the whole object in one answer; its length always,
// its content hash with --verify.
#include "conformance/bench/operation_context.hpp"
#include "conformance/bench/workload.hpp"

namespace s3fault::bench::workloads {
namespace {

class get_workload_type final : public workload {
public:
  std::string_view name() const override { return "get"; }
  fixture_needs fixtures() const override { return {.single_objects = true}; }

  void run(operation_context& context, const cell& c, std::uint64_t index,
           operation_outcome& outcome) const override {
    const auto& fixtures = context.fixtures();
    const auto key = fixtures.single_key(c.size, index);
    client::get_options options;
    options.read = context.discard_body();
    const auto answer = context.send_with_retries(
        [&] { return context.client().get_object(fixtures.bucket(), key, options); }, outcome);
    outcome.bytes = answer.body_bytes;
    if (!answer.ok()) {
      outcome.error = "GET " + key + ": " + answer.describe();
      return;
    }
    if (answer.body_bytes != c.size) {
      outcome.error = "GET " + key + ": " + std::to_string(answer.body_bytes) + " of " +
                      std::to_string(c.size) + " bytes";
      return;
    }
    if (context.settings().verify &&
        answer.body_content_hash != fixtures.content_hash_of(index, 0, c.size)) {
      outcome.error = "GET " + key + ": the body's bytes differ from the object's (content hash)";
      return;
    }
    outcome.ok = true;
  }
};

} // namespace

const workload& get_workload() {
  static const get_workload_type instance;
  return instance;
}

} // namespace s3fault::bench::workloads
