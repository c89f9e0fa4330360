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

/// The token bucket `key` of a rule's rate. Buckets that have refilled are dropped once there
/// are many (per-prefix and per-key rates meet many names): a full bucket is a fresh one.
token_bucket& bucket_for(rule_state& state, std::string key, clock::time_point now) {
  auto [entry, added] = state.buckets.try_emplace(std::move(key));
  if (added && state.buckets.size() > state.buckets_prune_at) {
    const token_bucket* kept = &entry->second;
    std::erase_if(state.buckets, [&](const auto& bucket) {
      return &bucket.second != kept && bucket.second.full_at <= now;
    });
    // Busy buckets stay; the next sweep waits until the map has grown as much again.
    state.buckets_prune_at = std::max(rule_state::buckets_kept, 2 * state.buckets.size());
  }
  return entry->second;
}

} // namespace

std::string_view phase_name(action_phase phase) {
  switch (phase) {
  case action_phase::before_store:
    return "before-store";
  case action_phase::request_head:
    return "request-head";
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

bool rule_set::counts_allow(const rule& r, const s3_request& request, clock::time_point now,
                            std::uint64_t rule_match,
                            std::pair<std::uint64_t, std::uint64_t>*& per_key) const {
  const schedule_spec& schedule = r.schedule;
  rule_state& state = *r.state;
  if (!within_window(schedule, now - r.installed.value_or(started_))) {
    return false;
  }
  // The counts the schedule looks at: the rule's own, or this object's.
  std::uint64_t match_number = rule_match;
  std::uint64_t injected_so_far = state.injected.load(std::memory_order_relaxed);
  if (schedule.per_key) {
    per_key = &state.per_key[request.bucket + "/" + request.key];
    match_number = ++per_key->first;
    injected_so_far = per_key->second;
  }
  if (match_number <= schedule.skip) {
    return false;
  }
  const std::uint64_t eligible = match_number - schedule.skip; // 1-based among eligible matches
  if (schedule.first && eligible > *schedule.first) {
    return false;
  }
  if (schedule.every && eligible % *schedule.every != 0) {
    return false;
  }
  return !(schedule.times && injected_so_far >= *schedule.times);
}

bool rule_set::dice_allow(double probability) const {
  if (probability >= 1.0) {
    return true;
  }
  std::lock_guard dice_lock(random_mutex_);
  return std::uniform_real_distribution<double>(0.0, 1.0)(random_) < probability;
}

bool rule_set::schedule_allows(const rule& r, const s3_request& request, clock::time_point now,
                               exchange_decision& decision) const {
  const schedule_spec& schedule = r.schedule;
  rule_state& state = *r.state;
  // One decision per rule at a time: reading a count and raising it in separate steps let two
  // threads take the same match number, or both take the last of `times` (or the last free
  // slot, or the last token). The dice are drawn inside as well, so that draws follow the
  // matches' order.
  std::lock_guard lock(state.schedule_mutex);
  const std::uint64_t rule_match = state.matched.fetch_add(1, std::memory_order_relaxed) + 1;
  std::pair<std::uint64_t, std::uint64_t>* per_key = nullptr;
  const bool may_inject = counts_allow(r, request, now, rule_match, per_key);
  // The load this match meets. It is measured for every match, whatever the counts say: an
  // exchange that the rule lets through is in flight and draws on the rate all the same.
  bool over_limit = false;
  if (schedule.in_flight_over &&
      state.in_flight.load(std::memory_order_relaxed) >= *schedule.in_flight_over) {
    over_limit = true;
  }
  token_bucket* bucket = nullptr;
  rate_timing timing{};
  bool token_left = false;
  if (schedule.rate) {
    timing = timing_of(schedule);
    bucket = &bucket_for(state, rate_bucket_key(schedule.rate_per, request), now);
    token_left = has_token(*bucket, timing, now);
    over_limit = over_limit || !token_left;
  }
  // The dice are drawn only for a match that would otherwise inject.
  if (may_inject && (over_limit || !schedule.load_shaped()) && dice_allow(schedule.probability)) {
    if (per_key != nullptr) {
      ++per_key->second;
    }
    state.injected.fetch_add(1, std::memory_order_relaxed);
    if (schedule.load_shaped()) {
      state.refusals.fetch_add(1, std::memory_order_relaxed);
    }
    return true; // refused: it holds no slot and takes no token
  }
  state.skipped.fetch_add(1, std::memory_order_relaxed);
  if (schedule.in_flight_over) {
    decision.slots.push_back(admission_slot::occupy(r.state));
  }
  if (token_left) {
    take_token(*bucket, timing, now);
  }
  return false;
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
    case action_phase::request_head:
      decision.request_actions.push_back({action, pending_index, position});
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
      pending_rules[*entry.pending].edited = true;
    }
  }
}

void exchange_decision::apply_document_actions(response_document& document,
                                               const s3_request& request) {
  // Rules decided on the status were appended after the others: back to the rules' order, so
  // that an edit listed after a replace-with-error edits the error, whichever of them waited.
  std::stable_sort(
      document_actions.begin(), document_actions.end(),
      [](const head_action& a, const head_action& b) { return a.rule_position < b.rule_position; });
  for (const auto& entry : document_actions) {
    if (entry.action->apply_to_document(document, request) && entry.pending) {
      pending_rules[*entry.pending].edited = true;
    }
  }
}

bool exchange_decision::apply_request_actions(request_head& head) {
  bool changed = false;
  for (const auto& entry : request_actions) {
    if (entry.action->apply_to_request(head)) {
      changed = true;
      if (entry.pending) {
        unconfirmed_request_edits.push_back(*entry.pending);
      }
    }
  }
  return changed;
}

void exchange_decision::confirm_request_edits() {
  for (const std::size_t index : unconfirmed_request_edits) {
    pending_rules[index].edited = true;
  }
  unconfirmed_request_edits.clear();
}

void rule_set::settle_injections(exchange_decision& decision, const s3_request& request) const {
  for (const auto& settled : decision.pending_rules) {
    const rule* source = settled.source;
    const auto& filters = settled.filters;
    if (settled.edited ||
        std::any_of(filters.begin(), filters.end(),
                    [](const body_filter* filter) { return filter->changed_body(); })) {
      continue;
    }
    rule_state& state = *source->state;
    {
      std::lock_guard lock(state.schedule_mutex);
      state.injected.fetch_sub(1, std::memory_order_relaxed);
      state.skipped.fetch_add(1, std::memory_order_relaxed);
      if (source->schedule.load_shaped()) {
        state.refusals.fetch_sub(1, std::memory_order_relaxed);
      }
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
    if (r.schedule.min_body && !takes_part(r.schedule, declared_body_size(headers))) {
      continue; // a body smaller than min_body: not one of the rule's matches
    }
    if (!r.match.statuses.empty()) {
      decision.waiting_for_status.push_back(i);
      continue;
    }
    if (schedule_allows(r, request, now, decision)) {
      inject(r, request, decision);
    }
  }
  return decision;
}

void rule_set::decide_on_status(exchange_decision& decision, const s3_request& request,
                                unsigned status, clock::time_point now) const {
  for (const std::size_t index : decision.waiting_for_status) {
    const rule& r = rules_[index];
    if (status_listed(r.match, status) && schedule_allows(r, request, now, decision)) {
      inject(r, request, decision);
    }
  }
  decision.waiting_for_status.clear();
}

} // namespace s3fault::faults
