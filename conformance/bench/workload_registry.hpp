#pragma once
// The catalogue of bench workloads, in the order --ops's help and the "known: ..." lists give
// them. Each is defined in its own file of conformance/bench/workloads/ and listed once in
// workloads/registry.cpp.
#include "conformance/bench/workload.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace s3fault::bench {

const std::vector<const workload*>& registered_workloads();
// parse_operation, to_string and operation_choices (bench_settings.hpp) read this list too.
/// "put, get, get-parts (?partNumber of multipart objects), ...": each name with its help.
std::string describe_workloads();

} // namespace s3fault::bench
