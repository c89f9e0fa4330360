// The fiber loop: clients on one thread overlap their waits, a wait ends at its deadline or when
// its socket is ready, a descriptor number reused after forget() is watched anew, and an
// exception in one fiber reaches run() after the others have ended. No timing thresholds: each
// test asserts on the order of events, which a loop that blocked its thread would change.
#include "conformance/client/fiber_loop.hpp"
#include "conformance/client/http_connection.hpp"
#include "tests/conformance/client/scripted_server.hpp"

#include <boost/beast/core/error.hpp>
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace s3fault::client {
namespace {

using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

/// A connected pair of non-blocking stream sockets, closed (and forgotten) at the end.
struct socket_pair {
  int a = -1;
  int b = -1;
  socket_pair() {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds) != 0) {
      throw std::runtime_error("socketpair failed");
    }
    a = fds[0];
    b = fds[1];
  }
  ~socket_pair() { close(); }
  socket_pair(const socket_pair&) = delete;
  socket_pair& operator=(const socket_pair&) = delete;
  void close() {
    for (int* fd : {&a, &b}) {
      if (*fd >= 0) {
        forget_socket(*fd);
        ::close(*fd);
        *fd = -1;
      }
    }
  }
};

void write_byte(int fd) {
  ASSERT_EQ(::write(fd, "x", 1), 1);
}

/// Deadlines far beyond what the test waits for: a timeout would be the loop's fault.
connection_options patient_options(const test::scripted_server& server) {
  auto options = test::options_for(server);
  options.timeouts.first_byte = 30s;
  options.timeouts.read_idle = 30s;
  return options;
}

TEST(FiberLoop, ClientsOnOneThreadOverlapTheirExchanges) {
  // Store A answers only once client B has had its answer. With the thread blocked in A's
  // wait, B would never run and A's store would give up after 10 s.
  std::promise<void> b_answered;
  auto b_done = b_answered.get_future().share();
  test::scripted_server store_a([b_done](test::peer& connection, int) {
    connection.read_request();
    const bool after_b = b_done.wait_for(10s) == std::future_status::ready;
    connection.send(test::http_response(200, "OK", after_b ? "after B" : "B never ran"));
  });
  test::scripted_server store_b([](test::peer& connection, int) {
    connection.read_request();
    connection.send(test::http_response(200, "OK", "B"));
  });
  response answer_a;
  response answer_b;
  std::vector<std::thread::id> threads;
  fiber_loop loop;
  loop.spawn([&] {
    threads.push_back(std::this_thread::get_id());
    http_connection connection(patient_options(store_a));
    answer_a = connection.exchange(test::get_request(store_a), {}, {});
  });
  loop.spawn([&] {
    threads.push_back(std::this_thread::get_id());
    http_connection connection(patient_options(store_b));
    answer_b = connection.exchange(test::get_request(store_b), {}, {});
    b_answered.set_value();
  });
  loop.run();
  ASSERT_TRUE(answer_b.ok()) << answer_b.describe();
  ASSERT_TRUE(answer_a.ok()) << answer_a.describe();
  EXPECT_EQ(answer_b.body, "B");
  EXPECT_EQ(answer_a.body, "after B");
  ASSERT_EQ(threads.size(), 2u);
  EXPECT_EQ(threads[0], std::this_thread::get_id());
  EXPECT_EQ(threads[1], std::this_thread::get_id());
}

TEST(FiberLoop, AWriteFromOneFiberWakesAnotherWaitingOnThePeerSocket) {
  socket_pair pair;
  std::vector<std::string> events;
  boost::system::error_code waited;
  fiber_loop loop;
  loop.spawn([&] {
    events.push_back("A waits");
    waited = wait_for_socket(pair.a, POLLIN, steady::now() + 30s);
    events.push_back("A woke");
  });
  loop.spawn([&] {
    events.push_back("B pauses");
    pause_for(1ms);
    events.push_back("B writes");
    write_byte(pair.b);
  });
  loop.run();
  EXPECT_FALSE(waited) << waited.message();
  EXPECT_EQ(events, (std::vector<std::string>{"A waits", "B pauses", "B writes", "A woke"}));
}

TEST(FiberLoop, AWaitEndsAtItsDeadlineWhileTheOthersGoOn) {
  socket_pair silent; // nothing is ever written to it
  std::vector<std::string> events;
  boost::system::error_code waited;
  steady::duration took{};
  fiber_loop loop;
  loop.spawn([&] {
    const auto started = steady::now();
    waited = wait_for_socket(silent.a, POLLIN, started + 200ms);
    took = steady::now() - started;
    events.push_back("A timed out");
  });
  loop.spawn([&] {
    for (int i = 0; i < 3; ++i) {
      pause_for(1ms);
    }
    events.push_back("B done");
  });
  loop.run();
  EXPECT_EQ(waited, boost::beast::error::timeout);
  EXPECT_GE(took, 200ms);
  EXPECT_EQ(events, (std::vector<std::string>{"B done", "A timed out"}));
}

TEST(FiberLoop, ADescriptorNumberReusedAfterForgetIsWatchedAnew) {
  // A closed descriptor leaves epoll; a new socket with the same number must be registered
  // again, or its wait would never see an edge.
  std::vector<boost::system::error_code> waits;
  int first_number = -1;
  int second_number = -1;
  std::vector<int> to_write; // the peer socket of each round, for the other fiber
  fiber_loop loop;
  loop.spawn([&] {
    for (int round = 0; round < 2; ++round) {
      socket_pair pair;
      (round == 0 ? first_number : second_number) = pair.a;
      to_write.push_back(pair.b);
      waits.push_back(wait_for_socket(pair.a, POLLIN, steady::now() + 5s));
    } // closed through forget_socket
  });
  loop.spawn([&] {
    for (std::size_t written = 0; written < 2;) {
      pause_for(1ms);
      if (to_write.size() > written) {
        write_byte(to_write[written++]);
      }
    }
  });
  loop.run();
  ASSERT_EQ(first_number, second_number) << "the test needs the number to come back";
  ASSERT_EQ(waits.size(), 2u);
  EXPECT_FALSE(waits[0]) << waits[0].message();
  EXPECT_FALSE(waits[1]) << "the reused number was not watched: " << waits[1].message();
}

TEST(FiberLoop, AnExceptionReachesRunAfterTheOtherFibersEnd) {
  bool other_finished = false;
  fiber_loop loop;
  loop.spawn([] {
    pause_for(1ms);
    throw std::runtime_error("worker failed");
  });
  loop.spawn([&] {
    for (int i = 0; i < 5; ++i) {
      pause_for(1ms);
    }
    other_finished = true;
  });
  try {
    loop.run();
    FAIL() << "run() returned normally";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "worker failed");
  }
  EXPECT_TRUE(other_finished);
}

TEST(FiberLoop, OutsideAFiberAWaitPollsTheSocket) {
  // The loop installs itself only while run() runs; before, a wait is an ordinary poll.
  fiber_loop loop;
  socket_pair pair;
  write_byte(pair.b);
  EXPECT_FALSE(wait_for_socket(pair.a, POLLIN, steady::now() + 5s));
  socket_pair silent;
  EXPECT_EQ(wait_for_socket(silent.a, POLLIN, steady::now() + 10ms), boost::beast::error::timeout);
}

} // namespace
} // namespace s3fault::client
