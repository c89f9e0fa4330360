#pragma once
// An origin on background threads of this process: the default store of the jobs that need
// one (audit, gate, demo) when no --endpoint/--upstream is given. Memory storage, 127.0.0.1,
// a free port, no log output. Stops and joins when destroyed.
//
//   embedded_origin origin;            // listening when the constructor returns
//   client_config.endpoint = origin.url();
#include "conformance/origin/origin_server.hpp"

#include <memory>
#include <string>
#include <thread>

namespace s3fault::origin {

class embedded_origin {
public:
  /// Binds 127.0.0.1:0 and starts serving. Throws std::runtime_error when it cannot.
  explicit embedded_origin(origin_settings settings = default_settings(), unsigned threads = 2);
  ~embedded_origin();
  embedded_origin(const embedded_origin&) = delete;
  embedded_origin& operator=(const embedded_origin&) = delete;

  std::string url() const { return url_; }
  origin_service& service() { return server_->service(); }
  /// The settings of `s3fault origin` with no options: keys s3fault / s3fault-secret,
  /// us-east-1, 5 MiB minimum part size.
  static origin_settings default_settings();

private:
  std::unique_ptr<origin_server> server_;
  std::string url_;
  std::thread thread_;
};

} // namespace s3fault::origin
