// The small pieces every operation uses to answer.
#include "conformance/origin/operations.hpp"
#include "conformance/origin/payload_receiver.hpp"

namespace s3fault::origin {
namespace {

/// Gathers a small request body, then hands it to the operation.
class small_body_reader final : public body_consumer {
public:
  small_body_reader(std::function<origin_response(const std::string&)> then, std::size_t limit,
                    const request_head& head, std::string resource, bool check_checksums)
      : then_(std::move(then)), limit_(limit), head_(head), resource_(std::move(resource)),
        check_checksums_(check_checksums) {}

  std::optional<s3_error> consume(std::string_view bytes) override {
    if (body_.size() + bytes.size() > limit_) {
      return errors::from_table(s3_errors::known_s3_error("MaxMessageLengthExceeded"));
    }
    body_.append(bytes);
    return std::nullopt;
  }
  origin_response finish() override {
    if (auto error = check_small_body(head_, body_, check_checksums_)) {
      return error_response(*error, resource_);
    }
    return then_(body_);
  }

private:
  std::function<origin_response(const std::string&)> then_;
  std::size_t limit_;
  request_head head_;
  std::string resource_;
  bool check_checksums_;
  std::string body_;
};

/// Feeds an upload body to a payload_receiver, then hands the verified payload on.
class payload_consumer final : public body_consumer {
public:
  payload_consumer(std::unique_ptr<payload_receiver> receiver,
                   std::function<origin_response(received_payload)> then, std::string resource)
      : receiver_(std::move(receiver)), then_(std::move(then)), resource_(std::move(resource)) {}

  std::optional<s3_error> consume(std::string_view bytes) override {
    return receiver_->consume(bytes);
  }
  origin_response finish() override {
    auto payload = receiver_->finish();
    if (auto* error = std::get_if<s3_error>(&payload)) {
      return error_response(*error, resource_);
    }
    return then_(std::move(std::get<received_payload>(payload)));
  }

private:
  std::unique_ptr<payload_receiver> receiver_;
  std::function<origin_response(received_payload)> then_;
  std::string resource_;
};

} // namespace

operation_start receive_payload(const request_context& context, std::uint64_t max_size,
                                std::function<origin_response(received_payload)> then) {
  auto receiver = payload_receiver::start(context.head, context.signing, context.store, max_size);
  if (auto* error = std::get_if<s3_error>(&receiver)) {
    return answer_error(*error, context);
  }
  operation_start start;
  start.consumer = std::make_unique<payload_consumer>(
      std::move(std::get<std::unique_ptr<payload_receiver>>(receiver)), std::move(then),
      context.request.resource);
  return start;
}

operation_start answer(origin_response response) {
  return operation_start{std::move(response), nullptr};
}

origin_response xml_answer(std::string body) {
  origin_response response;
  response.add("Content-Type", "application/xml");
  response.body = std::move(body);
  return response;
}

operation_start answer_error(s3_error error, const request_context& context) {
  return answer(error_response(std::move(error), context.request.resource));
}

operation_start read_small_body(const request_context& context,
                                std::function<origin_response(const std::string&)> then,
                                std::size_t limit, bool checksum_headers_describe_body) {
  operation_start start;
  start.consumer =
      std::make_unique<small_body_reader>(std::move(then), limit, context.head,
                                          context.request.resource, checksum_headers_describe_body);
  return start;
}

std::variant<std::optional<std::string>, s3_error> requested_version(const query_params& query) {
  auto version = query.get("versionId");
  if (version && version->empty()) {
    return errors::invalid_argument("Version id cannot be the empty string", "versionId", "");
  }
  return version;
}

std::variant<object_ptr, s3_error> find_requested_object(const request_context& context) {
  const auto version_id = requested_version(context.request.query);
  if (const auto* error = std::get_if<s3_error>(&version_id)) {
    return *error;
  }
  return context.store.find_object(context.request.bucket, context.request.key,
                                   std::get<std::optional<std::string>>(version_id));
}

void add_version_header(origin_response& response, const request_context& context,
                        const object_record& object) {
  if (object.version_id != null_version_id) {
    response.add("x-amz-version-id", object.version_id);
    return;
  }
  const auto status = context.store.versioning(context.request.bucket);
  const auto* known = std::get_if<versioning_status>(&status);
  if (known && *known != versioning_status::off) {
    response.add("x-amz-version-id", object.version_id);
  }
}

} // namespace s3fault::origin
