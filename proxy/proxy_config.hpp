#pragma once
// Everything `s3fault proxy` is told on its command line, validated into plain values.
#include "faults/rule_store.hpp"
#include "metrics/traffic_metrics.hpp"
#include "proxy/exchange_gauge.hpp"
#include "proxy/exchange_inspector.hpp"
#include "proxy/exchange_log.hpp"
#include "proxy/request_edits.hpp"
#include "proxy/traffic_journal.hpp"
#include "text/endpoint.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace s3fault::proxy {

using namespace std::chrono_literals;

struct proxy_config {
  text::listen_address listen{"127.0.0.1", 8080};
  text::http_endpoint upstream;
  unsigned threads = 0; // 0: one per core

  // TLS on the listener: certificate files, or a self-signed certificate made at start-up.
  std::string tls_cert_file;
  std::string tls_key_file;
  bool tls_self_signed = false;
  std::string tls_self_signed_cert_out; // where the self-signed certificate goes; empty: nowhere
  bool allow_header_faults = false;     // x-s3fault-fault applies (header_fault.hpp)
  bool listener_tls() const { return tls_self_signed || !tls_cert_file.empty(); }
  // TLS to the store.
  std::string upstream_ca_file;
  bool upstream_insecure = false;

  // Deadlines. Each bounds one wait, so no peer can hold a connection forever.
  std::chrono::milliseconds connect_timeout = 10s;       // TCP + TLS connect to the store
  std::chrono::milliseconds client_idle_timeout = 60s;   // keep-alive wait for the next request
  std::chrono::milliseconds header_timeout = 30s;        // first byte of a head -> its end
  std::chrono::milliseconds upstream_timeout = 300s;     // request sent -> store's response head
  std::chrono::milliseconds io_timeout = 60s;            // any one body read or write
  std::chrono::milliseconds upstream_idle_timeout = 30s; // pooled connection left unused
  std::chrono::milliseconds drain_timeout = 30s;         // SIGTERM -> in-flight exchanges end

  std::uint32_t max_header_bytes = 64 * 1024;
  /// The Server field of answers the proxy makes itself (fault errors, gateway errors), as a
  /// store's would carry one; empty: none.
  std::string server_header = "AmazonS3";
  std::size_t max_idle_upstream_per_thread = 64;

  log_format format = log_format::text;

  /// The live fault rules; null or empty means pure pass-through (the fast path).
  std::shared_ptr<faults::rule_store> faults;
  /// Domains for recognising virtual-host style requests (BUCKET.DOMAIN) when classifying.
  std::vector<std::string> s3_domains;
  /// Signs requests that request actions edited (`resign`, or an edit of a signed part) with
  /// the store's keys; null: such edits are not sent (and their rules do not count).
  request_resigner resigner;

  /// Called once per exchange when it has ended (after its log line), on the worker thread that
  /// served it: the gate counts a reader's traffic with it. Must be quick and thread-safe.
  std::function<void(const exchange_record&)> on_exchange;
  /// Counts the exchanges in flight until each has been reported; null: not counted.
  std::shared_ptr<exchange_gauge> exchanges;
  /// Traffic measurements (GET /metrics, /stats, --report); null: nothing is measured.
  std::shared_ptr<metrics::traffic_metrics> metrics;
  /// The traffic journal (--journal); null: none is written.
  std::shared_ptr<traffic_journal> journal;
  /// The last exchanges for the dashboard (with --admin); null: none are kept.
  std::shared_ptr<exchange_inspector> inspector;

  /// Whether exchanges keep their request and response heads: only for the journal or the
  /// dashboard, which show them.
  bool keeps_heads() const { return journal != nullptr || inspector != nullptr; }
};

} // namespace s3fault::proxy
