#include "conformance/origin/object_store.hpp"

#include "conformance/origin/read_plan.hpp"
#include "conformance/s3/hashing.hpp"

#include <atomic>
#include <mutex>
#include <random>

namespace s3fault::origin {
namespace {

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
  }
  for (auto& entry : loaded.objects) {
    const auto found = buckets_.find(entry.bucket);
    if (found == buckets_.end()) {
      load_warnings_.push_back("object '" + entry.key + "' of unknown bucket '" + entry.bucket +
                               "' dropped");
      backend_->remove_object(entry.bucket, entry.key);
      continue;
    }
    found->second.objects[entry.key] = std::move(entry.record);
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
  if (!found->second.objects.empty()) {
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

std::vector<bucket_summary> object_store::list_buckets() const {
  std::shared_lock lock(mutex_);
  std::vector<bucket_summary> out;
  for (const auto& [name, bucket] : buckets_) {
    bucket_summary summary;
    summary.name = name;
    summary.created = bucket.created;
    summary.owner = bucket.owner;
    out.push_back(std::move(summary));
  }
  return out;
}

std::variant<object_ptr, s3_error> object_store::find_object(const std::string& bucket,
                                                             const std::string& key) const {
  std::shared_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  const auto object = found->second.objects.find(key);
  if (object == found->second.objects.end()) {
    return errors::no_such_key(key);
  }
  return object->second;
}

std::optional<s3_error> object_store::publish_locked(bucket_state& bucket,
                                                     const std::string& bucket_name,
                                                     const std::string& key, object_ptr record,
                                                     const write_condition& condition,
                                                     object_ptr& replaced) {
  const auto current = bucket.objects.find(key);
  const bool exists = current != bucket.objects.end();
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
  try {
    backend_->save_object(bucket_name, key, *record);
  } catch (const std::exception& error) {
    return storage_failure(error);
  }
  if (exists) {
    replaced = std::move(current->second);
    current->second = std::move(record);
  } else {
    bucket.objects.emplace(key, std::move(record));
  }
  return std::nullopt;
}

std::optional<s3_error> object_store::put_object(const std::string& bucket, const std::string& key,
                                                 object_ptr record,
                                                 const write_condition& condition) {
  object_ptr replaced; // released after the lock: on disk that unlinks a file
  std::unique_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  return publish_locked(found->second, bucket, key, std::move(record), condition, replaced);
}

std::optional<s3_error> object_store::delete_object(const std::string& bucket,
                                                    const std::string& key) {
  object_ptr removed;
  std::unique_lock lock(mutex_);
  const auto found = buckets_.find(bucket);
  if (found == buckets_.end()) {
    return errors::no_such_bucket(bucket);
  }
  const auto object = found->second.objects.find(key);
  if (object != found->second.objects.end()) {
    backend_->remove_object(bucket, key);
    removed = std::move(object->second);
    found->second.objects.erase(object);
  }
  return std::nullopt;
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
  object_ptr replaced;
  std::unique_lock lock(mutex_);
  std::optional<s3_error> error;
  auto* upload = find_upload_locked(*this, bucket, key, upload_id, error);
  if (!upload) {
    return *error;
  }
  auto assembled = assemble_multipart(*upload, parts, min_part_size, declared_checksum);
  if (auto* failure = std::get_if<s3_error>(&assembled)) {
    return *failure;
  }
  auto record = std::make_shared<object_record>(std::move(std::get<object_record>(assembled)));
  record->last_modified = now;
  object_ptr published = record;
  if (auto failure =
          publish_locked(buckets_.at(bucket), bucket, key, published, condition, replaced)) {
    return *failure;
  }
  auto& uploads = buckets_.at(bucket).uploads;
  finished = std::move(uploads.at(upload_id));
  uploads.erase(upload_id);
  return published;
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
