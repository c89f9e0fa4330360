// A reader's or writer's command, for its repro.sh: the files it names relative to the gate's
// working directory made absolute, and nothing else touched.
#include "conformance/gate/client_paths.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace s3fault::gate {
namespace {

namespace fs = std::filesystem;

class ClientPaths : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("s3fault-client-paths-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "readers");
    fs::create_directories(dir_ / "s3");
    for (const char* file : {"readers/get.sh", "reader.py", "conf.yaml", "aws"}) {
      std::ofstream(dir_ / file) << "\n";
    }
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string absolute(const std::string& command) { return with_absolute_paths(command, dir_); }
  std::string in_dir(const std::string& file) { return "'" + (dir_ / file).string() + "'"; }

  fs::path dir_;
};

TEST_F(ClientPaths, RelativeScriptsAndFilesBecomeAbsolute) {
  EXPECT_EQ(absolute("readers/get.sh {bucket} {key}"),
            in_dir("readers/get.sh") + " {bucket} {key}");
  EXPECT_EQ(absolute("./readers/get.sh"), in_dir("readers/get.sh"));
  EXPECT_EQ(absolute("python3 reader.py --config=conf.yaml -o {output}"),
            "python3 " + in_dir("reader.py") + " '--config=" + (dir_ / "conf.yaml").string() +
                "' -o {output}");
  EXPECT_EQ(absolute("cat 'conf.yaml'|python3 reader.py"),
            "cat " + in_dir("conf.yaml") + "|python3 " + in_dir("reader.py"));
}

TEST_F(ClientPaths, CommandsLookedUpInPathAndOtherWordsStay) {
  // `aws` is the first word (bash looks it up in PATH), `s3` a directory without a '/'.
  EXPECT_EQ(absolute("aws s3 cp s3://{bucket}/{key} {output}"),
            "aws s3 cp s3://{bucket}/{key} {output}");
  EXPECT_EQ(absolute("missing.py {output}"), "missing.py {output}");
  EXPECT_EQ(absolute("python3 \"$HOME/reader.py\" 'it''s' /abs/reader.py"),
            "python3 \"$HOME/reader.py\" 'it''s' /abs/reader.py");
  EXPECT_EQ(absolute("python3 missing/reader.py"), "python3 missing/reader.py");
}

TEST_F(ClientPaths, AScenarioFilesOriginBecomesAbsoluteWhenItExists) {
  EXPECT_EQ(absolute_origin("conf.yaml:12", dir_), (dir_ / "conf.yaml").string() + ":12");
  EXPECT_EQ(absolute_origin("builtin-matrix.yaml:12", dir_), "builtin-matrix.yaml:12");
}

} // namespace
} // namespace s3fault::gate
