// The repro of a run names everything needed to make it again: the object's shape and seed, the
// rules with the run's seed, the reader with its placeholders filled, and never a real store's
// secret.
#include "conformance/gate/run_repro.hpp"

#include <gtest/gtest.h>

namespace s3fault::gate {
namespace {

struct repro_fixture {
  scenario s;
  object_shape shape;
  repro_inputs in;

  repro_fixture() {
    shape.name = "mp-12";
    shape.description = "12 MiB in 5/5/2 MiB parts";
    shape.size = 12u << 20;
    shape.part_sizes = {5u << 20, 5u << 20, 2u << 20};
    s.name = "cut";
    in.s3fault = "/opt/s3fault";
    in.access_key = "s3fault";
    in.secret_key = "s3fault-secret";
    in.region = "us-east-1";
    in.bucket = "s3fault-gate-abc";
    in.key = "gate/cut/mp-12";
    in.run_scenario = &s;
    in.shape = &shape;
    in.seed = 42;
    in.rules_document = {{"seed", 42}, {"rules", nlohmann::json::array()}};
    in.client_command = "my-reader --from {endpoint} s3://{bucket}/{key} -o {output}";
  }
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ReproScript, NamesTheObjectTheRulesAndTheReader) {
  repro_fixture f;
  const auto script = repro_script(f.in);
  EXPECT_TRUE(has(script, "'/opt/s3fault' origin --listen 127.0.0.1:0")) << script;
  EXPECT_TRUE(has(script, "fixture --endpoint \"$store\" --bucket 's3fault-gate-abc' --key "
                          "'gate/cut/mp-12' --size 12582912 --parts 5242880,5242880,2097152 "
                          "--checksum crc32 --seed 42"))
      << script;
  EXPECT_TRUE(has(script, "\"seed\": 42")) << script;
  EXPECT_TRUE(has(script, "proxy --listen 127.0.0.1:0 --upstream \"$store\" --faults")) << script;
  EXPECT_TRUE(has(script, "my-reader --from \"$endpoint\" s3://'s3fault-gate-abc'/'gate/cut/mp-12' "
                          "-o \"$repro/output\""))
      << script;
  EXPECT_TRUE(has(script, "cmp \"$repro/output\" \"$repro/expected\"")) << script;
}

TEST(ReproScript, AWritersReproMakesTheInputRunsTheWriterAndReadsTheStoreDirectly) {
  repro_fixture f;
  f.in.role = run_role::writer;
  f.in.client_command = "my-writer {input} s3://{bucket}/{key} --endpoint {endpoint}";
  const auto script = repro_script(f.in);
  EXPECT_TRUE(has(script, "fixture --endpoint \"$store\" --bucket 's3fault-gate-abc' --key "
                          "'gate/cut/mp-12' --size 12582912 --seed 42 --no-upload --expected "
                          "\"$repro/input\""))
      << script;
  EXPECT_TRUE(has(script, "my-writer \"$repro/input\" s3://'s3fault-gate-abc'/'gate/cut/mp-12' "
                          "--endpoint \"$endpoint\""))
      << script;
  EXPECT_TRUE(has(script, "S3FAULT_INPUT=\"$repro/input\"")) << script;
  EXPECT_TRUE(has(script, "read robust-parts --endpoint \"$store\"")) << script;
  EXPECT_TRUE(has(script, "cmp \"$repro/stored\" \"$repro/input\"")) << script;
  EXPECT_FALSE(has(script, "--parts")) << "the writer picks its own parts";
  EXPECT_FALSE(has(script, "previous")) << script;
}

TEST(ReproScript, AnOverwritingWritersReproPutsThePreviousObjectFirst) {
  repro_fixture f;
  f.in.role = run_role::writer;
  f.s.action = scenario_action::overwrite;
  f.shape.part_sizes.clear();
  const auto script = repro_script(f.in);
  const auto input = script.find("--no-upload --expected \"$repro/input\"");
  const auto previous = script.find("--seed 2000042 --expected \"$repro/previous\"");
  ASSERT_NE(input, std::string::npos) << script;
  ASSERT_NE(previous, std::string::npos) << script;
  EXPECT_LT(input, previous) << "--no-upload empties the key; the previous object comes after";
  EXPECT_TRUE(has(script, "cmp -s \"$repro/stored\" \"$repro/previous\"")) << script;
}

TEST(ReproScript, ARealStoresKeysStayInTheEnvironment) {
  repro_fixture f;
  f.in.store = "https://store.example:9000";
  f.in.secret_key = "very-secret-key";
  const auto script = repro_script(f.in);
  EXPECT_FALSE(has(script, "very-secret-key")) << script;
  EXPECT_FALSE(has(script, " origin --listen")) << script;
  EXPECT_TRUE(has(script, "store='https://store.example:9000'")) << script;
  EXPECT_TRUE(has(script, "${AWS_SECRET_ACCESS_KEY:?")) << script;
}

} // namespace
} // namespace s3fault::gate
