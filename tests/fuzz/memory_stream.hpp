#pragma once
// A byte_stream over bytes in memory, for the fuzz targets: reads hand out the given bytes in
// pieces of a chosen size and then end of stream; writes are counted and dropped. Deadlines do
// nothing (nothing here ever waits), so a session that loops without progress shows up as a
// fuzzer timeout instead of being cut off.
#include "proxy/byte_stream.hpp"

#include <string>

namespace s3fault::fuzz {

class memory_stream final : public proxy::byte_stream {
public:
  memory_stream(proxy::asio::io_context& context, std::string input, std::size_t piece_size)
      : input_(std::move(input)), piece_size_(piece_size == 0 ? 1 : piece_size), socket_(context) {}

  void expires_after(proxy::clock::duration) override {}
  void expires_never() override {}

  proxy::asio::awaitable<std::size_t> read_some(proxy::asio::mutable_buffer buffer,
                                                proxy::error_code& ec) override;
  proxy::asio::awaitable<void> write_all(proxy::asio::const_buffer buffer,
                                         proxy::error_code& ec) override;
  proxy::asio::awaitable<void> shutdown_send() override {
    send_shut_ = true;
    co_return;
  }
  void close() override { closed_ = true; }

  proxy::tcp::socket& socket() override { return socket_; } // never opened
  bool is_tls() const override { return false; }
  bool is_open() override { return !closed_; }
  bool splice_capable() const override { return false; }

  std::size_t bytes_written() const { return written_; }

private:
  std::string input_;
  std::size_t read_at_ = 0;
  std::size_t piece_size_;
  std::size_t written_ = 0;
  bool closed_ = false;
  bool send_shut_ = false;
  proxy::tcp::socket socket_;
};

} // namespace s3fault::fuzz
