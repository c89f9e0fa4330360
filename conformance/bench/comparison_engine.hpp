#pragma once
// The one comparison of a bench, with two sources of reference rounds: an earlier bench's file
// (--baseline) or the first store of this one (--store a=URL --store b=URL). Either way each
// compared figure of a cell is judged by compare_rounds (bench_statistics.hpp) against the
// reference's rounds of the same cell, with the wider of the two control bands; the verdict,
// its words and the exit status are then the same code (bench_verdict.hpp).
//
//   baseline:  this run's cell ──compare_rounds──> the baseline's same cell
//   stores:    store b's cell  ──compare_rounds──> store a's same cell   (a: the reference)
#include "conformance/bench/bench_summary.hpp"

#include <string>

namespace s3fault::bench {

/// What a bench's figures are compared with.
enum class reference_kind {
  none,     // one store, no baseline: nothing
  baseline, // an earlier bench's file
  store,    // the first of this bench's stores
};

/// Judges every summary against the baseline's cell that is its cell (a cell the baseline lacks
/// gets no comparison).
void compare_with_baseline(std::vector<cell_summary>& summaries, const baseline& earlier,
                           const judging_rules& rules);

/// Judges the summaries of every store but the first against the first store's of the same
/// cell; `names` are the stores' names, in order.
void compare_with_first_store(std::vector<cell_summary>& summaries,
                              const std::vector<std::string>& names, const judging_rules& rules);

} // namespace s3fault::bench
