#pragma once
// The object of one gate run: seeded bytes uploaded straight to the store in a shape's layout.
// `s3fault fixture` calls the same code, so a run's repro creates the very same object.
#include "conformance/client/s3_client.hpp"
#include "conformance/gate/object_shapes.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace s3fault::gate {

/// The seed of one run's bytes and dice: a function of the gate's seed and the run's names only,
/// so it is the same whatever else runs, in whatever order (--jobs).
std::uint32_t run_seed(std::uint64_t gate_seed, std::string_view scenario, std::string_view shape);

/// The object's bytes for `seed` (audit::seeded_bytes).
std::string fixture_bytes(const object_shape& shape, std::uint32_t seed);
/// The run's seed plus these gives the other objects of a run: the replacement of
/// replace-after-first-read, the previous object of overwrite.
constexpr std::uint32_t replacement_seed_offset = 1000000u;
constexpr std::uint32_t previous_seed_offset = 2000000u;

/// Uploads `bytes` as `key` in `shape`'s layout, with the shape's checksum where the store takes
/// it (and without one when it refuses), so a reader that checks can catch corruption. Returns
/// the algorithm used ("" for none). Throws std::runtime_error when the store refuses the object.
std::string upload_fixture(client::s3_client& store, const std::string& bucket,
                           const std::string& key, const object_shape& shape,
                           const std::string& bytes);

} // namespace s3fault::gate
