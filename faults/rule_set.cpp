#include "faults/rule_set.hpp"

#include "faults/response_document.hpp"

#include <algorithm>

namespace s3fault::faults {
namespace {

bool status_listed(const match_spec& match, unsigned status) {
  return std::find(match.statuses.begin(), match.statuses.end(), status) != match.statuses.end();
}

/// `after` and `until` count from the rule's installation, so a rule added live with
/// `after: 2s` waits two seconds whenever it is added.
bool within_window(const schedule_spec& schedule, clock::duration since_installed) {
  if (schedule.after && since_installed < *schedule.after) {
    return false;
  }
  return !(schedule.until && since_installed >= *schedule.until);
}

} // namespace

std::string_view phase_name(action_phase phase) {
  switch (phase) {
  case action_phase::before_store:
    return "before-store";
  case action_phase::response_head:
    return "response-head";
  case action_phase::response_document:
    return "response-document";
  case action_phase::response_body:
    return "response-body";
  case action_phase::request_body:
    return "request-body";
  }
  return "unknown";
}

rule_set::rule_set(std::vector<rule> rules, std::uint64_t seed, clock::time_point started)
    : rules_(std::move(rules)), seed_(seed), started_(started), random_(seed) {}

bool rule_set::schedule_allows(const rule& r, const s3_request& request,
                               clock::time_point now) const {
  const schedule_spec& schedule = r.schedule;
  rule_state& state = *r.state;
  // One decision per rule at a time: reading a count and raising it in separate steps let two
  // threads take the same match number, or both take the last of `times`. The dice are drawn
  // inside as well, so that draws follow the matches' order.
  std::lock_guard lock(state.schedule_mutex);
  const std::uint64_t rule_match = state.matched.fetch_add(1, std::memory_order_relaxed) + 1;
  auto skip = [&] {
    state.skipped.fetch_add(1, std::memory_order_relaxed);
    return false;
  };
  if (!within_window(schedule, now - r.installed.value_or(started_))) {
    return skip();
  }
  // The counts the schedule looks at: the rule's own, or this object's.
  std::uint64_t match_number = rule_match;
  std::uint64_t injected_so_far = state.injected.load(std::memory_order_relaxed);
  std::pair<std::uint64_t, std::uint64_t>* per_key = nullptr;
  if (schedule.per_key) {
    per_key = &state.per_key[request.bucket + "/" + request.key];
    match_number = ++per_key->first;
    injected_so_far = per_key->second;
  }
  if (match_number <= schedule.skip) {
    return skip();
  }
  const std::uint64_t eligible = match_number - schedule.skip; // 1-based among eligible matches
  if (schedule.first && eligible > *schedule.first) {
    return skip();
  }
  if (schedule.every && eligible % *schedule.every != 0) {
    return skip();
  }
  if (schedule.times && injected_so_far >= *schedule.times) {
    return skip();
  }
  if (schedule.probability < 1.0) {
    std::lock_guard dice_lock(random_mutex_);
    if (std::uniform_real_distribution<double>(0.0, 1.0)(random_) >= schedule.probability) {
      return skip();
    }
  }
  if (per_key != nullptr) {
    ++per_key->second;
  }
  state.injected.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void rule_set::inject(const rule& r, const s3_request& request, exchange_decision& decision) const {
  std::lock_guard lock(random_mutex_);
  const bool counts_if_changed =
      std::all_of(r.actions.begin(), r.actions.end(),
                  [](const auto& action) { return action->may_change_nothing(); });
  std::optional<std::size_t> pending_index;
  if (counts_if_changed) {
    pending_index = decision.pending_rules.size();
  }
  exchange_decision::pending_rule pending{&r, {}};
  const auto position = static_cast<std::size_t>(&r - rules_.data());
  for (const auto& action : r.actions) {
    decision.injected.push_back({r.name, std::string(action->type())});
    switch (action->phase()) {
    case action_phase::before_store:
      action->apply_before_store(decision.before, request, random_);
      break;
    case action_phase::response_head:
      decision.head_actions.push_back({action, pending_index, position});
      decision.first_byte_delay += action->first_byte_delay();
      break;
    case action_phase::response_document:
      decision.document_actions.push_back({action, pending_index, position});
      break;
    case action_phase::response_body:
      if (auto filter = action->make_body_filter(random_)) {
        pending.filters.push_back(filter.get());
        decision.response_filters.push_back(std::move(filter));
      }
      break;
    case action_phase::request_body:
      if (auto filter = action->make_body_filter(random_)) {
        pending.filters.push_back(filter.get());
        decision.request_filters.push_back(std::move(filter));
      }
      break;
    }
  }
  if (counts_if_changed) {
    decision.pending_rules.push_back(std::move(pending));
  }
}

void exchange_decision::apply_head_actions(response_head_editor& head) {
  for (const auto& entry : head_actions) {
    if (entry.action->apply_to_head(head) && entry.pending) {
      pending_rules[*entry.pending].response_changed = true;
    }
  }
}

void exchange_decision::apply_document_actions(response_document& document,
                                               const s3_request& request) {
  // Rules decided on the status were appended after the others: back to the rules' order, so
  // that an edit listed after a replace-with-error edits the error, whichever of them waited.
  std::stable_sort(document_actions.begin(), document_actions.end(),
                   [](const response_action& a, const response_action& b) {
                     return a.rule_position < b.rule_position;
                   });
  for (const auto& entry : document_actions) {
    if (entry.action->apply_to_document(document, request) && entry.pending) {
      pending_rules[*entry.pending].response_changed = true;
    }
  }
}

void rule_set::settle_injections(exchange_decision& decision, const s3_request& request) const {
  for (const auto& settled : decision.pending_rules) {
    const rule* source = settled.source;
    const auto& filters = settled.filters;
    if (settled.response_changed ||
        std::any_of(filters.begin(), filters.end(),
                    [](const body_filter* filter) { return filter->changed_body(); })) {
      continue;
    }
    rule_state& state = *source->state;
    {
      std::lock_guard lock(state.schedule_mutex);
      state.injected.fetch_sub(1, std::memory_order_relaxed);
      state.skipped.fetch_add(1, std::memory_order_relaxed);
      if (source->schedule.per_key) {
        --state.per_key[request.bucket + "/" + request.key].second;
      }
    }
    std::erase_if(decision.injected,
                  [&](const injection& entry) { return entry.rule == source->name; });
  }
  decision.pending_rules.clear();
}

exchange_decision rule_set::decide(const s3_request& request, std::string_view method,
                                   const header_lookup& headers, clock::time_point now) const {
  exchange_decision decision;
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    const rule& r = rules_[i];
    if (!r.enabled || !request_matches(r.match, request, method, headers)) {
      continue;
    }
    if (!r.match.statuses.empty()) {
      decision.waiting_for_status.push_back(i);
      continue;
    }
    if (schedule_allows(r, request, now)) {
      inject(r, request, decision);
    }
  }
  return decision;
}

void rule_set::decide_on_status(exchange_decision& decision, const s3_request& request,
                                unsigned status, clock::time_point now) const {
  for (const std::size_t index : decision.waiting_for_status) {
    const rule& r = rules_[index];
    if (status_listed(r.match, status) && schedule_allows(r, request, now)) {
      inject(r, request, decision);
    }
  }
  decision.waiting_for_status.clear();
}

} // namespace s3fault::faults
