// put-multipart: CreateMultipartUpload, UploadPart of --part-size parts (UNSIGNED-PAYLOAD), and
// CompleteMultipartUpload; with --verify every part's ETag must be its MD5 and the object's must
// end in -N, N the count of parts. A failed upload is aborted.
#include "conformance/bench/operation_context.hpp"
#include "conformance/bench/workload.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace s3fault::bench::workloads {
namespace {

class put_multipart_workload_type final : public workload {
public:
  std::string_view name() const override { return "put-multipart"; }
  std::string_view help() const override { return "parts of --part-size"; }
  fixture_needs fixtures() const override { return {.piece_digests = true}; }

  void run(operation_context& context, const cell& c, std::uint64_t index,
           operation_outcome& outcome) const override {
    const auto& fixtures = context.fixtures();
    const auto key = fixtures.multipart_put_key(c.size, index);
    const auto created = context.send_parsed_with_retries(
        [&] { return context.client().create_multipart_upload(fixtures.bucket(), key); }, outcome);
    if (!created.ok()) {
      outcome.error = "CreateMultipartUpload " + key + ": " + created.raw.describe();
      return;
    }
    const auto upload_id = created.value->upload_id;
    const auto abort_with = [&](std::string error) {
      outcome.error = std::move(error);
      context.client().abort_multipart_upload(fixtures.bucket(), key, upload_id);
    };
    const auto parts = upload_parts(context, c, index, key, upload_id, outcome);
    if (!parts) {
      return abort_with(outcome.error);
    }
    const auto completed = context.send_parsed_with_retries(
        [&] {
          return context.client().complete_multipart_upload(fixtures.bucket(), key, upload_id,
                                                            *parts);
        },
        outcome);
    if (!completed.ok()) {
      return abort_with("CompleteMultipartUpload " + key + ": " + completed.raw.describe() +
                        (completed.parse_error.empty() ? "" : ", " + completed.parse_error));
    }
    if (context.settings().verify && !ends_in_part_count(completed.value->etag, parts->size())) {
      outcome.error = "CompleteMultipartUpload " + key + ": ETag " + completed.value->etag +
                      " does not end in -" + std::to_string(parts->size()) +
                      " (the count of parts)";
      return;
    }
    outcome.bytes = c.size;
    outcome.ok = true;
  }

private:
  /// Uploads the object's --part-size parts; nullopt (with outcome.error) at the first failure.
  static std::optional<std::vector<client::completed_part>>
  upload_parts(operation_context& context, const cell& c, std::uint64_t index,
               const std::string& key, const std::string& upload_id, operation_outcome& outcome) {
    const auto& fixtures = context.fixtures();
    const auto bytes = fixtures.content(c.size, index);
    const auto part_size = context.settings().part_size;
    client::upload_part_options part_options;
    part_options.payload = client::payload_signing::unsigned_payload;
    std::vector<client::completed_part> parts;
    for (std::uint64_t offset = 0; offset < c.size; offset += part_size) {
      const int number = static_cast<int>(parts.size()) + 1;
      const auto length = std::min(part_size, c.size - offset);
      const auto answer = context.send_with_retries(
          [&] {
            return context.client().upload_part(
                fixtures.bucket(), key, upload_id, number,
                client::body_source::from_view(bytes.substr(offset, length)), part_options);
          },
          outcome);
      const std::string what = "UploadPart " + std::to_string(number) + " of " + key + ": ";
      if (!answer.ok()) {
        outcome.error = what + answer.describe();
        return std::nullopt;
      }
      const std::string etag(answer.header("ETag").value_or(""));
      if (context.settings().verify &&
          etag != "\"" + fixtures.md5_of(index, offset, length) + "\"") {
        outcome.error = what + "ETag " + etag + ", the part's MD5 is \"" +
                        fixtures.md5_of(index, offset, length) + "\"";
        return std::nullopt;
      }
      client::completed_part part;
      part.part_number = number;
      part.etag = etag;
      parts.push_back(std::move(part));
    }
    return parts;
  }

  /// A multipart ETag ends in -N, N the count of parts (docs/contract.md: multipart ETags).
  static bool ends_in_part_count(std::string_view etag, std::size_t parts) {
    const std::string suffix = "-" + std::to_string(parts);
    if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
      etag = etag.substr(1, etag.size() - 2);
    }
    return etag.size() >= suffix.size() && etag.substr(etag.size() - suffix.size()) == suffix;
  }
};

} // namespace

const workload& put_multipart_workload() {
  static const put_multipart_workload_type instance;
  return instance;
}

} // namespace s3fault::bench::workloads
