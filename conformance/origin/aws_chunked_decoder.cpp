#include "conformance/origin/aws_chunked_decoder.hpp"

#include "text/text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace s3fault::origin {
namespace {

constexpr std::size_t max_line = 4096;
constexpr std::string_view signature_key = "chunk-signature=";
constexpr std::string_view trailer_signature_name = "x-amz-trailer-signature";

bool is_hex_signature(std::string_view text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0;
         });
}

} // namespace

aws_chunked_decoder::aws_chunked_decoder(settings config) : config_(std::move(config)) {
  if (config_.context) {
    previous_signature_ = config_.context->seed_signature;
  }
}

bool aws_chunked_decoder::fail(failure kind, std::string message) {
  state_ = state::failed;
  failure_ = kind;
  error_ = std::move(message);
  return false;
}

bool aws_chunked_decoder::take_line(std::string_view& input) {
  const auto end = input.find('\n');
  const std::string_view piece = input.substr(0, end);
  if (line_.size() + piece.size() > max_line) {
    fail(failure::framing, "aws-chunked: a chunk header or trailer line is too long");
    return false;
  }
  line_.append(piece);
  if (end == std::string_view::npos) {
    input = {};
    return false;
  }
  input.remove_prefix(end + 1);
  if (line_.empty() || line_.back() != '\r') {
    fail(failure::framing, "aws-chunked: a line does not end with CRLF");
    return false;
  }
  line_.pop_back();
  return true;
}

bool aws_chunked_decoder::feed(std::string_view input, std::string& out) {
  while (!input.empty()) {
    switch (state_) {
    case state::failed:
      return false;
    case state::done:
      return fail(failure::framing, "aws-chunked: bytes after the final chunk");
    case state::size_line:
    case state::trailer_line:
    case state::final_line: {
      if (!take_line(input)) {
        if (state_ == state::failed) {
          return false;
        }
        break;
      }
      std::string line = std::move(line_);
      line_.clear();
      bool ok = false;
      if (state_ == state::size_line) {
        ok = on_size_line(line, out);
      } else if (state_ == state::trailer_line) {
        ok = on_trailer_line(line);
      } else {
        ok = on_final_line(line);
      }
      if (!ok) {
        return false;
      }
      break;
    }
    case state::data: {
      const std::size_t take =
          static_cast<std::size_t>(std::min<std::uint64_t>(chunk_left_, input.size()));
      if (config_.signed_chunks) {
        chunk_.append(input.substr(0, take));
      } else {
        out.append(input.substr(0, take));
        decoded_ += take;
      }
      chunk_left_ -= take;
      input.remove_prefix(take);
      if (chunk_left_ == 0) {
        state_ = state::data_end;
        data_end_seen_ = 0;
      }
      break;
    }
    case state::data_end: {
      const char expected = data_end_seen_ == 0 ? '\r' : '\n';
      if (input.front() != expected) {
        return fail(failure::framing, "aws-chunked: chunk data is not followed by CRLF (the "
                                      "chunk size does not match its data)");
      }
      input.remove_prefix(1);
      if (++data_end_seen_ == 2 && !on_chunk_complete(out)) {
        return false;
      }
      break;
    }
    }
  }
  return state_ != state::failed;
}

bool aws_chunked_decoder::on_size_line(std::string_view line, std::string& out) {
  const auto semicolon = line.find(';');
  const std::string_view size_text = line.substr(0, semicolon);
  std::uint64_t size = 0;
  const auto [end, ec] =
      std::from_chars(size_text.data(), size_text.data() + size_text.size(), size, 16);
  if (size_text.empty() || ec != std::errc{} || end != size_text.data() + size_text.size()) {
    return fail(failure::framing, "aws-chunked: bad chunk size '" + std::string(size_text) + "'");
  }
  chunk_signature_.clear();
  if (semicolon != std::string_view::npos) {
    const std::string_view extension = line.substr(semicolon + 1);
    if (extension.starts_with(signature_key)) {
      chunk_signature_ = std::string(extension.substr(signature_key.size()));
    }
  }
  if (config_.signed_chunks && !is_hex_signature(chunk_signature_)) {
    return fail(failure::framing, "aws-chunked: chunk without a valid chunk-signature");
  }
  if (config_.signed_chunks && size > config_.max_chunk_size) {
    return fail(failure::framing, "aws-chunked: chunk of " + std::to_string(size) +
                                      " bytes exceeds the limit of " +
                                      std::to_string(config_.max_chunk_size));
  }
  chunk_left_ = size;
  if (size == 0) {
    // The final chunk: its signature covers empty data.
    if (!on_chunk_complete(out)) {
      return false;
    }
    state_ = config_.trailer ? state::trailer_line : state::final_line;
    return true;
  }
  chunk_.clear();
  state_ = state::data;
  return true;
}

bool aws_chunked_decoder::on_chunk_complete(std::string& out) {
  if (config_.signed_chunks) {
    if (config_.context) {
      const std::string expected =
          s3::chunk_signature(*config_.context, previous_signature_, chunk_);
      if (expected != chunk_signature_) {
        return fail(failure::signature,
                    "The request signature we calculated does not match the signature you "
                    "provided (chunk " +
                        std::to_string(decoded_) + ").");
      }
      previous_signature_ = chunk_signature_;
    }
    out.append(chunk_);
    decoded_ += chunk_.size();
    chunk_.clear();
  }
  if (chunk_left_ == 0 && state_ == state::data_end) {
    state_ = state::size_line;
  }
  return true;
}

bool aws_chunked_decoder::on_final_line(std::string_view line) {
  if (!line.empty()) {
    return fail(failure::framing, "aws-chunked: expected an empty line after the final chunk");
  }
  state_ = state::done;
  return true;
}

bool aws_chunked_decoder::on_trailer_line(std::string_view line) {
  if (line.empty()) {
    return on_trailer_end();
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    return fail(failure::framing, "aws-chunked: malformed trailer line");
  }
  const std::string name = text::ascii_lower(text::trim(line.substr(0, colon)));
  const std::string_view value = text::trim(line.substr(colon + 1));
  if (name == trailer_signature_name) {
    trailer_signature_ = std::string(value);
    return true;
  }
  trailer_block_ += name + ":" + std::string(value) + "\n";
  trailers_.emplace_back(name, std::string(value));
  return true;
}

bool aws_chunked_decoder::on_trailer_end() {
  if (config_.signed_chunks) {
    if (!is_hex_signature(trailer_signature_)) {
      return fail(failure::framing, "aws-chunked: signed trailer without x-amz-trailer-signature");
    }
    if (config_.context && s3::trailer_signature(*config_.context, previous_signature_,
                                                 trailer_block_) != trailer_signature_) {
      return fail(failure::signature, "The request signature we calculated does not match the "
                                      "signature you provided (trailer).");
    }
  }
  state_ = state::done;
  return true;
}

bool aws_chunked_decoder::finish() {
  if (state_ == state::failed) {
    return false;
  }
  if (state_ != state::done) {
    return fail(failure::framing, "aws-chunked: the body ended before the final chunk");
  }
  return true;
}

} // namespace s3fault::origin
