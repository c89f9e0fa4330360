#include "tests/conformance/client/scripted_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>

namespace s3fault::client::test {
namespace {

std::size_t content_length_of(std::string_view head) {
  // Case-insensitive search for the Content-Length field; tests send well-formed heads.
  std::string lower(head);
  for (auto& c : lower) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  const auto at = lower.find("\r\ncontent-length:");
  if (at == std::string::npos) {
    return 0;
  }
  return std::stoul(lower.substr(at + 17));
}

} // namespace

peer::peer(int fd, SSL* tls, scripted_server* owner) : fd_(fd), tls_(tls), owner_(owner) {}

peer::~peer() {
  if (tls_ != nullptr) {
    SSL_free(tls_);
  }
  ::close(fd_);
}

bool peer::read_some(std::chrono::milliseconds timeout) {
  if (tls_ == nullptr || SSL_pending(tls_) == 0) {
    pollfd item{fd_, POLLIN, 0};
    if (::poll(&item, 1, static_cast<int>(timeout.count())) <= 0) {
      return false;
    }
  }
  char chunk[16 * 1024];
  const ssize_t n =
      tls_ != nullptr ? SSL_read(tls_, chunk, sizeof chunk) : ::recv(fd_, chunk, sizeof chunk, 0);
  if (n <= 0) {
    return false;
  }
  pending_.append(chunk, static_cast<std::size_t>(n));
  return true;
}

std::string peer::read_request(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto remaining = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                 std::chrono::steady_clock::now());
  };
  std::size_t head_end;
  while ((head_end = pending_.find("\r\n\r\n")) == std::string::npos) {
    if (remaining().count() <= 0 || !read_some(remaining())) {
      return "";
    }
  }
  const std::size_t total = head_end + 4 + content_length_of(pending_.substr(0, head_end + 2));
  while (pending_.size() < total) {
    if (remaining().count() <= 0 || !read_some(remaining())) {
      return "";
    }
  }
  std::string request = pending_.substr(0, total);
  pending_.erase(0, total);
  {
    std::lock_guard lock(owner_->requests_mutex_);
    owner_->requests_.push_back(request);
  }
  return request;
}

std::string peer::read_some_bytes(std::chrono::milliseconds timeout) {
  if (pending_.empty() && !read_some(timeout)) {
    return "";
  }
  return std::exchange(pending_, std::string());
}

void peer::send(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = tls_ != nullptr
                          ? SSL_write(tls_, bytes.data(), static_cast<int>(bytes.size()))
                          : ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) {
      return;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

bool peer::wait_for_close(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return false;
    }
    if (!read_some(left)) {
      return std::chrono::steady_clock::now() < deadline;
    }
  }
}

std::string peer::server_name() const {
  if (tls_ == nullptr) {
    return "";
  }
  const char* name = SSL_get_servername(tls_, TLSEXT_NAMETYPE_host_name);
  return name != nullptr ? name : "";
}

scripted_server::scripted_server(handler on_connection, SSL_CTX* tls)
    : on_connection_(std::move(on_connection)), tls_(tls) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      ::listen(listen_fd_, 16) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error("scripted_server: cannot listen on 127.0.0.1");
  }
  port_ = ntohs(address.sin_port);
  thread_ = std::thread([this] { serve(); });
}

scripted_server::~scripted_server() {
  stopping_ = true;
  ::shutdown(listen_fd_, SHUT_RDWR);
  thread_.join();
  ::close(listen_fd_);
}

std::string scripted_server::url() const {
  return std::string(tls_ != nullptr ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_);
}

std::vector<std::string> scripted_server::requests() const {
  std::lock_guard lock(requests_mutex_);
  return requests_;
}

void scripted_server::serve() {
  while (!stopping_) {
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      return; // shut down
    }
    SSL* tls = nullptr;
    if (tls_ != nullptr) {
      tls = SSL_new(tls_);
      SSL_set_fd(tls, fd);
      if (SSL_accept(tls) != 1) {
        // A client that rejects the certificate ends here; the connection still counts.
        SSL_free(tls);
        ::close(fd);
        ++connections_;
        continue;
      }
    }
    {
      peer connection(fd, tls, this);
      const int index = connections_++;
      on_connection_(connection, index);
    }
    ++finished_;
  }
}

bool scripted_server::wait_finished(int count, std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (finished_.load() < count) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    std::this_thread::yield();
  }
  return true;
}

SSL_CTX* make_self_signed_context(const std::string& cert_pem_path) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* san =
      X509V3_EXT_conf_nid(nullptr, &v3, NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1");
  X509_add_ext(cert, san, -1);
  X509_EXTENSION_free(san);
  X509_EXTENSION* ca = X509V3_EXT_conf_nid(nullptr, &v3, NID_basic_constraints, "critical,CA:TRUE");
  X509_add_ext(cert, ca, -1);
  X509_EXTENSION_free(ca);
  X509_sign(cert, key, EVP_sha256());

  FILE* out = std::fopen(cert_pem_path.c_str(), "w");
  if (out == nullptr) {
    throw std::runtime_error("cannot write " + cert_pem_path);
  }
  PEM_write_X509(out, cert);
  std::fclose(out);

  SSL_CTX* context = SSL_CTX_new(TLS_server_method());
  SSL_CTX_use_certificate(context, cert);
  SSL_CTX_use_PrivateKey(context, key);
  X509_free(cert);
  EVP_PKEY_free(key);
  return context;
}

std::string http_response(int status, std::string_view reason, std::string_view body,
                          std::string_view extra_headers) {
  std::string text = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) + "\r\n";
  text += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  text += extra_headers;
  text += "\r\n";
  text += body;
  return text;
}

connection_options options_for(const scripted_server& server) {
  using namespace std::chrono_literals;
  connection_options options;
  options.target = endpoint::parse(server.url());
  options.timeouts.connect = 5s;
  options.timeouts.write = 5s;
  options.timeouts.first_byte = 5s;
  options.timeouts.read_idle = 5s;
  return options;
}

s3::http_request_view get_request(const scripted_server& server, std::string target) {
  return {"GET", std::move(target), {{"Host", "127.0.0.1:" + std::to_string(server.port())}}};
}

} // namespace s3fault::client::test
