// --start-at: an RFC 3339 time, or +DURATION after $S3FAULT_START_AT (else after now, which
// `--shard auto` refuses: every process would count from its own start).
#include "cli/start_time.hpp"

#include "text/http_date.hpp"

#include <gtest/gtest.h>

#include <map>

namespace s3fault::cli {
namespace {

using namespace std::chrono_literals;

runtime::environment_lookup environment(std::map<std::string, std::string> variables) {
  return [variables](const std::string& name) -> std::optional<std::string> {
    const auto found = variables.find(name);
    return found == variables.end() ? std::nullopt : std::optional<std::string>(found->second);
  };
}

const auto now = *text::parse_rfc3339("2026-12-05T14:00:00Z");
const runtime::shard auto_shard{2, 3, "OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=3"};

TEST(StartAt, TakesAnRfc3339Time) {
  std::string error;
  EXPECT_EQ(resolve_start_at("2026-12-05T14:00:08Z", auto_shard, true, environment({}), now, error),
            now + 8s);
}

TEST(StartAt, CountsPlusFromTheLaunchsStartWhenSet) {
  std::string error;
  const auto env = environment({{"S3FAULT_START_AT", "2026-12-05T13:59:50Z"}});
  EXPECT_EQ(resolve_start_at("+30s", auto_shard, true, env, now, error), now + 20s);
  EXPECT_EQ(resolve_start_at("+30s", runtime::shard{}, false, environment({}), now, error),
            now + 30s);
}

TEST(StartAt, RefusesPlusUnderShardAutoWithoutTheLaunchsStart) {
  std::string error;
  EXPECT_FALSE(resolve_start_at("+30s", auto_shard, true, environment({}), now, error));
  EXPECT_NE(error.find("set S3FAULT_START_AT once for the launch"), std::string::npos) << error;
}

TEST(StartAt, NamesWhatIsWrong) {
  std::string error;
  EXPECT_FALSE(resolve_start_at("tomorrow", {}, false, environment({}), now, error));
  EXPECT_EQ(error, "--start-at tomorrow: expected an RFC 3339 time (2026-12-05T14:00:00Z) or "
                   "+DURATION (+30s)");
  EXPECT_FALSE(resolve_start_at("+soon", {}, false, environment({}), now, error));
  EXPECT_EQ(error, "--start-at +soon: 'soon' is not a duration like 30s");
  EXPECT_FALSE(resolve_start_at("+5s", {}, false, environment({{"S3FAULT_START_AT", "1700000000"}}),
                                now, error));
  EXPECT_NE(error.find("S3FAULT_START_AT=1700000000 is not an RFC 3339 time"), std::string::npos);
}

} // namespace
} // namespace s3fault::cli
