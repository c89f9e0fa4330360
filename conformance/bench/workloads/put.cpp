// put: PutObject of the cell's size (UNSIGNED-PAYLOAD, as SDKs send over TLS), over keys that
// rotate over --objects; with --verify the ETag must be the body's MD5.
#include "conformance/bench/operation_context.hpp"
#include "conformance/bench/workload.hpp"

namespace s3fault::bench::workloads {
namespace {

class put_workload_type final : public workload {
public:
  std::string_view name() const override { return "put"; }

  void run(operation_context& context, const cell& c, std::uint64_t index,
           operation_outcome& outcome) const override {
    const auto& fixtures = context.fixtures();
    const auto key = fixtures.put_key(c.size, index);
    const auto answer = context.put_content(key, c, index, outcome);
    if (!answer.ok()) {
      outcome.error = "PUT " + key + ": " + answer.describe();
      return;
    }
    if (context.settings().verify) {
      const std::string expected = "\"" + fixtures.md5_of(index, 0, c.size) + "\"";
      const auto etag = answer.header("ETag").value_or("");
      if (etag != expected) {
        outcome.error =
            "PUT " + key + ": ETag " + std::string(etag) + ", the body's MD5 is " + expected;
        return;
      }
    }
    outcome.bytes = c.size;
    outcome.ok = true;
  }
};

} // namespace

const workload& put_workload() {
  static const put_workload_type instance;
  return instance;
}

} // namespace s3fault::bench::workloads
