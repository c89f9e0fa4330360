#include "tests/fuzz/memory_stream.hpp"

#include <algorithm>
#include <cstring>

namespace s3fault::fuzz {

proxy::asio::awaitable<std::size_t> memory_stream::read_some(proxy::asio::mutable_buffer buffer,
                                                             proxy::error_code& ec) {
  ec = {};
  if (closed_) {
    ec = proxy::asio::error::bad_descriptor;
    co_return 0;
  }
  if (buffer.size() == 0) {
    co_return 0;
  }
  if (read_at_ == input_.size()) {
    ec = proxy::asio::error::eof;
    co_return 0;
  }
  const std::size_t n = std::min({buffer.size(), piece_size_, input_.size() - read_at_});
  std::memcpy(buffer.data(), input_.data() + read_at_, n);
  read_at_ += n;
  co_return n;
}

proxy::asio::awaitable<void> memory_stream::write_all(proxy::asio::const_buffer buffer,
                                                      proxy::error_code& ec) {
  ec = {};
  if (closed_ || send_shut_) {
    ec = proxy::asio::error::broken_pipe;
    co_return;
  }
  written_ += buffer.size();
  co_return;
}

} // namespace s3fault::fuzz
