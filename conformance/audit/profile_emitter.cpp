#include "conformance/audit/profile_emitter.hpp"

#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>

namespace s3fault::audit {
namespace {

using nlohmann::json;

/// An HTTP status and an S3 error code read from what a check saw.
struct status_and_code {
  int status = 0;
  std::string code;
};

/// The audit's results by check id, and what each non-passing one saw.
class findings {
public:
  explicit findings(const audit_report& report) {
    for (const auto& result : report.results) {
      results_[result.id] = &result;
      order_.push_back(result.id);
    }
  }
  /// A deviation: FAIL, DEVIATION or SKIP (an ERROR is no evidence of anything).
  bool deviates(const std::string& id) const {
    const auto* r = find(id);
    return r != nullptr && r->outcome.result != verdict::pass &&
           r->outcome.result != verdict::error;
  }
  /// Whether the check deviates and an unmet expectation's observation (or the reason) holds
  /// `text`.
  bool saw(const std::string& id, std::string_view text) const {
    if (!deviates(id)) {
      return false;
    }
    const auto* r = find(id);
    if (r->outcome.reason.find(text) != std::string::npos) {
      return true;
    }
    return std::any_of(
        r->outcome.expectations.begin(), r->outcome.expectations.end(),
        [&](const expectation& e) { return !e.met && e.observed.find(text) != std::string::npos; });
  }
  /// The status and code of the first match of `pattern` (two groups: status, then code) in
  /// the check's unmet observations or reason.
  std::optional<status_and_code> search(const std::string& id, const RE2& pattern) const {
    if (!deviates(id)) {
      return std::nullopt;
    }
    const auto* r = find(id);
    std::vector<const std::string*> texts = {&r->outcome.reason};
    for (const auto& e : r->outcome.expectations) {
      if (!e.met) {
        texts.push_back(&e.observed);
      }
    }
    for (const auto* text : texts) {
      status_and_code found;
      if (RE2::PartialMatch(*text, pattern, &found.status, &found.code)) {
        return found;
      }
    }
    return std::nullopt;
  }
  /// One line saying what the store did, for a deviation no rule reproduces.
  std::string what_it_did(const std::string& id) const {
    const auto* r = find(id);
    for (const auto& e : r->outcome.expectations) {
      if (!e.met) {
        return "expected " + e.expected + ", observed " + e.observed;
      }
    }
    return std::string(to_string(r->outcome.result)) + ": " + r->outcome.reason;
  }
  /// The deviating checks, in the audit's order.
  std::vector<std::string> deviating() const {
    std::vector<std::string> ids;
    std::copy_if(order_.begin(), order_.end(), std::back_inserter(ids),
                 [&](const std::string& id) { return deviates(id); });
    return ids;
  }

private:
  const check_result* find(const std::string& id) const {
    const auto it = results_.find(id);
    return it == results_.end() ? nullptr : it->second;
  }
  std::map<std::string, const check_result*> results_;
  std::vector<std::string> order_;
};

/// One way a store deviates and the rule that makes another store deviate so.
struct recipe {
  std::string name;                // the rule's name, after the profile's
  std::vector<std::string> checks; // what the rule reproduces where the store deviated
  std::function<bool(const findings&)> applies;
  std::function<json(const findings&)> rule; // match, schedule, actions
};

json strip_header_rule(json match, const std::string& header) {
  return {{"match", std::move(match)},
          {"actions", json::array({{{"strip-header", {{"name", header}}}}})}};
}

const json get_and_head = {{"operations", {"GetObject", "HeadObject"}}};

std::vector<std::string> part_number_checks() {
  return {"part.status",
          "part.content-range",
          "part.content-length",
          "part.count-header",
          "part.reassembly",
          "part.totals-agree",
          "part.head",
          "part.head-count-header",
          "part.single-object-part-one",
          "part.single-object-part-two",
          "part.past-count",
          "part.head-past-count",
          "part.highest-number",
          "part.number-zero",
          "part.number-over-limit",
          "part.number-not-integer",
          "part.with-range",
          "cond.if-match-part-read",
          "version.part-read"};
}

/// Every deviation this emitter knows, in the order their rules go in the profile (a rule that
/// answers in place of the store before the rules that edit error bodies).
std::vector<recipe> recipes() {
  std::vector<recipe> all;
  all.push_back(
      {"accepts-any-signature",
       {"auth.wrong-secret", "auth.anonymous", "auth.presign-expired"},
       [](const findings& f) {
         return f.saw("auth.wrong-secret", "status 2") || f.saw("auth.anonymous", "status 2");
       },
       [](const findings& f) {
         // A store that also takes expired presigned URLs gets those signed again too.
         const std::string presigned = f.deviates("auth.presign-expired") ? "resign" : "keep";
         return json{{"actions", json::array({{{"resign", {{"presigned", presigned}}}}})}};
       }});
  all.push_back({"ignores-part-number", part_number_checks(),
                 [](const findings& f) { return f.saw("part.status", "status 200"); },
                 [](const findings&) {
                   return json{
                       {"match", get_and_head},
                       {"actions", json::array({{{"strip-query", {{"name", "partNumber"}}}}})}};
                 }});
  all.push_back(
      {"no-parts-count",
       {"part.count-header", "part.head-count-header"},
       [](const findings& f) {
         return !f.saw("part.status", "status 200") &&
                f.saw("part.count-header", "no x-amz-mp-parts-count");
       },
       [](const findings&) { return strip_header_rule(get_and_head, "x-amz-mp-parts-count"); }});
  all.push_back({"suffix-range-from-zero",
                 {"range.suffix", "range.multipart-suffix"},
                 [](const findings& f) {
                   return f.saw("range.suffix", "Content-Range: bytes 0-") ||
                          f.saw("range.multipart-suffix", "Content-Range: bytes 0-");
                 },
                 [](const findings&) {
                   return json{{"match", {{"operations", "GetObject"}}},
                               {"actions", json::array({{{"rewrite-request-header",
                                                          {{"name", "Range"},
                                                           {"pattern", "^bytes=-([0-9]+)$"},
                                                           {"replacement", "bytes=0-\\1"}}}}})}};
                 }});
  all.push_back({"ranged-head",
                 {"range.head-ignored"},
                 [](const findings& f) { return f.saw("range.head-ignored", "status 206"); },
                 [](const findings&) {
                   return json{
                       {"match", {{"operations", "HeadObject"}, {"headers", {{"range", "*"}}}}},
                       {"actions", json::array({{{"type", "head-as-get"}}})}};
                 }});
  all.push_back({"ignores-if-match",
                 {"cond.if-match-false", "cond.head-if-match-false", "cond.if-match-range-read",
                  "etag.changes-with-content"},
                 [](const findings& f) { return f.saw("cond.if-match-false", "status 200"); },
                 [](const findings&) {
                   return json{{"match", get_and_head},
                               {"actions",
                                json::array({{{"strip-request-header", {{"name", "If-Match"}}}}})}};
                 }});
  all.push_back(
      {"ignores-if-unmodified-since",
       {"cond.if-unmodified-since-modified"},
       [](const findings& f) { return f.saw("cond.if-unmodified-since-modified", "status 200"); },
       [](const findings&) {
         return json{
             {"match", get_and_head},
             {"actions",
              json::array({{{"strip-request-header", {{"name", "If-Unmodified-Since"}}}}})}};
       }});
  all.push_back(
      {"ignores-put-if-none-match",
       {"cond.put-if-none-match-star"},
       [](const findings& f) { return f.saw("cond.put-if-none-match-star", "status 200"); },
       [](const findings&) {
         return json{
             {"match", {{"operations", "PutObject"}}},
             {"actions", json::array({{{"strip-request-header", {{"name", "If-None-Match"}}}}})}};
       }});
  all.push_back({"304-without-etag",
                 {"cond.304-etag", "cond.head-304-etag"},
                 [](const findings& f) {
                   return f.saw("cond.304-etag", "no ETag") ||
                          f.saw("cond.head-304-etag", "no ETag");
                 },
                 [](const findings&) {
                   return strip_header_rule(
                       {{"operations", {"GetObject", "HeadObject"}}, {"status", 304}}, "ETag");
                 }});
  all.push_back({"304-without-last-modified",
                 {"cond.304-last-modified", "cond.head-304-last-modified"},
                 [](const findings& f) {
                   return f.saw("cond.304-last-modified", "no Last-Modified") ||
                          f.saw("cond.head-304-last-modified", "no Last-Modified");
                 },
                 [](const findings&) {
                   return strip_header_rule(
                       {{"operations", {"GetObject", "HeadObject"}}, {"status", 304}},
                       "Last-Modified");
                 }});
  all.push_back(
      {"empty-complete-etag",
       {"etag.complete-result"},
       [](const findings& f) { return f.saw("etag.complete-result", "<ETag> (empty)"); },
       [](const findings& f) {
         json rule = {
             {"match", {{"operations", "CompleteMultipartUpload"}, {"status", 200}}},
             {"actions",
              json::array({{{"xml-set",
                             {{"path", "CompleteMultipartUploadResult/ETag"}, {"value", ""}}}}})}};
         // A store whose retried Complete carries the ETag empties only the first.
         if (!f.deviates("upload.complete-retry")) {
           rule["schedule"] = {{"first", 1}, {"per_key", true}};
         }
         return rule;
       }});
  all.push_back(
      {"no-delete-marker-header",
       {"version.delete-marker"},
       [](const findings& f) { return f.saw("version.delete-marker", "no x-amz-delete-marker"); },
       [](const findings&) {
         return strip_header_rule({{"operations", {"GetObject", "HeadObject"}}, {"status", 404}},
                                  "x-amz-delete-marker");
       }});
  static const RE2 status_then_code("status ([1-5][0-9][0-9]) ([A-Za-z]+)");
  all.push_back(
      {"unknown-upload-error",
       {"upload.complete-unknown-upload"},
       [](const findings& f) {
         return f.search("upload.complete-unknown-upload", status_then_code).has_value();
       },
       [](const findings& f) {
         const auto m = *f.search("upload.complete-unknown-upload", status_then_code);
         return json{
             {"match", {{"operations", "CompleteMultipartUpload"}, {"status", 404}}},
             {"actions",
              json::array({{{"replace-with-error", {{"code", m.code}, {"status", m.status}}}}})}};
       }});
  all.push_back(
      {"empty-error-message",
       {"error.message-text"},
       [](const findings& f) { return f.saw("error.message-text", "an empty <Message>"); },
       [](const findings&) {
         return json{
             {"match", {{"status", {"4xx", "5xx"}}}},
             {"actions", json::array({{{"xml-set", {{"path", "Error/Message"}, {"value", ""}}}}})}};
       }});
  for (const auto& missing : std::vector<std::pair<std::string, std::string>>{
           {"Resource", "error.resource"}, {"RequestId", "error.request-id"}}) {
    const std::string element = missing.first;
    const std::string check = missing.second;
    all.push_back(
        {"no-error-" + std::string(element == "Resource" ? "resource" : "request-id"),
         {check},
         [check, element](const findings& f) { return f.saw(check, "no <" + element + ">"); },
         [element](const findings&) {
           return json{
               {"match", {{"status", {"4xx", "5xx"}}}},
               {"actions", json::array({{{"xml-remove", {{"path", "Error/" + element}}}}})}};
         }});
  }
  static const RE2 versioning_refused(
      "PutBucketVersioning refused: ([1-5][0-9][0-9]) .*S3 error ([A-Za-z]+)");
  all.push_back(
      {"no-versioning",
       {"version.get-older", "version.part-read", "version.range-read", "version.delete-marker"},
       [](const findings& f) {
         return f.search("version.get-older", versioning_refused).has_value();
       },
       [](const findings& f) {
         const auto m = *f.search("version.get-older", versioning_refused);
         return json{
             {"match", {{"operations", "PutBucketVersioning"}}},
             {"actions", json::array({{{"error", {{"code", m.code}, {"status", m.status}}}}})}};
       }});
  for (const auto& missing : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"crc32", {"checksum.single-crc32", "checksum.multipart-composite"}},
           {"sha256", {"checksum.single-sha256"}}}) {
    const std::string algorithm = missing.first;
    const std::vector<std::string> checks = missing.second;
    all.push_back(
        {"no-" + algorithm, checks,
         [checks, algorithm](const findings& f) {
           return std::any_of(checks.begin(), checks.end(), [&](const std::string& id) {
             return f.saw(id, "does not return x-amz-checksum-" + algorithm);
           });
         },
         [algorithm](const findings&) {
           return json{
               {"actions",
                json::array({{{"strip-header", {{"name", "x-amz-checksum-" + algorithm}}}}})}};
         }});
  }
  all.push_back({"no-object-attributes",
                 {"attrs.parts-agree", "attrs.parts-pagination"},
                 [](const findings& f) {
                   return f.saw("attrs.parts-agree", "?attributes answered the object");
                 },
                 [](const findings&) {
                   return json{
                       {"match", {{"operations", "GetObjectAttributes"}}},
                       {"actions", json::array({{{"strip-query", {{"name", "attributes"}}}}})}};
                 }});
  return all;
}

std::string slug(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const char lower = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    const bool keep =
        (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '.';
    if (keep) {
      out.push_back(lower);
    } else if (!out.empty() && out.back() != '-') {
      out.push_back('-');
    }
  }
  while (!out.empty() && (out.back() == '-' || out.back() == '.')) {
    out.pop_back();
  }
  return out.substr(0, 40);
}

std::string flow(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace

profile_identity default_identity(const audit_report& report) {
  profile_identity identity;
  identity.store = report.store_server.empty() ? report.endpoint : report.store_server;
  identity.version = report.store_server.empty() ? "unknown" : report.store_server;
  identity.name = slug(report.store_server.empty() ? "store" : report.store_server);
  if (identity.name.empty()) {
    identity.name = "store";
  }
  identity.source = "s3fault audit of " + report.endpoint + " at " + report.started_at;
  return identity;
}

emitted_profile emit_profile(const audit_report& report, const profile_identity& identity) {
  const findings found(report);
  emitted_profile out;
  std::set<std::string> reproduced;
  std::string rules_text;
  for (const auto& r : recipes()) {
    if (!r.applies(found)) {
      continue;
    }
    std::vector<std::string> covers;
    for (const auto& id : r.checks) {
      if (found.deviates(id) && reproduced.insert(id).second) {
        covers.push_back(id);
      }
    }
    if (covers.empty()) {
      continue;
    }
    json rule = r.rule(found);
    rules_text += "  - name: " + identity.name + "-" + r.name + "\n";
    rules_text += "    reproduces: " + flow(covers) + "\n";
    for (const auto* key : {"match", "schedule", "actions"}) {
      if (rule.contains(key)) {
        rules_text += std::string("    ") + key + ": " + flow(rule[key]) + "\n";
      }
    }
    ++out.rules;
  }
  for (const auto& id : found.deviating()) {
    if (reproduced.contains(id)) {
      out.reproduced.push_back(id);
    } else {
      out.not_reproduced.emplace_back(id, found.what_it_did(id));
    }
  }
  std::string text = "# Emitted by s3fault audit --emit-profile from " + identity.source + ".\n";
  text += "# " + std::to_string(out.reproduced.size()) + " deviations reproduced by " +
          std::to_string(out.rules) + " rules; " + std::to_string(out.not_reproduced.size()) +
          " no action expresses (listed under not_reproduced).\n";
  text +=
      "# Use it with: s3fault proxy --profile FILE --resign-access-key K --resign-secret-key S\n";
  for (const auto& [id, what] : out.not_reproduced) {
    text += "#   not reproduced: " + id + ": " + what + "\n";
  }
  text += "profile:\n";
  text += "  name: " + flow(identity.name) + "\n";
  text += "  store: " + flow(identity.store) + "\n";
  text += "  version: " + flow(identity.version) + "\n";
  text += "  source: " + flow(identity.source) + "\n";
  text += "  description: " +
          flow("What " + identity.store +
               " did differently from the contract in this audit, "
               "replayed by proxy rules.") +
          "\n";
  if (!out.not_reproduced.empty()) {
    text += "  not_reproduced:\n";
    for (const auto& [id, what] : out.not_reproduced) {
      text +=
          "    - {check: " + flow(id) + ", why: " + flow("no action expresses it: " + what) + "}\n";
    }
  }
  text += out.rules == 0 ? "rules: []\n" : "rules:\n" + rules_text;
  out.yaml = std::move(text);
  return out;
}

} // namespace s3fault::audit
