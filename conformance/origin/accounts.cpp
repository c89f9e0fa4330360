#include "conformance/origin/accounts.hpp"

#include "conformance/origin/operations.hpp"
#include "conformance/s3/hashing.hpp"
#include "text/text.hpp"

#include <algorithm>
#include <set>

namespace s3fault::origin {
namespace {

bool is_blank_or_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte <= 0x20 || byte == 0x7f;
}

} // namespace

account_owner owner_of(std::string_view access_key) {
  account_owner owner;
  owner.id = s3::sha256_hex("s3fault account " + std::string(access_key));
  owner.display_name = std::string(access_key);
  return owner;
}

std::variant<s3::credentials, std::string> parse_account(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    return std::string("expected KEY:SECRET");
  }
  const std::string_view key = text.substr(0, colon);
  const std::string_view secret = text.substr(colon + 1);
  if (key.empty()) {
    return std::string("the access key is empty");
  }
  if (secret.empty()) {
    return std::string("the secret key is empty");
  }
  // The access key travels in "Credential=KEY/date/region/s3/aws4_request".
  if (std::any_of(key.begin(), key.end(),
                  [](char c) { return is_blank_or_control(c) || c == '/'; })) {
    return std::string("the access key may not contain '/', blanks or control characters");
  }
  if (std::any_of(secret.begin(), secret.end(), is_blank_or_control)) {
    return std::string("the secret key may not contain blanks or control characters");
  }
  s3::credentials account;
  account.access_key = std::string(key);
  account.secret_key = std::string(secret);
  return account;
}

accounts_file parse_accounts_file(std::string_view content) {
  accounts_file out;
  std::set<std::string> seen;
  unsigned number = 0;
  while (!content.empty()) {
    const auto newline = content.find('\n');
    std::string_view line = content.substr(0, newline);
    content = newline == std::string_view::npos ? std::string_view{} : content.substr(newline + 1);
    ++number;
    if (line.ends_with('\r')) {
      line.remove_suffix(1);
    }
    line = text::trim(line);
    if (line.empty() || line.starts_with('#')) {
      continue;
    }
    const std::string where = "line " + std::to_string(number) + ": ";
    auto parsed = parse_account(line);
    if (const auto* error = std::get_if<std::string>(&parsed)) {
      out.errors.push_back(where + *error);
      continue;
    }
    auto& account = std::get<s3::credentials>(parsed);
    if (!seen.insert(account.access_key).second) {
      out.errors.push_back(where + "access key '" + account.access_key + "' given twice");
      continue;
    }
    out.accounts.push_back(std::move(account));
  }
  return out;
}

std::optional<std::string> origin_settings::secret_of(std::string_view access_key) const {
  if (credentials && credentials->access_key == access_key) {
    return credentials->secret_key;
  }
  for (const auto& account : more_accounts) {
    if (account.access_key == access_key) {
      return account.secret_key;
    }
  }
  return std::nullopt;
}

std::string origin_settings::owner_key(std::string_view stored_owner) const {
  if (!stored_owner.empty()) {
    return std::string(stored_owner);
  }
  return credentials ? credentials->access_key : std::string(anonymous_owner_key);
}

std::string request_context::caller() const {
  return signing ? signing->access_key : settings.owner_key("");
}

account_owner request_context::bucket_owner() const {
  const auto stored = request.bucket.empty() ? std::nullopt : store.bucket_owner(request.bucket);
  return owner_of(stored ? settings.owner_key(*stored) : caller());
}

} // namespace s3fault::origin
