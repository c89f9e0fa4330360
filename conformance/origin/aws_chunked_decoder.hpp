#pragma once
// Decodes an `aws-chunked` request body (SigV4 streaming uploads) incrementally: bytes go in as
// they arrive, in pieces of any size, and the payload comes out. Pure: no I/O.
//
//   body:  <hex size>[;chunk-signature=<sig>]\r\n <data> \r\n  ...  0[;chunk-signature=<sig>]\r\n
//          [<trailer name>:<value>\r\n ... [x-amz-trailer-signature:<sig>\r\n]] \r\n
//
// Signed chunks (STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER]) are held whole until their
// signature is checked, so no unverified byte is passed on; unsigned chunks
// (STREAMING-UNSIGNED-PAYLOAD-TRAILER) stream straight through.
#include "conformance/origin/object_record.hpp"
#include "conformance/s3/sigv4.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::origin {

class aws_chunked_decoder {
public:
  struct settings {
    /// Every chunk carries chunk-signature=, chained from the request's seed signature.
    bool signed_chunks = false;
    /// Trailing header lines follow the final chunk (x-amz-trailer).
    bool trailer = false;
    /// When set (and signed_chunks), chunk and trailer signatures are verified with it.
    std::optional<s3::signing_context> context;
    /// Largest chunk accepted: signed chunks are held whole in memory.
    std::size_t max_chunk_size = 16 * 1024 * 1024;
  };

  enum class failure { none, framing, signature };

  explicit aws_chunked_decoder(settings config);

  /// Decodes the next bytes; payload bytes are appended to `out`. Returns false once the body
  /// is known to be bad (see error()); later calls do nothing.
  bool feed(std::string_view input, std::string& out);
  /// The body ended: false (with error()) unless the final chunk and trailer were complete.
  bool finish();

  bool finished() const { return state_ == state::done; }
  failure failed() const { return failure_; }
  const std::string& error() const { return error_; }
  /// Trailer fields (names lower case), without x-amz-trailer-signature.
  const field_list& trailers() const { return trailers_; }
  std::uint64_t decoded_bytes() const { return decoded_; }

private:
  enum class state { size_line, data, data_end, trailer_line, final_line, done, failed };

  bool fail(failure kind, std::string message);
  bool on_size_line(std::string_view line, std::string& out);
  bool on_chunk_complete(std::string& out);
  bool on_final_line(std::string_view line);
  bool on_trailer_line(std::string_view line);
  bool on_trailer_end();
  /// Gathers bytes up to "\r\n" into line_; true when a whole line is in line_.
  bool take_line(std::string_view& input);

  settings config_;
  state state_ = state::size_line;
  failure failure_ = failure::none;
  std::string error_;
  std::string line_;
  std::uint64_t chunk_left_ = 0;
  std::string chunk_;           // signed chunk being gathered
  std::string chunk_signature_; // its announced signature
  std::string previous_signature_;
  std::string trailer_block_; // "name:value\n" lines, for the trailer signature
  std::string trailer_signature_;
  field_list trailers_;
  std::uint64_t decoded_ = 0;
  unsigned data_end_seen_ = 0; // bytes of the "\r\n" after chunk data
};

} // namespace s3fault::origin
