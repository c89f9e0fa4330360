#include "conformance/gate/fixture_upload.hpp"

#include "conformance/audit/fixtures.hpp"

#include <stdexcept>

namespace s3fault::gate {
namespace {

bool put_whole(client::s3_client& store, const std::string& bucket, const std::string& key,
               const object_shape& shape, const std::string& bytes, const std::string& algorithm,
               std::string& failure) {
  client::put_options put;
  put.checksum_algorithm = algorithm;
  put.content_type = shape.content_type;
  const auto stored = store.put_object(bucket, key, client::body_source::from_view(bytes), put);
  failure = stored.describe();
  return stored.ok();
}

bool put_parts(client::s3_client& store, const std::string& bucket, const std::string& key,
               const object_shape& shape, const std::string& bytes, const std::string& algorithm,
               std::string& failure) {
  client::put_options create;
  create.checksum_algorithm = algorithm;
  create.content_type = shape.content_type;
  const auto created = store.create_multipart_upload(bucket, key, create);
  if (!created.ok()) {
    failure = created.raw.describe();
    return false;
  }
  const std::string& upload_id = created.value->upload_id;
  const std::string checksum_header = "x-amz-checksum-" + algorithm;
  std::vector<client::completed_part> parts;
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < shape.part_sizes.size(); ++i) {
    client::upload_part_options options;
    options.checksum_algorithm = algorithm;
    const auto slice = std::string_view(bytes).substr(offset, shape.part_sizes[i]);
    const int number = static_cast<int>(i + 1);
    const auto part = store.upload_part(bucket, key, upload_id, number,
                                        client::body_source::from_view(slice), options);
    if (!part.ok()) {
      failure = part.describe();
      store.abort_multipart_upload(bucket, key, upload_id);
      return false;
    }
    const std::string checksum =
        algorithm.empty() ? "" : std::string(part.header(checksum_header).value_or(""));
    parts.push_back({number, std::string(part.header("ETag").value_or("")), checksum,
                     checksum.empty() ? "" : algorithm});
    offset += shape.part_sizes[i];
  }
  const auto completed = store.complete_multipart_upload(bucket, key, upload_id, parts);
  if (!completed.ok()) {
    failure = completed.raw.describe();
    store.abort_multipart_upload(bucket, key, upload_id);
    return false;
  }
  return true;
}

} // namespace

std::uint32_t run_seed(std::uint64_t gate_seed, std::string_view scenario, std::string_view shape) {
  // FNV-1a over "SEED/SCENARIO/SHAPE".
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c :
       std::to_string(gate_seed) + "/" + std::string(scenario) + "/" + std::string(shape)) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  }
  return static_cast<std::uint32_t>(hash ^ (hash >> 32));
}

std::string fixture_bytes(const object_shape& shape, std::uint32_t seed) {
  return audit::seeded_bytes(shape.size, seed);
}

std::string upload_fixture(client::s3_client& store, const std::string& bucket,
                           const std::string& key, const object_shape& shape,
                           const std::string& bytes) {
  const std::string wanted = shape.checksum == "none" ? "" : shape.checksum;
  std::string failure;
  for (const std::string& algorithm : {wanted, std::string()}) {
    const bool stored = shape.multipart()
                            ? put_parts(store, bucket, key, shape, bytes, algorithm, failure)
                            : put_whole(store, bucket, key, shape, bytes, algorithm, failure);
    if (stored) {
      return algorithm;
    }
    if (algorithm.empty()) {
      break;
    }
  }
  throw std::runtime_error("uploading " + key + (shape.multipart() ? " in parts" : "") + ": " +
                           failure);
}

} // namespace s3fault::gate
