#include "conformance/gate/run_worker.hpp"

#include "conformance/gate/fixture_upload.hpp"
#include "conformance/gate/gate_reports.hpp"
#include "conformance/gate/reader_process.hpp"
#include "conformance/gate/run_exercise.hpp"
#include "conformance/gate/run_repro.hpp"
#include "conformance/gate/store_after_write.hpp"
#include "conformance/gate/write_verdict.hpp"
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

/// Throws gate_error when the run shows that the reader or writer never ran: the shell could not
/// start it, or it ended without a single request to the proxy (so its exit says nothing about a
/// fault). `succeeded`: the run's output (a writer's: the stored object) is right.
void check_client_ran(run_role role, const planned_run& planned, const std::string& command,
                      const reader_exit& exit, const traffic& seen, bool succeeded,
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
  } else if (seen.requests_to_proxy == 0 && succeeded) {
    problem = std::string("exited 0 without a single request to the proxy: it did not ") +
              (role == run_role::writer ? "write" : "read") + " the object through {endpoint}";
  } else {
    return;
  }
  std::string message = "the " + std::string(role_name(role)) + " cannot run: `" + command + "` " +
                        problem + " (run " + planned.run_scenario->name + " / " +
                        planned.shape->name + ")";
  if (!stderr_tail.empty()) {
    message += "; its stderr ends: " + last_line(stderr_tail).substr(0, 300);
  }
  throw gate_error(message);
}

/// A REJECTED run's why ends with how the reader or writer explained its failure: its last line
/// on stderr.
void add_rejection_reason(run_result& result) {
  if (result.judged.result == verdict::rejected && !result.stderr_tail.empty()) {
    result.judged.why += ": " + last_line(result.stderr_tail).substr(0, 200);
  }
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    throw gate_error("cannot write " + path.string());
  }
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
  return context_.settings.role == run_role::writer ? run_as_writer(planned)
                                                    : run_as_reader(planned);
}

fs::path run_worker::fresh_run_dir(const planned_run& planned) const {
  const fs::path dir = fs::path(context_.settings.work_dir) /
                       (planned.run_scenario->name + "." + planned.shape->name);
  fs::remove_all(dir);
  fs::create_directories(dir / "home");
  return dir;
}

nlohmann::json run_worker::install_rules(const planned_run& planned) {
  auto document = run_rules_document(*planned.run_scenario, planned.key, planned.seed);
  proxy_.rules()->replace_all(build_run_rules(document, *planned.run_scenario), planned.seed);
  counter_.watch(context_.bucket, planned.key, context_.settings.role);
  return document;
}

reader_exit run_worker::run_client(const planned_run& planned, const fs::path& dir,
                                   const std::string& input_path) {
  const auto& settings = context_.settings;
  reader_invocation invocation;
  invocation.command = settings.client_command;
  invocation.endpoint = proxy_.url();
  invocation.access_key = settings.credentials.access_key;
  invocation.secret_key = settings.credentials.secret_key;
  invocation.region = settings.region;
  invocation.bucket = context_.bucket;
  invocation.key = planned.key;
  invocation.output_path = (dir / "output").string();
  invocation.input_path = input_path;
  invocation.stdout_path = (dir / "stdout").string();
  invocation.stderr_path = (dir / "stderr").string();
  invocation.home = (dir / "home").string();
  invocation.timeout = run_timeout(planned);
  invocation.should_stop = context_.stop;
  auto exit = run_reader(invocation);
  if (!exit.timed_out) {
    proxy_.wait_reported(exchange_report_wait); // its last exchange, counted
  }
  return exit;
}

std::optional<run_result> run_worker::run_as_reader(const planned_run& planned) {
  const scenario& s = *planned.run_scenario;
  const std::string bytes = fixture_bytes(*planned.shape, planned.seed);
  std::string replacement;
  std::string checksum;
  try {
    checksum = upload_fixture(store_, context_.bucket, planned.key, *planned.shape, bytes);
  } catch (const std::runtime_error& failure) {
    throw gate_error(std::string("the store refused the object: ") + failure.what());
  }
  const auto document = install_rules(planned);
  if (s.action == scenario_action::replace_after_first_read) {
    replacement = fixture_bytes(*planned.shape, planned.seed + replacement_seed_offset);
    replacer_.arm(context_.store_config, context_.bucket, planned.key, planned.shape, &replacement);
  }
  const fs::path dir = fresh_run_dir(planned);
  const auto exit = run_client(planned, dir, "");
  const replacement_outcome replaced = replacer_.disarm();
  proxy_.rules()->replace_all({});
  store_.delete_object(context_.bucket, planned.key);
  if (!exit.failure.empty()) {
    throw gate_error("cannot start the reader: " + exit.failure);
  }
  if (exit.interrupted) {
    fs::remove_all(dir);
    return std::nullopt;
  }
  run_result result = judge(planned, dir.string(), exit, bytes, replacement, replaced);
  result.checksum = checksum;
  result.rules = document;
  check_client_ran(run_role::reader, planned, context_.settings.client_command, exit, result.seen,
                   result.judged.observed == verdict::correct, result.stderr_tail);
  finish_run(planned, result, dir);
  return result;
}

std::optional<run_result> run_worker::run_as_writer(const planned_run& planned) {
  const std::string bytes = fixture_bytes(*planned.shape, planned.seed);
  const fs::path dir = fresh_run_dir(planned);
  write_file(dir / "input", bytes);
  std::optional<std::string> previous;
  if (planned.run_scenario->action == scenario_action::overwrite) {
    previous = fixture_bytes(*planned.shape, planned.seed + previous_seed_offset);
    try {
      upload_fixture(store_, context_.bucket, planned.key, *planned.shape, *previous);
    } catch (const std::runtime_error& failure) {
      throw gate_error(std::string("the store refused the previous object: ") + failure.what());
    }
  }
  const auto document = install_rules(planned);
  const auto exit = run_client(planned, dir, (dir / "input").string());
  proxy_.rules()->replace_all({});
  std::optional<std::string> stored;
  open_uploads left_open;
  try {
    stored = read_stored_object(store_, context_.bucket, planned.key, bytes.size());
    left_open = abort_open_uploads(store_, context_.bucket, planned.key);
  } catch (const std::runtime_error& failure) {
    throw gate_error(failure.what());
  }
  store_.delete_object(context_.bucket, planned.key);
  if (!exit.failure.empty()) {
    throw gate_error("cannot start the writer: " + exit.failure);
  }
  if (exit.interrupted) {
    fs::remove_all(dir);
    return std::nullopt;
  }
  run_result result = writer_result(planned, dir, exit, bytes, stored, previous);
  result.open_uploads = left_open.count;
  result.open_uploads_problem = left_open.problem;
  if (result.judged.result == verdict::hung && left_open.count.value_or(0) > 0) {
    // What a writer that waits for ever leaves behind: an upload nobody will complete or abort.
    result.judged.why += "; " + describe_open_uploads(result);
  }
  result.rules = document;
  check_client_ran(run_role::writer, planned, context_.settings.client_command, exit, result.seen,
                   result.judged.observed == verdict::stored, result.stderr_tail);
  if (stored && result.judged.outcome == run_outcome::failed) {
    write_file(dir / "stored", *stored); // kept with --keep-failed
  }
  finish_run(planned, result, dir);
  return result;
}

void run_worker::finish_run(const planned_run& planned, run_result& result, const fs::path& dir) {
  if (result.judged.outcome == run_outcome::failed) {
    result.repro = repro_for(planned, result);
    save_failed_run(result, dir);
  }
  fs::remove_all(dir);
}

void run_worker::save_failed_run(run_result& result, const fs::path& dir) {
  const std::string into = failed_runs_dir(context_.settings);
  if (into.empty()) {
    return;
  }
  const fs::path target = fs::path(into) / (result.scenario + "." + result.shape);
  fs::remove_all(target);
  fs::create_directories(target);
  if (!context_.settings.keep_failed.empty()) {
    for (const char* name : {"output", "stored", "stdout", "stderr"}) {
      if (fs::exists(dir / name)) {
        fs::copy_file(dir / name, target / name);
      }
    }
    result.kept = target.string();
  }
  write_file(target / "repro.sh", result.repro);
  fs::permissions(target / "repro.sh", fs::perms::owner_exec | fs::perms::group_exec,
                  fs::perm_options::add);
  result.repro_file = (target / "repro.sh").string();
}

run_result run_worker::started_result(const planned_run& planned, const fs::path& dir,
                                      int exit_code, double seconds) const {
  run_result result = named_result(planned);
  result.seen = counter_.snapshot();
  result.exit_code = exit_code;
  result.seconds = seconds;
  result.stderr_tail = tail_lines(dir / "stderr", 5);
  return result;
}

run_result run_worker::writer_result(const planned_run& planned, const fs::path& dir,
                                     const reader_exit& exit, const std::string& input,
                                     const std::optional<std::string>& stored,
                                     const std::optional<std::string>& previous) const {
  const scenario& s = *planned.run_scenario;
  run_result result = started_result(planned, dir, exit.exit_code, exit.seconds);
  write_evidence evidence;
  evidence.timed_out = exit.timed_out;
  evidence.exit_code = exit.exit_code;
  evidence.input = input;
  if (stored) {
    evidence.stored = *stored;
  }
  if (previous) {
    evidence.previous = *previous;
  }
  evidence.expect = s.expect;
  evidence.timeout_seconds = std::chrono::duration<double>(run_timeout(planned)).count();
  evidence.exercised = run_exercise(s, result.seen, run_role::writer);
  result.judged = judge_write(evidence);
  add_rejection_reason(result);
  return result;
}

run_result run_worker::judge(const planned_run& planned, const std::string& dir,
                             const reader_exit& exit, const std::string& bytes,
                             const std::string& replacement, const replacement_outcome& replaced) {
  const scenario& s = *planned.run_scenario;
  const fs::path path(dir);
  // The object is the output file, or what the reader printed when it wrote no file.
  const std::string output =
      fs::exists(path / "output") ? read_file(path / "output") : read_file(path / "stdout");
  run_result result = started_result(planned, path, exit.exit_code, exit.seconds);
  result.judged =
      judge_run({.timed_out = exit.timed_out,
                 .exit_code = exit.exit_code,
                 .output = output,
                 .expected = bytes,
                 .also_correct = replacement,
                 .expect = s.expect,
                 .timeout_seconds = std::chrono::duration<double>(run_timeout(planned)).count(),
                 .exercised = run_exercise(s, result.seen, run_role::reader, replaced)});
  add_rejection_reason(result);
  if (result.judged.observed == verdict::silent_corruption && result.seen.requests_to_proxy == 0) {
    result.judged.why += "; it made no request to the proxy";
  }
  return result;
}

std::chrono::milliseconds run_worker::run_timeout(const planned_run& planned) const {
  return planned.run_scenario->timeout.value_or(context_.settings.timeout);
}

std::string run_worker::repro_for(const planned_run& planned, const run_result& result) const {
  const auto& settings = context_.settings;
  repro_inputs repro;
  repro.s3fault = settings.s3fault;
  repro.store = context_.store_url;
  repro.access_key = settings.credentials.access_key;
  repro.secret_key = settings.credentials.secret_key;
  repro.region = settings.region;
  repro.key = planned.key;
  repro.run_scenario = planned.run_scenario;
  repro.shape = planned.shape;
  repro.seed = planned.seed;
  repro.rules_document = result.rules;
  repro.role = settings.role;
  repro.client = settings.client;
  repro.client_command = settings.client_command;
  std::error_code no_directory; // then relative paths stay relative
  repro.working_dir = fs::current_path(no_directory).string();
  repro.timeout_seconds = std::chrono::duration<double>(run_timeout(planned)).count();
  repro.gate_verdict = result.judged.result;
  repro.why = result.judged.why;
  return repro_script(repro);
}

} // namespace s3fault::gate
