#include "conformance/client/fiber_loop.hpp"

#include <boost/beast/core/error.hpp>
#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <deque>
#include <exception>
#include <map>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

// AddressSanitizer keeps its own idea of the current stack; it must be told about each switch,
// or it takes a fiber's frames for overflows.
#if defined(__SANITIZE_ADDRESS__)
#define S3FAULT_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define S3FAULT_FIBER_ASAN 1
#endif
#endif
#ifdef S3FAULT_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace s3fault::client {
namespace ctx = boost::context;
using steady = std::chrono::steady_clock;

namespace {

struct stack_bounds {
  const void* bottom = nullptr;
  std::size_t size = 0;
};

/// Before a switch to the stack `to`; `save` keeps the leaving stack's fake frames (nullptr:
/// the leaving fiber has ended).
void switching_to([[maybe_unused]] void** save, [[maybe_unused]] const stack_bounds& to) {
#ifdef S3FAULT_FIBER_ASAN
  __sanitizer_start_switch_fiber(save, to.bottom, to.size);
#endif
}

/// After a switch; `from`, when given, receives the bounds of the stack that was left.
void switched([[maybe_unused]] void* saved, [[maybe_unused]] stack_bounds* from) {
#ifdef S3FAULT_FIBER_ASAN
  __sanitizer_finish_switch_fiber(saved, from != nullptr ? &from->bottom : nullptr,
                                  from != nullptr ? &from->size : nullptr);
#endif
}

/// Clears what AddressSanitizer marked on a stack's memory. A fiber's last frames never return
/// (its final switch leaves them), so the marks of their ended scopes stay in the shadow; when
/// a later fiber's stack is mapped at the same address, its fresh frames would be taken for
/// uses after scope.
void forget_stack_marks([[maybe_unused]] const stack_bounds& stack) {
#ifdef S3FAULT_FIBER_ASAN
  __asan_unpoison_memory_region(stack.bottom, stack.size);
#endif
}

/// A guarded stack that tells where it is (for the sanitizer's switch notes).
class recorded_stack {
public:
  recorded_stack(std::size_t size, stack_bounds& bounds) : inner_(size), bounds_(&bounds) {}
  ctx::stack_context allocate() {
    auto stack = inner_.allocate();
    *bounds_ = {static_cast<char*>(stack.sp) - stack.size, stack.size};
    forget_stack_marks(*bounds_);
    return stack;
  }
  void deallocate(ctx::stack_context& stack) noexcept {
    forget_stack_marks({static_cast<char*>(stack.sp) - stack.size, stack.size});
    inner_.deallocate(stack);
  }

private:
  ctx::protected_fixedsize_stack inner_;
  stack_bounds* bounds_;
};

struct fiber_task;
using timer_map = std::multimap<steady::time_point, fiber_task*>;

struct fiber_task {
  std::function<void()> body;
  ctx::fiber self; // the task's context while it is suspended or not started
  ctx::fiber loop; // the loop's context while the task runs
  stack_bounds stack;
  void* fake_stack = nullptr;
  std::optional<timer_map::iterator> timer;
  timer_map::node_type spare_timer; // reused, so that arming a deadline does not allocate
  int waiting_fd = -1;
  bool timed_out = false;
  bool finished = false;
};

/// Who waits on one descriptor. The descriptor is registered once, edge-triggered, for both
/// directions; an edge nobody waits for is dropped, which is safe because a fiber waits only
/// after its socket answered EAGAIN, and new bytes or new space make a new edge.
struct fd_watch {
  bool registered = false;
  fiber_task* reader = nullptr;
  fiber_task* writer = nullptr;
};

} // namespace

struct fiber_loop::state {
  std::size_t stack_bytes;
  int epoll_fd = -1;
  std::vector<std::unique_ptr<fiber_task>> tasks;
  std::deque<fiber_task*> runnable;
  timer_map timers;
  std::vector<fd_watch> watches; // by descriptor number
  fiber_task* current = nullptr;
  std::size_t live = 0;
  stack_bounds loop_stack;
  void* loop_fake_stack = nullptr;
  std::exception_ptr first_error;

  ctx::fiber enter(fiber_task* task, ctx::fiber&& loop) {
    switched(nullptr, &loop_stack);
    task->loop = std::move(loop);
    try {
      task->body();
    } catch (const ctx::detail::forced_unwind&) {
      throw; // the loop is being destroyed with this fiber suspended: Boost unwinds it
    } catch (...) {
      if (!first_error) {
        first_error = std::current_exception();
      }
    }
    task->finished = true;
    switching_to(nullptr, loop_stack);
    return std::move(task->loop);
  }

  void resume(fiber_task* task) {
    current = task;
    switching_to(&loop_fake_stack, task->stack);
    task->self = std::move(task->self).resume();
    switched(loop_fake_stack, nullptr);
    current = nullptr;
    if (task->finished) {
      --live;
    }
  }

  /// From inside a fiber: back to the loop until something wakes this fiber.
  void suspend(fiber_task* task) {
    switching_to(&task->fake_stack, loop_stack);
    task->loop = std::move(task->loop).resume();
    switched(task->fake_stack, &loop_stack);
  }

  void arm(fiber_task* task, steady::time_point deadline) {
    if (task->spare_timer.empty()) {
      task->timer = timers.emplace(deadline, task);
    } else {
      task->spare_timer.key() = deadline;
      task->timer = timers.insert(std::move(task->spare_timer));
    }
  }

  void disarm(fiber_task* task) {
    if (task->timer) {
      task->spare_timer = timers.extract(*task->timer);
      task->timer.reset();
    }
  }

  void wake(fiber_task* task, bool timed_out) {
    if (task->waiting_fd >= 0) {
      auto& watch = watches[static_cast<std::size_t>(task->waiting_fd)];
      if (watch.reader == task) {
        watch.reader = nullptr;
      }
      if (watch.writer == task) {
        watch.writer = nullptr;
      }
      task->waiting_fd = -1;
    }
    disarm(task);
    task->timed_out = timed_out;
    runnable.push_back(task);
  }

  fd_watch& watch_of(int fd) {
    const auto index = static_cast<std::size_t>(fd);
    if (watches.size() <= index) {
      watches.resize(index + 1);
    }
    return watches[index];
  }

  boost::system::error_code watch(int fd) {
    auto& watch = watch_of(fd);
    if (watch.registered) {
      return {};
    }
    epoll_event interest{};
    interest.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
    interest.data.fd = fd;
    if (::epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &interest) != 0 && errno != EEXIST) {
      return {errno, boost::system::system_category()};
    }
    watch.registered = true;
    return {};
  }

  /// One epoll_wait, bounded by the nearest deadline; wakes the fibers whose descriptors are
  /// ready and those whose deadline has passed.
  void wait_for_events() {
    int timeout_ms = -1;
    if (!timers.empty()) {
      const auto left =
          std::chrono::ceil<std::chrono::milliseconds>(timers.begin()->first - steady::now());
      timeout_ms = static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, INT_MAX));
    }
    std::array<epoll_event, 256> events;
    const int n = ::epoll_wait(epoll_fd, events.data(), events.size(), timeout_ms);
    if (n < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "epoll_wait");
    }
    for (int i = 0; i < n; ++i) {
      const auto fd = static_cast<std::size_t>(events[i].data.fd);
      if (fd >= watches.size()) {
        continue;
      }
      const auto flags = events[i].events;
      auto& watch = watches[fd];
      if ((flags & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP)) != 0 && watch.reader != nullptr) {
        wake(watch.reader, false);
      }
      if ((flags & (EPOLLOUT | EPOLLERR | EPOLLHUP)) != 0 && watch.writer != nullptr) {
        wake(watch.writer, false);
      }
    }
    const auto now = steady::now();
    while (!timers.empty() && timers.begin()->first <= now) {
      wake(timers.begin()->second, true);
    }
  }
};

fiber_loop::fiber_loop(std::size_t stack_bytes) : state_(std::make_unique<state>()) {
  state_->stack_bytes = stack_bytes;
  state_->epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
  if (state_->epoll_fd < 0) {
    throw std::system_error(errno, std::generic_category(), "epoll_create1");
  }
}

fiber_loop::~fiber_loop() {
  state_->tasks.clear(); // unfinished fibers (only after run() threw) are unwound here
  ::close(state_->epoll_fd);
}

void fiber_loop::spawn(std::function<void()> body) {
  auto task = std::make_unique<fiber_task>();
  task->body = std::move(body);
  fiber_task* raw = task.get();
  auto* s = state_.get();
  raw->self = ctx::fiber(std::allocator_arg, recorded_stack(s->stack_bytes, raw->stack),
                         [s, raw](ctx::fiber&& loop) { return s->enter(raw, std::move(loop)); });
  s->tasks.push_back(std::move(task));
  s->runnable.push_back(raw);
  ++s->live;
}

void fiber_loop::run() {
  auto& s = *state_;
  socket_waiter* previous = set_thread_socket_waiter(this);
  try {
    while (s.live > 0) {
      while (!s.runnable.empty()) {
        fiber_task* next = s.runnable.front();
        s.runnable.pop_front();
        s.resume(next);
      }
      if (s.live > 0) {
        s.wait_for_events();
      }
    }
  } catch (...) {
    set_thread_socket_waiter(previous);
    throw;
  }
  set_thread_socket_waiter(previous);
  s.tasks.clear();
  if (s.first_error) {
    std::rethrow_exception(std::exchange(s.first_error, nullptr));
  }
}

boost::system::error_code fiber_loop::wait(int fd, short events, time_point deadline) {
  auto& s = *state_;
  fiber_task* task = s.current;
  if (task == nullptr) {
    return poll_socket(fd, events, deadline); // not inside one of this loop's fibers
  }
  if (deadline <= steady::now()) {
    return boost::beast::error::timeout;
  }
  if (auto ec = s.watch(fd)) {
    return ec;
  }
  auto& watch = s.watches[static_cast<std::size_t>(fd)];
  if ((events & POLLIN) != 0) {
    watch.reader = task;
  }
  if ((events & POLLOUT) != 0) {
    watch.writer = task;
  }
  task->waiting_fd = fd;
  s.arm(task, deadline);
  s.suspend(task);
  if (task->timed_out) {
    return boost::beast::error::timeout;
  }
  return {};
}

void fiber_loop::forget(int fd) {
  auto& s = *state_;
  if (fd < 0 || static_cast<std::size_t>(fd) >= s.watches.size()) {
    return;
  }
  auto& watch = s.watches[static_cast<std::size_t>(fd)];
  if (watch.registered) {
    ::epoll_ctl(s.epoll_fd, EPOLL_CTL_DEL, fd, nullptr);
  }
  watch = fd_watch{};
}

void fiber_loop::pause(std::chrono::steady_clock::duration duration) {
  auto& s = *state_;
  fiber_task* task = s.current;
  if (task == nullptr) {
    std::this_thread::sleep_for(duration);
    return;
  }
  s.arm(task, steady::now() + duration);
  s.suspend(task);
}

} // namespace s3fault::client
