#pragma once
// The index of buckets, objects and multipart uploads, shared by every worker thread. One
// shared mutex guards it; object bytes are never touched under it: records are immutable and
// handed out as shared_ptr, so a reader streams from a record after the lock is gone, and a
// record replaced meanwhile stays alive until the reader lets go of it.
#include "conformance/origin/listing.hpp"
#include "conformance/origin/multipart_rules.hpp"
#include "conformance/origin/object_record.hpp"
#include "conformance/origin/s3_error.hpp"
#include "conformance/origin/storage_backend.hpp"
#include "conformance/origin/store_views.hpp"

#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <variant>
#include <vector>

namespace s3fault::origin {

using object_ptr = std::shared_ptr<const object_record>;

/// If-Match / If-None-Match on a write (PutObject, CompleteMultipartUpload, CopyObject's
/// destination): checked against the current version atomically with the write.
struct write_condition {
  std::optional<std::string> if_match;
  std::optional<std::string> if_none_match;
};

struct upload_listing_request {
  std::string prefix;
  std::string delimiter;
  std::string key_marker;
  std::string upload_id_marker;
  unsigned max_uploads = 1000;
};

class object_store {
public:
  /// Loads what the backend kept (a data directory) into the index.
  explicit object_store(std::unique_ptr<storage_backend> backend);
  ~object_store();
  object_store(const object_store&) = delete;
  object_store& operator=(const object_store&) = delete;

  std::unique_ptr<blob_writer> new_blob(std::uint64_t size_hint) {
    return backend_->new_blob(size_hint);
  }
  std::string description() const { return backend_->description(); }
  /// Problems met while loading a data directory.
  const std::vector<std::string>& load_warnings() const { return load_warnings_; }

  // Buckets.
  enum class create_outcome { created, already_exists };
  /// `owner`: the creating account's access key (empty: the first account's).
  create_outcome create_bucket(const std::string& name, time_point now,
                               const std::string& owner = {});
  /// NoSuchBucket, BucketNotEmpty. Uploads in progress are aborted with the bucket.
  std::optional<s3_error> delete_bucket(const std::string& name);
  bool has_bucket(const std::string& name) const;
  /// The owner a bucket was created with (may be empty: the first account); nullopt when the
  /// bucket does not exist.
  std::optional<std::string> bucket_owner(const std::string& name) const;
  std::vector<bucket_summary> list_buckets() const;

  // Objects.
  /// NoSuchBucket, NoSuchKey.
  std::variant<object_ptr, s3_error> find_object(const std::string& bucket,
                                                 const std::string& key) const;
  /// Publishes a new version. NoSuchBucket, PreconditionFailed, NoSuchKey (If-Match on a
  /// missing object), InternalError (the data directory cannot be written).
  std::optional<s3_error> put_object(const std::string& bucket, const std::string& key,
                                     object_ptr record, const write_condition& condition = {});
  /// Deleting a key that does not exist succeeds, as in S3. NoSuchBucket.
  std::optional<s3_error> delete_object(const std::string& bucket, const std::string& key);
  std::variant<object_listing, s3_error> list_objects(const std::string& bucket,
                                                      const listing_request& request) const;

  // Multipart uploads.
  /// The new upload's id. NoSuchBucket.
  std::variant<std::string, s3_error>
  create_upload(const std::string& bucket, const std::string& key, object_metadata metadata,
                std::string checksum_algorithm, std::string checksum_type, time_point now);
  /// The checksum algorithm the upload announced (may be empty). NoSuchBucket, NoSuchUpload.
  std::variant<std::string, s3_error> find_upload(const std::string& bucket, const std::string& key,
                                                  const std::string& upload_id) const;
  /// Adds or replaces a part. NoSuchBucket, NoSuchUpload (e.g. aborted meanwhile).
  std::optional<s3_error> add_part(const std::string& bucket, const std::string& key,
                                   const std::string& upload_id, unsigned number, part_record part);
  std::optional<s3_error> abort_upload(const std::string& bucket, const std::string& key,
                                       const std::string& upload_id);
  /// Checks the part list (multipart_rules.hpp), publishes the object, ends the upload.
  std::variant<object_ptr, s3_error>
  complete_upload(const std::string& bucket, const std::string& key, const std::string& upload_id,
                  const std::vector<completed_part>& parts, std::uint64_t min_part_size,
                  time_point now, const write_condition& condition = {},
                  const std::optional<std::string>& declared_checksum = std::nullopt);
  std::variant<part_listing, s3_error> list_parts(const std::string& bucket, const std::string& key,
                                                  const std::string& upload_id,
                                                  unsigned part_number_marker,
                                                  unsigned max_parts) const;
  std::variant<upload_listing, s3_error> list_uploads(const std::string& bucket,
                                                      const upload_listing_request& request) const;

private:
  struct bucket_state {
    time_point created;
    std::string owner;
    std::map<std::string, object_ptr> objects;
    std::map<std::string, upload_record> uploads; // by id; ids sort in creation order
  };

  /// Checks `condition` and stores `record` (caller holds the lock). `replaced` receives the
  /// previous version so that it is released after the lock.
  std::optional<s3_error> publish_locked(bucket_state& bucket, const std::string& bucket_name,
                                         const std::string& key, object_ptr record,
                                         const write_condition& condition, object_ptr& replaced);
  /// The upload `upload_id` of `key` (caller holds the lock); nullptr with `error` set when
  /// the bucket or the upload does not exist. `Self` is object_store or const object_store.
  template <class Self>
  static auto* find_upload_locked(Self& self, const std::string& bucket, const std::string& key,
                                  const std::string& upload_id, std::optional<s3_error>& error);

  std::unique_ptr<storage_backend> backend_;
  std::vector<std::string> load_warnings_;
  mutable std::shared_mutex mutex_;
  std::map<std::string, bucket_state> buckets_;
};

} // namespace s3fault::origin
