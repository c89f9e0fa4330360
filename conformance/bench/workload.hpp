#pragma once
// One bench workload (warp's "benchmark"): its name and help, the objects it needs before the
// timed phase, how it runs and checks one timed operation, and how its throughput is shown.
// Adding a workload = one file in conformance/bench/workloads/ (its type and a NAME_workload()
// that returns it) plus one line in the list of workloads/registry.cpp; CMake compiles every
// file of the folder, and the --ops help, the "known: ..." lists and the tests come from the
// registry (workload_registry.hpp).
#include "conformance/bench/bench_figures.hpp"
#include "conformance/bench/bench_settings.hpp"

#include <cstdint>
#include <string_view>

namespace s3fault::bench {

class operation_context;
struct operation_outcome;

/// What must be stored, and which digests computed, before a workload's timed cells run, so
/// that nothing of the kind happens inside a timed operation (bench_fixtures.hpp has the keys).
struct fixture_needs {
  bool single_objects = false;    // --objects objects of the cell's size, one PUT each
  bool multipart_objects = false; // the same in --part-size parts (multipart uploads)
  /// The content hash and MD5 of every --part-size piece, which it checks piece by piece (the
  /// whole objects' digests are always computed with --verify).
  bool piece_digests = false;
};

class workload {
public:
  virtual ~workload() = default;

  /// As --ops and --mix spell it, and the reports print it: "get-parts".
  virtual std::string_view name() const = 0;
  /// What --ops's help adds in brackets after the name ("" for nothing).
  virtual std::string_view help() const { return {}; }
  virtual fixture_needs fixtures() const { return {}; }
  /// Runs operation number `index` of cell `c` through the worker's context (its client,
  /// retries and clock) and checks what came back: the length always, the content with
  /// --verify. Success, bytes, errors and notes go into `outcome`; the caller times it.
  virtual void run(operation_context& context, const cell& c, std::uint64_t index,
                   operation_outcome& outcome) const = 0;

  /// The figure its throughput chart shows: MiB/s where the bytes moved are the point, ops/s
  /// where they are not (a listing, a delete).
  virtual figure throughput_figure() const { return figure::mib_per_second; }
  /// Only part of each operation is timed (delete: not the PUT before it), so its ops/s is
  /// over the time spent in the timed part, and it has no MiB/s.
  virtual bool times_part_only() const { return false; }
  /// Runs the operations of --mix, drawn by weight, rather than one of its own.
  virtual bool draws_from_mix() const { return false; }
};

} // namespace s3fault::bench
