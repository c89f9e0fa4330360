#include "proxy/tls_setup.hpp"

#include "runtime/atomic_file.hpp"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <stdexcept>

namespace s3fault::proxy {
namespace ssl = boost::asio::ssl;
namespace {

std::string openssl_error() {
  char text[256] = "unknown OpenSSL error";
  if (unsigned long code = ERR_get_error()) {
    ERR_error_string_n(code, text, sizeof text);
  }
  return text;
}

std::unique_ptr<ssl::context> new_server_context() {
  auto context = std::make_unique<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                       ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  return context;
}

struct pkey_deleter {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct x509_deleter {
  void operator()(X509* cert) const { X509_free(cert); }
};

/// Writes `cert` as PEM to `path` whole or not at all, so that a client waiting for the file
/// never reads half a certificate.
void write_certificate(X509* cert, const std::string& path) {
  std::unique_ptr<BIO, decltype(&BIO_free)> memory(BIO_new(BIO_s_mem()), &BIO_free);
  char* pem = nullptr;
  long pem_size = 0;
  if (!memory || PEM_write_bio_X509(memory.get(), cert) != 1 ||
      (pem_size = BIO_get_mem_data(memory.get(), &pem)) <= 0) {
    throw std::runtime_error("--tls-self-signed-cert " + path + ": cannot encode the certificate");
  }
  std::string error;
  if (!runtime::write_file_atomically(path, std::string(pem, static_cast<std::size_t>(pem_size)),
                                      error)) {
    throw std::runtime_error("--tls-self-signed-cert " + error);
  }
}

} // namespace

std::unique_ptr<ssl::context> make_server_tls_from_files(const std::string& cert_file,
                                                         const std::string& key_file) {
  auto context = new_server_context();
  boost::system::error_code ec;
  context->use_certificate_chain_file(cert_file, ec);
  if (ec) {
    throw std::runtime_error("--tls-cert " + cert_file + ": " + ec.message());
  }
  context->use_private_key_file(key_file, ssl::context::pem, ec);
  if (ec) {
    throw std::runtime_error("--tls-key " + key_file + ": " + ec.message());
  }
  if (SSL_CTX_check_private_key(context->native_handle()) != 1) {
    throw std::runtime_error("--tls-key " + key_file + " does not match --tls-cert " + cert_file);
  }
  return context;
}

std::unique_ptr<ssl::context> make_server_tls_self_signed(const std::string& cert_out) {
  std::unique_ptr<EVP_PKEY, pkey_deleter> key(EVP_EC_gen("P-256"));
  if (!key) {
    throw std::runtime_error("cannot generate a TLS key: " + openssl_error());
  }
  std::unique_ptr<X509, x509_deleter> cert(X509_new());
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), static_cast<long>(time(nullptr)));
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 30L * 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert.get(), cert.get(), nullptr, nullptr, 0);
  X509_EXTENSION* san =
      X509V3_EXT_conf_nid(nullptr, &v3, NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1");
  if (!san || !X509_add_ext(cert.get(), san, -1)) {
    X509_EXTENSION_free(san);
    throw std::runtime_error("cannot build the self-signed certificate: " + openssl_error());
  }
  X509_EXTENSION_free(san);
  if (!X509_sign(cert.get(), key.get(), EVP_sha256())) {
    throw std::runtime_error("cannot sign the self-signed certificate: " + openssl_error());
  }
  auto context = new_server_context();
  if (SSL_CTX_use_certificate(context->native_handle(), cert.get()) != 1 ||
      SSL_CTX_use_PrivateKey(context->native_handle(), key.get()) != 1) {
    throw std::runtime_error("cannot use the self-signed certificate: " + openssl_error());
  }
  if (!cert_out.empty()) {
    write_certificate(cert.get(), cert_out);
  }
  return context;
}

std::unique_ptr<ssl::context> make_upstream_tls(const std::string& ca_file, bool verify) {
  auto context = std::make_unique<ssl::context>(ssl::context::tls_client);
  boost::system::error_code ec;
  if (!ca_file.empty()) {
    context->load_verify_file(ca_file, ec);
    if (ec) {
      throw std::runtime_error("--upstream-ca " + ca_file + ": " + ec.message());
    }
  } else {
    context->set_default_verify_paths(ec);
    if (ec) {
      throw std::runtime_error("cannot load the system CA certificates: " + ec.message());
    }
  }
  context->set_verify_mode(verify ? ssl::verify_peer : ssl::verify_none);
  return context;
}

} // namespace s3fault::proxy
