// The origin's aws-chunked decoder (SigV4 streaming uploads). The same body fed whole and fed in
// pieces of fuzzer-chosen sizes must decode to the same payload with the same verdict.
#include "conformance/origin/aws_chunked_decoder.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace s3fault::origin;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  aws_chunked_decoder::settings settings;
  settings.signed_chunks = input.ConsumeBool();
  settings.trailer = input.ConsumeBool();
  settings.max_chunk_size = 4096;
  if (settings.signed_chunks && input.ConsumeBool()) {
    settings.context = s3fault::s3::signing_context{
        .access_key = "AKIDEXAMPLE",
        .region = "us-east-1",
        .amz_date = "20130524T000000Z",
        .scope = "20130524/us-east-1/s3/aws4_request",
        .signing_key = std::string(32, 'k'),
        .seed_signature = std::string(64, '0'),
        .payload_hash = std::string(s3fault::s3::streaming_signed_payload)};
  }
  const std::size_t piece_seed = input.ConsumeIntegralInRange<std::size_t>(1, 64);
  const std::string body = input.ConsumeRemainingBytesAsString();

  aws_chunked_decoder whole(settings);
  std::string whole_out;
  const bool whole_fed = whole.feed(body, whole_out);
  const bool whole_ok = whole_fed && whole.finish();

  aws_chunked_decoder pieces(settings);
  std::string pieces_out;
  bool pieces_fed = true;
  for (std::size_t at = 0, step = piece_seed; at < body.size() && pieces_fed;
       at += step, step = step % 7 + piece_seed) {
    pieces_fed = pieces.feed(std::string_view(body).substr(at, step), pieces_out);
  }
  const bool pieces_ok = pieces_fed && pieces.finish();

  if (whole_ok != pieces_ok || (whole_ok && whole_out != pieces_out)) {
    __builtin_trap();
  }
  if (whole_ok && whole.decoded_bytes() != whole_out.size()) {
    __builtin_trap();
  }
  return 0;
}
