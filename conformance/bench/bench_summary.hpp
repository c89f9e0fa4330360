#pragma once
// From the runs of a bench to what it reports per cell: the median of every figure over the
// rounds with its min and max, the per-round values, the noise band of control pairs, and the
// comparison with a baseline's rounds (bench_statistics.hpp). Plain functions of plain values
// (no I/O), so that every rule is tested directly.
#include "conformance/bench/cell_runner.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::bench {

/// Per figure, one value per round (the geometric mean of a round's control pair); empty where
/// the figure was not measured or every operation failed.
using round_values = std::array<std::vector<double>, figure_count>;

/// One cell of an earlier bench, read from its CSV or JSON.
struct baseline_cell {
  operation op = operation::named("get");
  std::uint64_t size = 0;
  unsigned concurrency = 0;
  std::uint64_t stored = 0;
  std::array<std::optional<spread>, figure_count> figures{};
  std::array<std::optional<double>, figure_count> noise_percent{};
  /// From the file's per-round values; a file without them gives its median as one round.
  round_values rounds{};
};

/// The settings an earlier bench ran with, as far as its file says (a CSV says less than JSON).
struct baseline_settings {
  std::optional<std::int64_t> duration_ms;
  std::optional<std::uint64_t> count;
  std::optional<unsigned> rounds;
  std::optional<unsigned> objects;
  std::optional<std::uint64_t> part_size;
  std::optional<bool> verify;
  std::optional<bool> control;
  std::string mix; // describe_mix of --mix; empty without one
};

struct baseline {
  std::string source; // the file it came from
  std::vector<baseline_cell> cells;
  baseline_settings settings;
};

/// Whether the baseline's cell is this cell (operation, size, concurrency and stored volume).
bool same_cell(const cell& a, const baseline_cell& b);
/// The baseline's cell that is `c`, or nullptr (also without a baseline).
const baseline_cell* find_in(const baseline* earlier, const cell& c);

/// The summary of one cell.
struct cell_summary {
  cell measured;
  std::size_t runs = 0;
  std::array<std::optional<spread>, figure_count> figures{}; // rounded like the figure
  round_values rounds{};                                     // rounded like the figure
  /// With --control: the widest relative difference within a pair, in percent (one decimal).
  std::array<std::optional<double>, figure_count> noise_percent{};
  /// With --baseline, for the compared figures of a cell the baseline has.
  std::array<std::optional<comparison>, figure_count> versus_baseline{};
  std::string first_error;
  std::string store_error;
  std::string note;
};

/// The summaries, in cell order. `runs` may hold any number of rounds and legs per cell.
/// Each compared figure of a cell the baseline has is judged by compare_rounds with `rules`;
/// the control band is the wider of this run's and the baseline's.
std::vector<cell_summary> summarize_cells(const std::vector<cell>& cells,
                                          const std::vector<run_result>& runs,
                                          const baseline* earlier, const judging_rules& rules = {});

/// "slower" / "faster" (throughput), "worse" / "better" (latency), "not judged", or "" when the
/// rounds cannot tell it from no change.
std::string_view change_word(figure f, const comparison& c);

/// Whether any cell has store figures (--store-pid) or noise bands (--control).
bool any_store_figures(const std::vector<cell_summary>& cells);
bool any_noise(const std::vector<cell_summary>& cells);

/// Regressions among the comparisons: "get 1MiB c=4 MiB/s -50.2%".
std::vector<std::string> regressions(const std::vector<cell_summary>& cells);
/// Comparisons that could not be judged: "get 1MiB c=4 MiB/s: the baseline has no value (...)".
std::vector<std::string> unjudged(const std::vector<cell_summary>& cells);

} // namespace s3fault::bench
