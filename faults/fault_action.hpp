#pragma once
// What a fault action is: one small type with its parameters (toxiproxy's model), which says
// what it does to an exchange through pure hooks. The proxy calls the hooks and moves the bytes;
// nothing here touches a socket.
//
//   before the store:  apply_before_store -> before_store_effect (delay, answer, reset, hang)
//   request head:      apply_to_request(request_head&) edits what the store is sent
//   response head:     apply_to_head(response_head_editor&), first_byte_delay()
//   response document: apply_to_document(response_document&): the whole body, buffered
//   response body:     make_response_filter() -> body_filter, fed every chunk as it passes
//   request body:      make_request_filter()  -> body_filter
#include "faults/request_head.hpp"
#include "faults/s3_request.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::faults {

using clock = std::chrono::steady_clock;

/// The one seeded source of randomness of a rule set (docs/design.md rule 6).
using random_engine = std::mt19937_64;

/// A response the proxy sends itself.
struct local_response {
  unsigned status = 500;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

/// How an exchange ends without any answer to the client.
struct no_answer {
  enum class ending { reset, silence };
  ending how = ending::reset; // an RST at once, or silence with the connection held open
  /// With silence: how long the proxy holds the connection (reading and dropping what comes)
  /// before it lets go; the client is expected to give up first.
  clock::duration silence_limit{};
};

/// What before-store actions do, in the words the proxy carries out (one place,
/// client_session::apply_before_store): hold the request, answer instead of the store, answer
/// after the store, or end without an answer. Each action's file composes these.
struct before_store_effect {
  clock::duration delay{};                           // hold the request this long first
  std::optional<local_response> respond;             // answer instead of the store
  std::optional<local_response> respond_after_store; // the store does the work, client gets this
  std::optional<no_answer> end_without_answer;       // no answer at all
  bool reset_after_store = false; // the store does the work and answers; the client gets an RST
};

/// The store's response head as header actions see and change it.
class response_head_editor {
public:
  virtual ~response_head_editor() = default;
  virtual unsigned status() const = 0;
  virtual void set_status(unsigned status) = 0;
  virtual std::optional<std::string> header(std::string_view name) const = 0;
  /// Removes every field of that name (case-insensitive); returns whether there was one.
  virtual bool remove_header(std::string_view name) = 0;
  /// Replaces every field of that name with one, or adds it.
  virtual void set_header(std::string_view name, std::string_view value) = 0;
};

/// What to do with a chunk of body offered to a filter.
struct body_step {
  enum class ending { none, close, reset };
  std::size_t pass = 0;      // how many of the offered bytes to send (after any pause)
  clock::duration pause{};   // wait this long before sending them
  ending end = ending::none; // after sending them, end the connection this way
  /// With end == none: the body is complete after the passed bytes (consistent truncation);
  /// the rest of the offered bytes and every later byte are dropped and the body ends normally.
  /// Without it, offered bytes not passed are offered again from offset + pass (throttle and
  /// stall pass a chunk in steps), unless the step passed nothing and did not pause: then they
  /// are dropped.
  bool body_complete = false;
};

/// A body length a filter has the client told instead of the store's (a truncation that ends
/// the body normally at the cut).
struct length_announcement {
  std::uint64_t length = 0; // the new Content-Length
  /// Whether the end of Content-Range moves with it, so the short body looks complete
  /// (consistent truncation), or the range stays as the store sent it and still claims the
  /// full span (length-only truncation).
  bool range_follows = true;
};

/// Per-exchange state of a body action, fed the body as it passes. A filter may change bytes in
/// place (corruption), pass fewer of them (truncation: then it ends the connection), or pause.
class body_filter {
public:
  virtual ~body_filter() = default;
  /// Called once before the first byte with the body's declared length (nullopt when chunked or
  /// delimited by close), so that fractions can resolve; returns a length to announce instead
  /// (truncation that keeps the connection). Request bodies are told too, but never shortened.
  virtual std::optional<length_announcement>
  announce_length(std::optional<std::uint64_t> declared) {
    (void)declared;
    return std::nullopt;
  }
  /// `bytes` start at body offset `offset`.
  virtual body_step on_bytes(std::span<char> bytes, std::uint64_t offset,
                             clock::time_point now) = 0;
  /// Whether the filter has changed anything so far: cut, reset, flipped, paused or announced a
  /// shorter length. A rule whose filters changed nothing in an exchange (a cut past the end, a
  /// HEAD with no body) does not count as injected there (rule_set::settle_injections).
  virtual bool changed_body() const = 0;
};

/// The store's whole response, head and buffered body (faults/response_document.hpp).
class response_document;

/// What a rule matches (faults/rule.hpp).
struct match_spec;

enum class action_phase {
  before_store,
  request_head,
  response_head,
  /// After the head actions, on the store's whole body read into memory before the head goes
  /// out (S3 XML edits, an answer in place of the store's): the client gets the new length.
  response_document,
  response_body,
  request_body,
};
std::string_view phase_name(action_phase phase);

class fault_action {
public:
  virtual ~fault_action() = default;
  /// The action's name in rule files and the one-line syntax, e.g. "strip-header".
  virtual std::string_view type() const = 0;
  virtual action_phase phase() const = 0;
  /// Parameters as JSON (type included), for the admin API and logs.
  virtual nlohmann::json to_json() const = 0;

  /// Why the action could act on no request `match` takes, as "FIELD: why" naming the match
  /// field ("match.methods: ..."); nullopt when it may act on some. Asked when the rule is read,
  /// so that a rule that could never do anything is refused instead of idling unnoticed.
  virtual std::optional<std::string> refuse_match(const match_spec& match) const {
    (void)match;
    return std::nullopt;
  }

  virtual void apply_before_store(before_store_effect& effect, const s3_request& request,
                                  random_engine& random) const {
    (void)effect, (void)request, (void)random;
  }
  /// Edits the request head the store will be sent; returns whether it changed anything.
  virtual bool apply_to_request(request_head& head) const {
    (void)head;
    return false;
  }
  /// Edits the store's response head; returns whether it changed anything.
  virtual bool apply_to_head(response_head_editor& head) const {
    (void)head;
    return false;
  }
  /// Edits the store's whole response (head and body, response_document phase); `request` is
  /// the exchange's, for what an answer names. Returns whether it changed anything.
  virtual bool apply_to_document(response_document& document, const s3_request& request) const {
    (void)document, (void)request;
    return false;
  }
  /// Whether what the action does depends on what the exchange brings, so that it may find
  /// nothing to do: a body action (a cut past the end, an exchange without that body), a
  /// document edit (an element the body lacks, a body too long to buffer or not XML), a header
  /// removal (a field the response lacks), a request edit (a parameter the request lacks, or an
  /// edit the proxy could not sign). A rule made only of such actions counts as injected only
  /// where one of them did something (rule_set::settle_injections).
  virtual bool may_change_nothing() const {
    return phase() == action_phase::response_body || phase() == action_phase::request_body ||
           phase() == action_phase::request_head || phase() == action_phase::response_document;
  }
  virtual clock::duration first_byte_delay() const { return {}; }
  virtual std::unique_ptr<body_filter> make_body_filter(random_engine& random) const {
    (void)random;
    return nullptr;
  }
};

} // namespace s3fault::faults
