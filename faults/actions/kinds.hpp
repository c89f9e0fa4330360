#pragma once
// One function per action type, each defined in that action's own file and listed once in
// registry.cpp.
#include "faults/action_registry.hpp"

namespace s3fault::faults::actions {

// Before the store.
action_kind delay_kind();
action_kind error_kind();
action_kind reset_kind();
action_kind hang_kind();
action_kind forward_then_error_kind();
// Response head.
action_kind strip_header_kind();
action_kind set_header_kind();
action_kind set_status_kind();
action_kind first_byte_delay_kind();
// Response body.
action_kind truncate_kind();
action_kind corrupt_kind();
action_kind throttle_kind();
action_kind stall_kind();
action_kind reset_after_kind();
// Request body.
action_kind request_throttle_kind();
action_kind request_reset_after_kind();

} // namespace s3fault::faults::actions
