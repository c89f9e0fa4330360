#include "conformance/gate/run_worker.hpp"

#include "conformance/gate/fixture_upload.hpp"
#include "conformance/gate/reader_process.hpp"
#include "conformance/gate/run_repro.hpp"
#include "faults/config/rule_parser.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace s3fault::gate {
namespace {

namespace fs = std::filesystem;

/// How long a finished reader's exchanges may take to be reported (normally microseconds; an
/// exchange the proxy still stalls on is not waited for beyond this).
constexpr std::chrono::seconds exchange_report_wait{10};

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

std::string last_line(const std::string& text) {
  return text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
}

/// The rules of one run, as the proxy holds them.
std::vector<faults::rule> build_run_rules(const nlohmann::json& document, const scenario& s) {
  auto built = faults::config::parse_rule_document(document, s.origin);
  if (!built.ok()) {
    throw gate_error("scenario " + s.name + " (" + s.origin + "): " + built.errors.front());
  }
  return std::move(built.rules);
}

/// Throws gate_error when the run shows that the reader never ran: the shell could not start it,
/// or it ended without a single request to the proxy (so its exit says nothing about a fault).
void check_reader_ran(const planned_run& planned, const std::string& command,
                      const reader_exit& exit, const traffic& seen, bool output_correct,
                      const std::string& stderr_tail) {
  if (exit.timed_out) {
    return;
  }
  std::string problem;
  if (exit.exit_code == 126 || exit.exit_code == 127) {
    problem = "exited " + std::to_string(exit.exit_code) +
              (exit.exit_code == 127 ? " (the shell found no such command)"
                                     : " (the shell could not execute it)");
  } else if (seen.requests_to_proxy == 0 && exit.exit_code != 0) {
    problem = "exited " + std::to_string(exit.exit_code) +
              " without a single request to the proxy, so it never reached the store";
  } else if (seen.requests_to_proxy == 0 && output_correct) {
    problem = "exited 0 without a single request to the proxy: it did not read the object "
              "through {endpoint}";
  } else {
    return;
  }
  std::string message = "the reader cannot run: `" + command + "` " + problem + " (run " +
                        planned.run_scenario->name + " / " + planned.shape->name + ")";
  if (!stderr_tail.empty()) {
    message += "; its stderr ends: " + last_line(stderr_tail).substr(0, 300);
  }
  throw gate_error(message);
}

} // namespace

run_worker::run_worker(const run_context& context)
    : context_(context), store_(context.store_config),
      proxy_(
          context.store_config.endpoint,
          [this](const proxy::exchange_record& exchange) {
            counter_.count(exchange);
            replacer_.observe(exchange);
          },
          1, context.settings.seed) {}

std::optional<run_result> run_worker::run(const planned_run& planned) {
  const auto& settings = context_.settings;
  const scenario& s = *planned.run_scenario;
  const std::string bytes = fixture_bytes(*planned.shape, planned.seed);
  std::string replacement;
  std::string checksum;
  try {
    checksum = upload_fixture(store_, context_.bucket, planned.key, *planned.shape, bytes);
  } catch (const std::runtime_error& failure) {
    throw gate_error(std::string("the store refused the object: ") + failure.what());
  }
  const auto document = run_rules_document(s, planned.key, planned.seed);
  proxy_.rules()->replace_all(build_run_rules(document, s), planned.seed);
  if (s.action == scenario_action::replace_after_first_read) {
    replacement = fixture_bytes(*planned.shape, planned.seed + 1000000u);
    replacer_.arm(context_.store_config, context_.bucket, planned.key, planned.shape, &replacement);
  }
  counter_.watch(context_.bucket, planned.key);

  const fs::path dir = fs::path(settings.work_dir) / (s.name + "." + planned.shape->name);
  fs::remove_all(dir);
  fs::create_directories(dir / "home");
  reader_invocation invocation;
  invocation.command = settings.reader_command;
  invocation.endpoint = proxy_.url();
  invocation.access_key = settings.credentials.access_key;
  invocation.secret_key = settings.credentials.secret_key;
  invocation.region = settings.region;
  invocation.bucket = context_.bucket;
  invocation.key = planned.key;
  invocation.output_path = (dir / "output").string();
  invocation.stdout_path = (dir / "stdout").string();
  invocation.stderr_path = (dir / "stderr").string();
  invocation.home = (dir / "home").string();
  invocation.timeout = settings.timeout;
  invocation.should_stop = context_.stop;
  const auto exit = run_reader(invocation);
  if (!exit.timed_out) {
    proxy_.wait_reported(exchange_report_wait); // the reader's last exchange, counted
  }
  replacer_.disarm();
  proxy_.rules()->replace_all({});
  store_.delete_object(context_.bucket, planned.key);
  if (!exit.failure.empty()) {
    throw gate_error("cannot start the reader: " + exit.failure);
  }
  if (exit.interrupted) {
    fs::remove_all(dir);
    return std::nullopt;
  }
  run_result result = judge(planned, dir.string(), exit.exit_code, exit.timed_out, exit.seconds,
                            bytes, replacement);
  result.checksum = checksum;
  result.rules = document;
  result.repro = repro_for(planned, document);
  check_reader_ran(planned, settings.reader_command, exit, result.seen,
                   result.judged.observed == verdict::correct, result.stderr_tail);
  if (result.judged.outcome == run_outcome::failed && !settings.keep_failed.empty()) {
    keep_files(result, dir.string());
  }
  fs::remove_all(dir);
  return result;
}

run_result run_worker::judge(const planned_run& planned, const std::string& dir, int exit_code,
                             bool timed_out, double seconds, const std::string& bytes,
                             const std::string& replacement) {
  const auto& settings = context_.settings;
  const scenario& s = *planned.run_scenario;
  const fs::path path(dir);
  // The object is the output file, or what the reader printed when it wrote no file.
  const std::string output =
      fs::exists(path / "output") ? read_file(path / "output") : read_file(path / "stdout");
  run_result result;
  result.scenario = s.name;
  result.shape = planned.shape->name;
  result.expect = s.expect;
  result.key = planned.key;
  result.seed = planned.seed;
  result.seen = counter_.snapshot();
  result.judged =
      judge_run({.timed_out = timed_out,
                 .exit_code = exit_code,
                 .output = output,
                 .expected = bytes,
                 .also_correct = replacement,
                 .expect = s.expect,
                 .timeout_seconds = std::chrono::duration<double>(settings.timeout).count(),
                 .needs_injection = s.needs_injection,
                 .injections = result.seen.faults_injected});
  result.exit_code = exit_code;
  result.seconds = seconds;
  result.stderr_tail = tail_lines(path / "stderr", 5);
  if (result.judged.observed == verdict::rejected && !result.stderr_tail.empty() &&
      result.judged.result == verdict::rejected) {
    // How the reader explained its failure: its last line on stderr.
    result.judged.why += ": " + last_line(result.stderr_tail).substr(0, 200);
  }
  if (result.judged.observed == verdict::silent_corruption && result.seen.requests_to_proxy == 0) {
    result.judged.why += "; it made no request to the proxy";
  }
  return result;
}

std::string run_worker::repro_for(const planned_run& planned,
                                  const nlohmann::json& rules_document) const {
  const auto& settings = context_.settings;
  repro_inputs repro;
  repro.s3fault = settings.s3fault;
  repro.store = context_.store_url;
  repro.access_key = settings.credentials.access_key;
  repro.secret_key = settings.credentials.secret_key;
  repro.region = settings.region;
  repro.bucket = context_.bucket;
  repro.key = planned.key;
  repro.run_scenario = planned.run_scenario;
  repro.shape = planned.shape;
  repro.seed = planned.seed;
  repro.rules_document = rules_document;
  repro.reader_command = settings.reader_command;
  return repro_script(repro);
}

void run_worker::keep_files(run_result& result, const std::string& dir) {
  const fs::path target =
      fs::path(context_.settings.keep_failed) / (result.scenario + "." + result.shape);
  fs::remove_all(target);
  fs::create_directories(target);
  for (const char* name : {"output", "stdout", "stderr"}) {
    if (fs::exists(fs::path(dir) / name)) {
      fs::copy_file(fs::path(dir) / name, target / name);
    }
  }
  std::ofstream(target / "repro.sh") << result.repro;
  result.kept = target.string();
}

} // namespace s3fault::gate
