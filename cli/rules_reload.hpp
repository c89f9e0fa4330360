#pragma once
// Reloading the proxy's rules without a restart: SIGHUP, or a change of a --faults file seen by
// --watch, rebuilds the whole rule set from the command line's sources (profiles, presets, files,
// one-line rules, --seed) and swaps it in at once. A build with any mistake changes nothing and
// logs every mistake; the running rules keep serving. Rules whose definition did not change keep
// their counters (rule_store::replace_all); connections are never touched.
//
// What the admin API (or the page) changed since the last load is dropped, or kept with
// --keep-api-rules, and named either way (faults/reload_merge.hpp).
//
//   SIGHUP ─────────────┐
//   --watch (polling) ──┴──> reload(why) ──build_rules──> ok? ──merge_reload──replace_all──>
//                                                         │     "rules reloaded" + the API's
//                                                         │     changes dropped / kept
//                                                         └─ no: "rules reload refused", each
//                                                         mistake
#include "faults/config/build_rules.hpp"
#include "faults/reload_merge.hpp"
#include "faults/rule_store.hpp"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace spdlog {
class logger;
}

namespace s3fault::cli {

class rules_reloader {
public:
  /// The rules in `store` now are taken as the ones last loaded from `sources`: what differs
  /// from them at a reload was changed through the admin API. `keep_api_changes`
  /// (--keep-api-rules) keeps those changes where the sources left the rule alone; otherwise a
  /// reload drops them. Either way it logs them and notes them in the store (GET /rules).
  rules_reloader(faults::config::rule_sources sources, std::shared_ptr<faults::rule_store> store,
                 std::shared_ptr<spdlog::logger> logger, bool keep_api_changes = false);
  ~rules_reloader(); // stops the watch

  /// Rebuilds the rule set from the sources and swaps it in when it has no mistake; logs the
  /// outcome with `why` (e.g. "SIGHUP"). Returns whether the rules were replaced. One reload at a
  /// time; safe from any thread.
  bool reload(std::string_view why);

  /// Looks at the --faults files every `interval` (their size, time and inode, so that an
  /// editor's write-and-rename counts) and reloads when one changed and then held still for one
  /// more look. Starts a thread; the destructor ends it.
  void watch(std::chrono::milliseconds interval);

private:
  /// Logs what the reload did with the API's changes and notes it in the store.
  void tell_api_changes(std::string_view why, const faults::reload_merge& merged);
  /// What the files look like now, to compare with the last look.
  std::string files_signature() const;
  void watch_loop(std::chrono::milliseconds interval, std::string seen);

  faults::config::rule_sources sources_;
  std::shared_ptr<faults::rule_store> store_;
  std::shared_ptr<spdlog::logger> logger_;
  bool keep_api_changes_;
  std::vector<faults::rule> loaded_; // as last built from the sources; guarded by reload_mutex_
  std::mutex reload_mutex_;
  std::mutex watch_mutex_;
  std::condition_variable watch_wakeup_;
  bool stopping_ = false; // guarded by watch_mutex_
  std::thread watcher_;
};

} // namespace s3fault::cli
