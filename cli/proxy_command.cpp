#include "cli/proxy_command.hpp"
#include "runtime/build_info.hpp"

#include "cli/command_support.hpp"
#include "cli/duration.hpp"
#include "cli/logging.hpp"
#include "cli/profile_keys.hpp"
#include "cli/request_resigner.hpp"
#include "cli/rules_reload.hpp"
#include "cli/serve_until_stopped.hpp"
#include "cli/timeline_options.hpp"
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"
#include "faults/config/build_rules.hpp"
#include "faults/config/catalogue.hpp"
#include "faults/config/fault_spec.hpp"
#include "faults/config/presets.hpp"
#include "metrics/metrics_report.hpp"
#include "proxy/admin_server.hpp"
#include "proxy/exchange_metrics.hpp"
#include "proxy/proxy_identity.hpp"
#include "proxy/proxy_server.hpp"
#include "text/quantities.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>

#include <fmt/format.h>
#include <fstream>
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>
#include <optional>
#include <random>

namespace s3fault::cli {
namespace {

struct proxy_options {
  std::string listen = "127.0.0.1:8080";
  std::string upstream;
  unsigned threads = 0;
  std::string tls_cert, tls_key, upstream_ca;
  bool tls_self_signed = false;
  std::string tls_self_signed_cert; // file the self-signed certificate is written to
  bool upstream_insecure = false;
  std::string log_format = "text";
  std::string log_level = "info";
  std::string connect_timeout = "10s", idle_timeout = "60s", header_timeout = "30s",
              upstream_timeout = "300s", io_timeout = "60s", upstream_idle_timeout = "30s",
              drain_timeout = "30s";
  std::uint32_t max_header_bytes = 64 * 1024;
  std::string server_header = "AmazonS3";
  std::vector<std::string> fault_specs, rule_files, presets, profiles, s3_domains;
  bool partial_profile = false; // start although a profile's request edits lack the keys
  std::optional<std::uint64_t> seed;
  std::string admin;       // HOST:PORT of the admin API; empty: none
  std::string admin_token; // bearer token the admin API demands; empty: none (loopback only)
  std::string admin_body_limit = "1MiB"; // largest admin request body; larger ones get a 413
  std::string report;                    // JSON summary of the traffic written at exit; empty: none
  std::string list_actions;              // text | markdown: print the action catalogue and exit
  std::string list_operations;           // text | markdown: print the S3 operations and exit
  bool check = false;                    // validate the rules and exit
  bool allow_header_faults = false;      // x-s3fault-fault: a fault for one request
  bool watch = false;                    // reload the rules when a --faults file changes
  bool keep_api_rules = false;           // a reload keeps what the admin API changed
  std::string watch_interval = "1s";
  std::string journal;                    // JSON lines, one per exchange; empty: none
  std::string journal_max_size = "64MiB"; // one journal file, before it is rotated
  std::size_t journal_files = 4;          // rotated journal files kept
  // Keys the proxy signs edited requests with (request-head actions); never logged.
  std::string resign_access_key, resign_secret_key, resign_region = "us-east-1";
  timeline_options timeline; // --timeline and what goes with it
};

// The fault part of --help: every action type and preset, from the registries themselves.
std::string faults_help() {
  constexpr std::size_t width = 100;
  return "\nFault actions (--fault 'ACTION PARAMS key=value ...'; see docs/faults.md):\n" +
         faults::config::actions_text(width) +
         "\nPresets (--preset NAME[:key=value,...]; every preset also takes p, bucket, key, "
         "name):\n" +
         faults::config::presets_text(width) +
         "\nMatch and schedule keys: op, method, bucket, key, query, header, status, part,\n"
         "  p, first, skip, every, times, per-key, after, until, name.\n";
}

// Validates every fault source; prints all mistakes and returns nullopt when there are any.
faults::config::rule_sources rule_sources_of(const proxy_options& o) {
  return {o.fault_specs, o.rule_files, o.presets, o.profiles, o.seed};
}

std::optional<faults::config::rule_build> load_fault_rules(const proxy_options& o) {
  auto built = faults::config::build_rules(rule_sources_of(o));
  if (!built.ok()) {
    std::cerr << "s3fault proxy: the fault rules have " << built.errors.size()
              << (built.errors.size() == 1 ? " mistake" : " mistakes") << ":\n";
    for (const auto& error : built.errors) {
      std::cerr << "  " << error << "\n";
    }
    return std::nullopt;
  }
  return built;
}

// --check: the rules' mistakes, or the rules, and the exit status (2 or 0).
bool refuse_partial_profile(const proxy_options& o, const faults::config::rule_build& rules);

int check_rules(const proxy_options& o) {
  const auto rules = load_fault_rules(o);
  // What the proxy would refuse to start with, --check refuses too.
  if (!rules || refuse_partial_profile(o, *rules)) {
    return 2;
  }
  std::cout << "s3fault proxy --check: " << rules->rules.size()
            << (rules->rules.size() == 1 ? " rule" : " rules") << ", no mistakes\n";
  // Each rule as /rules and the page show it (the line to give --fault), then as JSON.
  for (const auto& r : rules->rules) {
    const auto line = faults::config::fault_spec_of(r.definition);
    std::cout << "  " << r.name << ": "
              << line.value_or("(no one line says it: several actions, or a list value)") << "\n"
              << "    "
              << r.definition.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
  }
  return 0;
}

// A duration option, checked as the command line is parsed so the error names the option.
void add_duration(CLI::App& command, const std::string& name, std::string& value,
                  const std::string& help) {
  command.add_option(name, value, help + " (e.g. 500ms, 10s, 2m)")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            return parse_duration(text) ? ""
                                        : "'" + text + "' is not a duration like 500ms, 10s, 2m";
          },
          "DURATION"));
}

// The keys the proxy signs edited requests with (both or neither, checked by
// proxy_usage_mistakes); none when no access key is given.
proxy::request_resigner resigner_from(const proxy_options& o) {
  if (o.resign_access_key.empty()) {
    return nullptr;
  }
  return make_request_resigner({o.resign_access_key, o.resign_secret_key, ""}, o.resign_region);
}

// Rules whose request edits cannot be sent without keys: said once at start-up.
void warn_about_unsigned_edits(const faults::rule_set& active, const proxy::proxy_config& config,
                               spdlog::logger& logger) {
  if (config.resigner) {
    return;
  }
  for (const auto& r : active.rules()) {
    for (const auto& action : r.actions) {
      if (action->phase() == faults::action_phase::request_head) {
        logger.warn("rule {}: '{}' edits requests, and without --resign-access-key and "
                    "--resign-secret-key the proxy can only edit unsigned requests and fields "
                    "their signature does not cover; other edits are not sent",
                    r.name, action->type());
        break;
      }
    }
  }
}

// A profile whose request edits would go unsigned is refused (each profile's rules named on
// stderr) unless --partial-profile asks for it; true when refused.
bool refuse_partial_profile(const proxy_options& o, const faults::config::rule_build& rules) {
  if (o.partial_profile) {
    return false;
  }
  const auto lines =
      keys_needed_lines(profile_rules_needing_keys(rules, !o.resign_access_key.empty()));
  for (const auto& line : lines) {
    std::cerr << "s3fault proxy: " << line << "\n";
  }
  return !lines.empty();
}

// The admin token given, else $S3FAULT_ADMIN_TOKEN. Not CLI11's envname: the variable is a
// standing default that a proxy without --admin ignores, while --admin-token on the command line
// without --admin is a mistake, and an envname value cannot be told from one given.
std::string admin_token_of(const proxy_options& o) {
  return !o.admin_token.empty() ? o.admin_token : env_or("S3FAULT_ADMIN_TOKEN", "");
}

// Every mistake in the options that CLI11 cannot see alone (pairs whose message names an
// alternative, values that need parsing, a required option that --list-* and --check do without),
// each as "OPTION: what is wrong"; empty when the proxy can start.
std::vector<std::string> proxy_usage_mistakes(const proxy_options& o) {
  std::vector<std::string> mistakes;
  if (parse_duration(o.watch_interval)->count() <= 0) {
    mistakes.emplace_back("--watch-interval must be longer than 0");
  }
  if (o.watch && o.rule_files.empty()) {
    mistakes.emplace_back("--watch needs --faults FILE (it watches the rules files)");
  }
  if (o.upstream.empty()) {
    mistakes.emplace_back(
        "--upstream is required (the store: http://HOST:PORT or https://HOST:PORT)");
  } else if (!text::http_endpoint::parse(o.upstream).tls &&
             (o.upstream_insecure || !o.upstream_ca.empty())) {
    mistakes.emplace_back("--upstream-ca and --upstream-insecure need an https:// upstream");
  }
  for (auto& mistake : timeline_usage_mistakes(o.timeline)) {
    mistakes.push_back(std::move(mistake));
  }
  if (!faults::actions::is_header_value(o.server_header)) {
    mistakes.emplace_back("--server-header: must be text without control characters");
  }
  if (o.resign_access_key.empty() != o.resign_secret_key.empty()) {
    mistakes.emplace_back("--resign-access-key and --resign-secret-key (or "
                          "$S3FAULT_RESIGN_SECRET_KEY) go together");
  }
  if (o.partial_profile && o.profiles.empty()) {
    mistakes.emplace_back("--partial-profile needs --profile");
  }
  if (!o.tls_self_signed && !o.tls_self_signed_cert.empty()) {
    mistakes.emplace_back("--tls-self-signed-cert needs --tls-self-signed");
  }
  if (!o.admin_token.empty() && o.admin.empty()) {
    mistakes.emplace_back("--admin-token needs --admin HOST:PORT");
  }
  const auto body_limit = text::parse_size(o.admin_body_limit);
  if (!body_limit || *body_limit == 0 || *body_limit > (1ull << 30)) {
    mistakes.push_back("--admin-body-limit: '" + o.admin_body_limit +
                       "' is not a size from 1 byte to 1GiB, like 4MiB");
  }
  if (!o.journal.empty() && !text::parse_size(o.journal_max_size)) {
    mistakes.push_back("--journal-max-size: '" + o.journal_max_size +
                       "' is not a size, like 256MiB");
  }
  return mistakes;
}

// The proxy's settings from options proxy_usage_mistakes found none in.
proxy::proxy_config to_config(const proxy_options& o) {
  proxy::proxy_config config;
  config.listen = text::listen_address::parse(o.listen);
  config.upstream = text::http_endpoint::parse(o.upstream);
  config.threads = o.threads;
  config.tls_cert_file = o.tls_cert;
  config.tls_key_file = o.tls_key;
  config.tls_self_signed = o.tls_self_signed;
  config.tls_self_signed_cert_out = o.tls_self_signed_cert;
  config.allow_header_faults = o.allow_header_faults;
  config.upstream_ca_file = o.upstream_ca;
  config.upstream_insecure = o.upstream_insecure;
  config.format = o.log_format == "json" ? proxy::log_format::json : proxy::log_format::text;
  config.connect_timeout = *parse_duration(o.connect_timeout);
  config.client_idle_timeout = *parse_duration(o.idle_timeout);
  config.header_timeout = *parse_duration(o.header_timeout);
  config.upstream_timeout = *parse_duration(o.upstream_timeout);
  config.io_timeout = *parse_duration(o.io_timeout);
  config.upstream_idle_timeout = *parse_duration(o.upstream_idle_timeout);
  config.drain_timeout = *parse_duration(o.drain_timeout);
  config.max_header_bytes = o.max_header_bytes;
  config.server_header = o.server_header;
  config.s3_domains = o.s3_domains;
  config.resigner = resigner_from(o);
  return config;
}

// --listen and --upstream.
void declare_endpoint_options(CLI::App& command, proxy_options& o) {
  command.add_option("--listen", o.listen, "HOST:PORT to listen on; port 0 picks a free one")
      ->capture_default_str()
      ->check(listen_address_check());
  command
      .add_option("--upstream", o.upstream,
                  "The store: http://HOST:PORT or https://HOST:PORT (required)")
      ->check(store_url_check());
}

// --threads and the TLS of both sides.
void declare_tls_options(CLI::App& command, proxy_options& o) {
  command.add_option("--threads", o.threads, "Worker threads (0: one per core)")
      ->capture_default_str();
  auto* cert =
      command.add_option("--tls-cert", o.tls_cert, "Serve HTTPS with this PEM certificate (chain)");
  auto* key = command.add_option("--tls-key", o.tls_key, "PEM private key for --tls-cert");
  cert->needs(key);
  key->needs(cert);
  command
      .add_flag("--tls-self-signed", o.tls_self_signed,
                "Serve HTTPS with a certificate for localhost made in memory at start-up")
      ->excludes(cert);
  command.add_option("--tls-self-signed-cert", o.tls_self_signed_cert,
                     "Write the --tls-self-signed certificate (PEM, without its key) to this file "
                     "before listening, for clients' CA bundles (e.g. AWS_CA_BUNDLE)");
  command.add_option("--upstream-ca", o.upstream_ca,
                     "Verify an https store against this PEM CA file instead of the system CAs");
  command.add_flag("--upstream-insecure", o.upstream_insecure,
                   "Do not verify the https store's certificate");
}

// --log-format, --log-level, the deadlines and the limits on heads.
void declare_exchange_options(CLI::App& command, proxy_options& o) {
  command.add_option("--log-format", o.log_format, "Log lines as text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  command
      .add_option("--log-level", o.log_level,
                  "trace, debug, info (one line per exchange), warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
  add_duration(command, "--connect-timeout", o.connect_timeout,
               "Deadline for connecting to the store");
  add_duration(command, "--idle-timeout", o.idle_timeout,
               "Close a client connection idle this long between requests");
  add_duration(command, "--header-timeout", o.header_timeout,
               "Deadline for a whole request or response head once it has started");
  add_duration(command, "--upstream-timeout", o.upstream_timeout,
               "Deadline for the store's response head (504 when exceeded)");
  add_duration(command, "--io-timeout", o.io_timeout,
               "Deadline for any single body read or write on either side");
  add_duration(command, "--upstream-idle-timeout", o.upstream_idle_timeout,
               "Drop pooled store connections unused this long");
  add_duration(command, "--drain-timeout", o.drain_timeout,
               "On SIGINT/SIGTERM, wait this long for exchanges in flight");
  command
      .add_option("--server-header", o.server_header,
                  "Server field of the answers the proxy makes itself (fault and gateway "
                  "errors); empty: none")
      ->capture_default_str();
  command
      .add_option("--max-header-bytes", o.max_header_bytes,
                  "Largest request or response head accepted")
      ->capture_default_str()
      ->check(CLI::Range(1024u, 1024u * 1024u));
}

// The catalogues, --check, and how the rules reach requests and are reloaded.
void declare_catalogue_options(CLI::App& command, proxy_options& o) {
  command
      .add_option("--list-actions", o.list_actions,
                  "Print every fault action (text: columns, markdown: the table of "
                  "docs/faults.md) and exit")
      ->check(CLI::IsMember({"text", "markdown"}));
  command
      .add_option("--list-operations", o.list_operations,
                  "Print every S3 operation op= takes, from AWS's S3 service model, with the "
                  "sets @multipart, @read, @write (text, the default: columns; markdown: the "
                  "table of docs/faults.md) and exit")
      ->expected(0, 1)
      ->default_str("text")
      ->check(CLI::IsMember({"text", "markdown"}));
  command.add_flag("--allow-header-faults", o.allow_header_faults,
                   "Take a fault for one request from its 'x-s3fault-fault: ONE-LINE RULE' "
                   "field (added after signing; removed before the store): that rule and no "
                   "other for the request. Without it such requests are refused (400)");
  command.add_flag("--check", o.check,
                   "Validate the rules (--fault, --faults, --preset, --profile, --seed), print "
                   "every mistake or the rules, and exit 0 (no mistake) or 2, without listening");
  command.add_flag("--watch", o.watch,
                   "Reload the rules when a --faults file changes, as SIGHUP does: all sources "
                   "re-read and swapped in at once, or on any mistake none (each logged)");
  add_duration(command, "--watch-interval", o.watch_interval,
               "How often --watch looks at the files");
  command.add_flag("--keep-api-rules", o.keep_api_rules,
                   "A reload (SIGHUP, --watch) keeps the rules the admin API or the page added, "
                   "edited, switched or deleted, unless the sources changed that rule too. "
                   "Without it a reload drops them. Either way the log and GET /rules name them");
}

// Where the fault rules come from.
void declare_rule_source_options(CLI::App& command, proxy_options& o) {
  command.add_option("--fault", o.fault_specs,
                     "A fault rule in one line, e.g. 'strip-header x-amz-mp-parts-count "
                     "op=GetObject query=partNumber' (repeatable)");
  command.add_option("--faults", o.rule_files, "A YAML or JSON rules file (repeatable)");
  command.add_option("--preset", o.presets,
                     "A named set of rules, e.g. rustfs-parts-count (repeatable)");
  command.add_option("--profile", o.profiles,
                     "Make the store answer like another: a shipped store profile (see 's3fault "
                     "profile list': rgw-16.2, s3rver-3.7, rustfs-1.0.0-rc.5) or a profile file; "
                     "most need --resign-access-key/--resign-secret-key (repeatable)");
  command.add_flag("--partial-profile", o.partial_profile,
                   "Start although a --profile's rules edit signed requests and no "
                   "--resign-access-key/--resign-secret-key are given: those rules are then not "
                   "applied to signed requests, and /stats and --report say so (without this "
                   "flag the proxy refuses to start, exit 2)");
  command.add_option("--seed", o.seed,
                     "Seed of the fault dice, overriding the rules files' seeds (default: "
                     "from the rules files, else random; logged)");
}

// The admin API, the traffic report and journal, the S3 domain, and the keys edited requests
// are signed with.
void declare_control_options(CLI::App& command, proxy_options& o) {
  command
      .add_option("--admin", o.admin,
                  "Serve the admin API (JSON over HTTP: list/add/replace/delete/enable/disable "
                  "rules, counters; GET /metrics in Prometheus format, GET /stats as JSON) on "
                  "this loopback HOST:PORT; prints 'admin on URL'")
      ->check(listen_address_check());
  command.add_option("--admin-token", o.admin_token,
                     "Demand 'Authorization: Bearer TOKEN' on every admin request (at least 16 "
                     "characters; default: $S3FAULT_ADMIN_TOKEN). Needed to serve the admin API "
                     "on a non-loopback address");
  command
      .add_option("--admin-body-limit", o.admin_body_limit,
                  "Largest admin request body, e.g. 4MiB (at most 1GiB); a larger one is "
                  "answered 413 with the limit named, and logged")
      ->capture_default_str();
  command.add_option("--report", o.report,
                     "At exit, write the traffic measured (per S3 operation: requests, bytes, "
                     "latency and TTFB p50/p90/p99/max, retries; faults per rule) as JSON");
  command.add_option("--journal", o.journal,
                     "Write one JSON line per exchange to FILE (time, operation, bucket, key, "
                     "part, range, status, S3 error code, bytes, TTFB, duration, faults, the "
                     "store's request id, the request's fields with secrets redacted; never a "
                     "body); see docs/journal.md and 's3fault journal'");
  command
      .add_option("--journal-max-size", o.journal_max_size,
                  "Size of one journal file before it is renamed FILE.1 (FILE.2, ...) and a "
                  "new one started, e.g. 256MiB")
      ->capture_default_str();
  command
      .add_option("--journal-files", o.journal_files,
                  "Rotated journal files kept besides the current one (0: the file is "
                  "truncated when full)")
      ->capture_default_str();
  command.add_option("--s3-domain", o.s3_domains,
                     "Domain of virtual-host style requests (BUCKET.DOMAIN), for matching");
  command.add_option("--resign-access-key", o.resign_access_key,
                     "Access key the proxy signs requests with after a request-head action "
                     "edited a signed part of them (strip-query partNumber, ...) or a resign "
                     "action asked for it; the store must accept these keys");
  // From the environment, so that the secret stays out of the process list.
  command
      .add_option("--resign-secret-key", o.resign_secret_key,
                  "Secret key for --resign-access-key (default: $S3FAULT_RESIGN_SECRET_KEY; "
                  "never logged)")
      ->envname("S3FAULT_RESIGN_SECRET_KEY");
  command
      .add_option("--resign-region", o.resign_region,
                  "Region to sign for when the request names none (unsigned requests)")
      ->capture_default_str();
  declare_timeline_options(command, o.timeline, true);
}

// The catalogues and --check, which answer without listening; nullopt when none was asked for.
std::optional<int> answer_without_listening(const proxy_options& o) {
  if (!o.list_actions.empty()) {
    std::cout << (o.list_actions == "markdown" ? faults::config::actions_markdown()
                                               : faults::config::actions_text(100));
    return 0;
  }
  if (!o.list_operations.empty()) {
    std::cout << (o.list_operations == "markdown" ? faults::config::operations_markdown()
                                                  : faults::config::operations_text(100));
    return 0;
  }
  if (o.check) {
    return check_rules(o);
  }
  return std::nullopt;
}

// The store as the proxy names it (/stats, --report, the dashboard): the port always written.
std::string upstream_text(const proxy::proxy_config& config) {
  return config.upstream.scheme() + "://" + config.upstream.host_and_port();
}

// The admin API on --admin (none without it), announced on stdout; throws when it cannot start.
std::unique_ptr<proxy::admin_server> start_admin(const proxy_options& o,
                                                 proxy::proxy_config& config,
                                                 std::shared_ptr<spdlog::logger> logger,
                                                 const timeline_run* timeline,
                                                 const nlohmann::json& profile) {
  if (o.admin.empty()) {
    return nullptr;
  }
  block_stop_signals(); // before the admin thread starts: it must not take SIGTERM
  config.inspector = std::make_shared<proxy::exchange_inspector>();
  proxy::admin_options options{admin_token_of(o),
                               static_cast<std::size_t>(*text::parse_size(o.admin_body_limit)),
                               upstream_text(config),
                               config.inspector,
                               {},
                               profile};
  if (timeline != nullptr) {
    options.timeline = [timeline](bool with_buckets) { return timeline->json_now(with_buckets); };
  }
  auto admin = std::make_unique<proxy::admin_server>(
      text::listen_address::parse(o.admin), config.faults, config.metrics,
      std::string(runtime::build_version()), std::move(logger), std::move(options));
  std::cout << "admin on " << admin->url() << std::endl;
  return admin;
}

// The journal on --journal (none without it); throws when its file cannot be opened.
std::shared_ptr<proxy::traffic_journal> open_journal(const proxy_options& o) {
  if (o.journal.empty()) {
    return nullptr;
  }
  return std::make_shared<proxy::traffic_journal>(
      proxy::journal_settings{o.journal, *text::parse_size(o.journal_max_size), o.journal_files});
}

// What the proxy serves, logged once it is bound: the way through, the seed and every rule.
void announce_proxy(proxy::proxy_server& served, const proxy::proxy_config& config,
                    proxy::admin_server* admin, std::uint64_t seed, spdlog::logger& logger) {
  logger.info("proxying {} -> {}://{}", served.listen_url(), config.upstream.scheme(),
              config.upstream.host_and_port());
  if (admin != nullptr) {
    admin->set_proxy_url(served.listen_url());
  }
  const auto active = config.faults->current();
  logger.info("fault rules: {} active, seed {}", active->rules().size(), seed);
  warn_about_unsigned_edits(*active, config, logger);
  for (const auto& r : active->rules()) {
    logger.info("rule {}: {}", r.name,
                r.definition.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
}

// The traffic as measured, for people (stderr: stdout carries only the listening line) and,
// with --report, for tools; with --timeline its drift too. The exit status once it is written.
int report_traffic(const proxy_options& o, const metrics::traffic_metrics& measured,
                   const proxy::proxy_identity& identity, timeline_run* timeline,
                   spdlog::logger& logger, int status, const nlohmann::json& profile) {
  logger.info("traffic through the proxy:\n{}", metrics::summary_table(measured));
  logger.flush();
  auto stats = metrics::stats_json(measured);
  if (!profile.is_null()) {
    stats["profile"] = profile;
  }
  stats["proxy"] = proxy::identity_json(identity);
  if (timeline != nullptr) {
    std::string error;
    stats.update(timeline->finish(std::cerr, "s3fault proxy to " + o.upstream, error));
    if (!error.empty()) {
      std::cerr << "s3fault proxy: " << error << "\n";
      status = status == 0 ? 1 : status;
    }
  }
  if (o.report.empty()) {
    return status;
  }
  std::ofstream report(o.report, std::ios::trunc);
  report << stats.dump(o.timeline.interval.empty() ? 2 : -1, ' ', false,
                       nlohmann::json::error_handler_t::replace)
         << "\n";
  if (!report) {
    std::cerr << "s3fault proxy: cannot write --report " << o.report << "\n";
    return status == 0 ? 1 : status;
  }
  return status;
}

// Serves until a stop signal, with the rules, admin API and journal of options that are usable.
int run_proxy(const proxy_options& o, faults::config::rule_build rules) {
  proxy::proxy_config config;
  std::shared_ptr<spdlog::logger> logger;
  try {
    config = to_config(o);
    logger = make_logger(config.format, o.log_level);
  } catch (const std::exception& error) {
    std::cerr << "s3fault proxy: " << error.what() << "\n";
    return 2;
  }
  const std::uint64_t seed = o.seed ? *o.seed : rules.seed ? *rules.seed : std::random_device{}();
  // Only with --partial-profile can rules be left unapplied here: the command refused otherwise.
  const auto unapplied = profile_rules_needing_keys(rules, !o.resign_access_key.empty());
  const auto profile = profile_block(rules, unapplied);
  for (const auto& line : partial_profile_lines(unapplied)) {
    logger->warn("{}", line);
  }
  config.faults = std::make_shared<faults::rule_store>(seed, faults::clock::now());
  config.faults->replace_all(std::move(rules.rules));
  config.metrics = std::make_shared<metrics::traffic_metrics>(proxy::metric_operation_names());
  std::optional<timeline_run> timeline;
  std::unique_ptr<proxy::admin_server> admin;
  try {
    if (!o.timeline.interval.empty()) {
      timeline.emplace(o.timeline, config.metrics, store_probe_of(o.timeline));
      block_stop_signals(); // before the timeline's thread starts: it must not take SIGTERM
      timeline->start();
    }
    admin = start_admin(o, config, logger, timeline ? &*timeline : nullptr, profile);
    block_stop_signals(); // before the journal's and the watch's threads: not for SIGTERM
    config.journal = open_journal(o);
  } catch (const std::exception& error) {
    std::cerr << "s3fault proxy: " << error.what() << "\n";
    return 2;
  }
  rules_reloader reloader(rule_sources_of(o), config.faults, logger, o.keep_api_rules);
  if (o.watch) {
    reloader.watch(
        std::chrono::duration_cast<std::chrono::milliseconds>(*parse_duration(o.watch_interval)));
  }
  // Built once the stop signals are blocked: a failure here exits 1, like a failure to bind.
  std::optional<proxy::proxy_server> server;
  proxy::proxy_identity identity{std::string(runtime::build_version()), "", upstream_text(config),
                                 seed};
  const int status = serve_until_stopped(
      "proxy", *logger, [&]() -> proxy::proxy_server& { return server.emplace(config, logger); },
      [&](proxy::proxy_server& served) {
        identity.listen = served.listen_url();
        announce_proxy(served, config, admin.get(), seed, *logger);
      },
      [&reloader] { reloader.reload("SIGHUP"); });
  return report_traffic(o, *config.metrics, identity, timeline ? &*timeline : nullptr, *logger,
                        status, profile);
}

} // namespace

std::function<int()> add_proxy_command(CLI::App& app) {
  auto options = std::make_shared<proxy_options>();
  auto* command = app.add_subcommand(
      "proxy",
      "Transparent HTTP(S) proxy between an S3 client and an S3-compatible store.\n"
      "With no fault active every byte, header and signature passes through unchanged.\n"
      "Prints 'listening on URL' on stdout once it accepts connections; one log line per\n"
      "exchange goes to stderr. SIGINT/SIGTERM: stop accepting, finish exchanges in flight\n"
      "(up to --drain-timeout), exit 0. SIGHUP: reload the rules from their sources (all\n"
      "or, on any mistake, none; connections and the counters of unchanged rules kept).");
  // In the order --help lists them.
  declare_endpoint_options(*command, *options);
  declare_catalogue_options(*command, *options);
  declare_tls_options(*command, *options);
  declare_exchange_options(*command, *options);
  declare_rule_source_options(*command, *options);
  declare_control_options(*command, *options);
  command->footer(command->get_footer() + "\n" + faults_help());

  return [options]() -> int {
    if (const auto answer = answer_without_listening(*options)) {
      return *answer;
    }
    // Every mistake at once: the options' and the rules'.
    const auto mistakes = proxy_usage_mistakes(*options);
    for (const auto& mistake : mistakes) {
      std::cerr << "s3fault proxy: " << mistake << "\n";
    }
    auto rules = load_fault_rules(*options);
    const bool half_applied = rules && refuse_partial_profile(*options, *rules);
    if (!mistakes.empty() || !rules || half_applied) {
      return 2;
    }
    return run_proxy(*options, std::move(*rules));
  };
}

} // namespace s3fault::cli
