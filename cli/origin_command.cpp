#include "cli/origin_command.hpp"

#include "cli/command_support.hpp"
#include "cli/logging.hpp"
#include "cli/serve_until_stopped.hpp"
#include "conformance/origin/accounts.hpp"
#include "conformance/origin/origin_server.hpp"
#include "conformance/origin/origin_service.hpp"
#include "text/endpoint.hpp"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>

namespace s3fault::cli {
namespace {

constexpr const char* default_access_key = "s3fault";
constexpr const char* default_secret_key = "s3fault-secret";

struct origin_options {
  std::string listen = "127.0.0.1:9000";
  std::string data_dir;
  std::string access_key;
  std::string secret_key;
  std::vector<std::string> accounts; // --account KEY:SECRET, in order
  std::string accounts_file;
  bool anonymous = false;
  std::uint64_t min_part_size = 5ull * 1024 * 1024;
  std::string domain;
  std::string region = "us-east-1";
  unsigned threads = 0;
  std::string log_format = "text";
  std::string log_level = "info";
};

bool is_region_name(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

/// --access-key/--secret-key, then every --account, then the --accounts-file lines, in that
/// order (the first is the one that owns buckets of older data directories); the default
/// account when none is given. Every problem is added to `problems` (secrets are never echoed).
std::vector<s3::credentials> collect_accounts(const origin_options& o,
                                              std::vector<std::string>& problems) {
  std::vector<s3::credentials> accounts;
  if (!o.access_key.empty()) {
    accounts.push_back(s3::credentials{o.access_key, o.secret_key, ""});
  }
  for (std::size_t i = 0; i < o.accounts.size(); ++i) {
    auto parsed = origin::parse_account(o.accounts[i]);
    if (const auto* error = std::get_if<std::string>(&parsed)) {
      problems.push_back("--account number " + std::to_string(i + 1) + ": " + *error);
    } else {
      accounts.push_back(std::get<s3::credentials>(parsed));
    }
  }
  if (!o.accounts_file.empty()) {
    std::ifstream in(o.accounts_file, std::ios::binary);
    if (!in) {
      problems.push_back("--accounts-file '" + o.accounts_file + "': cannot be read");
    } else {
      std::ostringstream content;
      content << in.rdbuf();
      auto file = origin::parse_accounts_file(content.str());
      for (const auto& error : file.errors) {
        problems.push_back("--accounts-file '" + o.accounts_file + "': " + error);
      }
      if (file.errors.empty() && file.accounts.empty()) {
        problems.push_back("--accounts-file '" + o.accounts_file + "': no KEY:SECRET line");
      }
      accounts.insert(accounts.end(), file.accounts.begin(), file.accounts.end());
    }
  }
  std::set<std::string> seen;
  for (const auto& account : accounts) {
    if (!seen.insert(account.access_key).second) {
      problems.push_back("access key '" + account.access_key + "' is given twice");
    }
  }
  if (accounts.empty()) {
    accounts.push_back(s3::credentials{default_access_key, default_secret_key, ""});
  }
  return accounts;
}

/// The origin's settings; each usage mistake (accounts, region) is added to `mistakes`.
origin::origin_config to_config(const origin_options& o, std::vector<std::string>& mistakes) {
  origin::origin_config config;
  const auto listen = text::listen_address::parse(o.listen);
  config.listen_host = listen.host;
  config.listen_port = listen.port;
  config.data_dir = o.data_dir;
  config.threads = o.threads;
  config.format = o.log_format == "json" ? origin::log_format::json : origin::log_format::text;
  if (!o.anonymous) {
    auto accounts = collect_accounts(o, mistakes);
    config.settings.credentials = accounts.front();
    config.settings.more_accounts.assign(accounts.begin() + 1, accounts.end());
  }
  if (!is_region_name(o.region)) {
    mistakes.push_back("--region '" + o.region + "': must be a region name like us-east-1");
  }
  config.settings.region = o.region;
  config.settings.domain = o.domain;
  config.settings.min_part_size = o.min_part_size;
  return config;
}

std::string describe_accounts(const origin::origin_settings& settings) {
  if (!settings.credentials) {
    return "anonymous (no signature checks)";
  }
  std::string keys = settings.credentials->access_key;
  for (const auto& account : settings.more_accounts) {
    keys += ", " + account.access_key;
  }
  return (settings.more_accounts.empty() ? "signatures checked for access key "
                                         : "signatures checked for access keys ") +
         keys;
}

/// What `s3fault origin --help` says above the options.
constexpr const char* origin_about =
    "An S3-compatible store for tests: the GetObject contract of AWS S3 (partNumber, Range,\n"
    "conditionals, multipart ETags, checksums), SigV4 verified (header, presigned and\n"
    "aws-chunked forms). Versioning (version ids, delete markers, ListObjectVersions),\n"
    "GetObjectAttributes, conditional writes, and a retried CompleteMultipartUpload\n"
    "answered 200 as AWS does. Objects live in memory, or in --data-dir.\n"
    "Default credentials: access key 's3fault', secret key 's3fault-secret', region\n"
    "us-east-1. Several accounts with --account / --accounts-file: each bucket belongs to\n"
    "the account that created it; other accounts get 403 AccessDenied.\n"
    "Path-style URLs always; virtual-hosted buckets with --domain.\n"
    "Prints 'listening on URL' on stdout once it accepts connections; one log line per\n"
    "request goes to stderr. SIGINT/SIGTERM: stop accepting, finish requests in flight, "
    "exit 0.\n\n"
    "Example:\n"
    "  s3fault origin --listen 127.0.0.1:9000\n"
    "  AWS_ACCESS_KEY_ID=s3fault AWS_SECRET_ACCESS_KEY=s3fault-secret \\\n"
    "    aws --region us-east-1 --endpoint-url http://127.0.0.1:9000 s3 mb s3://demo";

/// The origin's options; --access-key and --secret-key need each other and --anonymous excludes
/// every account (CLI11 refuses those as it parses).
void declare_origin_options(CLI::App& command, origin_options& o) {
  command.add_option("--listen", o.listen, "HOST:PORT to listen on; port 0 picks a free one")
      ->capture_default_str()
      ->check(listen_address_check());
  command.add_option("--data-dir", o.data_dir,
                     "Keep buckets and objects in this directory (created if missing); "
                     "default: in memory");
  auto* access_key = command.add_option("--access-key", o.access_key,
                                        std::string("Access key clients sign with (default '") +
                                            default_access_key + "')");
  auto* secret_key = command.add_option("--secret-key", o.secret_key,
                                        std::string("Secret key for --access-key (default '") +
                                            default_secret_key + "')");
  auto* account =
      command.add_option("--account", o.accounts,
                         "Another account, KEY:SECRET (repeatable). With --access-key first, "
                         "then these, then --accounts-file; the first account owns buckets "
                         "of older data directories");
  auto* accounts_file = command.add_option(
      "--accounts-file", o.accounts_file,
      "File of accounts: one KEY:SECRET per line; blank lines and '#' comments skipped");
  access_key->needs(secret_key);
  secret_key->needs(access_key);
  command
      .add_flag("--anonymous", o.anonymous,
                "Accept every request, signed or not, without checking signatures")
      ->excludes(access_key)
      ->excludes(secret_key)
      ->excludes(account)
      ->excludes(accounts_file);
  command
      .add_option("--min-part-size", o.min_part_size,
                  "Smallest part (bytes) CompleteMultipartUpload accepts for every part but "
                  "the last (EntityTooSmall)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  command.add_option("--domain", o.domain,
                     "Serve virtual-hosted buckets: Host 'BUCKET.DOMAIN' names the bucket");
  command.add_option("--region", o.region, "Region clients sign for")->capture_default_str();
  command
      .add_option(
          "--threads", o.threads,
          "Worker threads (0: half the cores, at least one; its clients usually share the machine)")
      ->capture_default_str();
  command.add_option("--log-format", o.log_format, "Log lines as text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  command
      .add_option("--log-level", o.log_level,
                  "trace, debug, info (one line per request), warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
}

/// Every usage mistake at once (exit 2), then serving until a stop signal.
int run_origin(const origin_options& o) {
  std::vector<std::string> mistakes;
  origin::origin_config config = to_config(o, mistakes);
  for (const auto& mistake : mistakes) {
    std::cerr << "s3fault origin: " << mistake << "\n";
  }
  if (!mistakes.empty()) {
    return 2;
  }
  std::shared_ptr<spdlog::logger> logger;
  std::unique_ptr<origin::origin_server> server;
  try {
    logger = make_logger(config.format == origin::log_format::json ? proxy::log_format::json
                                                                   : proxy::log_format::text,
                         o.log_level);
    server = std::make_unique<origin::origin_server>(config, logger);
  } catch (const std::exception& error) {
    std::cerr << "s3fault origin: " << error.what() << "\n";
    return 2;
  }
  return serve_until_stopped(
      "origin", *logger, [&]() -> origin::origin_server& { return *server; },
      [&](origin::origin_server& served) {
        logger->info("origin at {}: storage in {}, {}, region {}", served.listen_url(),
                     served.service().store().description(), describe_accounts(config.settings),
                     config.settings.region);
      });
}

} // namespace

std::function<int()> add_origin_command(CLI::App& app) {
  auto options = std::make_shared<origin_options>();
  auto* command = app.add_subcommand("origin", origin_about);
  declare_origin_options(*command, *options);
  return [options]() { return run_origin(*options); };
}

} // namespace s3fault::cli
