// The repro of a failing run names everything needed to make it again: the object's shape and
// seed, the rules with the run's seed, the reader with its placeholders filled and its files by
// absolute path, the gate's timeout and verdict, a bucket of its own that it removes, and never a
// real store's secret.
#include "conformance/gate/run_repro.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

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
    s.origin = "builtin-matrix.yaml:7";
    in.s3fault = "/opt/s3fault";
    in.access_key = "s3fault";
    in.secret_key = "s3fault-secret";
    in.region = "us-east-1";
    in.key = "gate/cut/mp-12";
    in.run_scenario = &s;
    in.shape = &shape;
    in.seed = 42;
    in.rules_document = {{"seed", 42}, {"rules", nlohmann::json::array()}};
    in.client = "my-reader";
    in.client_command = "my-reader --from {endpoint} s3://{bucket}/{key} -o {output}";
    in.working_dir = "/nowhere";
    in.timeout_seconds = 7.5;
    in.gate_verdict = verdict::silent_corruption;
    in.why = "exit 0 with 3 of 12 bytes";
  }
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// Every part is in the script; each one missing is named.
void expect_parts(const std::string& script, std::initializer_list<std::string> parts) {
  for (const auto& part : parts) {
    EXPECT_TRUE(has(script, part)) << "missing: " << part << "\nin:\n" << script;
  }
}

TEST(ReproScript, NamesTheObjectTheRulesAndTheReader) {
  repro_fixture f;
  const auto script = repro_script(f.in);
  EXPECT_EQ(script.rfind("#!/bin/bash\n", 0), 0u) << script;
  expect_parts(script, {"s3fault='/opt/s3fault'", "\"$s3fault\" origin --listen 127.0.0.1:0",
                        "fixture --endpoint \"$store\" --bucket \"$bucket\" --key \"$key\" "
                        "--size 12582912 --parts 5242880,5242880,2097152 --checksum crc32 "
                        "--seed 42",
                        "key='gate/cut/mp-12'", "\"seed\": 42",
                        "proxy --listen 127.0.0.1:0 --threads 1 --upstream \"$store\" --faults",
                        "my-reader --from \"$S3FAULT_ENDPOINT\" "
                        "s3://\"$S3FAULT_BUCKET\"/\"$S3FAULT_KEY\" -o \"$S3FAULT_OUTPUT\"",
                        "cmp -s \"$repro/output\" \"$repro/expected\""});
}

TEST(ReproScript, UsesABucketOfItsOwnAndRemovesWhatItMadeOnExit) {
  repro_fixture f;
  const auto script = repro_script(f.in);
  expect_parts(script, {"bucket=\"s3fault-repro-$(date +%s)-$$\"", "trap clean_up EXIT",
                        "fixture --remove --endpoint \"$store\" --bucket \"$bucket\" --key "
                        "\"$key\"",
                        "kill $replacer_pid $proxy_pid", "kill $origin_pid"});
}

TEST(ReproScript, StopsTheClientAtTheGatesTimeoutAndJudgesAsTheGate) {
  repro_fixture f;
  const auto script = repro_script(f.in);
  expect_parts(script, {"timeout=7.5 ", "timeout --verbose --kill-after=0.2 \"$timeout\" bash -c",
                        "gate_verdict=SILENT_CORRUPTION\n", "verdict=HUNG", "verdict=REJECTED",
                        "echo \"$verdict reproduced: $why\"\n  exit 1", "exit 0\n",
                        "SILENT_CORRUPTION where must-recover:\n#   exit 0 with 3 of 12 bytes\n"});
}

TEST(ReproScript, NamesTheReadersFilesByAbsolutePath) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("s3fault-repro-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "readers");
  std::ofstream(dir / "readers" / "mine.py") << "print()\n";
  std::ofstream(dir / "ours.yaml") << "scenarios: []\n";
  repro_fixture f;
  f.in.working_dir = dir.string();
  f.in.client_command = "python3 readers/mine.py --out {output}";
  f.s.origin = "ours.yaml:3";
  const auto script = repro_script(f.in);
  std::filesystem::remove_all(dir);
  expect_parts(
      script, {"python3 '" + (dir / "readers" / "mine.py").string() + "' --out \"$S3FAULT_OUTPUT\"",
               "the rules of\n#    cut (" + (dir / "ours.yaml").string() + ":3)"});
}

TEST(ReproScript, AWritersReproMakesTheInputRunsTheWriterAndReadsTheStoreDirectly) {
  repro_fixture f;
  f.in.role = run_role::writer;
  f.in.gate_verdict = verdict::silent_loss;
  f.in.client_command = "my-writer {input} s3://{bucket}/{key} --endpoint {endpoint}";
  const auto script = repro_script(f.in);
  expect_parts(script, {"fixture --endpoint \"$store\" --bucket \"$bucket\" --key \"$key\" "
                        "--size 12582912 --seed 42 --no-upload \\\n  --expected "
                        "\"$repro/input\"",
                        "my-writer \"$S3FAULT_INPUT\" s3://\"$S3FAULT_BUCKET\"/\"$S3FAULT_KEY\" "
                        "--endpoint \"$S3FAULT_ENDPOINT\"",
                        "S3FAULT_INPUT=\"$repro/input\"", "read robust-parts --endpoint \"$store\"",
                        "cmp -s \"$repro/stored\" \"$repro/input\"", "verdict=SILENT_LOSS",
                        "verdict=TORN", "gate_verdict=SILENT_LOSS\n"});
  EXPECT_FALSE(has(script, "--parts")) << "the writer picks its own parts";
  EXPECT_FALSE(has(script, "--seed 2000042")) << script;
}

TEST(ReproScript, AnOverwritingWritersReproPutsThePreviousObjectFirst) {
  repro_fixture f;
  f.in.role = run_role::writer;
  f.s.action = scenario_action::overwrite;
  f.shape.part_sizes.clear();
  const auto script = repro_script(f.in);
  const auto input = script.find("--no-upload \\\n  --expected \"$repro/input\"");
  const auto previous = script.find("--seed 2000042 --expected \"$repro/previous\"");
  ASSERT_NE(input, std::string::npos) << script;
  ASSERT_NE(previous, std::string::npos) << script;
  EXPECT_LT(input, previous) << "--no-upload empties the key; the previous object comes after";
  EXPECT_TRUE(has(script, "cmp -s \"$repro/stored\" \"$repro/previous\"")) << script;
}

TEST(ReproScript, AReplacedObjectIsUploadedOnceTheJournalShowsAGet) {
  repro_fixture f;
  f.s.action = scenario_action::replace_after_first_read;
  const auto script = repro_script(f.in);
  expect_parts(script, {"--journal \"$repro/journal.jsonl\"",
                        "--seed 1000042 --expected \"$repro/replacement\"",
                        "cmp -s \"$repro/output\" \"$repro/replacement\"",
                        "A script cannot\n# hold the reader"});
}

TEST(ReproScript, ARealStoresKeysStayInTheEnvironmentBehindAPlainGuard) {
  repro_fixture f;
  f.in.store = "https://store.example:9000";
  f.in.secret_key = "very-secret-key";
  const auto script = repro_script(f.in);
  EXPECT_FALSE(has(script, "very-secret-key")) << script;
  EXPECT_FALSE(has(script, " origin --listen")) << script;
  EXPECT_TRUE(has(script, "store='https://store.example:9000'")) << script;
  const auto guard = script.find("could_not \"set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY to "
                                 "the store keys\"\n");
  ASSERT_NE(guard, std::string::npos) << script;
  const auto line_start = script.rfind('\n', guard) + 1;
  EXPECT_EQ(script.substr(line_start, guard - line_start).find('\''), std::string::npos)
      << "an apostrophe in the guard's message breaks it";
}

TEST(ReproScript, APassingRunsReproExits0WhenItsVerdictComesAgainWithItsFaultApplied) {
  // `s3fault gate repro` of a pass: a user who doubts it makes the run again.
  repro_fixture f;
  f.in.gate_verdict = verdict::correct;
  f.in.outcome = run_outcome::passed;
  f.in.why = "exit 0, every byte right";
  const auto script = repro_script(f.in);
  expect_parts(script,
               {"CORRECT where must-recover (passed):\n#   exit 0, every byte right\n",
                "Exit status 0 when CORRECT reproduces with a\n# fault applied, 1 when it does not",
                "gate_verdict=CORRECT\n", "--journal \"$repro/journal.jsonl\"",
                "kill \"$proxy_pid\" 2>/dev/null && wait \"$proxy_pid\"",
                "faults=$(grep -c '\"faults\":' \"$repro/journal.jsonl\" 2>/dev/null)",
                "echo \"not reproduced: $why ($verdict; the gate's verdict was $gate_verdict)\"\n"
                "  exit 1\n",
                "if [ \"${faults:-0}\" -eq 0 ]; then",
                "echo \"$verdict reproduced: $why\"\nexit 0\n"});
  EXPECT_FALSE(has(script, "reproduced: $why\"\n  exit 1")) << script;
}

TEST(ReproScript, ANotExercisedRunsReproComparesTheVerdictItsExitAndBytesEarned) {
  repro_fixture f;
  f.in.gate_verdict = verdict::not_exercised;
  f.in.observed = verdict::correct;
  f.in.outcome = run_outcome::not_exercised;
  const auto script = repro_script(f.in);
  expect_parts(script, {"NOT_EXERCISED where must-recover (not exercised):",
                        "gate_verdict=CORRECT\n", "the gate judged the run NOT_EXERCISED"});
  EXPECT_FALSE(has(script, "${faults:-0}\" -eq 0")) << "no fault is what the gate saw too";
}

TEST(ReproScript, AFailingRunsReproIsUnchangedByTheOutcome) {
  repro_fixture f;
  const auto script = repro_script(f.in);
  EXPECT_FALSE(has(script, "journal")) << script;
  EXPECT_FALSE(has(script, "(failed)")) << script;
}

} // namespace
} // namespace s3fault::gate
