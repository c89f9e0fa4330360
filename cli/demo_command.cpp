// `s3fault demo`: the bug that started the project, in one command. An embedded origin, a proxy
// with the rustfs-parts-count preset in front of it, a 20 MiB object in three parts, and two
// readers: the naive part-wise one returns 8 MiB and exits 0; the robust one reads it all.
#include "cli/demo_command.hpp"

#include "cli/command_support.hpp"

#include "conformance/audit/fixtures.hpp"
#include "conformance/gate/gate_matrix.hpp"
#include "conformance/gate/gate_reports.hpp"
#include "conformance/gate/reader_process.hpp"
#include "conformance/gate/run_verdict.hpp"
#include "conformance/gate/traffic_counter.hpp"
#include "conformance/origin/embedded_origin.hpp"
#include "conformance/readers/readers.hpp"
#include "conformance/s3/hashing.hpp"
#include "faults/config/build_rules.hpp"
#include "proxy/embedded_proxy.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace s3fault::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t mib = 1024 * 1024;
const std::string demo_bucket = "s3fault-demo";
const std::string demo_key = "big.bin";

struct demo_style {
  bool colour = false;
  std::string paint(std::string_view text, const char* code) const {
    return colour ? "\x1b[" + std::string(code) + "m" + std::string(text) + "\x1b[0m"
                  : std::string(text);
  }
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// Uploads the object in 8/8/4 MiB parts straight to the store; throws on failure.
void upload_object(const std::string& store_url, const std::string& bytes) {
  client::s3_client store(
      {.endpoint = store_url, .credentials = {"s3fault", "s3fault-secret", ""}});
  if (!store.create_bucket(demo_bucket).ok()) {
    throw std::runtime_error("the embedded origin refused the bucket");
  }
  const auto created = store.create_multipart_upload(demo_bucket, demo_key);
  if (!created.ok()) {
    throw std::runtime_error("CreateMultipartUpload failed: " + created.raw.describe());
  }
  std::vector<client::completed_part> parts;
  const std::uint64_t sizes[] = {8 * mib, 8 * mib, 4 * mib};
  std::uint64_t offset = 0;
  for (int number = 1; number <= 3; ++number) {
    const auto part = store.upload_part(
        demo_bucket, demo_key, created.value->upload_id, number,
        client::body_source::from_view(std::string_view(bytes).substr(offset, sizes[number - 1])));
    if (!part.ok()) {
      throw std::runtime_error("UploadPart failed: " + part.describe());
    }
    parts.push_back({number, std::string(part.header("ETag").value_or("")), "", ""});
    offset += sizes[number - 1];
  }
  if (!store.complete_multipart_upload(demo_bucket, demo_key, created.value->upload_id, parts)
           .ok()) {
    throw std::runtime_error("CompleteMultipartUpload failed");
  }
}

struct reader_run {
  gate::judged_run judged;
  gate::traffic seen;
  std::string log;
  std::string error;
};

reader_run run_reader(const std::string& name, proxy::embedded_proxy& proxy, const fs::path& output,
                      const std::string& expected, gate::traffic_counter& counter) {
  readers::read_request request;
  request.client.endpoint = proxy.url();
  request.client.credentials = {"s3fault", "s3fault-secret", ""};
  request.bucket = demo_bucket;
  request.key = demo_key;
  request.output_path = output.string();
  counter.watch(demo_bucket, demo_key);
  std::ostringstream log;
  const auto result = readers::find_reader(name)(request, log);
  reader_run run;
  run.log = log.str();
  run.error = result.error;
  proxy.wait_reported(std::chrono::seconds(10));
  run.seen = counter.snapshot();
  const std::string bytes = read_file(output);
  gate::run_evidence evidence; // a must-recover run with no fault to count: the demo's own
  evidence.exit_code = result.ok ? 0 : 1;
  evidence.output = bytes;
  evidence.expected = expected;
  run.judged = gate::judge_run(evidence);
  return run;
}

/// The store misbehaviours of the gate's built-in reader matrix: every scenario but the baseline.
std::size_t builtin_misbehaviours() {
  const auto& scenarios = gate::builtin_matrix().scenarios;
  return static_cast<std::size_t>(std::count_if(
      scenarios.begin(), scenarios.end(), [](const auto& s) { return s.name != "baseline"; }));
}

/// The example reader: beside an installed binary (the package's docs), else in the source tree
/// it was built from; empty when neither is there.
fs::path example_reader(const fs::path& self) {
  const fs::path relative = fs::path("examples") / "readers" / "boto3-naive-parts.py";
  for (const fs::path& root :
       {self.parent_path().parent_path() / "share/doc/s3fault", fs::path(S3FAULT_SOURCE_DIR)}) {
    if (fs::is_regular_file(root / relative)) {
      return root / relative;
    }
  }
  return {};
}

/// The commands to try next, by absolute paths so that they work from any directory: this binary,
/// and the example reader (when it is there).
void print_next_commands() {
  const fs::path self_path = fs::read_symlink("/proc/self/exe");
  const std::string self = gate::shell_quote(self_path.string());
  const fs::path example = example_reader(self_path);
  std::cout << "  Put your own reader through the gate's " << builtin_misbehaviours()
            << " store misbehaviours (this one among them):\n"
            << "    " << self
            << " gate --reader 'YOUR-COMMAND {endpoint} {bucket} {key} {output}'\n";
  if (!example.empty()) {
    std::cout << "    " << self << " gate --reader " << gate::shell_quote(example.string()) << "\n";
  }
}

void print_run(const demo_style& style, const std::string& name, const reader_run& run,
               const std::string& expected) {
  std::cout << style.paint(name, "1") << "\n";
  std::istringstream lines(run.log);
  for (std::string line; std::getline(lines, line);) {
    std::cout << "    " << style.paint(line, "2") << "\n";
  }
  const bool ok = run.judged.result == gate::verdict::correct;
  const char* colour = ok ? "32" : "31";
  std::cout << "  " << (run.error.empty() ? "exit 0" : "exit 1: " + run.error) << ", wrote "
            << run.judged.actual_bytes << " of " << expected.size() << " bytes";
  if (ok) {
    std::cout << ", sha256 matches the object";
  } else if (run.judged.first_difference) {
    std::cout << ", first difference at offset " << *run.judged.first_difference;
  }
  std::cout << "\n  => " << style.paint(gate::to_string(run.judged.result), colour) << "  ("
            << gate::describe_traffic(run.seen) << ")\n\n";
}

int run_demo(bool colour_flag) {
  demo_style style{colour_flag};
  const auto made = make_temporary_directory("s3fault-demo.");
  if (!made) {
    std::cerr << "s3fault demo: cannot create a scratch directory\n";
    return 2;
  }
  const fs::path scratch(*made);
  try {
    origin::embedded_origin origin;
    gate::traffic_counter counter;
    proxy::embedded_proxy proxy(
        origin.url(), [&](const proxy::exchange_record& exchange) { counter.count(exchange); });
    auto rules = faults::config::build_rules({}, {}, {"rustfs-parts-count"});
    proxy.rules()->replace_all(std::move(rules.rules));
    const std::string bytes = audit::seeded_bytes(20 * mib, 2026);
    upload_object(origin.url(), bytes);

    std::cout << style.paint("s3fault demo", "1")
              << ": a part-wise S3 reader silently truncates a multipart object\n\n"
              << "  store   s3fault origin, in this process       " << origin.url() << "\n"
              << "  proxy   s3fault proxy --preset rustfs-parts-count " << proxy.url() << "\n"
              << "          (removes x-amz-mp-parts-count from GetObject/HeadObject, as RustFS "
                 "did)\n"
              << "  object  s3://" << demo_bucket << "/" << demo_key << ": " << bytes.size()
              << " bytes (20 MiB) uploaded in 3 parts of 8, 8 and 4 MiB\n"
              << "          sha256 " << s3::sha256_hex(bytes) << "\n\n"
              << "Both readers read the object through the proxy:\n\n";

    const auto naive = run_reader("naive-parts", proxy, scratch / "naive.bin", bytes, counter);
    print_run(style,
              "naive-parts: partNumber=1, then parts 2..N, N from x-amz-mp-parts-count "
              "(missing: 1)",
              naive, bytes);
    const auto robust = run_reader("robust-parts", proxy, scratch / "robust.bin", bytes, counter);
    print_run(style,
              "robust-parts: total from Content-Range, the rest by byte range, If-Match, "
              "length check",
              robust, bytes);

    const bool reproduced = naive.judged.result == gate::verdict::silent_corruption &&
                            robust.judged.result == gate::verdict::correct;
    std::cout << style.paint("What happened", "1") << "\n"
              << "  The store answered part 1 with 206, Content-Range: bytes 0-8388607/20971520 "
                 "and no\n"
              << "  x-amz-mp-parts-count. The naive reader took the missing count for \"one "
                 "part\", wrote\n"
              << "  8 MiB of a 20 MiB object and exited 0: nothing told its caller the data was "
                 "short.\n"
              << "  The robust reader read the total (20971520) from Content-Range, fetched "
                 "bytes\n"
              << "  8388608-20971519 with a Range request guarded by If-Match, and checked the "
                 "length.\n\n";
    print_next_commands();
    if (!reproduced) {
      std::cout << style.paint("\nThe demo did not come out as expected (see the verdicts above).",
                               "31")
                << "\n";
    }
    fs::remove_all(scratch);
    return reproduced ? 0 : 1;
  } catch (const std::exception& error) {
    std::cerr << "s3fault demo: " << error.what() << "\n";
    fs::remove_all(scratch);
    return 2;
  }
}

} // namespace

std::function<int()> add_demo_command(CLI::App& app) {
  auto colour = std::make_shared<std::string>("auto");
  auto* command = app.add_subcommand(
      "demo",
      "Reproduces the silent-truncation bug in one command, with nothing to set up: starts an\n"
      "S3 store and a fault proxy (--preset rustfs-parts-count) in this process, uploads a\n"
      "20 MiB object in three parts, and reads it through the proxy with two readers: the\n"
      "naive part-wise one (which returns the first 8 MiB and exits 0) and the robust one.\n"
      "Exit status 0 when the bug showed and the robust reader read the object correctly.");
  command->add_option("--color", *colour, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  return [colour]() {
    const bool use = use_colour(*colour);
    return run_demo(use);
  };
}

} // namespace s3fault::cli
