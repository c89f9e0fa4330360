// naive and careful: one upload algorithm, two policies (see writers.hpp).
//
//   size < threshold: PUT (careful: Content-MD5)
//   else: CreateMultipartUpload ──> UploadPart 1..N of part_size (careful: Content-MD5)
//         ──> CompleteMultipartUpload with the parts' ETags
//            naive: a 200 is success;  careful: the document must name no <Error>
//         careful: a failed upload is aborted
// Both send on the client's kept-alive connection; a reused connection that closes before any
// answer byte is retried once on a new one by the client itself (as HTTP clients do), also for
// naive.
#include "conformance/readers/reader_support.hpp"
#include "conformance/writers/writers.hpp"

#include <filesystem>

namespace s3fault::writers {
namespace {

struct writer_policy {
  std::string_view name;
  bool retries = false;      // up to max_attempts per request
  bool content_md5 = false;  // on every body
  bool trust_status = false; // Complete: a 200 is success whatever its body says
  bool abort_failed = false; // AbortMultipartUpload when the upload failed
};

constexpr writer_policy naive_policy{"naive", false, false, true, false};
constexpr writer_policy careful_policy{"careful", true, true, false, true};

/// The reader support's retry loop, configured for a writer.
readers::read_request runner_settings(const write_request& request, const writer_policy& policy) {
  readers::read_request settings;
  settings.max_attempts = policy.retries ? request.max_attempts : 1;
  settings.backoff = request.backoff;
  return settings;
}

class upload {
public:
  upload(const write_request& request, const writer_policy& policy, std::ostream& log)
      : request_(request), policy_(policy), log_(log, policy.name),
        runner_(runner_settings(request, policy), log_) {}

  write_result run() {
    std::error_code ec;
    const auto size = std::filesystem::file_size(request_.input_path, ec);
    if (ec) {
      return finish("cannot read the input " + request_.input_path + ": " + ec.message());
    }
    size_ = size;
    try {
      client_.emplace(request_.client);
    } catch (const std::exception& problem) {
      return finish(problem.what());
    }
    if (size_ < request_.multipart_threshold) {
      return finish(put_whole());
    }
    return finish(put_multipart());
  }

private:
  client::body_source slice(std::uint64_t offset, std::uint64_t length) const {
    return client::body_source::from_file(request_.input_path, offset, length);
  }

  /// Accept 2xx without an S3 error; retry transport failures, 500, 503 and a 200 with <Error>
  /// (when the policy reads the body); fail the rest.
  readers::attempt_verdict judge(const client::response& response) const {
    if (response.failure) {
      return readers::attempt_verdict::retry(readers::describe_status(response));
    }
    const bool error_in_200 = response.status == 200 && response.error && !policy_.trust_status;
    if (response.status == 500 || response.status == 503 || error_in_200) {
      return readers::attempt_verdict::retry(readers::describe_status(response));
    }
    if (response.status < 200 || response.status >= 300 ||
        (response.error && !policy_.trust_status)) {
      return readers::attempt_verdict::fail(readers::describe_status(response));
    }
    return readers::attempt_verdict::accept();
  }

  std::string send(std::string_view what, const std::function<client::response()>& request,
                   client::response* answer = nullptr) {
    auto outcome =
        runner_.run(what, request, [this](const client::response& r) { return judge(r); });
    if (answer != nullptr) {
      *answer = std::move(outcome.response);
    }
    return outcome.error;
  }

  std::string put_whole() {
    client::put_options options;
    options.content_md5 = policy_.content_md5;
    return send("PUT", [&] {
      return client_->put_object(request_.bucket, request_.key, slice(0, size_), options);
    });
  }

  std::string put_multipart() {
    std::string upload_id;
    if (auto error = send("CreateMultipartUpload",
                          [&] {
                            auto answer =
                                client_->create_multipart_upload(request_.bucket, request_.key);
                            upload_id = answer.value ? answer.value->upload_id : "";
                            return answer.raw;
                          });
        !error.empty()) {
      return error;
    }
    if (upload_id.empty()) {
      return "CreateMultipartUpload: no UploadId in the answer";
    }
    std::string error = send_parts(upload_id);
    if (!error.empty() && policy_.abort_failed) {
      const auto aborted =
          client_->abort_multipart_upload(request_.bucket, request_.key, upload_id);
      runner_.count_request();
      log_.line("AbortMultipartUpload -> " + readers::summarize(aborted));
    }
    return error;
  }

  /// UploadPart 1..N, then CompleteMultipartUpload; the first error.
  std::string send_parts(const std::string& upload_id) {
    std::vector<client::completed_part> parts;
    for (std::uint64_t offset = 0; offset < size_; offset += request_.part_size) {
      const int number = static_cast<int>(parts.size()) + 1;
      client::upload_part_options options;
      options.content_md5 = policy_.content_md5;
      client::response answer;
      if (auto error = send(
              "UploadPart " + std::to_string(number),
              [&] {
                return client_->upload_part(
                    request_.bucket, request_.key, upload_id, number,
                    slice(offset, std::min(request_.part_size, size_ - offset)), options);
              },
              &answer);
          !error.empty()) {
        return error;
      }
      parts.push_back({number, std::string(answer.header("ETag").value_or("")), "", ""});
    }
    return send("CompleteMultipartUpload", [&] {
      return client_->complete_multipart_upload(request_.bucket, request_.key, upload_id, parts)
          .raw;
    });
  }

  write_result finish(std::string error) const {
    write_result result;
    result.ok = error.empty();
    result.error = std::move(error);
    result.bytes = size_;
    result.requests = runner_.requests();
    result.retries = runner_.retries();
    return result;
  }

  const write_request& request_;
  const writer_policy& policy_;
  readers::request_log log_;
  readers::request_runner runner_;
  std::optional<client::s3_client> client_;
  std::uint64_t size_ = 0;
};

} // namespace

write_result write_naive(const write_request& request, std::ostream& log) {
  return upload(request, naive_policy, log).run();
}

write_result write_careful(const write_request& request, std::ostream& log) {
  return upload(request, careful_policy, log).run();
}

} // namespace s3fault::writers
