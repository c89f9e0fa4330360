#pragma once
// Where the bytes and the metadata live: in memory (the default), or in a data directory that
// survives restarts. The object_store keeps the index and the rules; a backend only makes blobs
// and, on disk, writes each metadata change through so the index can be rebuilt at start-up.
#include "conformance/origin/blob.hpp"
#include "conformance/origin/object_record.hpp"
#include "conformance/origin/store_views.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::origin {

/// What a backend found at start-up.
struct loaded_store {
  struct object_entry {
    std::string bucket;
    std::string key;
    std::shared_ptr<const object_record> record; // one version, with its sequence
  };
  std::vector<bucket_summary> buckets;
  std::vector<object_entry> objects;
  std::vector<std::string> warnings; // records skipped (missing data), files removed
};

class storage_backend {
public:
  virtual ~storage_backend() = default;

  /// A writer for a new blob; `size_hint` is the expected size when known (0 otherwise).
  virtual std::unique_ptr<blob_writer> new_blob(std::uint64_t size_hint) = 0;

  // Metadata write-through, called by the store under its lock, in commit order.
  virtual void save_bucket(const bucket_summary& bucket) = 0;
  virtual void remove_bucket(std::string_view name) = 0;
  /// One version of a key (record.version_id); saving the null version again replaces it.
  virtual void save_object(std::string_view bucket, std::string_view key,
                           const object_record& record) = 0;
  virtual void remove_object(std::string_view bucket, std::string_view key,
                             std::string_view version_id) = 0;

  /// Everything saved before (once, at start-up).
  virtual loaded_store load() = 0;
  /// From now on, blobs that are released keep their data: the process is ending and the data
  /// directory must stay as the index last described it.
  virtual void keep_released_blobs() = 0;
  /// "memory" or "directory /path".
  virtual std::string description() const = 0;
};

std::unique_ptr<storage_backend> make_memory_backend();
/// Creates the directory layout when missing. Throws std::runtime_error when it cannot.
std::unique_ptr<storage_backend> make_disk_backend(const std::string& directory);

} // namespace s3fault::origin
