#pragma once
// The plain values of an audit: what a check is (ID, title, level, the contract clause it
// tests), what one exchange looked like, and what a check concluded. The runner fills them, the
// reports (text, JSON, JUnit) only read them.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::audit {

/// How binding a clause is: MUST clauses decide the exit status, SHOULD ones too with --strict,
/// MAY ones (optional features) never do.
enum class level { must, should, may };

/// PASS: the store did what the contract says. FAIL: it did not. DEVIATION: it did something
/// else that other stores are known to do (still not a pass). SKIP: the feature is absent (the
/// reason says why). ERROR: the check could not reach a verdict (transport failure).
enum class verdict { pass, fail, deviation, skip, error };

std::string_view to_string(level value);   // "MUST", "SHOULD", "MAY"
std::string_view to_string(verdict value); // "PASS", "FAIL", "DEVIATION", "SKIP", "ERROR"

/// One request and what came back, as the reports show it.
struct exchange_record {
  std::string request; // "GET /bucket/key?partNumber=2 (If-Match: \"...\")"
  unsigned status = 0; // 0: no response head
  std::vector<std::pair<std::string, std::string>> headers; // the ones that matter to S3 reads
  std::uint64_t body_bytes = 0;
  std::string body_sha256; // hex, empty when the body was not hashed
  std::string error_code;  // <Code> of an S3 error body
  std::string failure;     // transport failure, one line
  double seconds = 0;
};

/// One point a check looked at: what the contract asks and what the store did.
struct expectation {
  std::string expected; // "part 2: Content-Range: bytes 5242880-10485759/11534459"
  std::string observed; // "no Content-Range"
  bool met = false;
};

/// A check's conclusion, with every point it looked at and every exchange it made.
struct check_outcome {
  verdict result = verdict::pass;
  std::string reason; // SKIP, DEVIATION and ERROR: why
  std::vector<expectation> expectations;
  std::vector<exchange_record> exchanges;
};

class check_context;

/// A catalog entry.
struct check_definition {
  std::string id;    // "part.count-header": area, then what
  std::string area;  // "part", "range", ... (groups the table)
  std::string title; // one line
  level strength = level::must;
  std::string clause; // the contract's words this check tests
  std::function<void(check_context&)> run;
};

/// A check as run: the definition's description plus the outcome and its duration.
struct check_result {
  std::string id;
  std::string area;
  std::string title;
  level strength = level::must;
  std::string clause;
  check_outcome outcome;
  double seconds = 0;
};

/// The audit as a whole, for the reports.
struct audit_report {
  std::string endpoint;
  std::string bucket;
  std::string store_server; // the Server header of the store's responses, when it sent one
  std::string started_at;   // ISO 8601 UTC
  double seconds = 0;
  bool strict = false;
  std::size_t checks_selected = 0; // results has fewer when interrupted
  bool interrupted = false;        // stopped by a signal before every check ran
  std::vector<check_result> results;
  std::vector<check_result> cut_off; // selected checks an interruption left unrun (no outcome)
  std::string error;                 // why the audit could not run (exit 2); empty when it ran
};

/// Counts per verdict and the exit status policy.
struct audit_totals {
  std::size_t passed = 0, failed = 0, deviations = 0, skipped = 0, errors = 0;
  std::size_t gating_failures = 0; // MUST (and SHOULD with strict) not passed or skipped
};
audit_totals count_verdicts(const audit_report& report);
/// Whether a result makes the audit fail: a MUST (or, with strict, a SHOULD) whose verdict is
/// FAIL, DEVIATION or ERROR.
bool is_gating_failure(const check_result& result, bool strict);

/// Area titles for the table, in catalog order.
std::string_view area_title(std::string_view area);

} // namespace s3fault::audit
