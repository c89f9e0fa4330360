#include "conformance/audit/check_catalog.hpp"

namespace s3fault::audit {

const std::vector<check_definition>& audit_catalog() {
  static const std::vector<check_definition> catalog = [] {
    std::vector<check_definition> all;
    add_part_number_checks(all);
    add_range_checks(all);
    add_conditional_checks(all);
    add_etag_checks(all);
    add_error_checks(all);
    add_agreement_checks(all);
    add_checksum_checks(all);
    add_attributes_checks(all);
    add_version_checks(all);
    add_upload_checks(all);
    add_auth_checks(all);
    return all;
  }();
  return catalog;
}

} // namespace s3fault::audit
