#pragma once
// Whether a baseline was measured as this bench is about to measure: the same run length,
// rounds, objects, part size, verification and control runs, and the same cells. Comparing
// runs made differently compares the settings, not the store; each difference is one line.
#include "conformance/bench/bench_summary.hpp"

#include <string>
#include <vector>

namespace s3fault::bench {

/// "--duration: 2s here, 1s in the baseline", "get 4KiB c=8: not in the baseline", ...
/// Empty when everything matches.
std::vector<std::string> baseline_mismatches(const bench_settings& settings,
                                             const std::vector<cell>& cells,
                                             const baseline& earlier);

} // namespace s3fault::bench
