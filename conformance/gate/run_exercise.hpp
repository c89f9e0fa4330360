#pragma once
// Whether a run met what its scenario is there for: its fault touched the object (a 2xx answer
// carrying the object's bytes or headers, a request of the upload), or, for
// replaced-between-reads, the reader read again after the object was replaced. A run that would
// pass without it is NOT_EXERCISED, with the reason.
#include "conformance/gate/replace_trigger.hpp"
#include "conformance/gate/run_verdict.hpp"
#include "conformance/gate/scenarios.hpp"
#include "conformance/gate/traffic_counter.hpp"

namespace s3fault::gate {

/// `replaced`: what replace_trigger saw, for a scenario with replace-after-first-read.
exercise run_exercise(const scenario& s, const traffic& seen, run_role role,
                      const replacement_outcome& replaced = {});

} // namespace s3fault::gate
