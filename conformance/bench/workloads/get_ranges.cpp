// get-ranges: ranged GETs of --part-size bytes of a single-PUT fixture, one after another, until
// the end; each answer must be that range (206, or 200 for a range that is the whole object),
// with its content hash under --verify.
#include "conformance/bench/operation_context.hpp"
#include "conformance/bench/workload.hpp"
#include "text/content_range.hpp"

#include <algorithm>

namespace s3fault::bench::workloads {
namespace {

class get_ranges_workload_type final : public workload {
public:
  std::string_view name() const override { return "get-ranges"; }
  std::string_view help() const override { return "ranged GETs of --part-size"; }
  fixture_needs fixtures() const override {
    return {.single_objects = true, .piece_digests = true};
  }

  void run(operation_context& context, const cell& c, std::uint64_t index,
           operation_outcome& outcome) const override {
    const auto key = context.fixtures().single_key(c.size, index);
    const auto piece = context.settings().part_size;
    for (std::uint64_t offset = 0; offset < c.size; offset += piece) {
      if (!read_range(context, c, index, key, offset, std::min(piece, c.size - offset), outcome)) {
        return;
      }
    }
    outcome.ok = true;
  }

private:
  /// GETs `length` bytes at `offset`; false (with outcome.error) when the answer is not them.
  static bool read_range(operation_context& context, const cell& c, std::uint64_t index,
                         const std::string& key, std::uint64_t offset, std::uint64_t length,
                         operation_outcome& outcome) {
    const auto& fixtures = context.fixtures();
    client::get_options options;
    options.range = client::byte_range(offset, offset + length - 1);
    options.read = context.discard_body();
    const auto answer = context.send_with_retries(
        [&] { return context.client().get_object(fixtures.bucket(), key, options); }, outcome);
    outcome.bytes += answer.body_bytes;
    const std::string what = "GET " + key + " Range: " + options.range + ": ";
    if (!answer.ok()) {
      outcome.error = what + answer.describe();
      return false;
    }
    const bool whole_answer = answer.status == 200 && offset == 0 && length == c.size;
    const auto range = text::parse_content_range(answer.header("Content-Range").value_or(""));
    const bool range_answer =
        answer.status == 206 && range && range->first == offset && range->total == c.size;
    if ((!whole_answer && !range_answer) || answer.body_bytes != length) {
      outcome.error = what + answer.describe() + ", Content-Range " +
                      std::string(answer.header("Content-Range").value_or("(none)")) +
                      "; expected 206 with " + std::to_string(length) + " bytes";
      return false;
    }
    if (context.settings().verify &&
        answer.body_content_hash != fixtures.content_hash_of(index, offset, length)) {
      outcome.error = what + "the body's bytes differ from the object's (content hash)";
      return false;
    }
    return true;
  }
};

} // namespace

const workload& get_ranges_workload() {
  static const get_ranges_workload_type instance;
  return instance;
}

} // namespace s3fault::bench::workloads
