#pragma once
// The second step of reading a matrix file: one list entry -> a checked scenario or shape, every
// field validated (the rules by the proxy's own parser), every mistake appended to `errors`.
#include "conformance/gate/gate_matrix.hpp"
#include "conformance/gate/matrix_file.hpp"
#include "conformance/gate/object_shapes.hpp"
#include "conformance/gate/scenarios.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::gate {

/// The largest object a shape may have: the gate holds each object in memory.
inline constexpr std::uint64_t max_shape_size = std::uint64_t{1} << 30;
/// S3's limits for multipart uploads: every part but the last at least 5 MiB, 10000 parts.
inline constexpr std::uint64_t min_part_size = std::uint64_t{5} << 20;
inline constexpr std::size_t max_part_count = 10000;

/// Scenario `number` (1-based) of file `file`, checked against `context` (its action against the
/// gate's role, its shape globs against `shapes` when given); usable only when no error was
/// added.
scenario read_scenario(const matrix_item& item, const std::string& file, std::size_t number,
                       const matrix_context& context,
                       const std::optional<std::vector<std::string>>& shapes,
                       std::vector<std::string>& errors);

/// Shape `number` (1-based) of file `file`; usable only when no error was added.
object_shape read_shape(const matrix_item& item, const std::string& file, std::size_t number,
                        std::vector<std::string>& errors);

} // namespace s3fault::gate
