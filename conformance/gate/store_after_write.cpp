#include "conformance/gate/store_after_write.hpp"

#include <algorithm>
#include <stdexcept>

namespace s3fault::gate {

std::optional<std::string> read_stored_object(client::s3_client& store, const std::string& bucket,
                                              const std::string& key, std::uint64_t input_size) {
  client::get_options options;
  options.read.target = client::body_target::memory(
      std::max<std::size_t>(client::body_target::default_memory_cap, 2 * input_size + 1024 * 1024));
  auto answer = store.get_object(bucket, key, options);
  if (answer.status == 404) {
    return std::nullopt;
  }
  if (!answer.ok()) {
    throw std::runtime_error("reading s3://" + bucket + "/" + key +
                             " straight from the store after the run: " + answer.describe());
  }
  return std::move(answer.body);
}

open_uploads abort_open_uploads(client::s3_client& store, const std::string& bucket,
                                const std::string& key) {
  open_uploads found;
  client::list_uploads_options page;
  page.prefix = key;
  std::size_t count = 0;
  for (;;) {
    const auto listed = store.list_multipart_uploads(bucket, page);
    if (!listed.ok()) {
      found.problem = "the store cannot list open uploads: ListMultipartUploads " +
                      (listed.parse_error.empty() ? listed.raw.describe() : listed.parse_error);
      return found;
    }
    for (const auto& upload : listed.value->uploads) {
      if (upload.key == key) {
        ++count;
        store.abort_multipart_upload(bucket, key, upload.upload_id);
      }
    }
    if (!listed.value->is_truncated || listed.value->next_key_marker.empty()) {
      break;
    }
    page.key_marker = listed.value->next_key_marker;
    page.upload_id_marker = listed.value->next_upload_id_marker;
  }
  found.count = count;
  return found;
}

} // namespace s3fault::gate
