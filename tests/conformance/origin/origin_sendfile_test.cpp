// Bodies of a data directory go out with sendfile(2): every byte of whole objects, ranges
// across part files and single parts, to a reader that stalls (the socket fills and the origin
// waits) and past a reader that leaves mid-body (the origin keeps serving; sendfile into a
// closed socket raises SIGPIPE, which must not end the process).
#include "origin_test_support.hpp"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <random>
#include <thread>

namespace s3fault::origin {
namespace {

using testing::running_origin;

constexpr std::size_t mib_bytes = 1024 * 1024;

std::string seeded_bytes(std::size_t size, unsigned seed) {
  std::mt19937_64 engine(seed);
  std::string out(size, '\0');
  for (auto& c : out) {
    c = static_cast<char>(engine());
  }
  return out;
}

std::string text_between(const std::string& text, const std::string& open,
                         const std::string& close) {
  const auto from = text.find(open) + open.size();
  return text.substr(from, text.find(close, from) - from);
}

/// A connected blocking socket with a small receive buffer, so that the origin's side fills.
int connect_small_window(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  const int window = 16 * 1024;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &window, sizeof window);
  const timeval patience{20, 0}; // a test that goes wrong fails instead of hanging
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  return fd;
}

void send_all(int fd, const std::string& bytes) {
  ASSERT_EQ(::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(bytes.size()));
}

/// Reads until `want` body bytes followed the head (or the peer closed).
std::string read_body(int fd, std::size_t want,
                      std::chrono::milliseconds pause = std::chrono::milliseconds(0)) {
  std::string all;
  std::size_t body_start = std::string::npos;
  char buffer[65536];
  for (int reads = 0;; ++reads) {
    if (body_start == std::string::npos &&
        (body_start = all.find("\r\n\r\n")) != std::string::npos) {
      body_start += 4;
    }
    if (body_start != std::string::npos && all.size() - body_start >= want) {
      break;
    }
    if (reads < 20) {
      std::this_thread::sleep_for(pause); // a reader that stalls: the origin's socket fills
    }
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) {
      break;
    }
    all.append(buffer, static_cast<std::size_t>(got));
  }
  return body_start == std::string::npos ? std::string() : all.substr(body_start);
}

class OriginSendfile : public ::testing::Test {
protected:
  static origin_config disk_config() {
    origin_config config;
    config.data_dir = (std::filesystem::temp_directory_path() /
                       ("s3fault-sendfile-test-" + std::to_string(::getpid())))
                          .string();
    return config;
  }
  void SetUp() override { ASSERT_EQ(origin_.send({"PUT", "/bucket"}).status, 200u); }
  void TearDown() override { std::filesystem::remove_all(config_.data_dir); }

  /// A signed GET of one object on a connection of its own, with a small receive window.
  int open_get(const std::string& target) {
    const int fd = connect_small_window(origin_.port());
    send_all(fd, testing::serialize(origin_.sign({"GET", target}), "", false));
    return fd;
  }

  /// 8 + 8 + 3 MiB in three parts: three files in the data directory.
  void upload_three_parts(const std::string& key) {
    const auto created = origin_.send({"POST", "/bucket/" + key + "?uploads"});
    const std::string id = text_between(created.body, "<UploadId>", "</UploadId>");
    std::string complete = "<CompleteMultipartUpload>";
    for (unsigned number = 1; number <= 3; ++number) {
      const std::size_t offset = (number - 1) * 8 * mib_bytes;
      const auto part = origin_.send(
          {"PUT",
           "/bucket/" + key + "?partNumber=" + std::to_string(number) + "&uploadId=" + id,
           {},
           data_.substr(offset, 8 * mib_bytes)});
      ASSERT_EQ(part.status, 200u) << part.body;
      complete += "<Part><PartNumber>" + std::to_string(number) + "</PartNumber><ETag>" +
                  part.header("ETag").value_or("") + "</ETag></Part>";
    }
    complete += "</CompleteMultipartUpload>";
    ASSERT_EQ(origin_.send({"POST", "/bucket/" + key + "?uploadId=" + id, {}, complete}).status,
              200u);
  }

  origin_config config_ = disk_config();
  running_origin origin_{config_};
  const std::string data_ = seeded_bytes(19 * mib_bytes, 7);
};

TEST_F(OriginSendfile, WholeObjectsRangesAcrossPartFilesAndSinglePartsComeBackExact) {
  upload_three_parts("parts.bin");
  ASSERT_TRUE(origin_.send({"GET", "/bucket/parts.bin"}).body == data_);
  const std::size_t boundary = 8 * mib_bytes;
  const auto across = origin_.send({"GET",
                                    "/bucket/parts.bin",
                                    {{"Range", "bytes=" + std::to_string(boundary - 5) + "-" +
                                                   std::to_string(2 * boundary + 4)}}});
  EXPECT_EQ(across.status, 206u);
  EXPECT_TRUE(across.body == data_.substr(boundary - 5, boundary + 10));
  EXPECT_TRUE(origin_.send({"GET", "/bucket/parts.bin?partNumber=2"}).body ==
              data_.substr(boundary, boundary));
  EXPECT_TRUE(origin_.send({"GET", "/bucket/parts.bin", {{"Range", "bytes=-3"}}}).body ==
              data_.substr(data_.size() - 3));
}

TEST_F(OriginSendfile, AReaderThatStallsGetsEveryByte) {
  ASSERT_EQ(origin_.send({"PUT", "/bucket/one.bin", {}, data_}).status, 200u);
  const int fd = open_get("/bucket/one.bin");
  const std::string body = read_body(fd, data_.size(), std::chrono::milliseconds(20));
  ::close(fd);
  EXPECT_EQ(body.size(), data_.size());
  EXPECT_TRUE(body == data_);
}

TEST_F(OriginSendfile, AReaderThatLeavesMidBodyLeavesTheOriginServing) {
  ASSERT_EQ(origin_.send({"PUT", "/bucket/one.bin", {}, data_}).status, 200u);
  for (int i = 0; i < 20; ++i) {
    const int fd = open_get("/bucket/one.bin");
    EXPECT_FALSE(read_body(fd, 1024 << (i % 10)).empty());
    if (i % 2 == 1) {
      const linger reset{1, 0};
      ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    }
    ::close(fd); // the origin's next sendfile meets a closed or reset connection
  }
  EXPECT_TRUE(origin_.send({"GET", "/bucket/one.bin"}).body == data_);
}

} // namespace
} // namespace s3fault::origin
