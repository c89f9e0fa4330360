#pragma once
// An immutable snapshot of the active rules and the decision it makes for one exchange. The
// proxy reads the current snapshot once per exchange (docs/design.md rule 5); the admin API swaps
// in a new one atomically.
#include "faults/load_schedule.hpp"
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
  /// A header, request-head or document action, and where its rule waits to hear whether it
  /// changed what it acts on (an index in pending_rules; nullopt for a rule that counts whatever
  /// happens).
  struct head_action {
    std::shared_ptr<const fault_action> action;
    std::optional<std::size_t> pending;
    std::size_t rule_position = 0; // of its rule in the rule set
  };
  std::vector<head_action> head_actions;
  /// Request-head actions (edits of what the store is sent), in rule order, like head_actions.
  std::vector<head_action> request_actions;
  /// Actions on the whole response (action_phase::response_document), in rule order.
  std::vector<head_action> document_actions;
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
    bool edited = false; // one of its header, request-head or document actions changed something
  };
  std::vector<pending_rule> pending_rules;
  /// In-flight slots of the rules with `in_flight_over` that let this exchange through. The
  /// proxy keeps the decision until the exchange has ended, however it ends: destroying the
  /// decision releases each slot, exactly once.
  std::vector<admission_slot> slots;

  /// Applies the header actions to the store's head in rule order, noting which of them
  /// changed it for the rules that count only then. Called once, when the head has come.
  void apply_head_actions(response_head_editor& head);
  /// Applies the request-head actions to `head` in rule order; returns whether any changed it.
  /// The edits count for their rules only once the proxy has confirmed it sends them
  /// (confirm_request_edits): an edit that breaks a signature the proxy cannot renew is not sent.
  bool apply_request_actions(request_head& head);
  void confirm_request_edits();
  /// Applies the document actions to the store's whole response in the order of their rules
  /// (rules decided on the status included), noting which of them changed it. Called once, when
  /// the body has been read (never for a body too long to buffer: then its rules changed
  /// nothing).
  void apply_document_actions(response_document& document, const s3_request& request);
  bool edits_document() const { return !document_actions.empty(); }

  bool touches_response() const {
    return !head_actions.empty() || !document_actions.empty() || first_byte_delay.count() > 0 ||
           !response_filters.empty() || !waiting_for_status.empty();
  }
  bool empty() const { return injected.empty() && waiting_for_status.empty(); }

  /// Pending rules whose request edits changed the head, until confirm_request_edits.
  std::vector<std::size_t> unconfirmed_request_edits;
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
  /// Applies the schedule of `r` to one match; true when the rule injects. A load-shaped rule
  /// that lets the match through puts its in-flight slot into `decision`. Atomic per rule
  /// (rule_state::schedule_mutex, then random_mutex_ for the dice; inject takes only the latter).
  bool schedule_allows(const rule& r, const s3_request& request, clock::time_point now,
                       exchange_decision& decision) const;
  /// The counting part of a schedule (after/until, skip, first, every, times): whether this
  /// match may inject. Keeps the per-key match count; `per_key` is set to the key's counts.
  bool counts_allow(const rule& r, const s3_request& request, clock::time_point now,
                    std::uint64_t rule_match,
                    std::pair<std::uint64_t, std::uint64_t>*& per_key) const;
  /// The seeded dice for `probability` (random_mutex_ taken inside).
  bool dice_allow(double probability) const;
  void inject(const rule& r, const s3_request& request, exchange_decision& decision) const;

  std::vector<rule> rules_;
  std::uint64_t seed_;
  clock::time_point started_;
  mutable std::mutex random_mutex_;
  mutable random_engine random_;
};

} // namespace s3fault::faults
