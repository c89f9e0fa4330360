// The default backend: blobs are immutable strings, nothing survives the process.
#include "conformance/origin/storage_backend.hpp"

#include <algorithm>
#include <cstring>

namespace s3fault::origin {
namespace {

class memory_blob final : public blob {
public:
  explicit memory_blob(std::string bytes) : bytes_(std::move(bytes)) {}
  std::uint64_t size() const override { return bytes_.size(); }
  std::optional<std::string_view> in_memory() const override { return bytes_; }
  std::unique_ptr<blob_reader> open() const override;
  const std::string& id() const override { return no_id_; }

private:
  std::string bytes_;
  std::string no_id_;
};

class memory_reader final : public blob_reader {
public:
  explicit memory_reader(std::string_view bytes) : bytes_(bytes) {}
  std::size_t read_at(std::uint64_t offset, char* out, std::size_t size) override {
    if (offset >= bytes_.size()) {
      return 0;
    }
    const std::size_t n = std::min<std::uint64_t>(size, bytes_.size() - offset);
    std::memcpy(out, bytes_.data() + offset, n);
    return n;
  }

private:
  std::string_view bytes_;
};

std::unique_ptr<blob_reader> memory_blob::open() const {
  return std::make_unique<memory_reader>(bytes_);
}

class memory_writer final : public blob_writer {
public:
  explicit memory_writer(std::uint64_t size_hint) {
    // The hint comes from a client's header: trust it only up to a sane amount.
    bytes_.reserve(std::min<std::uint64_t>(size_hint, 256ull * 1024 * 1024));
  }
  void write(std::string_view bytes) override { bytes_.append(bytes); }
  std::uint64_t written() const override { return bytes_.size(); }
  std::shared_ptr<const blob> commit() override {
    return std::make_shared<memory_blob>(std::move(bytes_));
  }

private:
  std::string bytes_;
};

class memory_backend final : public storage_backend {
public:
  std::unique_ptr<blob_writer> new_blob(std::uint64_t size_hint) override {
    return std::make_unique<memory_writer>(size_hint);
  }
  void save_bucket(const bucket_summary&) override {}
  void remove_bucket(std::string_view) override {}
  void save_object(std::string_view, std::string_view, const object_record&) override {}
  void remove_object(std::string_view, std::string_view, std::string_view) override {}
  loaded_store load() override { return {}; }
  void keep_released_blobs() override {}
  std::string description() const override { return "memory"; }
};

} // namespace

std::unique_ptr<storage_backend> make_memory_backend() {
  return std::make_unique<memory_backend>();
}

} // namespace s3fault::origin
