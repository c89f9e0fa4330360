#pragma once
// repro.sh: a bash script that makes one failing gate run again by hand and judges it as the gate
// did. It starts an origin like the gate's embedded one (or uses the gate's --upstream, with the
// keys from the environment), creates the run's object in a bucket of its own with `s3fault
// fixture` (same shape and seed: the same bytes), starts `s3fault proxy` with the run's rules and
// seed, runs the reader or writer as the gate did (stopped at the gate's --timeout), judges,
// and says whether the gate's verdict came again: exit 1 when it did, 0 when it did not, 2 when
// the repro itself could not run. Paths are absolute, so it runs from any directory; what it
// starts and what it makes on the store are removed when it ends.
#include "conformance/gate/object_shapes.hpp"
#include "conformance/gate/run_verdict.hpp"
#include "conformance/gate/scenarios.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace s3fault::gate {

struct repro_inputs {
  std::string s3fault;    // the binary's absolute path
  std::string store;      // the store's URL; empty: the gate's embedded origin (one is started)
  std::string access_key; // written only for the embedded origin (its well-known keys); a real
  std::string secret_key; //   store's keys are taken from the environment, never written
  std::string region;
  std::string key;
  const scenario* run_scenario = nullptr;
  const object_shape* shape = nullptr;
  std::uint32_t seed = 0;
  nlohmann::json rules_document; // what `s3fault proxy --faults FILE` reads
  run_role role = run_role::reader;
  std::string client;         // the reader or writer as the user gave it (for the header)
  std::string client_command; // the command the gate ran, with its placeholders
  std::string working_dir;    // the gate's: relative paths in the command are from there
  double timeout_seconds = 60;
  verdict gate_verdict = verdict::silent_corruption; // the failing verdict to reproduce
  std::string why;                                   // the gate's one line on it
};

/// The script, with a comment before each step.
std::string repro_script(const repro_inputs& in);

} // namespace s3fault::gate
