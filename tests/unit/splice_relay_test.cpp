// The zero-copy relay on real loopback sockets: every byte arrives in order, a sender that
// closes early is a read error, a receiver that is gone is a write error (not a SIGPIPE), a
// silent sender runs into the timeout, and a pipe left with bytes in it is never reused.
#include "proxy/splice_relay.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <random>
#include <thread>
#include <vector>

using namespace s3fault::proxy;

namespace {

/// Two connected loopback sockets.
struct socket_pair {
  tcp::socket near;
  tcp::socket far;
};

socket_pair connect_pair(asio::io_context& io) {
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  tcp::socket near(io);
  near.connect(acceptor.local_endpoint());
  tcp::socket far = acceptor.accept();
  return {std::move(near), std::move(far)};
}

std::string random_bytes(std::size_t size) {
  std::mt19937_64 engine(7);
  std::string bytes(size, '\0');
  for (auto& b : bytes) {
    b = static_cast<char>(engine());
  }
  return bytes;
}

/// Runs splice_body from `from` to `to` on `io` until it returns.
splice_outcome run_splice(asio::io_context& io, tcp::socket& from, tcp::socket& to,
                          std::uint64_t length, splice_pipe& pipe,
                          clock::duration timeout = std::chrono::seconds(10)) {
  splice_outcome result;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        result = co_await splice_body(from, to, length, pipe, timeout, std::nullopt);
      },
      [](std::exception_ptr e) {
        if (e) {
          std::rethrow_exception(e);
        }
      });
  io.run();
  io.restart();
  return result;
}

class SpliceRelay : public ::testing::Test {
protected:
  void SetUp() override { std::signal(SIGPIPE, SIG_IGN); } // as proxy_server does
  asio::io_context io;
};

TEST_F(SpliceRelay, MovesEveryByteInOrder) {
  auto in = connect_pair(io);  // sender -> in.far (spliced from)
  auto out = connect_pair(io); // out.near (spliced to) -> receiver
  const std::string body = random_bytes(7 * 1024 * 1024 + 13);
  std::thread sender([&] { asio::write(in.near, asio::buffer(body)); });
  std::string received(body.size(), '\0');
  std::thread receiver([&] { asio::read(out.far, asio::buffer(received)); });
  auto pipe = splice_pipe::open();
  ASSERT_TRUE(pipe);
  const auto result = run_splice(io, in.far, out.near, body.size(), *pipe);
  sender.join();
  receiver.join();
  EXPECT_FALSE(result.read_error) << result.read_error.message();
  EXPECT_FALSE(result.write_error) << result.write_error.message();
  EXPECT_EQ(result.taken, body.size());
  EXPECT_EQ(result.bytes, body.size());
  EXPECT_EQ(pipe->held, 0u);
  EXPECT_TRUE(received == body) << "the bytes differ";
}

TEST_F(SpliceRelay, ASenderThatClosesEarlyIsAReadError) {
  auto in = connect_pair(io);
  auto out = connect_pair(io);
  const std::string half = random_bytes(300 * 1024);
  std::thread sender([&] {
    asio::write(in.near, asio::buffer(half));
    in.near.close();
  });
  std::string received;
  std::thread receiver([&] {
    boost::system::error_code ec;
    char chunk[65536];
    for (;;) {
      const auto n = out.far.read_some(asio::buffer(chunk), ec);
      if (ec) {
        break;
      }
      received.append(chunk, n);
    }
  });
  auto pipe = splice_pipe::open();
  const auto result = run_splice(io, in.far, out.near, 2 * half.size(), *pipe);
  sender.join();
  out.near.close(); // let the receiver see the end
  receiver.join();
  EXPECT_EQ(result.read_error, asio::error::eof);
  EXPECT_EQ(result.bytes, half.size());
  EXPECT_TRUE(received == half);
}

TEST_F(SpliceRelay, AReceiverThatIsGoneIsAWriteError) {
  auto in = connect_pair(io);
  auto out = connect_pair(io);
  out.far.close();
  const std::string body = random_bytes(4 * 1024 * 1024);
  std::thread sender([&] {
    boost::system::error_code ec;
    asio::write(in.near, asio::buffer(body), ec);
  });
  auto pipe = splice_pipe::open();
  const auto result = run_splice(io, in.far, out.near, body.size(), *pipe);
  in.far.close(); // unblocks the sender
  sender.join();
  EXPECT_TRUE(result.write_error);
  EXPECT_LT(result.bytes, body.size());
}

TEST_F(SpliceRelay, ASilentSenderRunsIntoTheTimeout) {
  auto in = connect_pair(io);
  auto out = connect_pair(io);
  auto pipe = splice_pipe::open();
  const auto started = clock::now();
  const auto result =
      run_splice(io, in.far, out.near, 1024 * 1024, *pipe, std::chrono::milliseconds(200));
  EXPECT_EQ(result.read_error, asio::error::timed_out);
  EXPECT_GE(clock::now() - started, std::chrono::milliseconds(150));
  EXPECT_EQ(result.bytes, 0u);
}

std::size_t open_descriptors() {
  return static_cast<std::size_t>(std::distance(
      std::filesystem::directory_iterator("/proc/self/fd"), std::filesystem::directory_iterator{}));
}

TEST_F(SpliceRelay, ThePoolKeepsABoundedNumberOfPipes) {
  const std::size_t before = open_descriptors();
  {
    splice_pipe_pool pool;
    std::vector<std::unique_ptr<splice_pipe>> taken;
    for (std::size_t i = 0; i < 3 * splice_pipe_pool::max_idle; ++i) {
      taken.push_back(pool.take());
    }
    for (auto& pipe : taken) {
      pool.give_back(std::move(pipe));
    }
    // Two descriptors per pipe kept; the rest were closed.
    EXPECT_EQ(open_descriptors() - before, 2 * splice_pipe_pool::max_idle);
  }
  EXPECT_EQ(open_descriptors(), before);
}

TEST_F(SpliceRelay, APipeWithBytesInItIsNotReused) {
  splice_pipe_pool pool;
  auto clean = pool.take();
  ASSERT_TRUE(clean);
  auto* clean_address = clean.get();
  pool.give_back(std::move(clean));
  auto again = pool.take();
  EXPECT_EQ(again.get(), clean_address); // an empty pipe is kept
  again->held = 10;                      // as after an error mid-body
  pool.give_back(std::move(again));
  auto fresh = pool.take();
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->held, 0u);
}

} // namespace
