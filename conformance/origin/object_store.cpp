#include "conformance/origin/object_store.hpp"

#include "conformance/origin/read_plan.hpp"
#include "conformance/s3/hashing.hpp"

#include "conformance/origin/http_date.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>

namespace s3fault::origin {
namespace {

/// How many deletions per bucket are remembered for ConditionalRequestConflict.
constexpr std::size_t deletions_remembered = 100000;

/// Upload ids sort in creation order (a counter first), and are unguessable enough to keep
/// one test's uploads apart from another's.
std::string new_upload_id() {
  static std::atomic<std::uint64_t> counter{0};
  thread_local std::mt19937_64 engine{std::random_device{}()};
  char text[64];
  std::snprintf(text, sizeof text, "%012llx%016llx%016llx",
                static_cast<unsigned long long>(counter.fetch_add(1)),
                static_cast<unsigned long long>(engine()),
                static_cast<unsigned long long>(engine()));
  return text;
}

object_summary summarize(const std::string& key, const object_record& record) {
  return object_summary{key, record.size, record.etag, record.last_modified,
                        record.checksum ? record.checksum->algorithm : std::string()};
}

s3_error storage_failure(const std::exception& error) {
  return errors::internal_error(std::string("storage failure: ") + error.what());
}

} // namespace

object_store::object_store(std::unique_ptr<storage_backend> backend)
    : backend_(std::move(backend)) {
  auto loaded = backend_->load();
  load_warnings_ = std::move(loaded.warnings);
  for (const auto& bucket : loaded.buckets) {
    auto& state = buckets_[bucket.name];
    state.created = bucket.created;
    state.owner = bucket.owner;
    state.versioning = bucket.versioning;
  }
  for (auto& entry : loaded.objects) {
    const auto found = buckets_.find(entry.bucket);
    if (found == buckets_.end()) {
      load_warnings_.push_back("object '" + entry.key + "' of unknown bucket '" + entry.bucket +
                               "' dropped");
      backend_->remove_object(entry.bucket, entry.key, entry.record->version_id);
      continue;
    }
    next_sequence_ = std::max(next_sequence_, entry.record->sequence + 1);
    found->second.versions[entry.key].push_back(std::move(entry.record));
  }
  for (auto& [name, bucket] : buckets_) {
    for (auto& [key, versions] : bucket.versions) {
      std::sort(versions.begin(), versions.end(),
                [](const auto& a, const auto& b) { return a->sequence > b->sequence; });
      set_current_locked(bucket, key);
    }
  }
}

object_store::~object_store() {
  backend_->keep_released_blobs();
}

object_store::create_outcome object_store::create_bucket(const std::string& name, time_point now,
                                                         const std::string& owner) {
  std::unique_lock lock(mutex_);
  if (buckets_.contains(name)) {
    return create_outcome::already_exists;
  }
  bucket_summary summary;
  summary.name = name;
  summary.created = now;
  summary.owner = owner;
  backend_->save_bucket(summary);
  auto& state = buckets_[name];
  state.created = now;
  state.owner = owner;
  return create_outcome::created;
}

std::optional<s3_error> object_store::delete_bucket(const std::string& name) {
  std::map<std::string, upload_record> aborted; // released after the lock
  std::unique_lock lock(mutex_);
  const auto found = buckets_.find(name);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(name);
  }
  if (!found->second.versions.empty()) {
    return errors::bucket_not_empty(name);
  }
  backend_->remove_bucket(name);
  aborted = std::move(found->second.uploads);
  buckets_.erase(found);
  return std::nullopt;
}

bool object_store::has_bucket(const std::string& name) const {
  std::shared_lock lock(mutex_);
  return buckets_.contains(name);
}

std::optional<std::string> object_store::bucket_owner(const std::string& name) const {
  std::shared_lock lock(mutex_);
  const auto found = buckets_.find(name);
  if (found == buckets_.end()) {
    return std::nullopt;
  }
  return found->second.owner;
}

bucket_summary object_store::summarize_bucket(const std::string& name, const bucket_state& bucket) {
  bucket_summary summary;
  summary.name = name;
  summary.created = bucket.created;
  summary.versioning = bucket.versioning;
  summary.owner = bucket.owner;
  return summary;
}

std::vector<bucket_summary> object_store::list_buckets() const {
  std::shared_lock lock(mutex_);
  std::vector<bucket_summary> out;
  for (const auto& [name, bucket] : buckets_) {
    out.push_back(summarize_bucket(name, bucket));
  }
  return out;
}

std::optional<s3_error> object_store::set_versioning(const std::string& bucket,
                                                     versioning_status status) {
  std::unique_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  bucket_summary summary = summarize_bucket(bucket, found->second);
  summary.versioning = status;
  try {
    backend_->save_bucket(summary);
  } catch (const std::exception& error) {
    return storage_failure(error);
  }
  found->second.versioning = status;
  return std::nullopt;
}

std::variant<versioning_status, s3_error>
object_store::versioning(const std::string& bucket) const {
  std::shared_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  return found->second.versioning;
}

std::variant<object_ptr, s3_error>
object_store::find_object(const std::string& bucket, const std::string& key,
                          const std::optional<std::string>& version_id) const {
  std::shared_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  const auto versions = found->second.versions.find(key);
  if (version_id) {
    object_ptr version = versions == found->second.versions.end()
                             ? nullptr
                             : find_version(versions->second, *version_id);
    if (!version) {
      return errors::no_such_version(key, *version_id);
    }
    if (version->delete_marker) {
      // S3 answers a read of a delete marker's version with 405 and says what it is.
      auto error = errors::method_not_allowed("GET", "DeleteMarker");
      error.headers = {{"x-amz-delete-marker", "true"},
                       {"x-amz-version-id", version->version_id},
                       {"Last-Modified", format_http_date(version->last_modified)},
                       {"Allow", "DELETE"}};
      return error;
    }
    return version;
  }
  if (versions == found->second.versions.end()) {
    return errors::no_such_key(key);
  }
  const auto& newest = versions->second.front();
  if (newest->delete_marker) {
    auto error = errors::no_such_key(key);
    error.headers = {{"x-amz-delete-marker", "true"}, {"x-amz-version-id", newest->version_id}};
    return error;
  }
  return newest;
}

void object_store::set_current_locked(bucket_state& bucket, const std::string& key) {
  const auto versions = bucket.versions.find(key);
  object_ptr current;
  if (versions != bucket.versions.end()) {
    current = current_version(versions->second);
    if (versions->second.empty()) {
      bucket.versions.erase(versions);
    }
  }
  if (current) {
    bucket.objects[key] = std::move(current);
    return;
  }
  if (bucket.objects.erase(key) != 0) {
    if (bucket.deleted_at.size() >= deletions_remembered) {
      bucket.deleted_at.clear(); // old deletions only matter to writes long in flight
    }
    bucket.deleted_at[key] = next_sequence_++;
  }
}

std::uint64_t object_store::write_started() const {
  std::shared_lock lock(mutex_);
  return next_sequence_;
}

std::string object_store::new_version_id_locked() {
  // Unique (the sequence) and not guessable from another bucket's ids (the random tail).
  static constexpr char alphabet[] =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  thread_local std::mt19937_64 engine{std::random_device{}()};
  char head[24];
  std::snprintf(head, sizeof head, "%012llx", static_cast<unsigned long long>(next_sequence_));
  std::string id(head);
  while (id.size() < 32) {
    id.push_back(alphabet[engine() % (sizeof alphabet - 1)]);
  }
  return id;
}

std::optional<s3_error>
object_store::publish_locked(bucket_state& bucket, const std::string& bucket_name,
                             const std::string& key, std::shared_ptr<object_record> record,
                             const write_condition& condition, version_list& replaced) {
  const auto current = bucket.objects.find(key);
  const bool exists = current != bucket.objects.end();
  if (condition.any() && condition.started != 0) {
    const auto deleted = bucket.deleted_at.find(key);
    if (deleted != bucket.deleted_at.end() && deleted->second >= condition.started) {
      return errors::conditional_request_conflict();
    }
  }
  if (condition.if_none_match && exists &&
      etag_list_matches(*condition.if_none_match, current->second->etag)) {
    return errors::precondition_failed("If-None-Match");
  }
  if (condition.if_match) {
    if (!exists) {
      return errors::no_such_key(key);
    }
    if (!etag_list_matches(*condition.if_match, current->second->etag)) {
      return errors::precondition_failed("If-Match");
    }
  }
  record->version_id =
      bucket.versioning == versioning_status::enabled ? new_version_id_locked() : null_version_id;
  record->sequence = next_sequence_;
  try {
    backend_->save_object(bucket_name, key, *record);
  } catch (const std::exception& error) {
    return storage_failure(error);
  }
  ++next_sequence_;
  auto& versions = bucket.versions[key];
  replaced = add_version(versions, std::move(record), bucket.versioning);
  for (const auto& old : replaced) {
    // A null version replaced in place was overwritten by save_object: same file.
    if (old->version_id != null_version_id) {
      backend_->remove_object(bucket_name, key, old->version_id);
    }
  }
  set_current_locked(bucket, key);
  return std::nullopt;
}

std::optional<s3_error> object_store::put_object(const std::string& bucket, const std::string& key,
                                                 std::shared_ptr<object_record> record,
                                                 const write_condition& condition) {
  version_list replaced; // released after the lock: on disk that unlinks files
  std::unique_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  return publish_locked(found->second, bucket, key, std::move(record), condition, replaced);
}

std::variant<delete_result, s3_error>
object_store::delete_object(const std::string& bucket, const std::string& key, time_point now,
                            const std::optional<std::string>& version_id) {
  version_list removed; // released after the lock
  std::unique_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  bucket_state& state = found->second;
  delete_result result;
  const auto versions = state.versions.find(key);
  if (version_id) {
    result.version_id = *version_id;
    if (versions != state.versions.end()) {
      if (auto gone = remove_version(versions->second, *version_id)) {
        backend_->remove_object(bucket, key, gone->version_id);
        result.delete_marker = gone->delete_marker;
        removed.push_back(std::move(gone));
        set_current_locked(state, key);
      }
    }
    return result;
  }
  if (state.versioning == versioning_status::off) {
    if (versions != state.versions.end()) {
      for (const auto& version : versions->second) {
        backend_->remove_object(bucket, key, version->version_id);
      }
      removed = std::move(versions->second);
      state.versions.erase(versions);
      set_current_locked(state, key);
    }
    return result;
  }
  auto marker = std::make_shared<object_record>();
  marker->delete_marker = true;
  marker->last_modified = now;
  if (auto failure = publish_locked(state, bucket, key, marker, write_condition{}, removed)) {
    return *failure;
  }
  result.version_id = marker->version_id;
  result.delete_marker = true;
  return result;
}

std::variant<object_listing, s3_error>
object_store::list_objects(const std::string& bucket, const listing_request& request) const {
  std::shared_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  const auto& objects = found->second.objects;
  const listing_selection selection = select_listing(objects, request);
  object_listing page;
  page.truncated = selection.truncated;
  page.last_entry = selection.last_entry;
  page.common_prefixes = selection.common_prefixes;
  for (const auto& key : selection.keys) {
    page.objects.push_back(summarize(key, *objects.at(key)));
  }
  return page;
}

std::variant<version_listing, s3_error>
object_store::list_versions(const std::string& bucket,
                            const version_listing_request& request) const {
  std::shared_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  return select_versions(found->second.versions, request);
}

std::variant<std::string, s3_error>
object_store::create_upload(const std::string& bucket, const std::string& key,
                            object_metadata metadata, std::string checksum_algorithm,
                            std::string checksum_type, time_point now) {
  std::unique_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  upload_record upload;
  upload.key = key;
  upload.upload_id = new_upload_id();
  upload.initiated = now;
  upload.metadata = std::move(metadata);
  upload.checksum_algorithm = std::move(checksum_algorithm);
  upload.checksum_type = std::move(checksum_type);
  upload.started = next_sequence_;
  const std::string id = upload.upload_id;
  found->second.uploads.emplace(id, std::move(upload));
  return id;
}

template <class Self>
auto* object_store::find_upload_locked(Self& self, const std::string& bucket,
                                       const std::string& key, const std::string& upload_id,
                                       std::optional<s3_error>& error) {
  using upload_pointer = decltype(&self.buckets_.begin()->second.uploads.begin()->second);
  const auto found = self.buckets_.find(bucket);
  if (found == self.buckets_.end()) {
    error = errors::no_such_bucket(bucket);
    return upload_pointer{nullptr};
  }
  const auto upload = found->second.uploads.find(upload_id);
  if (upload == found->second.uploads.end() || upload->second.key != key) {
    error = errors::no_such_upload(upload_id);
    return upload_pointer{nullptr};
  }
  return upload_pointer{&upload->second};
}

std::variant<std::string, s3_error> object_store::find_upload(const std::string& bucket,
                                                              const std::string& key,
                                                              const std::string& upload_id) const {
  std::shared_lock lock(mutex_);
  std::optional<s3_error> error;
  const auto* upload = find_upload_locked(*this, bucket, key, upload_id, error);
  if (!upload) {
    return *error;
  }
  return upload->checksum_algorithm;
}

std::optional<s3_error> object_store::add_part(const std::string& bucket, const std::string& key,
                                               const std::string& upload_id, unsigned number,
                                               part_record part) {
  part_record replaced;
  std::unique_lock lock(mutex_);
  std::optional<s3_error> error;
  auto* upload = find_upload_locked(*this, bucket, key, upload_id, error);
  if (!upload) {
    return error;
  }
  auto& slot = upload->parts[number];
  replaced = std::move(slot);
  slot = std::move(part);
  return std::nullopt;
}

std::optional<s3_error> object_store::abort_upload(const std::string& bucket,
                                                   const std::string& key,
                                                   const std::string& upload_id) {
  upload_record aborted;
  std::unique_lock lock(mutex_);
  std::optional<s3_error> error;
  if (!find_upload_locked(*this, bucket, key, upload_id, error)) {
    return error;
  }
  auto& uploads = buckets_.at(bucket).uploads;
  aborted = std::move(uploads.at(upload_id));
  uploads.erase(upload_id);
  return std::nullopt;
}

std::variant<object_ptr, s3_error> object_store::complete_upload(
    const std::string& bucket, const std::string& key, const std::string& upload_id,
    const std::vector<completed_part>& parts, std::uint64_t min_part_size, time_point now,
    const write_condition& condition, const std::optional<std::string>& declared_checksum) {
  upload_record finished;
  version_list replaced;
  std::unique_lock lock(mutex_);
  std::optional<s3_error> error;
  auto* upload = find_upload_locked(*this, bucket, key, upload_id, error);
  if (!upload) {
    if (error->code == "NoSuchUpload") {
      return completed_retry_locked(buckets_.at(bucket), key, upload_id, parts, now);
    }
    return *error;
  }
  auto assembled = assemble_multipart(*upload, parts, min_part_size, declared_checksum);
  if (auto* failure = std::get_if<s3_error>(&assembled)) {
    return *failure;
  }
  auto record = std::make_shared<object_record>(std::move(std::get<object_record>(assembled)));
  record->last_modified = now;
  auto& state = buckets_.at(bucket);
  write_condition since_created = condition;
  since_created.started = upload->started;
  if (auto failure = publish_locked(state, bucket, key, record, since_created, replaced)) {
    if (failure->code == "ConditionalRequestConflict") {
      // S3 ends the upload: the client must start another one.
      finished = std::move(state.uploads.at(upload_id));
      state.uploads.erase(upload_id);
    }
    return *failure;
  }
  finished = std::move(state.uploads.at(upload_id));
  state.uploads.erase(upload_id);
  auto result = std::make_shared<object_record>(*record);
  result->segments.clear();
  completed_upload done;
  done.key = key;
  done.parts = parts;
  done.result = std::move(result);
  done.completed = now;
  remember_completed_locked(state, upload_id, std::move(done));
  return object_ptr(std::move(record));
}

std::variant<object_ptr, s3_error> object_store::completed_retry_locked(
    const bucket_state& bucket, const std::string& key, const std::string& upload_id,
    const std::vector<completed_part>& parts, time_point now) const {
  const auto done = bucket.completed.find(upload_id);
  if (done == bucket.completed.end() || done->second.key != key ||
      now - done->second.completed > completed_upload_memory ||
      !same_part_list(done->second.parts, parts)) {
    return errors::no_such_upload(upload_id);
  }
  return done->second.result;
}

void object_store::remember_completed_locked(bucket_state& bucket, const std::string& upload_id,
                                             completed_upload done) {
  // Upload ids sort in creation order, so the first entries are the oldest uploads.
  while (bucket.completed.size() >= completed_uploads_kept) {
    bucket.completed.erase(bucket.completed.begin());
  }
  bucket.completed[upload_id] = std::move(done);
}

std::variant<part_listing, s3_error> object_store::list_parts(const std::string& bucket,
                                                              const std::string& key,
                                                              const std::string& upload_id,
                                                              unsigned part_number_marker,
                                                              unsigned max_parts) const {
  std::shared_lock lock(mutex_);
  std::optional<s3_error> error;
  const auto* upload = find_upload_locked(*this, bucket, key, upload_id, error);
  if (!upload) {
    return *error;
  }
  part_listing page;
  page.key = upload->key;
  page.upload_id = upload->upload_id;
  page.checksum_algorithm = upload->checksum_algorithm;
  for (auto it = upload->parts.upper_bound(part_number_marker); it != upload->parts.end(); ++it) {
    if (page.parts.size() == max_parts) {
      page.truncated = true;
      break;
    }
    const auto& [number, part] = *it;
    page.parts.push_back(part_summary{number, part.size, s3::to_hex(part.md5_raw),
                                      part.last_modified, part.checksum_algorithm, part.checksum});
    page.next_marker = number;
  }
  return page;
}

std::variant<upload_listing, s3_error>
object_store::list_uploads(const std::string& bucket, const upload_listing_request& request) const {
  std::shared_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  // S3 orders uploads by key, then by initiation; ids sort in creation order.
  std::map<std::pair<std::string, std::string>, const upload_record*> ordered;
  for (const auto& [id, upload] : found->second.uploads) {
    ordered.emplace(std::make_pair(upload.key, id), &upload);
  }
  upload_listing page;
  if (request.max_uploads == 0) {
    return page;
  }
  std::string last_prefix;
  unsigned shown = 0;
  for (const auto& [position, upload] : ordered) {
    const auto& [key, id] = position;
    if (!key.starts_with(request.prefix)) {
      continue;
    }
    if (!request.key_marker.empty()) {
      const bool after = request.upload_id_marker.empty()
                             ? key > request.key_marker
                             : key > request.key_marker ||
                                   (key == request.key_marker && id > request.upload_id_marker);
      if (!after) {
        continue;
      }
    }
    std::string rolled_up;
    if (!request.delimiter.empty()) {
      const auto at = key.find(request.delimiter, request.prefix.size());
      if (at != std::string::npos) {
        rolled_up = key.substr(0, at + request.delimiter.size());
      }
    }
    if (!rolled_up.empty() && (rolled_up == last_prefix || rolled_up == request.key_marker)) {
      continue;
    }
    if (shown == request.max_uploads) {
      page.truncated = true;
      break;
    }
    ++shown;
    if (!rolled_up.empty()) {
      page.common_prefixes.push_back(rolled_up);
      last_prefix = rolled_up;
      page.next_key_marker = rolled_up;
      page.next_upload_id_marker.clear();
    } else {
      page.uploads.push_back(upload_summary{key, id, upload->initiated});
      page.next_key_marker = key;
      page.next_upload_id_marker = id;
    }
  }
  return page;
}

} // namespace s3fault::origin
