#pragma once
// The last steps of a repro.sh (run_repro.hpp): the run judged in bash as the gate judges it
// (run_verdict.hpp, write_verdict.hpp), then exit 1 when the gate's verdict came again. The
// script's variables: $repro (its files), $status (the client's exit), $timeout, $gate_verdict.
#include <ostream>

namespace s3fault::gate {

/// HUNG, REJECTED, CORRECT or SILENT_CORRUPTION from $repro/output against $repro/expected (and
/// $repro/replacement when `replaced`).
void write_reader_verdict(std::ostream& out, bool replaced);
/// What the store holds under the key, read straight from it, then HUNG, STORED, SILENT_LOSS,
/// REJECTED or TORN.
void write_writer_verdict(std::ostream& out);
/// "VERDICT reproduced: why" and exit 1, or "not reproduced: why (...)" and exit 0.
void write_reproduced_step(std::ostream& out);
/// A passing or not exercised run's last step: the faults the proxy's journal shows applied,
/// then "VERDICT reproduced: why" and exit 0, or "not reproduced: ..." and exit 1; a pass that
/// rested on its fault (`needs_injection`) does not reproduce without one.
void write_pass_reproduced_step(std::ostream& out, bool needs_injection, bool not_exercised);

} // namespace s3fault::gate
