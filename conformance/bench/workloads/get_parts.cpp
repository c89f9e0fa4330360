// get-parts: GET ?partNumber=1..N of a multipart fixture, N from the first answer's
// x-amz-mp-parts-count; each part must continue where the last ended (Content-Range), with its
// content hash under --verify. A store that ignores partNumber (200, the whole object) is one
// correct read, noted.
#include "conformance/bench/operation_context.hpp"
#include "conformance/bench/workload.hpp"
#include "text/content_range.hpp"
#include "text/text.hpp"

namespace s3fault::bench::workloads {
namespace {

/// How far one get-parts operation has come.
struct parts_read {
  long parts = 1;             // known after the first part
  std::uint64_t received = 0; // body bytes of the parts so far
};

class get_parts_workload_type final : public workload {
public:
  std::string_view name() const override { return "get-parts"; }
  std::string_view help() const override { return "?partNumber of multipart objects"; }
  fixture_needs fixtures() const override {
    return {.multipart_objects = true, .piece_digests = true};
  }

  void run(operation_context& context, const cell& c, std::uint64_t index,
           operation_outcome& outcome) const override {
    const auto key = context.fixtures().multipart_key(c.size, index);
    parts_read progress;
    for (long part = 1; part <= progress.parts; ++part) {
      if (!read_part(context, c, index, key, part, progress, outcome)) {
        return;
      }
    }
    if (progress.received != c.size) {
      outcome.error = "GET " + key + " in " + std::to_string(progress.parts) +
                      " parts: " + std::to_string(progress.received) + " of " +
                      std::to_string(c.size) + " bytes";
      return;
    }
    outcome.ok = true;
  }

private:
  /// GETs part `part`; false (with outcome.error) when the answer is not the next part.
  static bool read_part(operation_context& context, const cell& c, std::uint64_t index,
                        const std::string& key, long part, parts_read& progress,
                        operation_outcome& outcome) {
    const auto& fixtures = context.fixtures();
    client::get_options options;
    options.part_number = part;
    options.read = context.discard_body();
    const auto answer = context.send_with_retries(
        [&] { return context.client().get_object(fixtures.bucket(), key, options); }, outcome);
    outcome.bytes += answer.body_bytes;
    const std::string what = "GET " + key + "?partNumber=" + std::to_string(part) + ": ";
    if (!answer.ok()) {
      outcome.error = what + answer.describe();
      return false;
    }
    std::uint64_t first = 0;
    if (answer.status == 200 && part == 1) {
      // The store sent the whole object (it ignores partNumber): still one correct read, but
      // not the part-wise read the cell is meant to time.
      progress.parts = 1;
      outcome.note = "the store answered ?partNumber=1 with the whole object (200): get-parts "
                     "timed whole-object GETs";
    } else if (!check_part(answer, c, part, what, progress, first, outcome)) {
      return false;
    }
    if (context.settings().verify &&
        answer.body_content_hash != fixtures.content_hash_of(index, first, answer.body_bytes)) {
      outcome.error = what + "the body differs from the object's bytes " + std::to_string(first) +
                      "-" + std::to_string(first + answer.body_bytes);
      return false;
    }
    progress.received += answer.body_bytes;
    return true;
  }

  /// A 206 answer must continue at the bytes received so far; the first one also says how many
  /// parts there are. Sets `first` to the part's first byte.
  static bool check_part(const client::response& answer, const cell& c, long part,
                         const std::string& what, parts_read& progress, std::uint64_t& first,
                         operation_outcome& outcome) {
    const auto range = text::parse_content_range(answer.header("Content-Range").value_or(""));
    if (answer.status != 206 || !range) {
      outcome.error = what + answer.describe() + ", not 206 with a Content-Range";
      return false;
    }
    first = range->first;
    if (range->total != c.size || range->first != progress.received ||
        range->last - range->first + 1 != answer.body_bytes) {
      outcome.error = what + "Content-Range " +
                      std::string(answer.header("Content-Range").value_or("")) + " with " +
                      std::to_string(answer.body_bytes) + " body bytes after " +
                      std::to_string(progress.received) + " of " + std::to_string(c.size);
      return false;
    }
    if (part != 1) {
      return true;
    }
    const auto count = answer.header("x-amz-mp-parts-count");
    const auto parsed = count ? text::parse_whole_number(*count) : std::nullopt;
    if (parsed && *parsed >= 1 && *parsed <= 10000) {
      progress.parts = static_cast<long>(*parsed);
    } else if (count) {
      outcome.error =
          what + "x-amz-mp-parts-count: " + std::string(*count) + " is not a part count";
      return false;
    } else if (answer.body_bytes < c.size) {
      outcome.error = what + "206 with " + std::to_string(answer.body_bytes) + " of " +
                      std::to_string(c.size) + " bytes and no x-amz-mp-parts-count";
      return false;
    }
    return true;
  }
};

} // namespace

const workload& get_parts_workload() {
  static const get_parts_workload_type instance;
  return instance;
}

} // namespace s3fault::bench::workloads
