#include "conformance/gate/gate_runner.hpp"

#include "conformance/audit/fixtures.hpp"
#include "conformance/client/run_naming.hpp"
#include "conformance/gate/object_shapes.hpp"
#include "conformance/gate/reader_process.hpp"
#include "conformance/origin/embedded_origin.hpp"
#include "faults/config/build_rules.hpp"
#include "faults/rule.hpp"
#include "faults/s3_request.hpp"
#include "proxy/embedded_proxy.hpp"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace s3fault::gate {
namespace {

namespace fs = std::filesystem;

bool matches_any(const std::vector<std::string>& globs, const std::string& name) {
  for (const auto& glob : globs) {
    if (faults::glob_matches(glob, name)) {
      return true;
    }
  }
  return false;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// The last `lines` lines of a file (at most 2000 bytes), for reports.
std::string tail_lines(const fs::path& path, std::size_t lines) {
  std::string text = read_file(path);
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  std::size_t at = text.size();
  for (std::size_t seen = 0; at > 0; --at) {
    if (text[at - 1] == '\n' && ++seen == lines) {
      break;
    }
  }
  std::string tail = text.substr(at);
  return tail.size() > 2000 ? tail.substr(tail.size() - 2000) : tail;
}

std::string describe(const client::response& response) {
  return response.describe();
}

/// Uploads `bytes` as `key` in `shape`'s layout, with CRC32 checksums where the store takes
/// them (so a reader that checks can catch corruption). Throws std::runtime_error on failure.
void upload(client::s3_client& store, const std::string& bucket, const std::string& key,
            const object_shape& shape, const std::string& bytes) {
  for (const bool with_checksum : {true, false}) {
    const std::string algorithm = with_checksum ? "crc32" : "";
    if (!shape.multipart()) {
      client::put_options put;
      put.checksum_algorithm = algorithm;
      const auto stored = store.put_object(bucket, key, client::body_source::from_view(bytes), put);
      if (stored.ok()) {
        return;
      }
      if (!with_checksum) {
        throw std::runtime_error("uploading " + key + ": " + describe(stored));
      }
      continue;
    }
    client::put_options create;
    create.checksum_algorithm = algorithm;
    const auto created = store.create_multipart_upload(bucket, key, create);
    if (!created.ok()) {
      if (!with_checksum) {
        throw std::runtime_error("uploading " + key + ": " + describe(created.raw));
      }
      continue;
    }
    std::vector<client::completed_part> parts;
    std::uint64_t offset = 0;
    bool ok = true;
    for (std::size_t i = 0; i < shape.part_sizes.size() && ok; ++i) {
      client::upload_part_options options;
      options.checksum_algorithm = algorithm;
      const auto slice = std::string_view(bytes).substr(offset, shape.part_sizes[i]);
      const auto part =
          store.upload_part(bucket, key, created.value->upload_id, static_cast<int>(i + 1),
                            client::body_source::from_view(slice), options);
      ok = part.ok();
      std::string checksum;
      if (const auto value = part.header("x-amz-checksum-crc32")) {
        checksum = std::string(*value);
      }
      parts.push_back({static_cast<int>(i + 1), std::string(part.header("ETag").value_or("")),
                       checksum, checksum.empty() ? "" : "crc32"});
      offset += shape.part_sizes[i];
    }
    const auto completed =
        ok ? store.complete_multipart_upload(bucket, key, created.value->upload_id, parts)
           : client::parsed_response<client::complete_multipart_result>{};
    if (ok && completed.ok()) {
      return;
    }
    store.abort_multipart_upload(bucket, key, created.value->upload_id);
    if (!with_checksum) {
      throw std::runtime_error("uploading " + key + " in parts: " + describe(completed.raw));
    }
  }
}

/// Replaces the object after the reader's first successful GetObject of it. Runs on the
/// proxy's only worker thread, so the reader's next request waits until the new object is in.
class replace_trigger {
public:
  void arm(client::client_config store, std::string bucket, std::string key,
           const object_shape* shape, const std::string* replacement) {
    std::lock_guard lock(mutex_);
    store_ = std::move(store);
    bucket_ = std::move(bucket);
    key_ = std::move(key);
    shape_ = shape;
    replacement_ = replacement;
    armed_ = true;
  }
  void disarm() {
    std::lock_guard lock(mutex_);
    armed_ = false;
  }
  void observe(const proxy::exchange_record& exchange) {
    std::lock_guard lock(mutex_);
    if (!armed_ || exchange.method != "GET" || exchange.status < 200 || exchange.status >= 300) {
      return;
    }
    // Compared decoded: targets carry keys URL-encoded ("mp-8MiB+1" arrives as "mp-8MiB%2B1").
    const auto request = faults::classify_request({.method = exchange.method,
                                                   .target = exchange.target,
                                                   .host = "",
                                                   .has_copy_source = false,
                                                   .range = exchange.range});
    if (request.bucket != bucket_ || request.key != key_) {
      return;
    }
    armed_ = false;
    client::s3_client store(store_);
    upload(store, bucket_, key_, *shape_, *replacement_);
  }

private:
  std::mutex mutex_;
  bool armed_ = false;
  client::client_config store_;
  std::string bucket_, key_;
  const object_shape* shape_ = nullptr;
  const std::string* replacement_ = nullptr;
};

} // namespace

gate_report run_gate(const gate_settings& settings, const gate_observer& observer) {
  std::vector<const scenario*> chosen_scenarios;
  for (const auto& s : scenarios()) {
    if (matches_any(settings.scenario_globs, s.name)) {
      chosen_scenarios.push_back(&s);
    }
  }
  std::vector<const object_shape*> chosen_shapes;
  for (const auto& shape : object_shapes()) {
    if (matches_any(settings.shape_globs, shape.name)) {
      chosen_shapes.push_back(&shape);
    }
  }
  if (chosen_scenarios.empty()) {
    throw std::invalid_argument("--scenarios selects no scenario ('s3fault gate --list' shows "
                                "them)");
  }
  if (chosen_shapes.empty()) {
    throw std::invalid_argument("--shapes selects no shape ('s3fault gate --list' shows them)");
  }

  gate_report report;
  report.reader = settings.reader;
  report.started_at = client::utc_now_iso8601();
  report.timeout_seconds = std::chrono::duration<double>(settings.timeout).count();
  const auto started = std::chrono::steady_clock::now();
  for (const auto* s : chosen_scenarios) {
    report.scenario_names.push_back(s->name);
  }
  for (const auto* shape : chosen_shapes) {
    report.shape_names.push_back(shape->name);
  }

  std::unique_ptr<origin::embedded_origin> embedded;
  std::string upstream = settings.upstream;
  if (upstream.empty()) {
    embedded = std::make_unique<origin::embedded_origin>();
    upstream = embedded->url();
    report.upstream = "embedded origin";
  } else {
    report.upstream = upstream;
  }
  client::client_config store_config;
  store_config.endpoint = upstream;
  store_config.credentials = settings.credentials;
  store_config.region = settings.region;
  store_config.user_agent = "s3fault-gate";
  client::s3_client store(store_config);
  const std::string bucket = "s3fault-gate-" + client::random_name_suffix(8);
  if (const auto created = store.create_bucket(bucket); !created.ok()) {
    throw std::runtime_error("creating bucket " + bucket + " on " + upstream + ": " +
                             created.describe());
  }

  traffic_counter counter;
  replace_trigger replacer;
  // One worker: the replacement upload holds it, so the reader cannot race past it.
  proxy::embedded_proxy proxy(
      upstream,
      [&](const proxy::exchange_record& exchange) {
        counter.count(exchange);
        replacer.observe(exchange);
      },
      1, settings.seed);
  if (observer.started) {
    observer.started(report.upstream == "embedded origin" ? upstream : report.upstream,
                     proxy.url());
  }

  const fs::path work(settings.work_dir);
  fs::create_directories(work / "home");
  std::vector<std::string> keys;
  for (const auto* s : chosen_scenarios) {
    for (const auto* shape : chosen_shapes) {
      report.runs_planned += !(s->multipart_only && !shape->multipart());
    }
  }
  std::uint32_t seed = static_cast<std::uint32_t>(settings.seed);
  for (const auto* s : chosen_scenarios) {
    for (const auto* shape : chosen_shapes) {
      if (s->multipart_only && !shape->multipart()) {
        continue;
      }
      if (settings.stop_requested != nullptr && settings.stop_requested->load()) {
        report.interrupted = true;
        break;
      }
      const std::string key = "gate/" + s->name + "/" + shape->name;
      const std::string bytes = audit::seeded_bytes(shape->size, ++seed);
      std::string replacement;
      upload(store, bucket, key, *shape, bytes);
      keys.push_back(key);

      auto built = faults::config::build_rules(s->rules, {}, {});
      if (!built.ok()) {
        throw std::logic_error("scenario " + s->name + ": " + built.errors.front());
      }
      proxy.rules()->replace_all(std::move(built.rules));
      if (s->action == scenario_action::replace_after_first_read) {
        replacement = audit::seeded_bytes(shape->size, seed + 1000000);
        replacer.arm(store_config, bucket, key, shape, &replacement);
      }
      counter.watch(bucket, key);

      const fs::path dir = work / (s->name + "." + shape->name);
      fs::create_directories(dir);
      fs::remove(dir / "output");
      reader_invocation invocation;
      invocation.command = settings.reader_command;
      invocation.endpoint = proxy.url();
      invocation.access_key = settings.credentials.access_key;
      invocation.secret_key = settings.credentials.secret_key;
      invocation.region = settings.region;
      invocation.bucket = bucket;
      invocation.key = key;
      invocation.output_path = (dir / "output").string();
      invocation.stdout_path = (dir / "stdout").string();
      invocation.stderr_path = (dir / "stderr").string();
      invocation.home = (work / "home").string();
      invocation.timeout = settings.timeout;
      const auto exit = run_reader(invocation);
      replacer.disarm();
      proxy.rules()->replace_all({});
      if (!exit.failure.empty()) {
        throw std::runtime_error("cannot run the reader: " + exit.failure);
      }
      // The object is the output file, or what the reader printed when it wrote no file.
      const std::string output =
          fs::exists(dir / "output") ? read_file(dir / "output") : read_file(dir / "stdout");
      run_result result;
      result.scenario = s->name;
      result.shape = shape->name;
      result.expect = s->expect;
      result.judged = judge_run(exit.timed_out, exit.exit_code, output, bytes, replacement,
                                s->expect, report.timeout_seconds);
      result.exit_code = exit.exit_code;
      result.seconds = exit.seconds;
      result.stderr_tail = tail_lines(dir / "stderr", 5);
      if (result.judged.result == verdict::rejected && !result.stderr_tail.empty()) {
        // How the reader explained its failure: its last line on stderr.
        const auto last = result.stderr_tail.substr(result.stderr_tail.rfind('\n') + 1);
        result.judged.why += ": " + last.substr(0, 200);
      }
      result.seen = counter.snapshot();
      report.runs.push_back(std::move(result));
      if (observer.run_done) {
        observer.run_done(report.runs.back());
      }
      store.delete_object(bucket, key);
      fs::remove_all(dir);
    }
    if (report.interrupted) {
      break;
    }
  }
  counter.watch("", "");
  for (const auto& key : keys) {
    store.delete_object(bucket, key);
  }
  store.delete_bucket(bucket);
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

gate_totals count_runs(const gate_report& report) {
  gate_totals totals;
  for (const auto& run : report.runs) {
    (run.judged.passed ? totals.passed : totals.failed) += 1;
    switch (run.judged.result) {
    case verdict::correct:
      ++totals.correct;
      break;
    case verdict::rejected:
      ++totals.rejected;
      break;
    case verdict::silent_corruption:
      ++totals.silent_corruption;
      break;
    case verdict::hung:
      ++totals.hung;
      break;
    }
  }
  return totals;
}

int gate_exit_status(const gate_report& report) {
  return count_runs(report).failed == 0 ? 0 : 1;
}

} // namespace s3fault::gate
