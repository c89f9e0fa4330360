#include "tests/conformance/readers/readers_test_support.hpp"

#include "faults/config/build_rules.hpp"
#include "faults/rule_store.hpp"
#include "proxy/proxy_server.hpp"

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <stdlib.h>

namespace s3fault::readers::testing {
namespace {

client::client_config origin_client(const std::string& endpoint) {
  client::client_config config;
  config.endpoint = endpoint;
  config.credentials = {"s3fault", "s3fault-secret", ""};
  return config;
}

void require(bool condition, const std::string& step, const client::response& response) {
  if (!condition) {
    throw std::runtime_error(step + ": " + response.describe());
  }
}

} // namespace

std::string seeded_bytes(std::uint64_t size, std::uint32_t seed) {
  std::mt19937 engine(seed);
  std::string data(size, '\0');
  for (auto& byte : data) {
    byte = static_cast<char>(engine() & 0xff);
  }
  return data;
}

test_store::test_store() : client_(origin_client(origin_.url())) {
  const auto created = client_.create_bucket("data");
  require(created.ok(), "CreateBucket data", created);
}

void test_store::put_single(const std::string& key, const std::string& data,
                            const std::string& checksum) {
  client::put_options options;
  options.checksum_algorithm = checksum;
  const auto put = client_.put_object("data", key, client::body_source::from_view(data), options);
  require(put.ok(), "PUT " + key, put);
}

void test_store::replace(const std::string& key, const std::string& data) const {
  client::s3_client client(origin_client(origin_.url()));
  const auto put = client.put_object("data", key, client::body_source::from_view(data));
  require(put.ok(), "PUT " + key, put);
}

void test_store::put_multipart(const std::string& key, const std::string& data,
                               const std::vector<std::uint64_t>& part_sizes,
                               const std::string& checksum) {
  client::put_options create;
  create.checksum_algorithm = checksum;
  const auto created = client_.create_multipart_upload("data", key, create);
  require(created.ok(), "CreateMultipartUpload " + key, created.raw);
  std::vector<client::completed_part> parts;
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < part_sizes.size(); ++i) {
    const auto number = static_cast<int>(i + 1);
    client::upload_part_options options;
    options.checksum_algorithm = checksum;
    const auto part = client_.upload_part(
        "data", key, created.value->upload_id, number,
        client::body_source::from_view(std::string_view(data).substr(offset, part_sizes[i])),
        options);
    require(part.ok(), "UploadPart " + std::to_string(number), part);
    std::string part_checksum;
    if (!checksum.empty()) {
      const auto value = part.header("x-amz-checksum-" + checksum);
      require(value.has_value(), "UploadPart " + std::to_string(number) + " (no checksum back)",
              part);
      part_checksum = std::string(*value);
    }
    parts.push_back(
        {number, std::string(part.header("ETag").value_or("")), part_checksum, checksum});
    offset += part_sizes[i];
  }
  if (offset != data.size()) {
    throw std::invalid_argument("part sizes do not add up to the object's size");
  }
  const auto completed =
      client_.complete_multipart_upload("data", key, created.value->upload_id, parts);
  require(completed.ok(), "CompleteMultipartUpload " + key, completed.raw);
}

faulty_proxy::faulty_proxy(const std::string& upstream_url,
                           const std::vector<std::string>& fault_specs,
                           std::function<void(const proxy::exchange_record&)> on_exchange) {
  proxy::proxy_config config;
  config.upstream = text::http_endpoint::parse(upstream_url);
  config.listen = {"127.0.0.1", 0};
  config.threads = 1;
  config.on_exchange = std::move(on_exchange);
  config.faults = std::make_shared<faults::rule_store>(20260101, faults::clock::now());
  auto built = faults::config::build_rules(fault_specs, {}, {});
  if (!built.ok()) {
    throw std::invalid_argument("bad fault spec in a test");
  }
  config.faults->replace_all(std::move(built.rules));
  auto logger = std::make_shared<spdlog::logger>("readers-test-proxy",
                                                 std::make_shared<spdlog::sinks::null_sink_mt>());
  server_ = std::make_unique<proxy::proxy_server>(std::move(config), std::move(logger));
  server_->bind();
  url_ = server_->listen_url();
  thread_ = std::thread([this] { server_->run(); });
}

faulty_proxy::~faulty_proxy() {
  server_->request_stop();
  thread_.join();
}

scratch_dir::scratch_dir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "s3fault-readers-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a scratch directory");
  }
  path_ = pattern;
}

scratch_dir::~scratch_dir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

::testing::AssertionResult file_holds(const std::string& path, std::string_view expected) {
  const auto actual = file_bytes(path);
  if (actual == expected) {
    return ::testing::AssertionSuccess();
  }
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << path << " has " << actual.size() << " bytes, expected " << expected.size();
  }
  std::size_t at = 0;
  while (actual[at] == expected[at]) {
    ++at;
  }
  return ::testing::AssertionFailure() << path << " differs from the object at byte " << at;
}

read_request request_for(const std::string& endpoint, const std::string& key,
                         const std::string& output_path) {
  read_request request;
  request.client = origin_client(endpoint);
  request.bucket = "data";
  request.key = key;
  request.output_path = output_path;
  request.backoff = std::chrono::milliseconds(1);
  return request;
}

logged_read run_reader(reader_function reader, const read_request& request) {
  std::ostringstream log;
  logged_read run;
  run.result = reader(request, log);
  run.log = log.str();
  return run;
}

} // namespace s3fault::readers::testing
