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
#include "conformance/origin/version_chain.hpp"

#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <variant>
#include <vector>

namespace s3fault::origin {

/// What one DeleteObject did, for its x-amz-version-id and x-amz-delete-marker headers.
struct delete_result {
  /// The version removed or the delete marker made; empty when versioning was never on and no
  /// version id was given.
  std::string version_id;
  /// A delete marker was made, or the version removed was one.
  bool delete_marker = false;
};

/// How long a completed multipart upload answers a retried CompleteMultipartUpload with its
/// result (AWS does so for a while after success and does not say how long), and how many
/// completed uploads a bucket remembers at most (the oldest are forgotten first).
inline constexpr std::chrono::minutes completed_upload_memory{60};
inline constexpr std::size_t completed_uploads_kept = 10000;

/// If-Match / If-None-Match on a write (PutObject, CompleteMultipartUpload, CopyObject's
/// destination): checked against the current version atomically with the write. When the key's
/// current version was deleted after the write began (`started`, from write_started(); for a
/// Complete, when its upload was created), the write answers 409 ConditionalRequestConflict, as
/// S3 does for "a conflicting operation during the upload".
struct write_condition {
  std::optional<std::string> if_match;
  std::optional<std::string> if_none_match;
  std::uint64_t started = 0; // 0: not known, no conflict check

  bool any() const { return if_match || if_none_match; }
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
  /// NoSuchBucket, BucketNotEmpty (any version or delete marker left). Uploads in progress are
  /// aborted with the bucket.
  std::optional<s3_error> delete_bucket(const std::string& name);
  bool has_bucket(const std::string& name) const;
  /// The owner a bucket was created with (may be empty: the first account); nullopt when the
  /// bucket does not exist.
  std::optional<std::string> bucket_owner(const std::string& name) const;
  std::vector<bucket_summary> list_buckets() const;
  /// `status` is enabled or suspended. NoSuchBucket.
  std::optional<s3_error> set_versioning(const std::string& bucket, versioning_status status);
  /// NoSuchBucket.
  std::variant<versioning_status, s3_error> versioning(const std::string& bucket) const;

  // Objects.
  /// The current version, or the version `version_id`. NoSuchBucket; NoSuchKey (also when the
  /// current version is a delete marker: then with x-amz-delete-marker and x-amz-version-id
  /// headers); NoSuchVersion; MethodNotAllowed when `version_id` names a delete marker.
  std::variant<object_ptr, s3_error>
  find_object(const std::string& bucket, const std::string& key,
              const std::optional<std::string>& version_id = std::nullopt) const;
  /// Publishes `record` as the key's newest version, giving it its version id and sequence
  /// (the caller reads them after). NoSuchBucket, PreconditionFailed, NoSuchKey (If-Match on a
  /// missing object), InternalError (the data directory cannot be written).
  std::optional<s3_error> put_object(const std::string& bucket, const std::string& key,
                                     std::shared_ptr<object_record> record,
                                     const write_condition& condition = {});
  /// The point in the store's history a write starting now begins at (write_condition.started).
  std::uint64_t write_started() const;
  /// Without `version_id`: removes the key (versioning off) or hides it behind a new delete
  /// marker. With it: removes that version for good. Deleting what does not exist succeeds,
  /// as in S3. NoSuchBucket.
  std::variant<delete_result, s3_error>
  delete_object(const std::string& bucket, const std::string& key, time_point now,
                const std::optional<std::string>& version_id = std::nullopt);
  std::variant<object_listing, s3_error> list_objects(const std::string& bucket,
                                                      const listing_request& request) const;
  std::variant<version_listing, s3_error>
  list_versions(const std::string& bucket, const version_listing_request& request) const;

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
  /// Checks the part list (multipart_rules.hpp), publishes the object, ends the upload. A retry
  /// of a Complete that succeeded (same upload id, key and part list, within
  /// completed_upload_memory) gets the same result again: a record with its etag, checksum and
  /// version id but no bytes.
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
  /// A completed upload, remembered to answer a retried Complete.
  struct completed_upload {
    std::string key;
    std::vector<completed_part> parts;
    object_ptr result; // no segments: the bytes are not kept alive for this
    time_point completed;
  };
  struct bucket_state {
    time_point created;
    std::string owner;
    versioning_status versioning = versioning_status::off;
    /// Every key's versions, newest first, delete markers included.
    std::map<std::string, version_list> versions;
    /// The current version of each key whose newest version is not a delete marker: what
    /// GET and ListObjects see. Kept in step with `versions` by set_current_locked.
    std::map<std::string, object_ptr> objects;
    std::map<std::string, upload_record> uploads;      // by id; ids sort in creation order
    std::map<std::string, completed_upload> completed; // by upload id
    /// When each key's current version was last deleted (a sequence), for 409s; bounded.
    std::map<std::string, std::uint64_t> deleted_at;
  };

  /// Checks `condition`, gives `record` its version id and sequence and stores it as the
  /// newest version (caller holds the lock). `replaced` receives the versions it replaced so
  /// that they are released after the lock.
  std::optional<s3_error> publish_locked(bucket_state& bucket, const std::string& bucket_name,
                                         const std::string& key,
                                         std::shared_ptr<object_record> record,
                                         const write_condition& condition, version_list& replaced);
  /// What the backend keeps and ListBuckets shows of a bucket.
  static bucket_summary summarize_bucket(const std::string& name, const bucket_state& bucket);
  /// Makes `objects[key]` agree with `versions[key]`; drops an empty version list. Notes a
  /// current version that went away in `deleted_at`.
  void set_current_locked(bucket_state& bucket, const std::string& key);
  /// A retried Complete's answer, or NoSuchUpload (caller holds the lock).
  std::variant<object_ptr, s3_error>
  completed_retry_locked(const bucket_state& bucket, const std::string& key,
                         const std::string& upload_id, const std::vector<completed_part>& parts,
                         time_point now) const;
  void remember_completed_locked(bucket_state& bucket, const std::string& upload_id,
                                 completed_upload done);
  std::string new_version_id_locked();
  /// The upload `upload_id` of `key` (caller holds the lock); nullptr with `error` set when
  /// the bucket or the upload does not exist. `Self` is object_store or const object_store.
  template <class Self>
  static auto* find_upload_locked(Self& self, const std::string& bucket, const std::string& key,
                                  const std::string& upload_id, std::optional<s3_error>& error);

  std::unique_ptr<storage_backend> backend_;
  std::vector<std::string> load_warnings_;
  mutable std::shared_mutex mutex_;
  std::map<std::string, bucket_state> buckets_;
  std::uint64_t next_sequence_ = 1; // under mutex_
};

} // namespace s3fault::origin
