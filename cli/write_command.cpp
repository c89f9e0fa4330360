#include "cli/write_command.hpp"

#include "cli/command_support.hpp"
#include "conformance/writers/writers.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace s3fault::cli {
namespace {

struct write_options {
  std::string writer;
  std::string endpoint;
  std::string bucket;
  std::string key;
  std::string input;
  store_access access;
  std::uint64_t multipart_threshold = 8 * 1024 * 1024;
  std::uint64_t part_size = 5 * 1024 * 1024;
  unsigned max_attempts = 5;
};

int run_write_command(const write_options& options) {
  const std::string prefix = "s3fault write " + options.writer + ": ";
  if (!store_arguments_usable(prefix, options.endpoint, options.access)) {
    return 2;
  }
  writers::write_request request;
  request.client =
      store_client_config(options.endpoint, options.access, "s3fault-write/" + options.writer);
  request.bucket = options.bucket;
  request.key = options.key;
  request.input_path = options.input;
  request.multipart_threshold = options.multipart_threshold;
  request.part_size = options.part_size;
  request.max_attempts = options.max_attempts;
  const auto result = writers::find_writer(options.writer)(request, std::cerr);
  if (!result.ok) {
    std::cerr << prefix << result.error << "\n";
    return 1;
  }
  std::cerr << prefix << result.bytes << " bytes, " << result.requests << " requests, "
            << result.retries << " retries\n";
  return 0;
}

std::string write_description() {
  std::string text =
      "Uploads one file with a built-in writer, the way a real program would. One line per\n"
      "request goes to stderr. `s3fault gate --writer builtin:NAME` runs this command against\n"
      "every writer fault scenario. Both make one PUT below --multipart-threshold and a\n"
      "multipart upload of --part-size parts from it on.\n\nWriters:\n";
  for (const auto name : writers::writer_names()) {
    text +=
        "  " + std::string(name) + "\n      " + std::string(writers::writer_algorithm(name)) + "\n";
  }
  text += "\nExit status: 0 when the writer believes the upload succeeded (naive believes a\n"
          "Complete answered 200 with an <Error>: that is its bug), 1 when it failed (the reason\n"
          "is printed), 2 for bad arguments.\n\n"
          "Example:\n"
          "  s3fault write careful --endpoint http://127.0.0.1:8080 --bucket b --key big \\\n"
          "    --input big.bin";
  return text;
}

} // namespace

std::function<int()> add_write_command(CLI::App& app) {
  auto options = std::make_shared<write_options>();
  auto* command = app.add_subcommand("write", write_description());
  std::vector<std::string> names(writers::writer_names().begin(), writers::writer_names().end());
  command->add_option("writer", options->writer, "The writer: naive or careful")
      ->required()
      ->check(CLI::IsMember(names));
  command->add_option("--endpoint", options->endpoint, "Store URL http(s)://HOST[:PORT]")
      ->required()
      ->check(store_url_check());
  command->add_option("--bucket", options->bucket, "Bucket to upload to")->required();
  command->add_option("--key", options->key, "Key to upload to")->required();
  command->add_option("--input", options->input, "The file to upload")
      ->required()
      ->check(CLI::ExistingFile);
  add_store_access_options(command, options->access, false);
  command
      ->add_option("--multipart-threshold", options->multipart_threshold,
                   "Files of at least this many bytes go up in parts")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--part-size", options->part_size, "Bytes per part (the last may be less)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command
      ->add_option("--max-attempts", options->max_attempts,
                   "careful: attempts per request (transport failures, 500, 503 and an <Error> "
                   "in a 200 are retried)")
      ->check(CLI::Range(1u, 100u))
      ->capture_default_str();
  return [options]() { return run_write_command(*options); };
}

} // namespace s3fault::cli
