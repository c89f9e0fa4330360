#pragma once
// Small pieces the job subcommands (audit, gate, read, demo) share: defaults from the
// environment, the checks of addresses, when to colour, and writing a report file.
#include "conformance/client/s3_client.hpp"
#include "runtime/shard.hpp"

#include <CLI/App.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::cli {

/// The environment variable's value, or `fallback` when it is unset or empty.
std::string env_or(const char* name, std::string fallback);

/// A new directory in the temporary directory, named `prefix` and six random characters; nullopt
/// when it cannot be made.
std::optional<std::string> make_temporary_directory(const std::string& prefix);

/// Checks of the two address forms (text/endpoint.hpp) as the command line is parsed, so that a
/// refusal names the option: "--upstream: 'ftp://x': must start with http:// or https://".
const CLI::Validator& store_url_check();
const CLI::Validator& listen_address_check();
/// The same check for the jobs that must still write their reports when it fails: empty when
/// `url` is usable or not given, else "OPTION: 'URL': what is wrong".
std::string store_url_refusal(const std::string& option, std::string url);

/// `--color auto|always|never`: auto colours a terminal unless NO_COLOR is set.
bool use_colour(const std::string& choice);

/// A report a job may write: where to (empty: not asked for) and how to render it.
struct report_file {
  std::string path;
  std::function<std::string()> render;
};

/// Writes every report whose path is set; each one that cannot be written is named
/// ("s3fault COMMAND: cannot write PATH"). False when any failed.
bool write_report_files(const std::string& command, const std::vector<report_file>& reports);

/// Before any work: whether every report asked for can be written. Each path given is opened
/// for writing (a file this creates is removed again); each one that cannot is named with its
/// option and the reason ("s3fault gate: --json /no/such/r.json: cannot write: No such file or
/// directory"). Pairs of option and path; an empty path is not asked for.
bool report_paths_writable(const std::string& command,
                           const std::vector<std::pair<std::string, std::string>>& option_paths);

/// The exit status at the end of a job: 2 when its reports could not be written, 130 when it
/// was interrupted, else `status`.
int job_exit_status(bool reports_written, bool interrupted, int status);

/// How a job reaches a store it talks to directly (audit, read, bench): keys, region, deadlines
/// and TLS trust.
struct store_access {
  std::string access_key;
  std::string secret_key;
  std::string region;
  double timeout_seconds = 30;
  std::string ca_file;
  bool insecure = false;
};

/// Adds --access-key, --secret-key, --region and --timeout to `command` (and --ca and
/// --insecure when `with_tls`).
void add_store_access_options(CLI::App* command, store_access& access, bool with_tls);

/// The keys given, else $AWS_ACCESS_KEY_ID and $AWS_SECRET_ACCESS_KEY, else the embedded
/// origin's (s3fault / s3fault-secret); and the region given, else $AWS_REGION, else
/// $AWS_DEFAULT_REGION, else us-east-1: the same in every command that talks to a store.
s3::credentials credentials_or_environment(const std::string& access_key,
                                           const std::string& secret_key);
std::string region_or_environment(const std::string& region);

/// Aims `config` at the embedded origin at `url`, with its keys and region: the environment's
/// are for a store of the user's, and the embedded origin would refuse them.
void aim_at_embedded_origin(client::client_config& config, const std::string& url);

/// The client settings for `endpoint`: the keys and region given, else $AWS_ACCESS_KEY_ID,
/// $AWS_SECRET_ACCESS_KEY, $AWS_REGION / $AWS_DEFAULT_REGION, else the embedded origin's
/// defaults (s3fault / s3fault-secret / us-east-1); every deadline set to the timeout.
client::client_config store_client_config(const std::string& endpoint, const store_access& access,
                                          std::string user_agent);

/// False, with the mistake printed after `prefix` on stderr, when --endpoint is not a store URL
/// or only one of --access-key and --secret-key is given (the caller exits 2).
bool store_arguments_usable(const std::string& prefix, const std::string& endpoint,
                            const store_access& access);

/// A subcommand of a command (`gate merge`, `bench merge`) and how to run it once parsed.
struct subcommand_runner {
  CLI::App* command = nullptr;
  std::function<int()> run;
  bool parsed() const { return command->parsed(); }
};

/// `--shard K/N|auto` and `--shards N` as given.
struct shard_options {
  std::string shard; // empty: not sharded (nothing is read from the environment)
  unsigned shards = 0;
};

/// Adds --shard and --shards to `command`, whose work `what` describes ("runs", "workers").
void add_shard_options(CLI::App* command, shard_options& options, const std::string& what);

/// The shard these options name (unsharded without --shard), or nullopt with the mistake
/// printed after `prefix` on stderr (the caller exits 2).
std::optional<runtime::shard> resolve_shard(const std::string& prefix,
                                            const shard_options& options);

} // namespace s3fault::cli
