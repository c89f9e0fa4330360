#pragma once
// The exit status of a job (audit, gate) as one JUnit testcase, so that a CI that reads only the
// JUnit file sees red exactly when the process's exit status says so: nothing judged, an
// interrupted run or a job that could not run would otherwise look green (no failing testcase).
#include <pugixml.hpp>

#include <string>

namespace s3fault::audit {

/// Appends the testsuite "<tool>.exit-status" to `root` with one testcase "exit status": passed
/// at 0, a <failure> (type `failure_type`) at 1, an <error> at any other status (2: the job could
/// not judge, 130: it was interrupted). The message is "exit status N: REASON". Adds the testcase
/// to root's tests, failures and errors attributes.
void add_exit_status_suite(pugi::xml_node root, const std::string& tool, int status,
                           const std::string& reason, double seconds);

} // namespace s3fault::audit
