#pragma once
// Immutable object bytes and how they are written. A blob is written once through a
// blob_writer and becomes visible only at commit(), so a reader never sees a partial object.
// Objects are sequences of blobs (one per multipart part), shared between objects and readers
// by shared_ptr: a reader that took a blob keeps it alive even if the object is replaced.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::origin {

/// Sequential or positioned reads of one blob. Errors throw std::system_error.
class blob_reader {
public:
  virtual ~blob_reader() = default;
  /// Reads up to `size` bytes at `offset` into `out`; returns how many (0 only past the end).
  virtual std::size_t read_at(std::uint64_t offset, char* out, std::size_t size) = 0;
  /// The open file holding the blob's bytes from offset 0, for sendfile(2); owned by the
  /// reader. -1 when the bytes are not in a file.
  virtual int descriptor() const { return -1; }
};

class blob {
public:
  virtual ~blob() = default;
  virtual std::uint64_t size() const = 0;
  /// The bytes themselves when the blob lives in memory (sent without copying); nullopt for a
  /// file, which is read through open().
  virtual std::optional<std::string_view> in_memory() const = 0;
  virtual std::unique_ptr<blob_reader> open() const = 0;
  /// Stable name of the blob in its backend (the file name on disk; empty in memory).
  virtual const std::string& id() const = 0;
};

/// Receives the bytes of a new blob. Destroyed without commit(), it leaves nothing behind.
/// Errors throw std::system_error.
class blob_writer {
public:
  virtual ~blob_writer() = default;
  virtual void write(std::string_view bytes) = 0;
  virtual std::uint64_t written() const = 0;
  /// Seals the blob; the writer is done.
  virtual std::shared_ptr<const blob> commit() = 0;
};

} // namespace s3fault::origin
