#pragma once
// One run of a cell as the JSON report keeps it, and read back: besides the figures, what they
// were computed from (the counts and the histograms' buckets) and when the run started and
// ended by the bench's clock. `bench merge` reads shards' runs from these records.
#include "conformance/bench/cell_runner.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace s3fault::bench {

/// A figure's value as the JSON files write it: rounded to its decimals, and a count (a figure
/// without decimals: operations, errors, retries, threads) as a whole number, 1816 not 1816.0.
/// Readers take any number, so files written with counts as floats still read back.
nlohmann::json figure_json(figure f, double value);

/// The record of `run`, made on the store named `store` (empty: the one unnamed store).
nlohmann::json run_record_json(const run_result& run, const std::string& store);

/// The run a record describes, its store found by name among `stores` (the report's, in
/// order); nullopt with `why` (the missing or wrong field) when it is not a record this version
/// writes.
std::optional<run_result> read_run_record(const nlohmann::json& record,
                                          const std::vector<std::string>& stores, std::string& why);

} // namespace s3fault::bench
