#pragma once
// What the reader tests share: an embedded origin with objects of known bytes (single PUT or
// multipart), an in-process proxy in front of it with fault rules, and a scratch directory for
// the readers' output files.
//
//   reader ──> faulty_proxy (127.0.0.1:0, rules) ──> embedded_origin (127.0.0.1:0)
//   test_store uploads straight to the origin, so fault rules never touch the set-up.
#include "conformance/client/s3_client.hpp"
#include "conformance/origin/embedded_origin.hpp"
#include "conformance/readers/readers.hpp"
#include "proxy/exchange_log.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace s3fault::proxy {
class proxy_server;
}

namespace s3fault::readers::testing {

constexpr std::uint64_t mib = 1024 * 1024;

/// `size` pseudo-random bytes, the same for the same seed.
std::string seeded_bytes(std::uint64_t size, std::uint32_t seed);

/// An embedded origin with bucket "data", and helpers to put objects into it.
class test_store {
public:
  test_store();

  std::string url() const { return origin_.url(); }
  /// Uploads `data` with one PUT; with `checksum` ("crc32", "sha256", ...) the PUT carries
  /// x-amz-checksum-<checksum> and the object keeps it.
  void put_single(const std::string& key, const std::string& data,
                  const std::string& checksum = "");
  /// The same as put_single, from any thread (its own client): to replace an object mid-read.
  void replace(const std::string& key, const std::string& data) const;
  /// Uploads `data` as a multipart upload with parts of the sizes given (they must add up). With
  /// `checksum`, every part carries x-amz-checksum-<checksum> and CompleteMultipartUpload names
  /// each part's: the object gets a COMPOSITE checksum "B64-N", each part keeps its own.
  void put_multipart(const std::string& key, const std::string& data,
                     const std::vector<std::uint64_t>& part_sizes,
                     const std::string& checksum = "");

private:
  origin::embedded_origin origin_;
  client::s3_client client_;
};

/// A proxy in front of `upstream_url` applying fault rules given in the one-line syntax.
/// `on_exchange` runs on the proxy's one worker thread after each exchange, before the next
/// request of the connection is read: a test can change the store between two reads there.
/// Stops and joins when destroyed.
class faulty_proxy {
public:
  faulty_proxy(const std::string& upstream_url, const std::vector<std::string>& fault_specs,
               std::function<void(const proxy::exchange_record&)> on_exchange = {});
  ~faulty_proxy();
  faulty_proxy(const faulty_proxy&) = delete;
  faulty_proxy& operator=(const faulty_proxy&) = delete;

  std::string url() const { return url_; }

private:
  std::unique_ptr<proxy::proxy_server> server_;
  std::string url_;
  std::thread thread_;
};

/// A scratch directory, removed with its files when destroyed.
class scratch_dir {
public:
  scratch_dir();
  ~scratch_dir();
  std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

/// The whole content of a file ("" when missing).
std::string file_bytes(const std::string& path);
/// The file holds exactly `expected`; on a mismatch says where, without printing megabytes.
::testing::AssertionResult file_holds(const std::string& path, std::string_view expected);

/// A read request for bucket "data" at `endpoint`, with the origin's keys and a short backoff
/// so that retries do not slow the tests down.
read_request request_for(const std::string& endpoint, const std::string& key,
                         const std::string& output_path);

/// Runs `reader` and keeps its log for failure messages.
struct logged_read {
  read_result result;
  std::string log;
};
logged_read run_reader(reader_function reader, const read_request& request);

} // namespace s3fault::readers::testing
