#pragma once
// The commands that reproduce one gate run by hand, against the same store: create the object
// (`s3fault fixture`, same shape and seed), start `s3fault proxy` with the run's rules and seed,
// run the reader with its placeholders filled in, compare. Pasted into bash from the directory
// the gate ran in (reader paths are relative to it), it leaves its files in a fresh temporary
// directory and prints what the reader got.
#include "conformance/gate/object_shapes.hpp"
#include "conformance/gate/run_verdict.hpp"
#include "conformance/gate/scenarios.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace s3fault::gate {

struct repro_inputs {
  std::string s3fault;    // the binary's path
  std::string store;      // the store's URL; empty: the gate's embedded origin (one is started)
  std::string access_key; // shown only for the embedded origin (its well-known keys); a real
  std::string secret_key; //   store's keys are taken from the environment, never printed
  std::string region;
  std::string bucket;
  std::string key;
  const scenario* run_scenario = nullptr;
  const object_shape* shape = nullptr;
  std::uint32_t seed = 0;
  nlohmann::json rules_document; // what `s3fault proxy --faults FILE` reads
  run_role role = run_role::reader;
  std::string client_command; // the reader's or writer's, with its placeholders
};

/// A bash script, one command per line, with comments saying what each step is.
std::string repro_script(const repro_inputs& in);

} // namespace s3fault::gate
