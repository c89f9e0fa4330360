#pragma once
// The accounts of the origin: who may sign requests (--access-key/--secret-key, --account,
// --accounts-file) and how an account appears where S3 shows an owner. Buckets belong to the
// account that created them; a bucket record without an owner (data directories written before
// there were several accounts) belongs to the first account. Who may do what: docs/contract.md,
// "Authentication".
#include "conformance/s3/sigv4.hpp"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace s3fault::origin {

/// An account as S3 shows it in Owner, Initiator and Grantee elements.
struct account_owner {
  std::string id;           // 64 hex digits, like S3's canonical user ids
  std::string display_name; // the access key
};

/// The owner an access key stands for: the id is derived from the key, so it stays the same
/// across restarts and data directories.
account_owner owner_of(std::string_view access_key);

/// The access key shown and checked when no account signs (--anonymous).
inline constexpr std::string_view anonymous_owner_key = "s3fault";

/// "KEY:SECRET" (the secret may contain ':'). An error message when a part is empty, the key
/// has characters SigV4 credentials cannot carry ('/', blanks, control characters), or the
/// secret has blanks or control characters.
std::variant<s3::credentials, std::string> parse_account(std::string_view text);

/// The lines of an --accounts-file: one "KEY:SECRET" per line; blank lines and lines starting
/// with '#' are skipped. Every bad line is reported ("line 3: ..."), as is a key given twice.
struct accounts_file {
  std::vector<s3::credentials> accounts;
  std::vector<std::string> errors;
};
accounts_file parse_accounts_file(std::string_view content);

} // namespace s3fault::origin
