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

std::string_view object_reader::next(std::span<char> scratch, std::size_t max_piece) {
  while (remaining_ > 0) {
    if (segment_ >= object_->segments.size()) {
      throw std::system_error(EIO, std::generic_category(), "object shorter than its size");
    }
    const blob& current = *object_->segments[segment_];
    if (offset_in_segment_ >= current.size()) {
      ++segment_;
      offset_in_segment_ = 0;
      continue;
    }
    const std::uint64_t in_segment = current.size() - offset_in_segment_;
    std::size_t want = static_cast<std::size_t>(
        std::min<std::uint64_t>({in_segment, remaining_, static_cast<std::uint64_t>(max_piece)}));
    std::string_view piece;
    if (auto bytes = current.in_memory()) {
      piece = bytes->substr(offset_in_segment_, want);
    } else {
      want = std::min(want, scratch.size());
      if (file_segment_ != segment_) {
        file_ = current.open();
        file_segment_ = segment_;
      }
      const std::size_t got = file_->read_at(offset_in_segment_, scratch.data(), want);
      if (got == 0) {
        throw std::system_error(EIO, std::generic_category(), "stored file shorter than recorded");
      }
      piece = std::string_view(scratch.data(), got);
    }
    offset_in_segment_ += piece.size();
    remaining_ -= piece.size();
    return piece;
  }
  return {};
}

std::optional<object_reader::file_range> object_reader::next_file_range(std::size_t max_piece) {
  while (remaining_ > 0 && segment_ < object_->segments.size() &&
         offset_in_segment_ >= object_->segments[segment_]->size()) {
    ++segment_;
    offset_in_segment_ = 0;
  }
  if (remaining_ == 0 || segment_ >= object_->segments.size()) {
    return std::nullopt;
  }
  const blob& current = *object_->segments[segment_];
  if (current.in_memory()) {
    return std::nullopt;
  }
  if (file_segment_ != segment_) {
    file_ = current.open();
    file_segment_ = segment_;
  }
  const auto file = file_->location();
  if (file.fd < 0) {
    return std::nullopt;
  }
  const std::uint64_t in_segment = current.size() - offset_in_segment_;
  return file_range{file.fd, file.offset + offset_in_segment_,
                    static_cast<std::size_t>(std::min<std::uint64_t>(
                        {in_segment, remaining_, static_cast<std::uint64_t>(max_piece)}))};
}

void object_reader::advance(std::size_t sent) {
  offset_in_segment_ += sent;
  remaining_ -= sent;
}

} // namespace s3fault::origin
