#pragma once
// Walks the bytes [offset, offset + length) of an object across its segments, piece by piece:
// a piece of an in-memory segment is a view of the stored bytes (no copy), a piece of a file
// is read into the caller's scratch buffer. Used by the server to stream GET bodies and by the
// copy operations.
#include "conformance/origin/object_record.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string_view>

namespace s3fault::origin {

class object_reader {
public:
  object_reader(std::shared_ptr<const object_record> object, std::uint64_t offset,
                std::uint64_t length);

  /// The next piece, at most `max_piece` bytes (and at most scratch.size() for files); empty
  /// once everything was read. The view is valid until the next call. Read errors throw
  /// std::system_error (a file vanished, an I/O error).
  std::string_view next(std::span<char> scratch, std::size_t max_piece);
  std::uint64_t remaining() const { return remaining_; }
  /// The next piece as a range of an open file, when the bytes are in one: sendfile(2) sends it
  /// without copying. Call advance() with what was sent.
  struct file_range {
    int fd;
    std::uint64_t offset;
    std::size_t length;
  };
  std::optional<file_range> next_file_range(std::size_t max_piece);
  void advance(std::size_t sent);

private:
  /// The segment the next byte is in (past segments already read to their end); nullptr once
  /// nothing remains. Throws when the segments end before the object's length.
  const blob* current_segment();
  /// How much of `current` the next piece takes, at most `max_piece`.
  std::size_t piece_length(const blob& current, std::size_t max_piece) const;
  /// The reader of the current segment's file, opened once per segment.
  blob_reader& file_of(const blob& current);

  std::shared_ptr<const object_record> object_;
  std::size_t segment_ = 0;
  std::uint64_t offset_in_segment_ = 0;
  std::uint64_t remaining_;
  std::unique_ptr<blob_reader> file_; // open reader of the current file segment
  std::size_t file_segment_ = static_cast<std::size_t>(-1);
};

} // namespace s3fault::origin
