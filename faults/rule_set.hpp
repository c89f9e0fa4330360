#pragma once
// An immutable snapshot of the active rules and the decision it makes for one exchange. The
// proxy reads the current snapshot once per exchange (STYLE.md point 5); the admin API swaps in
// a new one atomically.
#include "faults/rule.hpp"

#include <memory>
#include <mutex>

namespace s3fault::faults {

/// Which rule injected which action into an exchange (for logs and counters).
struct injection {
  std::string rule;
  std::string action;
};

/// Everything the active rules decided for one exchange. Empty for untouched traffic, so the
/// proxy can keep its fast path.
struct exchange_decision {
  std::vector<injection> injected;
  before_store_effect before;
  /// A header or document action, and where its rule waits to hear whether it changed the
  /// response (an index in pending_rules; nullopt for a rule that counts whatever happens).
  struct response_action {
    std::shared_ptr<const fault_action> action;
    std::optional<std::size_t> pending;
    std::size_t rule_position = 0; // of its rule in the rule set
  };
  std::vector<response_action> head_actions;
  /// Actions on the whole response (action_phase::response_document), in rule order.
  std::vector<response_action> document_actions;
  clock::duration first_byte_delay{};
  std::vector<std::unique_ptr<body_filter>> response_filters;
  std::vector<std::unique_ptr<body_filter>> request_filters;
  /// Rules whose request side matched but that wait for the response status.
  std::vector<std::size_t> waiting_for_status;
  /// Rules whose every action may change nothing (fault_action::may_change_nothing: body
  /// filters, header removals): they count as injected once one of their actions has changed
  /// something; settle_injections takes back the others.
  struct pending_rule {
    const rule* source;
    std::vector<const body_filter*> filters;
    bool response_changed = false; // one of its header or document actions changed the response
  };
  std::vector<pending_rule> pending_rules;

  /// Applies the header actions to the store's head in rule order, noting which of them
  /// changed it for the rules that count only then. Called once, when the head has come.
  void apply_head_actions(response_head_editor& head);
  /// Applies the document actions to the store's whole response in the order of their rules
  /// (rules decided on the status included), noting which of them changed it. Called once, when the
  /// body has been read (never for a body too long to buffer: then its rules changed nothing).
  void apply_document_actions(response_document& document, const s3_request& request);
  bool edits_document() const { return !document_actions.empty(); }

  bool touches_response() const {
    return !head_actions.empty() || !document_actions.empty() || first_byte_delay.count() > 0 ||
           !response_filters.empty() || !waiting_for_status.empty();
  }
  bool empty() const { return injected.empty() && waiting_for_status.empty(); }
};

class rule_set {
public:
  /// `started` stands for the install time of rules that carry none (a rule set built directly
  /// rather than by a rule_store, which stamps every rule).
  rule_set(std::vector<rule> rules, std::uint64_t seed, clock::time_point started);

  const std::vector<rule>& rules() const { return rules_; }
  std::uint64_t seed() const { return seed_; }

  /// Request-side decision: matches, schedules, before-store, head and body actions of rules
  /// that do not depend on the response status.
  exchange_decision decide(const s3_request& request, std::string_view method,
                           const header_lookup& headers, clock::time_point now) const;
  /// Completes a decision once the store's status is known.
  void decide_on_status(exchange_decision& decision, const s3_request& request, unsigned status,
                        clock::time_point now) const;
  /// At the end of an exchange: a pending rule whose actions changed nothing (a cut past the
  /// end, an exchange without that body, a strip of a header the response lacked, an XML edit
  /// of an element the body lacked or of a body not buffered, a store that never answered) did not
  /// inject after all. Its injection is taken back from the decision and from the rule's counters
  /// (counted as skipped instead, its place in `times` freed), so counts, logs and metrics name
  /// only faults that happened.
  void settle_injections(exchange_decision& decision, const s3_request& request) const;

private:
  /// Applies the schedule of `r` to one match; true when the rule injects. Atomic per rule
  /// (rule_state::schedule_mutex, then random_mutex_ for the dice; inject takes only the latter).
  bool schedule_allows(const rule& r, const s3_request& request, clock::time_point now) const;
  void inject(const rule& r, const s3_request& request, exchange_decision& decision) const;

  std::vector<rule> rules_;
  std::uint64_t seed_;
  clock::time_point started_;
  mutable std::mutex random_mutex_;
  mutable random_engine random_;
};

} // namespace s3fault::faults
