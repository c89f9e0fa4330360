// The --data-dir backend. Layout:
//
//   DIR/tmp/<id>            blobs being written (removed at start-up)
//   DIR/blobs/<id>          committed blobs: renamed from tmp/ once complete, never rewritten
//   DIR/buckets/<name>.json one per bucket: name, creation time, owner (absent: first account),
//                           versioning status (absent: never turned on)
//   DIR/objects/<h>.json    one per object version (h = sha256 of bucket and key, plus the
//                           version id unless it is "null"): metadata, version id, sequence
//                           and the ids of its blobs, written to a temporary name and renamed
//
// A blob file is removed when the last record (or reader) using it lets go of it. At start-up
// the index is rebuilt from the JSON files and blob files no record names are removed. Nothing
// is fsync'ed: the directory survives a restart, not a power cut.
#include "conformance/origin/storage_backend.hpp"
#include "conformance/s3/hashing.hpp"
#include "runtime/atomic_file.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace s3fault::origin {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

/// What the blobs of one backend share: where they live and whether released ones are deleted.
struct disk_state {
  fs::path root;
  std::atomic<bool> keep_released{false};
  fs::path blob_path(const std::string& id) const { return root / "blobs" / id; }
  fs::path temp_path(const std::string& id) const { return root / "tmp" / id; }
};

std::string random_id() {
  static std::atomic<std::uint64_t> counter{0};
  thread_local std::mt19937_64 engine{std::random_device{}()};
  char text[40];
  std::snprintf(text, sizeof text, "%016llx%08llx", static_cast<unsigned long long>(engine()),
                static_cast<unsigned long long>(counter.fetch_add(1) & 0xffffffffu));
  return text;
}

class file_reader final : public blob_reader {
public:
  explicit file_reader(const fs::path& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) {
      throw_errno("open " + path.string());
    }
  }
  ~file_reader() override { ::close(fd_); }
  std::size_t read_at(std::uint64_t offset, char* out, std::size_t size) override {
    for (;;) {
      const ssize_t n = ::pread(fd_, out, size, static_cast<off_t>(offset));
      if (n >= 0) {
        return static_cast<std::size_t>(n);
      }
      if (errno != EINTR) {
        throw_errno("read");
      }
    }
  }

  int descriptor() const override { return fd_; }

private:
  int fd_;
};

class disk_blob final : public blob {
public:
  disk_blob(std::shared_ptr<disk_state> state, std::string id, std::uint64_t size)
      : state_(std::move(state)), id_(std::move(id)), size_(size) {}
  ~disk_blob() override {
    if (!state_->keep_released.load()) {
      ::unlink(state_->blob_path(id_).c_str());
    }
  }
  std::uint64_t size() const override { return size_; }
  std::optional<std::string_view> in_memory() const override { return std::nullopt; }
  std::unique_ptr<blob_reader> open() const override {
    return std::make_unique<file_reader>(state_->blob_path(id_));
  }
  const std::string& id() const override { return id_; }

private:
  std::shared_ptr<disk_state> state_;
  std::string id_;
  std::uint64_t size_;
};

class file_writer final : public blob_writer {
public:
  explicit file_writer(std::shared_ptr<disk_state> state)
      : state_(std::move(state)), id_(random_id()) {
    const auto path = state_->temp_path(id_);
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      throw_errno("create " + path.string());
    }
  }
  ~file_writer() override {
    if (fd_ >= 0) {
      ::close(fd_);
      ::unlink(state_->temp_path(id_).c_str());
    }
  }
  void write(std::string_view bytes) override {
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) {
          continue;
        }
        throw_errno("write " + state_->temp_path(id_).string());
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
      written_ += static_cast<std::uint64_t>(n);
    }
  }
  std::uint64_t written() const override { return written_; }
  std::shared_ptr<const blob> commit() override {
    if (::close(fd_) != 0) {
      fd_ = -1;
      ::unlink(state_->temp_path(id_).c_str());
      throw_errno("close " + state_->temp_path(id_).string());
    }
    fd_ = -1;
    if (::rename(state_->temp_path(id_).c_str(), state_->blob_path(id_).c_str()) != 0) {
      ::unlink(state_->temp_path(id_).c_str());
      throw_errno("rename " + state_->temp_path(id_).string());
    }
    return std::make_shared<disk_blob>(state_, id_, written_);
  }

private:
  std::shared_ptr<disk_state> state_;
  std::string id_;
  int fd_ = -1;
  std::uint64_t written_ = 0;
};

std::int64_t to_millis(time_point time) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
}

time_point from_millis(std::int64_t millis) {
  return time_point(
      std::chrono::duration_cast<time_point::duration>(std::chrono::milliseconds(millis)));
}

json fields_to_json(const field_list& fields) {
  json out = json::array();
  for (const auto& [name, value] : fields) {
    out.push_back({name, value});
  }
  return out;
}

field_list fields_from_json(const json& in) {
  field_list fields;
  for (const auto& pair : in) {
    fields.emplace_back(pair.at(0).get<std::string>(), pair.at(1).get<std::string>());
  }
  return fields;
}

/// Writes a record whole or not at all (a reader sees the old or the new file).
void write_record(const fs::path& path, const std::string& text) {
  std::string error;
  if (!runtime::write_file_atomically(path.string(), text, error)) {
    throw std::runtime_error(error);
  }
}

std::string dump(const json& value) {
  // Header values are not guaranteed UTF-8; keys are stored in hex and stay exact.
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

class disk_backend final : public storage_backend {
public:
  explicit disk_backend(const std::string& directory) : state_(std::make_shared<disk_state>()) {
    state_->root = fs::absolute(directory);
    std::error_code ec;
    for (const char* sub : {"tmp", "blobs", "buckets", "objects"}) {
      fs::create_directories(state_->root / sub, ec);
      if (ec) {
        throw std::runtime_error("--data-dir " + directory + ": cannot create " +
                                 (state_->root / sub).string() + ": " + ec.message());
      }
    }
    // Leftovers of writes that were cut off: nobody will finish them.
    for (const auto& entry : fs::directory_iterator(state_->root / "tmp", ec)) {
      fs::remove(entry.path(), ec);
    }
  }

  std::unique_ptr<blob_writer> new_blob(std::uint64_t) override {
    return std::make_unique<file_writer>(state_);
  }

  void save_bucket(const bucket_summary& bucket) override {
    json record = {{"name", bucket.name}, {"created_ms", to_millis(bucket.created)}};
    if (bucket.versioning != versioning_status::off) {
      record["versioning"] =
          bucket.versioning == versioning_status::enabled ? "Enabled" : "Suspended";
    }
    if (!bucket.owner.empty()) {
      record["owner"] = bucket.owner; // records without one belong to the first account
    }
    write_record(bucket_path(bucket.name), dump(record));
  }

  void remove_bucket(std::string_view name) override {
    std::error_code ec;
    fs::remove(bucket_path(name), ec);
  }

  void save_object(std::string_view bucket, std::string_view key,
                   const object_record& record) override {
    json out = {{"bucket", bucket},
                {"key_hex", s3::to_hex(key)},
                {"version_id", record.version_id},
                {"delete_marker", record.delete_marker},
                {"sequence", record.sequence},
                {"size", record.size},
                {"etag", record.etag},
                {"last_modified_ms", to_millis(record.last_modified)},
                {"content_headers", fields_to_json(record.content_headers)},
                {"user_metadata", fields_to_json(record.user_metadata)}};
    if (record.checksum) {
      out["checksum"] = {{"algorithm", record.checksum->algorithm},
                         {"value", record.checksum->value},
                         {"type", record.checksum->type}};
    }
    out["parts"] = json::array();
    for (const auto& part : record.parts) {
      out["parts"].push_back({{"size", part.size}, {"checksum", part.checksum}});
    }
    out["segments"] = json::array();
    for (const auto& segment : record.segments) {
      out["segments"].push_back({{"id", segment->id()}, {"size", segment->size()}});
    }
    write_record(object_path(bucket, key, record.version_id), dump(out));
  }

  void remove_object(std::string_view bucket, std::string_view key,
                     std::string_view version_id) override {
    std::error_code ec;
    fs::remove(object_path(bucket, key, version_id), ec);
  }

  loaded_store load() override;

  void keep_released_blobs() override { state_->keep_released = true; }

  std::string description() const override { return "directory " + state_->root.string(); }

private:
  fs::path bucket_path(std::string_view name) const {
    return state_->root / "buckets" / (std::string(name) + ".json");
  }
  /// The null version keeps the name data directories had before versioning.
  fs::path object_path(std::string_view bucket, std::string_view key,
                       std::string_view version_id) const {
    std::string identity(bucket);
    identity.push_back('\0');
    identity.append(key);
    if (version_id != null_version_id) {
      identity.push_back('\0');
      identity.append(version_id);
    }
    return state_->root / "objects" / (s3::sha256_hex(identity) + ".json");
  }

  std::shared_ptr<const object_record>
  object_from_json(const json& in, std::map<std::string, std::shared_ptr<const blob>>& blobs,
                   std::vector<std::string>& warnings);

  std::shared_ptr<disk_state> state_;
};

std::shared_ptr<const object_record>
disk_backend::object_from_json(const json& in,
                               std::map<std::string, std::shared_ptr<const blob>>& blobs,
                               std::vector<std::string>& warnings) {
  auto record = std::make_shared<object_record>();
  // Records written before versioning have none of these: a null version, first in order.
  record->version_id = in.value("version_id", std::string(null_version_id));
  record->delete_marker = in.value("delete_marker", false);
  record->sequence = in.value("sequence", std::uint64_t{0});
  record->size = in.at("size").get<std::uint64_t>();
  record->etag = in.at("etag").get<std::string>();
  record->last_modified = from_millis(in.at("last_modified_ms").get<std::int64_t>());
  record->content_headers = fields_from_json(in.at("content_headers"));
  record->user_metadata = fields_from_json(in.at("user_metadata"));
  if (in.contains("checksum")) {
    const auto& sum = in.at("checksum");
    record->checksum =
        checksum_value{sum.at("algorithm").get<std::string>(), sum.at("value").get<std::string>(),
                       sum.at("type").get<std::string>()};
  }
  for (const auto& part : in.at("parts")) {
    record->parts.push_back(
        part_extent{part.at("size").get<std::uint64_t>(), part.at("checksum").get<std::string>()});
  }
  for (const auto& segment : in.at("segments")) {
    const auto id = segment.at("id").get<std::string>();
    const auto size = segment.at("size").get<std::uint64_t>();
    auto& shared = blobs[id];
    if (!shared) {
      std::error_code ec;
      const auto on_disk = fs::file_size(state_->blob_path(id), ec);
      if (ec || on_disk != size) {
        warnings.push_back("blob " + id + " is missing or has the wrong size");
        return nullptr;
      }
      shared = std::make_shared<disk_blob>(state_, id, size);
    }
    record->segments.push_back(shared);
  }
  return record;
}

loaded_store disk_backend::load() {
  loaded_store loaded;
  std::error_code ec;
  std::map<std::string, std::shared_ptr<const blob>> blobs;
  for (const auto& entry : fs::directory_iterator(state_->root / "buckets", ec)) {
    try {
      std::ifstream in(entry.path());
      const json record = json::parse(in);
      bucket_summary bucket;
      bucket.name = record.at("name").get<std::string>();
      bucket.created = from_millis(record.at("created_ms").get<std::int64_t>());
      const std::string versioning = record.value("versioning", std::string());
      bucket.versioning = versioning == "Enabled"     ? versioning_status::enabled
                          : versioning == "Suspended" ? versioning_status::suspended
                                                      : versioning_status::off;
      bucket.owner = record.value("owner", std::string());
      loaded.buckets.push_back(std::move(bucket));
    } catch (const std::exception& error) {
      loaded.warnings.push_back("skipped " + entry.path().string() + ": " + error.what());
    }
  }
  for (const auto& entry : fs::directory_iterator(state_->root / "objects", ec)) {
    if (entry.path().extension() != ".json") {
      fs::remove(entry.path(), ec); // an interrupted atomic write
      continue;
    }
    try {
      std::ifstream in(entry.path());
      const json record = json::parse(in);
      auto object = object_from_json(record, blobs, loaded.warnings);
      if (!object) {
        loaded.warnings.push_back("skipped " + entry.path().string());
        continue;
      }
      const auto key_bytes = record.at("key_hex").get<std::string>();
      std::string key;
      for (std::size_t i = 0; i + 1 < key_bytes.size(); i += 2) {
        key.push_back(static_cast<char>(std::stoi(key_bytes.substr(i, 2), nullptr, 16)));
      }
      loaded.objects.push_back(
          loaded_store::object_entry{record.at("bucket").get<std::string>(), key, object});
    } catch (const std::exception& error) {
      loaded.warnings.push_back("skipped " + entry.path().string() + ": " + error.what());
    }
  }
  // Blobs no record names: parts of uploads that never completed, or objects replaced while
  // the process was ending.
  for (const auto& entry : fs::directory_iterator(state_->root / "blobs", ec)) {
    if (!blobs.contains(entry.path().filename().string())) {
      fs::remove(entry.path(), ec);
    }
  }
  return loaded;
}

} // namespace

std::unique_ptr<storage_backend> make_disk_backend(const std::string& directory) {
  return std::make_unique<disk_backend>(directory);
}

} // namespace s3fault::origin
