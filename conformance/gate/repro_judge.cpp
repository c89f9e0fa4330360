#include "conformance/gate/repro_judge.hpp"

namespace s3fault::gate {
namespace {

/// A client still running at the timeout is HUNG whatever it left behind.
constexpr const char* hung_branch =
    "if [ -s \"$repro/timeout\" ]; then\n"
    "  verdict=HUNG why=\"still running after $timeout s; its process group was stopped\"\n";

} // namespace

void write_reader_verdict(std::ostream& out, bool replaced) {
  out << "# 5. The verdict, as the gate judges it: HUNG when stopped at the timeout, REJECTED on "
         "a non-zero\n"
      << "#    exit, else CORRECT when its output (its stdout, when it wrote no file) is the "
         "object, and\n"
      << "#    SILENT_CORRUPTION when it is not."
      << (replaced ? " The replacement's bytes are right too." : "") << "\n"
      << "[ -e \"$repro/output\" ] || cp \"$repro/stdout\" \"$repro/output\"\n"
      << hung_branch << "elif [ \"$status\" -ne 0 ]; then\n"
      << "  verdict=REJECTED why=\"the reader exited $status: $(tail -n 1 \"$repro/stderr\")\"\n"
      << "elif cmp -s \"$repro/output\" \"$repro/expected\"; then\n"
      << "  verdict=CORRECT why=\"the reader exited 0 with the right bytes\"\n";
  if (replaced) {
    out << "elif cmp -s \"$repro/output\" \"$repro/replacement\"; then\n"
        << "  verdict=CORRECT why=\"the reader exited 0 with the bytes of the replacement\"\n";
  }
  out << "else\n"
      << "  verdict=SILENT_CORRUPTION\n"
      << "  why=\"the reader exited 0, but its $(wc -c <\"$repro/output\") bytes are not the "
         "object's $(wc -c <\"$repro/expected\")\"\n"
      << "fi\n\n";
}

void write_writer_verdict(std::ostream& out) {
  out << "# 5. What the store holds under the key now, read straight from it (not through the "
         "proxy).\n"
      << "if \"$s3fault\" read robust-parts --endpoint \"$store\" --bucket \"$bucket\" --key "
         "\"$key\" \\\n"
      << "  --output \"$repro/stored\" 2>\"$repro/stored.log\"; then\n"
      << "  holds=other held=\"$(wc -c <\"$repro/stored\") bytes that are not the input\"\n"
      << "  cmp -s \"$repro/stored\" \"$repro/input\" && holds=input held=\"the input\"\n"
      << "  cmp -s \"$repro/stored\" \"$repro/previous\" && holds=previous held=\"the object it "
         "held before\"\n"
      << "elif grep -q NoSuchKey \"$repro/stored.log\"; then\n"
      << "  holds=nothing held=\"no object\"\n"
      << "else\n"
      << "  could_not \"reading the key from the store failed: $(tail -n 1 "
         "\"$repro/stored.log\")\"\n"
      << "fi\n\n"
      << "# 6. The verdict, as the gate judges it: HUNG when stopped at the timeout; on exit 0 "
         "STORED when\n"
      << "#    the key holds the input, else SILENT_LOSS; on a non-zero exit REJECTED when it "
         "holds no\n"
      << "#    object, the object it held before or the input, else TORN.\n"
      << hung_branch << "elif [ \"$status\" -eq 0 ]; then\n"
      << "  [ \"$holds\" = input ] && verdict=STORED || verdict=SILENT_LOSS\n"
      << "  why=\"the writer exited 0, and the key holds $held\"\n"
      << "else\n"
      << "  [ \"$holds\" = other ] && verdict=TORN || verdict=REJECTED\n"
      << "  why=\"the writer exited $status, and the key holds $held\"\n"
      << "fi\n\n";
}

void write_reproduced_step(std::ostream& out) {
  out << "# Reproduced when the verdict is the gate's again: exit 1.\n"
      << "if [ \"$verdict\" = \"$gate_verdict\" ]; then\n"
      << "  echo \"$verdict reproduced: $why\"\n"
      << "  exit 1\n"
      << "fi\n"
      << "echo \"not reproduced: $why ($verdict; the gate's verdict was $gate_verdict)\"\n"
      << "exit 0\n";
}

void write_pass_reproduced_step(std::ostream& out, bool needs_injection, bool not_exercised) {
  out << "# The faults the proxy applied, from its journal (written when it stops): a pass counts "
         "only\n"
      << "# when its scenario's fault reached the client.\n"
      << "kill \"$proxy_pid\" 2>/dev/null && wait \"$proxy_pid\" 2>/dev/null\n"
      << "proxy_pid=\n"
      << "faults=$(grep -c '\"faults\":' \"$repro/journal.jsonl\" 2>/dev/null)\n"
      << "echo \"faults applied to ${faults:-0} of the proxy's exchanges "
         "($repro/journal.jsonl)\"\n\n"
      << "# Reproduced when the verdict is the gate's again: exit 0; else exit 1.\n"
      << "if [ \"$verdict\" != \"$gate_verdict\" ]; then\n"
      << "  echo \"not reproduced: $why ($verdict; the gate's verdict was $gate_verdict)\"\n"
      << "  exit 1\n"
      << "fi\n";
  if (needs_injection && !not_exercised) {
    out << "if [ \"${faults:-0}\" -eq 0 ]; then\n"
        << "  echo \"not reproduced: $why, but no fault was applied (the gate's $gate_verdict "
           "counted because its fault reached the client)\"\n"
        << "  exit 1\n"
        << "fi\n";
  }
  out << "echo \"$verdict reproduced: $why\"\n";
  if (not_exercised) {
    out << "echo \"the gate judged the run NOT_EXERCISED: its fault never touched the object "
           "(this script does not tell which answers a fault touched)\"\n";
  }
  out << "exit 0\n";
}

} // namespace s3fault::gate
