#pragma once
// The admin API's logic, apart from HTTP: a request (method, path, JSON body) in, a status and a
// JSON document out. The HTTP server (proxy/admin_server) only moves bytes; the rule store does
// the changes. Errors are typed and mapped to statuses in one place (toxiproxy's api.go).
//
//   GET    /health                 {"status":"ok"}
//   GET    /version                {"version":"..."}
//   GET    /rules                  every rule with its definition and counters, and the seed
//   GET    /rules/NAME             one rule
//   POST   /rules                  add: a rule, a list, {"rules":[...]}, or {"fault":"ONE-LINE"}
//                                  (a "seed" beside them must be the one in force)
//   PUT    /rules                  replace all (same bodies; a "seed" reseeds the rule set)
//   DELETE /rules                  remove all
//   PUT    /rules/NAME             replace one in its place: one rule (a rule object or
//                                  {"fault":"ONE-LINE"}), named NAME or unnamed; unchanged it
//                                  keeps its counters, changed it starts anew
//   DELETE /rules/NAME             remove one
//   POST   /rules/NAME/enable      enable one
//   POST   /rules/NAME/disable     disable one
#include "faults/action_registry.hpp"
#include "faults/rule_store.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace s3fault::faults {

struct admin_reply {
  unsigned status = 200;
  nlohmann::json body;
};

admin_reply handle_admin_request(rule_store& store, std::string_view method,
                                 std::string_view target, std::string_view body,
                                 std::string_view version);

/// An answer's body as sent: indented JSON and a newline. Bytes that are not UTF-8 (a target
/// named in an error) become U+FFFD instead of failing the answer.
std::string admin_body_text(const nlohmann::json& body);

/// An error answer: {"error": {"code", "message", "details"}} (`details` lists every validation
/// mistake; empty for other errors). Every error the admin API sends, whichever part refuses
/// (the token check, the reading of the request, the router), is built here.
admin_reply error_reply(unsigned status, std::string_view code, std::string message,
                        const error_list& details = {});

/// A rule as the admin API shows it: definition, the same as one `--fault` line ("fault"; null
/// when one line cannot say it), and counters (matched, injected, skipped; and in_flight,
/// peak_in_flight, refusals for a load-shaped rule).
nlohmann::json describe_rule(const rule& r);

} // namespace s3fault::faults
