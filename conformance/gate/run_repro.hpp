#pragma once
// repro.sh: a bash script that makes one gate run again by hand and judges it as the gate did: a
// failing run's (written by the gate), or any run of a JSON report (`s3fault gate repro`). It
// starts an origin like the gate's embedded one (or uses the gate's --upstream, with the keys from
// the environment), creates the run's object in a bucket of its own with `s3fault fixture` (same
// shape and seed: the same bytes), starts `s3fault proxy` with the run's rules and seed, runs the
// reader or writer as the gate did (stopped at the gate's --timeout), judges, and says whether the
// gate's verdict came again: for a failure exit 1 when it did, 0 when it did not; for a pass, 0
// when it did (and its fault was applied again), 1 when not; 2 when the repro itself could not run.
// Paths are absolute, so it runs from any directory; what it starts and what it makes on the store
// are removed when it ends.
#include "conformance/gate/object_shapes.hpp"
#include "conformance/gate/run_verdict.hpp"
#include "conformance/gate/scenarios.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
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
  verdict gate_verdict = verdict::silent_corruption; // the gate's verdict of the run
  std::string why;                                   // the gate's one line on it
  /// How the run counted. A failing run's script exits 1 when its failure reproduces; a passing
  /// or not exercised run's (`s3fault gate repro`) exits 0 when its verdict reproduces.
  run_outcome outcome = run_outcome::failed;
  /// The verdict the run's exit and bytes earned: the gate's verdict but for a NOT_EXERCISED run,
  /// whose script judges the run again without counting injections as the gate did.
  std::optional<verdict> observed;
};

/// The script, with a comment before each step.
std::string repro_script(const repro_inputs& in);

} // namespace s3fault::gate
