#pragma once
// The gate's matrix: scenarios and object shapes, read from YAML. The built-in matrix is
// conformance/gate/builtin-matrix.yaml, compiled into the binary; `--scenario-file FILE` adds a
// user's own in the same format (docs/gate.md, "Scenario files"):
//
//   scenarios:
//     - name: truncate-ranges
//       description: every GET body cut at half, Content-Length rewritten
//       expect: must-not-corrupt          # must-recover | must-not-corrupt | informational
//       rules:
//         - truncate 50% mode=consistent op=GetObject      # the proxy's one-line syntax
//         - {actions: [reset], match: {operations: [GetObject]}}  # or its rules-file form
//       shapes: ["mp-*"]                  # globs; default every shape
//       multipart_only: false
//       needs_injection: true             # default true when there are rules
//   shapes:
//     - name: mp-12MiB-5-5-2
//       description: 12 MiB in 5/5/2 MiB parts
//       size: 12MiB
//       parts: [5MiB, 5MiB, 2MiB]         # omitted: one PUT
//       checksum: crc32                   # crc32 | crc32c | sha1 | sha256 | none
//       content_type: application/x-parquet
#include "conformance/gate/object_shapes.hpp"
#include "conformance/gate/run_verdict.hpp"
#include "conformance/gate/scenarios.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::gate {

struct gate_matrix {
  std::vector<scenario> scenarios; // in report order
  std::vector<object_shape> shapes;
};

/// The built-in matrix. Its text is checked by the tests; a mistake in it is a logic_error.
const gate_matrix& builtin_matrix();
/// The YAML text of the built-in matrix, as compiled in.
std::string_view builtin_matrix_text();
/// The writers' built-in matrix (builtin-writer-matrix.yaml), and its text.
const gate_matrix& builtin_writer_matrix();
std::string_view builtin_writer_matrix_text();

/// What a matrix file is checked against beyond its own text, so that every mistake is found in
/// the one pass that reads it.
struct matrix_context {
  /// The gate's role: a scenario's action must be one it can make. nullopt: not checked.
  std::optional<run_role> role;
  /// The shapes the other matrices define (the built-in one, the other files): each of a
  /// scenario's shape globs must match one of these or of the file's own. nullopt: the globs are
  /// not checked (a file read without the matrix it joins).
  std::optional<std::vector<std::string>> other_shapes;
};

/// Reads a matrix document. Every mistake is appended to `errors` as "NAME:LINE: WHERE: what is
/// wrong and what is allowed" (WHERE: "scenario 3 (NAME): rules[1]: truncate.at: ..."); nothing
/// stops at the first. The result is usable only when no error was added.
gate_matrix read_matrix_text(std::string_view text, const std::string& name,
                             const matrix_context& context, std::vector<std::string>& errors);
/// The same with no role and no shapes but the text's own.
gate_matrix read_matrix_text(std::string_view text, const std::string& name,
                             std::vector<std::string>& errors);
/// The same for a file; one that cannot be read is an error too.
gate_matrix load_matrix_file(const std::string& path, const matrix_context& context,
                             std::vector<std::string>& errors);
gate_matrix load_matrix_file(const std::string& path, std::vector<std::string>& errors);
/// The matrix of a `role`'s gate: its built-in matrix with `files` added (`--scenario-file`).
/// Every mistake of every file is appended to `errors` in one pass: fields, rules, names used
/// twice (within a file, across files, or by the built-in matrix), actions of the other role,
/// shape globs that match no shape. The result is usable only when no error was added.
gate_matrix load_gate_matrix(run_role role, const std::vector<std::string>& files,
                             std::vector<std::string>& errors);
/// Appends `more` to `into`. A scenario or shape name that is already defined is an error
/// naming both places.
void merge_matrix(gate_matrix& into, gate_matrix more, std::vector<std::string>& errors);

/// The rules of `s` as a rules document for one run: every rule limited to `key` (match.key)
/// with the run's `seed`, as `s3fault proxy --faults FILE` reads it.
nlohmann::json run_rules_document(const scenario& s, const std::string& key, std::uint64_t seed);

} // namespace s3fault::gate
