#include "cli/fixture_command.hpp"

#include "cli/command_support.hpp"
#include "conformance/gate/fixture_upload.hpp"
#include "conformance/gate/store_after_write.hpp"
#include "text/quantities.hpp"

#include <fstream>
#include <iostream>
#include <memory>

namespace s3fault::cli {
namespace {

struct fixture_options {
  std::string endpoint;
  std::string bucket;
  std::string key;
  std::string size;
  std::vector<std::string> parts;
  std::string checksum = "crc32";
  std::string content_type;
  std::uint32_t seed = 1;
  std::string expected;
  bool no_upload = false;
  bool remove = false;
  store_access access;
};

/// The shape from --size and --parts; nullopt with `error` set when a value is not a size.
std::optional<gate::object_shape> shape_from(const fixture_options& options, std::string& error) {
  gate::object_shape shape;
  const auto size = text::parse_size(options.size);
  if (!size) {
    error = "--size " + options.size + ": not a size (bytes, or 12MiB, 1GB ...)";
    return std::nullopt;
  }
  shape.size = *size;
  std::uint64_t sum = 0;
  for (const auto& part : options.parts) {
    const auto bytes = text::parse_size(part);
    if (!bytes || *bytes == 0) {
      error = "--parts " + part + ": not a size above 0";
      return std::nullopt;
    }
    shape.part_sizes.push_back(*bytes);
    sum += *bytes;
  }
  if (shape.multipart() && sum != shape.size) {
    error = "--parts add up to " + std::to_string(sum) + " bytes, --size is " +
            std::to_string(shape.size);
    return std::nullopt;
  }
  shape.checksum = options.checksum;
  shape.content_type = options.content_type;
  return shape;
}

/// Creates the bucket unless the caller already owns it.
bool ensure_bucket(client::s3_client& store, const std::string& bucket, std::string& error) {
  const auto created = store.create_bucket(bucket);
  if (created.ok() || created.status == 409) {
    return true; // BucketAlreadyOwnedByYou (or exists): the upload below says if it is not ours
  }
  error = "creating bucket " + bucket + ": " + created.describe();
  return false;
}

/// --no-upload: a writer run's start, the key holding no object.
bool empty_key(client::s3_client& store, const fixture_options& options, std::size_t size) {
  const auto deleted = store.delete_object(options.bucket, options.key);
  if (!deleted.ok() && deleted.status != 404) {
    std::cerr << "s3fault fixture: deleting s3://" << options.bucket << "/" << options.key << ": "
              << deleted.describe() << "\n";
    return false;
  }
  std::cout << "s3://" << options.bucket << "/" << options.key << ": no object; the input (" << size
            << " bytes, seed " << options.seed << ") is in " << options.expected << "\n";
  return true;
}

client::s3_client fixture_store(const fixture_options& options) {
  return client::s3_client(
      store_client_config(options.endpoint, options.access, "s3fault-fixture"));
}

/// --remove: what a repro made on the store goes: the key's open uploads and object, then the
/// bucket (a store refuses to delete a bucket that still holds other objects: then it stays).
int remove_fixture(const fixture_options& options) {
  auto store = fixture_store(options);
  const std::string where = "s3://" + options.bucket + "/" + options.key;
  const auto uploads = gate::abort_open_uploads(store, options.bucket, options.key);
  const auto deleted = store.delete_object(options.bucket, options.key);
  if (!deleted.ok() && deleted.status != 404) {
    std::cerr << "s3fault fixture: deleting " << where << ": " << deleted.describe() << "\n";
    return 1;
  }
  const auto bucket_deleted = store.delete_bucket(options.bucket);
  if (!bucket_deleted.ok() && bucket_deleted.status != 404) {
    std::cerr << "s3fault fixture: deleting bucket " << options.bucket << ": "
              << bucket_deleted.describe() << "\n";
    return 1;
  }
  std::cout << "removed " << where << (uploads.count.value_or(0) > 0 ? ", its open uploads" : "")
            << " and the bucket\n";
  return 0;
}

int run_fixture(const fixture_options& options) {
  if (options.remove) {
    return remove_fixture(options);
  }
  if (options.size.empty()) {
    std::cerr << "s3fault fixture: --size is required (unless --remove)\n";
    return 2;
  }
  std::string error;
  const auto shape = shape_from(options, error);
  if (!shape) {
    std::cerr << "s3fault fixture: " << error << "\n";
    return 2;
  }
  const std::string bytes = gate::fixture_bytes(*shape, options.seed);
  if (!options.expected.empty()) {
    std::ofstream out(options.expected, std::ios::binary | std::ios::trunc);
    if (!out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
      std::cerr << "s3fault fixture: cannot write " << options.expected << "\n";
      return 2;
    }
  }
  auto store = fixture_store(options);
  if (!ensure_bucket(store, options.bucket, error)) {
    std::cerr << "s3fault fixture: " << error << "\n";
    return 1;
  }
  if (options.no_upload) {
    return empty_key(store, options, bytes.size()) ? 0 : 1;
  }
  try {
    const auto checksum = gate::upload_fixture(store, options.bucket, options.key, *shape, bytes);
    std::cout << "s3://" << options.bucket << "/" << options.key << ": " << bytes.size() << " bytes"
              << (shape->multipart() ? " in " + std::to_string(shape->part_sizes.size()) + " parts"
                                     : "")
              << ", checksum " << (checksum.empty() ? "none" : checksum) << ", seed "
              << options.seed << "\n";
  } catch (const std::exception& failure) {
    std::cerr << "s3fault fixture: " << failure.what() << "\n";
    return 1;
  }
  return 0;
}

} // namespace

std::function<int()> add_fixture_command(CLI::App& app) {
  auto options = std::make_shared<fixture_options>();
  auto* command = app.add_subcommand(
      "fixture",
      "Uploads the object of a gate run: seeded bytes (the same seed gives the same bytes) in\n"
      "one PUT or in parts, with a checksum where the store takes one. A failing gate run's\n"
      "repro.sh runs it. Creates the bucket when it does not exist.\n"
      "With --no-upload it writes only --expected (a gate writer run's input) and makes the key\n"
      "hold no object, as at the start of a writer run.\n"
      "With --remove it removes what a repro made: the key's object and open uploads, then the\n"
      "bucket (left when other objects are in it).\n\n"
      "Example:\n"
      "  s3fault fixture --endpoint http://127.0.0.1:9000 --bucket b --key k --size 12MiB \\\n"
      "    --parts 5MiB,5MiB,2MiB --seed 7 --expected expected.bin");
  command->add_option("--endpoint", options->endpoint, "The store, http(s)://HOST:PORT")
      ->required()
      ->check(store_url_check());
  command->add_option("--bucket", options->bucket, "Bucket")->required();
  command->add_option("--key", options->key, "Key")->required();
  command->add_option("--size", options->size,
                      "Object size: bytes, or 12MiB, 1GB ... (required unless --remove)");
  command
      ->add_option("--parts", options->parts,
                   "Part sizes, comma-separated, adding up to --size; omitted: one PUT")
      ->delimiter(',');
  command->add_option("--checksum", options->checksum, "crc32, crc32c, sha1, sha256 or none")
      ->check(CLI::IsMember({"crc32", "crc32c", "sha1", "sha256", "none"}))
      ->capture_default_str();
  command->add_option("--content-type", options->content_type, "Content-Type to store");
  command->add_option("--seed", options->seed, "Seed of the bytes")->capture_default_str();
  auto* expected =
      command->add_option("--expected", options->expected, "Also write the bytes to this file");
  command
      ->add_flag("--no-upload", options->no_upload,
                 "Upload nothing: write the bytes to --expected and delete the key's object "
                 "(a writer run's input)")
      ->needs(expected);
  command
      ->add_flag("--remove", options->remove,
                 "Remove the key's object and open uploads, then the bucket (a repro.sh does so "
                 "when it ends)")
      ->excludes("--no-upload");
  add_store_access_options(command, options->access, true);
  return [options]() { return run_fixture(*options); };
}

} // namespace s3fault::cli
