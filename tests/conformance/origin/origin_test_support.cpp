#include "origin_test_support.hpp"

#include "conformance/s3/hashing.hpp"

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdexcept>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

namespace s3fault::origin::testing {
namespace {

class socket_fd {
public:
  explicit socket_fd(std::uint16_t port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      throw std::runtime_error("cannot connect to the origin");
    }
    timeval timeout{30, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  }
  ~socket_fd() { ::close(fd_); }
  void write_all(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) {
        throw std::runtime_error("write to the origin failed");
      }
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  /// Appends what arrives to `into`; false at EOF or error.
  bool read_some(std::string& into) {
    char buffer[64 * 1024];
    const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n <= 0) {
      return false;
    }
    into.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

private:
  int fd_;
};

raw_response read_response(socket_fd& socket, bool head_request) {
  std::string data;
  std::size_t end = std::string::npos;
  while ((end = data.find("\r\n\r\n")) == std::string::npos) {
    if (!socket.read_some(data)) {
      throw std::runtime_error("connection closed before a response head: '" + data + "'");
    }
  }
  raw_response response;
  const std::string head = data.substr(0, end);
  std::string rest = data.substr(end + 4);
  std::size_t line_end = head.find("\r\n");
  const std::string status_line = head.substr(0, line_end);
  response.status = static_cast<unsigned>(std::stoul(status_line.substr(9, 3)));
  while (line_end != std::string::npos) {
    const auto start = line_end + 2;
    line_end = head.find("\r\n", start);
    const std::string line = head.substr(start, line_end - start);
    const auto colon = line.find(':');
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    response.headers.emplace_back(line.substr(0, colon), value);
  }
  if (response.status == 100) {
    throw std::runtime_error("unexpected 100 Continue");
  }
  const auto length = response.header("Content-Length");
  if (head_request || response.status == 204 || response.status == 304 || !length) {
    return response;
  }
  const std::size_t want = std::stoull(*length);
  while (rest.size() < want) {
    if (!socket.read_some(rest)) {
      throw std::runtime_error("connection closed mid-body");
    }
  }
  response.body = rest.substr(0, want);
  return response;
}

} // namespace

std::optional<std::string> raw_response::header(std::string_view name) const {
  for (const auto& [field, value] : headers) {
    if (field.size() == name.size() && strncasecmp(field.data(), name.data(), name.size()) == 0) {
      return value;
    }
  }
  return std::nullopt;
}

std::string raw_response::error_code() const {
  const auto from = body.find("<Code>");
  const auto to = body.find("</Code>");
  if (from == std::string::npos || to == std::string::npos) {
    return "";
  }
  return body.substr(from + 6, to - from - 6);
}

running_origin::running_origin(origin_config config) {
  config.listen_host = "127.0.0.1";
  config.listen_port = 0;
  if (config.threads == 0) {
    config.threads = 2;
  }
  if (!config.settings.credentials) {
    config.settings.credentials = test_credentials;
  }
  auto logger = std::make_shared<spdlog::logger>("origin-test",
                                                 std::make_shared<spdlog::sinks::null_sink_mt>());
  server_ = std::make_unique<origin_server>(config, logger);
  // Listening once bind() returns: connections queue until run() accepts them.
  port_ = server_->bind();
  thread_ = std::thread([this] { server_->run(); });
}

running_origin::~running_origin() {
  server_->request_stop();
  thread_.join();
}

s3::http_request_view running_origin::sign(raw_request request) const {
  s3::http_request_view view{request.method, request.target, request.headers};
  view.headers.insert(view.headers.begin(), {"Host", host()});
  const std::string hash =
      request.payload_hash.empty() ? s3::sha256_hex(request.body) : request.payload_hash;
  s3::sign_request(view, test_credentials, "us-east-1", hash, std::chrono::system_clock::now());
  return view;
}

std::string serialize(const s3::http_request_view& request, const std::string& body,
                      bool add_content_length) {
  std::string out = request.method + " " + request.target + " HTTP/1.1\r\n";
  for (const auto& [name, value] : request.headers) {
    out += name + ": " + value + "\r\n";
  }
  if (add_content_length) {
    out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  }
  out += "\r\n";
  return out + body;
}

raw_response running_origin::send(raw_request request) const {
  const std::string body = request.body;
  const bool head = request.method == "HEAD";
  return send_raw(serialize(sign(std::move(request)), body), head);
}

raw_response running_origin::send_unsigned(const raw_request& request) const {
  s3::http_request_view view{request.method, request.target, request.headers};
  view.headers.insert(view.headers.begin(), {"Host", host()});
  return send_raw(serialize(view, request.body), request.method == "HEAD");
}

raw_response running_origin::send_raw(const std::string& bytes, bool head_request) const {
  socket_fd socket(port_);
  socket.write_all(bytes);
  return read_response(socket, head_request);
}

s3::signing_context context_of(const s3::http_request_view& signed_request) {
  const auto verified = s3::verify_request(
      signed_request,
      [](std::string_view) -> std::optional<std::string> { return test_credentials.secret_key; },
      std::chrono::system_clock::now());
  if (!verified.context) {
    throw std::runtime_error("the test's own request does not verify: " +
                             (verified.error ? verified.error->message : std::string("?")));
  }
  return *verified.context;
}

} // namespace s3fault::origin::testing
