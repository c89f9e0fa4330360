#pragma once
// From the runs of a bench to what it reports per cell and store: the median of every figure
// over the rounds with its min and max, the per-round values and the noise band of control
// pairs. What they are compared with is comparison_engine.hpp's. Plain functions of plain values
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
/// Per figure, the control noise band in percent, where there is one.
using noise_values = std::array<std::optional<double>, figure_count>;

/// One cell of an earlier bench, read from its CSV or JSON.
struct baseline_cell {
  std::string store; // the store it ran on; empty for a bench of one unnamed store
  operation op = operation::named("get");
  std::uint64_t size = 0;
  unsigned concurrency = 0;
  std::uint64_t stored = 0;
  std::array<std::optional<spread>, figure_count> figures{};
  noise_values noise_percent{};
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
  std::string source; // the file it came from, with ":NAME" when a store of it was chosen
  std::vector<baseline_cell> cells;
  baseline_settings settings;
};

/// The names of the stores a baseline's cells ran on, in the order they first appear.
std::vector<std::string> baseline_stores(const baseline& earlier);
/// Keeps the cells of store `name` (empty: the file's one store), with the store named in
/// `source`. False with `error` when the file has no such store, or several and `name` is empty.
bool choose_baseline_store(baseline& earlier, const std::string& name, std::string& error);

/// Whether two cells are one (operation, size, concurrency and stored volume).
bool same_cell(const cell& a, const cell& b);
bool same_cell(const cell& a, const baseline_cell& b);
/// The baseline's cell that is `c`, or nullptr (also without a baseline).
const baseline_cell* find_in(const baseline* earlier, const cell& c);

/// The summary of one cell on one store.
struct cell_summary {
  cell measured;
  std::size_t store = 0; // in bench_settings::stores
  std::size_t runs = 0;
  std::array<std::optional<spread>, figure_count> figures{}; // rounded like the figure
  round_values rounds{};                                     // rounded like the figure
  /// With --control: the widest relative difference within a pair, in percent (one decimal).
  noise_values noise_percent{};
  /// Against its reference (comparison_engine.hpp: the baseline's cell, or the reference
  /// store's), for the compared figures; none for a reference itself, or without one.
  std::array<std::optional<comparison>, figure_count> versus{};
  std::string first_error;
  std::string store_error;
  std::string note;
};

/// The summaries, cell by cell in cell order and within a cell store by store. `runs` may hold
/// any number of rounds and legs per cell and store.
std::vector<cell_summary> summarize_cells(const std::vector<cell>& cells, std::size_t stores,
                                          const std::vector<run_result>& runs);

/// "slower" / "faster" (throughput), "worse" / "better" (latency), "no difference" (none of
/// --min-change, and the rounds could have seen one), "cannot tell" (they could not: the
/// inconclusive rule), or "not judged".
std::string_view change_word(figure f, const comparison& c);

/// Whether any cell has store figures (--store-pid) or noise bands (--control).
bool any_store_figures(const std::vector<cell_summary>& cells);
bool any_noise(const std::vector<cell_summary>& cells);

/// The counts of a bench's comparisons that decide its verdict and exit status.
struct comparison_counts {
  std::size_t compared = 0;     // figures with a comparison
  std::size_t regressions = 0;  // flagged and worse
  std::size_t differences = 0;  // flagged either way
  std::size_t not_judged = 0;   // could not be compared at all
  std::size_t inconclusive = 0; // judged, but the rounds could not tell
};
comparison_counts count_comparisons(const std::vector<cell_summary>& cells);

} // namespace s3fault::bench
