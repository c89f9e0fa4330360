#pragma once
// TLS contexts for both sides of the proxy: the listener's certificate (from files, or a
// self-signed one made in memory for localhost) and the verification rules for https stores.
#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <string>

namespace s3fault::proxy {

/// Server context from PEM files. Throws std::runtime_error naming the file on failure.
std::unique_ptr<boost::asio::ssl::context> make_server_tls_from_files(const std::string& cert_file,
                                                                      const std::string& key_file);

/// Server context with a new self-signed P-256 certificate for localhost, 127.0.0.1 and ::1,
/// valid for 30 days. The key never touches the disk; the certificate is written to `cert_out`
/// (PEM) when it is given, for clients' CA bundles. Throws std::runtime_error naming the file.
std::unique_ptr<boost::asio::ssl::context>
make_server_tls_self_signed(const std::string& cert_out = {});

/// Client context for https upstreams: system CAs, or only `ca_file` when given; `verify`
/// false accepts any certificate (for self-signed test stores).
std::unique_ptr<boost::asio::ssl::context> make_upstream_tls(const std::string& ca_file,
                                                             bool verify);

} // namespace s3fault::proxy
