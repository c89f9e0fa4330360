// The proxy's rules reloaded from their sources: a valid set is swapped in whole, keeping the
// counters of unchanged rules; a set with a mistake changes nothing and every mistake is logged;
// --watch notices an edited file, and one replaced by rename.
#include "cli/rules_reload.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace s3fault::cli {
namespace {

namespace fs = std::filesystem;

class RulesReload : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("s3fault-reload-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    file_ = dir_ / "rules.yaml";
    logger_ = std::make_shared<spdlog::logger>(
        "reload", std::make_shared<spdlog::sinks::ostream_sink_mt>(log_));
    store_ = std::make_shared<faults::rule_store>(7, faults::clock::now());
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& text, const fs::path& path) {
    std::ofstream(path, std::ios::trunc) << text;
  }
  std::unique_ptr<rules_reloader> reloader_of(std::vector<std::string> specs = {}) {
    return std::make_unique<rules_reloader>(
        faults::config::rule_sources{std::move(specs), {file_.string()}, {}, {}, {}}, store_,
        logger_);
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& r : store_->current()->rules()) {
      out.push_back(r.name);
    }
    return out;
  }
  /// Waits (at most 30 s, far more than the watch needs) for the store to publish a snapshot.
  bool published_after(std::uint64_t version) const {
    for (int i = 0; i < 3000 && store_->version() == version; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return store_->version() != version;
  }

  static constexpr const char* one_rule =
      "rules:\n  - name: slow\n    match: {operations: [GetObject]}\n"
      "    actions: [{type: error, code: SlowDown}]\n";
  static constexpr const char* two_rules =
      "rules:\n  - name: slow\n    match: {operations: [GetObject]}\n"
      "    actions: [{type: error, code: SlowDown}]\n"
      "  - name: boom\n    match: {operations: [PutObject]}\n"
      "    actions: [{type: error, code: InternalError}]\n";

  fs::path dir_, file_;
  std::ostringstream log_;
  std::shared_ptr<spdlog::logger> logger_;
  std::shared_ptr<faults::rule_store> store_;
};

TEST_F(RulesReload, AValidSetIsSwappedInAndUnchangedRulesKeepTheirCounters) {
  write(one_rule, file_);
  auto reloader = reloader_of({"error NoSuchKey op=HeadObject name=spec"});
  ASSERT_TRUE(reloader->reload("start"));
  EXPECT_EQ(names(), (std::vector<std::string>{"slow", "spec"}));
  store_->current()->rules()[0].state->matched = 41;
  write(two_rules, file_);
  ASSERT_TRUE(reloader->reload("SIGHUP"));
  EXPECT_EQ(names(), (std::vector<std::string>{"slow", "boom", "spec"}));
  EXPECT_EQ(store_->current()->rules()[0].state->matched.load(), 41u);
  EXPECT_NE(log_.str().find("rules reloaded (SIGHUP): 3 active"), std::string::npos) << log_.str();
}

TEST_F(RulesReload, ASetWithMistakesChangesNothingAndEveryMistakeIsLogged) {
  write(two_rules, file_);
  auto reloader = reloader_of({"truncate abc"});
  EXPECT_FALSE(reloader->reload("SIGHUP"));
  EXPECT_TRUE(names().empty());
  auto fixed = reloader_of();
  ASSERT_TRUE(fixed->reload("start"));
  const auto before = store_->current();
  write("rules:\n  - name: slow\n    actions: [{type: error, code: Nope}]\n  - [\n", file_);
  EXPECT_FALSE(fixed->reload("SIGHUP"));
  EXPECT_EQ(store_->current(), before); // the very same snapshot serves on
  const auto log = log_.str();
  EXPECT_NE(log.find("truncate.at"), std::string::npos) << log;
  EXPECT_NE(log.find("rules reload (SIGHUP) refused, the running rules stay"), std::string::npos)
      << log;
  EXPECT_NE(log.find("rules.yaml"), std::string::npos) << log;
}

TEST_F(RulesReload, TheWatchReloadsAnEditedFileAndOneReplacedByRename) {
  write(one_rule, file_);
  auto reloader = reloader_of();
  ASSERT_TRUE(reloader->reload("start"));
  reloader->watch(std::chrono::milliseconds(20));
  auto version = store_->version();
  write(two_rules, file_);
  ASSERT_TRUE(published_after(version)) << log_.str();
  EXPECT_EQ(names(), (std::vector<std::string>{"slow", "boom"}));
  // An editor's save: a new file renamed over the old one.
  version = store_->version();
  write(one_rule, dir_ / "rules.yaml.new");
  fs::rename(dir_ / "rules.yaml.new", file_);
  ASSERT_TRUE(published_after(version)) << log_.str();
  EXPECT_EQ(names(), (std::vector<std::string>{"slow"}));
  EXPECT_NE(log_.str().find("rules reloaded (a --faults file changed)"), std::string::npos);
}

TEST_F(RulesReload, AReloadNamesTheApiChangesItDropsAndKeepsThemWhenAsked) {
  write(two_rules, file_);
  for (const bool keep : {false, true}) {
    store_->replace_all({});
    auto reloader = std::make_unique<rules_reloader>(
        faults::config::rule_sources{{}, {file_.string()}, {}, {}, {}}, store_, logger_, keep);
    ASSERT_TRUE(reloader->reload("start"));
    // The page adds a rule and switches one off.
    auto page = faults::config::build_rules({"reset op=ListObjectsV2 name=from-page"}, {}, {});
    std::string taken;
    ASSERT_EQ(store_->add(std::move(page.rules), taken), faults::rule_store::change_error::none);
    ASSERT_EQ(store_->set_enabled("slow", false), faults::rule_store::change_error::none);
    log_.str("");
    ASSERT_TRUE(reloader->reload("SIGHUP"));
    const auto notice = store_->last_reload();
    ASSERT_NE(notice, nullptr);
    EXPECT_EQ(notice->why, "SIGHUP");
    const auto log = log_.str();
    if (keep) {
      EXPECT_EQ(names(), (std::vector<std::string>{"slow", "boom", "from-page"}));
      EXPECT_FALSE(store_->current()->rules()[0].enabled);
      EXPECT_EQ(notice->kept.size(), 2U);
      EXPECT_TRUE(notice->dropped.empty());
      EXPECT_NE(log.find("rules reload (SIGHUP) kept rule from-page (added through the admin API)"),
                std::string::npos)
          << log;
    } else {
      EXPECT_EQ(names(), (std::vector<std::string>{"slow", "boom"}));
      EXPECT_TRUE(store_->current()->rules()[0].enabled);
      EXPECT_EQ(notice->dropped.size(), 2U);
      EXPECT_NE(log.find("rules reload (SIGHUP) dropped 2 changes made through the admin API or "
                         "the page (--keep-api-rules keeps them)"),
                std::string::npos)
          << log;
      EXPECT_NE(log.find("rule slow (switched off through the admin API): dropped: back to the "
                         "sources' version"),
                std::string::npos)
          << log;
    }
  }
}

} // namespace
} // namespace s3fault::cli
