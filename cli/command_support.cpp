#include "cli/command_support.hpp"

#include "conformance/client/endpoint.hpp"
#include "conformance/origin/embedded_origin.hpp"
#include "text/endpoint.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace s3fault::cli {

std::optional<std::string> make_temporary_directory(const std::string& prefix) {
  std::error_code no_temp;
  const auto temp = std::filesystem::temp_directory_path(no_temp);
  std::string pattern = (temp / (prefix + "XXXXXX")).string();
  if (no_temp || ::mkdtemp(pattern.data()) == nullptr) {
    return std::nullopt;
  }
  return pattern;
}

std::string env_or(const char* name, std::string fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

namespace {

/// A CLI11 check that `Address::parse` accepts the value (an empty one is left to the command).
template <class Address> CLI::Validator address_check(std::string name) {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        try {
          if (!value.empty()) {
            Address::parse(value);
          }
          return {};
        } catch (const std::invalid_argument& error) {
          return error.what();
        }
      },
      std::move(name));
}

} // namespace

const CLI::Validator& store_url_check() {
  static const auto check = address_check<text::http_endpoint>("URL");
  return check;
}

std::string store_url_refusal(const std::string& option, std::string url) {
  const auto why = store_url_check()(url);
  return why.empty() ? why : option + ": " + why;
}

const CLI::Validator& listen_address_check() {
  static const auto check = address_check<text::listen_address>("HOST:PORT");
  return check;
}

bool use_colour(const std::string& choice) {
  if (choice == "always") {
    return true;
  }
  if (choice == "never") {
    return false;
  }
  return isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr;
}

bool write_report_files(const std::string& command, const std::vector<report_file>& reports) {
  bool written = true;
  for (const auto& report : reports) {
    if (report.path.empty()) {
      continue;
    }
    std::ofstream out(report.path, std::ios::binary | std::ios::trunc);
    out << report.render();
    out.close();
    if (!out) {
      std::cerr << "s3fault " << command << ": cannot write " << report.path << "\n";
      written = false;
    }
  }
  return written;
}

bool report_paths_writable(const std::string& command,
                           const std::vector<std::pair<std::string, std::string>>& option_paths) {
  bool writable = true;
  for (const auto& [option, path] : option_paths) {
    if (path.empty()) {
      continue;
    }
    const bool existed = ::access(path.c_str(), F_OK) == 0;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
      std::cerr << "s3fault " << command << ": " << option << " " << path
                << ": cannot write: " << std::strerror(errno) << "\n";
      writable = false;
      continue;
    }
    ::close(fd);
    if (!existed) {
      ::unlink(path.c_str());
    }
  }
  return writable;
}

int job_exit_status(bool reports_written, bool interrupted, int status) {
  if (!reports_written) {
    return 2;
  }
  return interrupted ? 130 : status;
}

void add_store_access_options(CLI::App* command, store_access& access, bool with_tls) {
  command->add_option("--access-key", access.access_key,
                      "Access key (default: $AWS_ACCESS_KEY_ID, else 's3fault')");
  command->add_option("--secret-key", access.secret_key,
                      "Secret key (default: $AWS_SECRET_ACCESS_KEY, else 's3fault-secret')");
  command->add_option(
      "--region", access.region,
      "Region to sign for (default: $AWS_REGION, else $AWS_DEFAULT_REGION, else us-east-1)");
  command
      ->add_option("--timeout", access.timeout_seconds,
                   "Seconds each request may take to connect, send, start answering or stall")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  if (with_tls) {
    command->add_option("--ca", access.ca_file, "PEM file of CAs to trust for an https endpoint");
    command->add_flag("--insecure", access.insecure,
                      "Do not verify the https endpoint's certificate");
  }
}

s3::credentials credentials_or_environment(const std::string& access_key,
                                           const std::string& secret_key) {
  return {access_key.empty() ? env_or("AWS_ACCESS_KEY_ID", "s3fault") : access_key,
          secret_key.empty() ? env_or("AWS_SECRET_ACCESS_KEY", "s3fault-secret") : secret_key, ""};
}

std::string region_or_environment(const std::string& region) {
  return region.empty() ? env_or("AWS_REGION", env_or("AWS_DEFAULT_REGION", "us-east-1")) : region;
}

void aim_at_embedded_origin(client::client_config& config, const std::string& url) {
  const auto embedded = origin::embedded_origin::default_settings();
  config.endpoint = url;
  config.credentials = *embedded.credentials;
  config.region = embedded.region;
}

client::client_config store_client_config(const std::string& endpoint, const store_access& access,
                                          std::string user_agent) {
  client::client_config config;
  config.endpoint = endpoint;
  config.credentials = credentials_or_environment(access.access_key, access.secret_key);
  config.region = region_or_environment(access.region);
  config.user_agent = std::move(user_agent);
  config.tls.ca_file = access.ca_file;
  config.tls.insecure = access.insecure;
  const auto timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(access.timeout_seconds));
  config.timeouts.connect = timeout;
  config.timeouts.write = timeout;
  config.timeouts.first_byte = timeout;
  config.timeouts.read_idle = timeout;
  return config;
}

bool store_arguments_usable(const std::string& prefix, const std::string& endpoint,
                            const store_access& access) {
  if (access.access_key.empty() != access.secret_key.empty()) {
    std::cerr << prefix << "--access-key and --secret-key go together\n";
    return false;
  }
  try {
    client::endpoint::parse(endpoint);
  } catch (const std::invalid_argument& error) {
    std::cerr << prefix << "--endpoint: " << error.what() << "\n";
    return false;
  }
  return true;
}

void add_shard_options(CLI::App* command, shard_options& options, const std::string& what) {
  command->add_option("--shard", options.shard,
                      "Do shard K of N of the " + what +
                          " (K/N, 1 <= K <= N), to be merged with the other shards' JSON; auto: "
                          "from the launcher (OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/SIZE, "
                          "SLURM_PROCID/NTASKS, JOB_COMPLETION_INDEX with --shards)");
  command
      ->add_option("--shards", options.shards,
                   "How many shards (with --shard auto under a Kubernetes Indexed Job, whose "
                   "JOB_COMPLETION_INDEX gives the index only)")
      ->check(CLI::PositiveNumber);
}

std::optional<runtime::shard> resolve_shard(const std::string& prefix,
                                            const shard_options& options) {
  if (options.shard.empty()) {
    if (options.shards != 0) {
      std::cerr << prefix << "--shards goes with --shard auto\n";
      return std::nullopt;
    }
    return runtime::shard{};
  }
  try {
    return runtime::parse_shard(options.shard, options.shards, runtime::process_environment());
  } catch (const std::invalid_argument& refused) {
    std::cerr << prefix << refused.what() << "\n";
    return std::nullopt;
  }
}

} // namespace s3fault::cli
