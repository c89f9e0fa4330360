#include "conformance/origin/embedded_origin.hpp"

#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

namespace s3fault::origin {

origin_settings embedded_origin::default_settings() {
  origin_settings settings;
  settings.credentials = s3::credentials{"s3fault", "s3fault-secret", ""};
  return settings;
}

embedded_origin::embedded_origin(origin_settings settings, unsigned threads) {
  origin_config config;
  config.listen_host = "127.0.0.1";
  config.listen_port = 0;
  config.settings = std::move(settings);
  config.threads = threads;
  auto quiet = std::make_shared<spdlog::logger>("embedded-origin",
                                                std::make_shared<spdlog::sinks::null_sink_mt>());
  server_ = std::make_unique<origin_server>(config, quiet);
  server_->bind();
  url_ = server_->listen_url();
  thread_ = std::thread([this] { server_->run(); });
}

embedded_origin::~embedded_origin() {
  server_->request_stop();
  if (thread_.joinable()) {
    thread_.join();
  }
}

} // namespace s3fault::origin
