#pragma once
// The catalog: every check of the audit, in report order, grouped by area. Each area's checks
// live in their own file under checks/ and add themselves here.
#include "conformance/audit/audit_types.hpp"

#include <vector>

namespace s3fault::audit {

/// All checks, in order. IDs are unique (a unit test holds the catalog to that).
const std::vector<check_definition>& audit_catalog();

// One per file in checks/.
void add_part_number_checks(std::vector<check_definition>& catalog);
void add_range_checks(std::vector<check_definition>& catalog);
void add_conditional_checks(std::vector<check_definition>& catalog);
void add_etag_checks(std::vector<check_definition>& catalog);
void add_error_checks(std::vector<check_definition>& catalog);
void add_agreement_checks(std::vector<check_definition>& catalog);
void add_checksum_checks(std::vector<check_definition>& catalog);
void add_attributes_checks(std::vector<check_definition>& catalog);
void add_version_checks(std::vector<check_definition>& catalog);
void add_upload_checks(std::vector<check_definition>& catalog);
void add_auth_checks(std::vector<check_definition>& catalog);

} // namespace s3fault::audit
