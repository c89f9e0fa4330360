// list: ListObjectsV2 of the --objects single-PUT fixtures of the cell's size, every page; the
// listing must hold as many keys as were written.
#include "conformance/bench/operation_context.hpp"
#include "conformance/bench/workload.hpp"

namespace s3fault::bench::workloads {
namespace {

class list_workload_type final : public workload {
public:
  std::string_view name() const override { return "list"; }
  std::string_view help() const override { return "every page of the --objects"; }
  fixture_needs fixtures() const override { return {.single_objects = true}; }
  figure throughput_figure() const override { return figure::ops_per_second; }

  void run(operation_context& context, const cell& c, std::uint64_t,
           operation_outcome& outcome) const override {
    const auto& fixtures = context.fixtures();
    client::list_objects_options options;
    options.prefix = fixtures.single_prefix(c.size);
    const std::string what = "LIST " + options.prefix + ": ";
    std::size_t keys = 0;
    // Every page: one operation lists the whole prepared set (--objects may exceed a page).
    for (int page = 1;; ++page) {
      const auto listed = context.send_parsed_with_retries(
          [&] { return context.client().list_objects_v2(fixtures.bucket(), options); }, outcome);
      outcome.bytes += listed.raw.body_bytes;
      if (!listed.ok()) {
        outcome.error = what + "page " + std::to_string(page) + ": " + listed.raw.describe() +
                        (listed.parse_error.empty() ? "" : ", " + listed.parse_error);
        return;
      }
      keys += listed.value->contents.size();
      if (!listed.value->is_truncated) {
        break;
      }
      if (listed.value->next_continuation_token.empty() || page == 100000) {
        outcome.error =
            what + "page " + std::to_string(page) + " is truncated without a NextContinuationToken";
        return;
      }
      options.continuation_token = listed.value->next_continuation_token;
    }
    if (keys != fixtures.objects()) {
      outcome.error = what + std::to_string(keys) + " keys, " + std::to_string(fixtures.objects()) +
                      " were written";
      return;
    }
    outcome.ok = true;
  }
};

} // namespace

const workload& list_workload() {
  static const list_workload_type instance;
  return instance;
}

} // namespace s3fault::bench::workloads
