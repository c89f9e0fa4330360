#include "cli/read_command.hpp"

#include "cli/command_support.hpp"

#include "conformance/readers/readers.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace s3fault::cli {
namespace {

struct read_options {
  std::string reader;
  std::string endpoint;
  std::string bucket;
  std::string key;
  std::string output;
  store_access access;
  unsigned concurrency = 4;
  std::size_t range_size = 8 * 1024 * 1024;
  unsigned max_attempts = 5;
};

/// A temporary file for `--output -`: the readers write at offsets (and rewrite on retries),
/// which a pipe cannot take, so the object goes to stdout only once it is complete.
class spool_file {
public:
  spool_file() {
    path_ = env_or("TMPDIR", "/tmp") + "/s3fault-read-XXXXXX";
    const int fd = ::mkstemp(path_.data());
    if (fd < 0) {
      path_.clear();
      return;
    }
    ::close(fd);
  }
  ~spool_file() {
    if (!path_.empty()) {
      ::unlink(path_.c_str());
    }
  }
  spool_file(const spool_file&) = delete;
  spool_file& operator=(const spool_file&) = delete;

  /// Empty when no temporary file could be made.
  const std::string& path() const { return path_; }

  bool copy_to_stdout() const {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return false;
    }
    std::string buffer(1024 * 1024, '\0');
    bool ok = true;
    for (;;) {
      const ssize_t n = ::read(fd, buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        ok = n == 0;
        break;
      }
      if (std::fwrite(buffer.data(), 1, static_cast<std::size_t>(n), stdout) !=
          static_cast<std::size_t>(n)) {
        ok = false;
        break;
      }
    }
    ::close(fd);
    return std::fflush(stdout) == 0 && ok;
  }

private:
  std::string path_;
};

readers::read_request make_request(const read_options& options) {
  readers::read_request request;
  request.client =
      store_client_config(options.endpoint, options.access, "s3fault-read/" + options.reader);
  request.bucket = options.bucket;
  request.key = options.key;
  request.output_path = options.output;
  request.concurrency = options.concurrency;
  request.range_size = options.range_size;
  request.max_attempts = options.max_attempts;
  return request;
}

int run_read_command(const read_options& options) {
  const std::string prefix = "s3fault read " + options.reader + ": ";
  if (!store_arguments_usable(prefix, options.endpoint, options.access)) {
    return 2;
  }
  auto request = make_request(options);
  std::unique_ptr<spool_file> spool;
  if (options.output == "-") {
    spool = std::make_unique<spool_file>();
    if (spool->path().empty()) {
      std::cerr << prefix
                << "cannot create a temporary file for --output -: " << std::strerror(errno)
                << "\n";
      return 1;
    }
    request.output_path = spool->path();
  }
  const auto reader = readers::find_reader(options.reader);
  const auto result = reader(request, std::cerr);
  if (!result.ok) {
    std::cerr << prefix << result.error << "\n";
    return 1;
  }
  if (spool && !spool->copy_to_stdout()) {
    std::cerr << prefix << "cannot write the object to stdout\n";
    return 1;
  }
  std::cerr << prefix << result.bytes_written << " bytes, " << result.requests << " requests, "
            << result.retries << " retries\n";
  return 0;
}

std::string read_description() {
  std::string text =
      "Fetches one object with a built-in reader, the way a real program would, and writes it\n"
      "to a file. One line per request goes to stderr. `s3fault gate --reader builtin:NAME`\n"
      "runs this command against every fault scenario.\n\nReaders:\n";
  for (const auto name : readers::reader_names()) {
    text += "  " + std::string(name) + "\n";
    std::string_view algorithm = readers::reader_algorithm(name);
    while (!algorithm.empty()) {
      const auto end = algorithm.find('\n');
      text += "      " + std::string(algorithm.substr(0, end)) + "\n";
      algorithm.remove_prefix(end == std::string_view::npos ? algorithm.size() : end + 1);
    }
  }
  text += "\nExit status: 0 when the reader trusts what it wrote (naive-parts trusts a short\n"
          "object: that is its bug), 1 when it failed (the reason is printed; a file output keeps\n"
          "what was written, stdout gets nothing), 2 for bad arguments.\n\n"
          "Examples:\n"
          "  s3fault read robust-parts --endpoint http://127.0.0.1:8080 --bucket b --key big \\\n"
          "    --output big.bin\n"
          "  s3fault read ranged --endpoint http://127.0.0.1:8080 --bucket b --key big \\\n"
          "    --concurrency 8 --output - | sha256sum";
  return text;
}

} // namespace

std::function<int()> add_read_command(CLI::App& app) {
  auto options = std::make_shared<read_options>();
  auto* command = app.add_subcommand("read", read_description());
  std::vector<std::string> names(readers::reader_names().begin(), readers::reader_names().end());
  command->add_option("reader", options->reader, "The reader: naive-parts, robust-parts or ranged")
      ->required()
      ->check(CLI::IsMember(names));
  command->add_option("--endpoint", options->endpoint, "Store URL http(s)://HOST[:PORT]")
      ->required()
      ->check(store_url_check());
  command->add_option("--bucket", options->bucket, "Bucket of the object")->required();
  command->add_option("--key", options->key, "Key of the object")->required();
  command
      ->add_option("--output", options->output,
                   "Write the object here (created or truncated); '-' for stdout (the object is "
                   "spooled to a temporary file and printed once complete)")
      ->required();
  add_store_access_options(command, options->access, false);
  command->add_option("--concurrency", options->concurrency, "ranged: parallel ranged GETs")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  command->add_option("--range-size", options->range_size, "ranged: bytes per ranged GET")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command
      ->add_option("--max-attempts", options->max_attempts,
                   "robust-parts, ranged: attempts per request (500, 503, transport failures and "
                   "short bodies are retried)")
      ->check(CLI::Range(1u, 100u))
      ->capture_default_str();
  return [options]() { return run_read_command(*options); };
}

} // namespace s3fault::cli
