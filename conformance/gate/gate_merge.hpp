#pragma once
// `s3fault gate merge`: the shards' JSON reports (`gate --shard K/N --json ...`) joined into one
// report, as if one process had made every run.
//
//   parts ──read (gate_report_read)──> checked together (same settings, shards 1..N once each)
//     ──> each run from the shard that owns it, in plan order
//     ──> NOT_JUDGED again from the owned baselines (a shard judged with its own dependency run)
//     ──> gate_exit_status of the whole: "nothing was judged" and "no fault reached" apply here
#include "conformance/gate/gate_runner.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::gate {

/// One shard's report as merge reads it.
struct gate_part {
  std::string file;
  nlohmann::json document; // as written, for comparing the settings
  gate_report report;
};

/// The shard's report in `text` (read from `file`), or nullopt with the problem added to
/// `problems` ("s2.json: not JSON: ...", "s2.json: has no \"shard\" field: ...").
std::optional<gate_part> read_gate_part(const std::string& file, std::string_view text,
                                        std::vector<std::string>& problems);

/// Every reason `parts` cannot be merged, each naming the files: settings that differ (the
/// setting and both values), a shard given twice, shards counted differently, missing shards,
/// runs a shard owns but neither made nor lists as cut off. Empty: they can be merged. A part
/// whose gate could not judge is compared on its shard only.
std::vector<std::string> merge_problems(const std::vector<gate_part>& parts);

/// One report of every run, from parts with no merge_problems: each run from its owner, in plan
/// order; a run whose shape's owned baseline did not succeed NOT_JUDGED. A part that could not
/// judge makes the merged report's error (naming the shard), an interrupted one makes it
/// interrupted with the part's cut-off runs.
gate_report merge_gate_parts(const std::vector<gate_part>& parts);

} // namespace s3fault::gate
