#pragma once
// From the runs of a bench to what it reports per cell: the median of every figure over the
// rounds with its min and max, the noise band of control pairs, and the comparison with a
// baseline. Plain functions of plain values (no I/O), so that every rule is tested directly.
#include "conformance/bench/cell_runner.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::bench {

/// One cell of an earlier bench, read from its CSV or JSON.
struct baseline_cell {
  operation op = operation::get;
  std::uint64_t size = 0;
  unsigned concurrency = 0;
  std::array<std::optional<spread>, figure_count> figures{};
  std::array<std::optional<double>, figure_count> noise_percent{};
};

struct baseline {
  std::string source; // the file it came from
  std::vector<baseline_cell> cells;
};

/// The summary of one cell.
struct cell_summary {
  cell measured;
  std::size_t runs = 0;
  std::array<std::optional<spread>, figure_count> figures{}; // rounded like the figure
  /// With --control: the widest relative difference within a pair, in percent (one decimal).
  std::array<std::optional<double>, figure_count> noise_percent{};
  /// With --baseline, for the compared figures of a cell the baseline has.
  std::array<std::optional<comparison>, figure_count> versus_baseline{};
  std::string first_error;
  std::string store_error;
  std::string note;
};

/// The summaries, in cell order. `runs` may hold any number of rounds and legs per cell.
/// Baseline changes are flagged beyond comparison_noise, and never below `min_change_percent`.
std::vector<cell_summary> summarize_cells(const std::vector<cell>& cells,
                                          const std::vector<run_result>& runs,
                                          const baseline* earlier, double min_change_percent = 10);

/// The noise a change must exceed to be flagged: the widest of the control noise band (of this
/// run and of the baseline) and the spread of the rounds, (max - min) / median, of both.
std::optional<double> comparison_noise(const cell_summary& current, const baseline_cell* earlier,
                                       figure f);

/// "slower" / "faster" (throughput), "worse" / "better" (latency), or "" when within the noise.
std::string_view change_word(figure f, const comparison& c);

/// Whether any cell has store figures (--store-pid) or noise bands (--control).
bool any_store_figures(const std::vector<cell_summary>& cells);
bool any_noise(const std::vector<cell_summary>& cells);

/// Regressions among the comparisons: "get 1MiB c=4 MiB/s -50.2%".
std::vector<std::string> regressions(const std::vector<cell_summary>& cells);

} // namespace s3fault::bench
