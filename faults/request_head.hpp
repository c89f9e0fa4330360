#pragma once
// The client's request head as request actions edit it before the store sees it: method,
// target and the fields the proxy forwards, as plain values. The proxy copies its parsed head
// into one, lets the actions edit it, has it signed again when a signed part changed, and sends
// it in place of the client's.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::faults {

struct request_head {
  std::string method;
  std::string target; // raw path and query as sent ("/b/k?partNumber=1")
  std::vector<std::pair<std::string, std::string>> headers;

  // What the edits touched, to tell whether the request's signature still holds.
  bool method_changed = false;
  bool query_changed = false;
  std::vector<std::string> changed_headers; // lower case
  /// An action asked for the request to be signed with the proxy's keys whatever it carried.
  bool resign_requested = false;

  /// Sends the request with another method (exact, as HTTP methods are case-sensitive); returns
  /// whether it changed. The store's answer is then framed by the new method, the client's by
  /// the method it sent (the proxy keeps both apart).
  bool set_method(std::string_view new_method);

  /// The decoded value of the first query parameter of that name (exact, case-sensitive as S3
  /// is); nullopt when absent.
  std::optional<std::string> query(std::string_view name) const;
  /// Removes every parameter of that name; returns whether there was one.
  bool remove_query(std::string_view name);
  /// Gives the parameter this value (encoded as SigV4 encodes it): the first of that name is
  /// replaced and any others removed, or it is appended. Returns whether the target changed.
  bool set_query(std::string_view name, std::string_view value);

  /// The first field of that name (case-insensitive); nullopt when absent.
  std::optional<std::string> header(std::string_view name) const;
  /// Removes every field of that name; returns whether there was one.
  bool remove_header(std::string_view name);
  /// Replaces every field of that name with one (where the first was), or appends it. Returns
  /// whether anything changed.
  bool set_header(std::string_view name, std::string_view value);

  bool changed() const { return method_changed || query_changed || !changed_headers.empty(); }

private:
  void note_header(std::string_view name);
};

/// A SigV4 signature parameter of the request as sent: `name` ("Credential", "SignedHeaders")
/// from the Authorization field's `NAME=VALUE` list, else the presigned query's
/// `X-Amz-NAME`; nullopt when neither has it.
std::optional<std::string> signature_parameter(const request_head& head, std::string_view name);

} // namespace s3fault::faults
