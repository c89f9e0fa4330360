#include "cli/rules_reload.hpp"

#include "text/http_date.hpp"

#include <fmt/format.h>
#include <spdlog/logger.h>
#include <sys/stat.h>

namespace s3fault::cli {

rules_reloader::rules_reloader(faults::config::rule_sources sources,
                               std::shared_ptr<faults::rule_store> store,
                               std::shared_ptr<spdlog::logger> logger, bool keep_api_changes)
    : sources_(std::move(sources)), store_(std::move(store)), logger_(std::move(logger)),
      keep_api_changes_(keep_api_changes), loaded_(store_->current()->rules()) {}

rules_reloader::~rules_reloader() {
  {
    std::lock_guard lock(watch_mutex_);
    stopping_ = true;
  }
  watch_wakeup_.notify_all();
  if (watcher_.joinable()) {
    watcher_.join();
  }
}

bool rules_reloader::reload(std::string_view why) {
  std::lock_guard lock(reload_mutex_);
  auto built = faults::config::build_rules(sources_);
  if (!built.ok()) {
    logger_->error("rules reload ({}) refused, the running rules stay: {} {}", why,
                   built.errors.size(), built.errors.size() == 1 ? "mistake" : "mistakes");
    for (const auto& error : built.errors) {
      logger_->error("  {}", error);
    }
    return false;
  }
  // The engine is reseeded only when the seed changed: an unchanged one keeps its sequence.
  std::optional<std::uint64_t> seed;
  if (built.seed && *built.seed != store_->seed()) {
    seed = built.seed;
  }
  auto merged =
      faults::merge_reload(loaded_, store_->current()->rules(), built.rules, keep_api_changes_);
  loaded_ = std::move(built.rules);
  const auto count = merged.rules.size();
  store_->replace_all(std::move(merged.rules), seed);
  logger_->info("rules reloaded ({}): {} active, seed {}", why, count, store_->seed());
  tell_api_changes(why, merged);
  for (const auto& r : store_->current()->rules()) {
    logger_->info("rule {}: {}", r.name,
                  r.definition.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return true;
}

void rules_reloader::tell_api_changes(std::string_view why, const faults::reload_merge& merged) {
  if (!merged.dropped.empty()) {
    logger_->warn("rules reload ({}) dropped {} change{} made through the admin API or the page{}",
                  why, merged.dropped.size(), merged.dropped.size() == 1 ? "" : "s",
                  keep_api_changes_ ? "" : " (--keep-api-rules keeps them)");
    for (const auto& note : merged.dropped) {
      logger_->warn("  {}", faults::describe(note));
    }
  }
  for (const auto& note : merged.kept) {
    logger_->info("rules reload ({}) kept {}", why, faults::describe(note));
  }
  store_->note_reload({std::string(why), text::format_iso8601(std::chrono::system_clock::now()),
                       keep_api_changes_, merged.dropped, merged.kept});
}

std::string rules_reloader::files_signature() const {
  std::string signature;
  for (const auto& file : sources_.rule_files) {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) {
      signature += "missing;";
      continue;
    }
    signature += fmt::format("{}:{}:{}.{};", info.st_ino, info.st_size, info.st_mtim.tv_sec,
                             info.st_mtim.tv_nsec);
  }
  return signature;
}

void rules_reloader::watch(std::chrono::milliseconds interval) {
  // The first look is taken here, not in the thread: a change made right after this call is
  // a change, whenever the thread gets to run.
  watcher_ = std::thread(
      [this, interval, seen = files_signature()] { watch_loop(interval, std::move(seen)); });
}

void rules_reloader::watch_loop(std::chrono::milliseconds interval, std::string seen) {
  std::string changed; // a change waiting to hold still for one more look
  std::unique_lock lock(watch_mutex_);
  while (!watch_wakeup_.wait_for(lock, interval, [this] { return stopping_; })) {
    lock.unlock();
    const std::string now = files_signature();
    if (now == seen) {
      changed.clear();
    } else if (now != changed) {
      changed = now; // still being written, perhaps: look again before reading it
    } else {
      seen = now;
      changed.clear();
      reload("a --faults file changed");
    }
    lock.lock();
  }
}

} // namespace s3fault::cli
