#include "conformance/origin/object_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace s3fault::origin {

object_reader::object_reader(std::shared_ptr<const object_record> object, std::uint64_t offset,
                             std::uint64_t length)
    : object_(std::move(object)), remaining_(length) {
  // Find the segment holding `offset`.
  while (segment_ < object_->segments.size() && offset >= object_->segments[segment_]->size()) {
    offset -= object_->segments[segment_]->size();
    ++segment_;
  }
  offset_in_segment_ = offset;
}

const blob* object_reader::current_segment() {
  if (remaining_ == 0) {
    return nullptr;
  }
  while (segment_ < object_->segments.size() &&
         offset_in_segment_ >= object_->segments[segment_]->size()) {
    ++segment_;
    offset_in_segment_ = 0;
  }
  if (segment_ >= object_->segments.size()) {
    throw std::system_error(EIO, std::generic_category(), "object shorter than its size");
  }
  return object_->segments[segment_].get();
}

std::size_t object_reader::piece_length(const blob& current, std::size_t max_piece) const {
  return static_cast<std::size_t>(std::min<std::uint64_t>(
      {current.size() - offset_in_segment_, remaining_, static_cast<std::uint64_t>(max_piece)}));
}

blob_reader& object_reader::file_of(const blob& current) {
  if (file_segment_ != segment_) {
    file_ = current.open();
    file_segment_ = segment_;
  }
  return *file_;
}

std::string_view object_reader::next(std::span<char> scratch, std::size_t max_piece) {
  const blob* current = current_segment();
  if (current == nullptr) {
    return {};
  }
  std::string_view piece;
  if (auto bytes = current->in_memory()) {
    piece = bytes->substr(offset_in_segment_, piece_length(*current, max_piece));
  } else {
    const std::size_t want = std::min(piece_length(*current, max_piece), scratch.size());
    const std::size_t got = file_of(*current).read_at(offset_in_segment_, scratch.data(), want);
    if (got == 0) {
      throw std::system_error(EIO, std::generic_category(), "stored file shorter than recorded");
    }
    piece = std::string_view(scratch.data(), got);
  }
  advance(piece.size());
  return piece;
}

std::optional<object_reader::file_range> object_reader::next_file_range(std::size_t max_piece) {
  const blob* current = current_segment();
  if (current == nullptr || current->in_memory()) {
    return std::nullopt;
  }
  const int fd = file_of(*current).descriptor();
  if (fd < 0) {
    return std::nullopt;
  }
  return file_range{fd, offset_in_segment_, piece_length(*current, max_piece)};
}

void object_reader::advance(std::size_t sent) {
  offset_in_segment_ += sent;
  remaining_ -= sent;
}

} // namespace s3fault::origin
