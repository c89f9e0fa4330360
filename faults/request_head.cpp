#include "faults/request_head.hpp"

#include "text/text.hpp"
#include "text/uri.hpp"

#include <algorithm>

namespace s3fault::faults {
namespace {

struct split_target {
  std::string_view path;
  std::string_view query; // without the '?'
  bool has_query = false;
};

split_target split(std::string_view target) {
  const auto question = target.find('?');
  if (question == std::string_view::npos) {
    return {target, {}, false};
  }
  return {target.substr(0, question), target.substr(question + 1), true};
}

std::vector<std::string_view> query_pieces(std::string_view query) {
  std::vector<std::string_view> pieces;
  while (!query.empty()) {
    const auto amp = query.find('&');
    if (amp != 0) {
      pieces.push_back(query.substr(0, amp));
    }
    if (amp == std::string_view::npos) {
      break;
    }
    query = query.substr(amp + 1);
  }
  return pieces;
}

std::string piece_name(std::string_view piece) {
  return text::uri_decode(piece.substr(0, piece.find('=')));
}

std::string join_target(std::string_view path, const std::vector<std::string>& pieces) {
  std::string target(path);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    target += i == 0 ? '?' : '&';
    target += pieces[i];
  }
  return target;
}

} // namespace

bool request_head::set_method(std::string_view new_method) {
  if (method == new_method) {
    return false;
  }
  method = std::string(new_method);
  method_changed = true;
  return true;
}

std::optional<std::string> request_head::query(std::string_view name) const {
  for (const auto piece : query_pieces(split(target).query)) {
    if (piece_name(piece) == name) {
      const auto eq = piece.find('=');
      return eq == std::string_view::npos ? std::string() : text::uri_decode(piece.substr(eq + 1));
    }
  }
  return std::nullopt;
}

bool request_head::remove_query(std::string_view name) {
  const auto parts = split(target);
  std::vector<std::string> kept;
  bool removed = false;
  for (const auto piece : query_pieces(parts.query)) {
    if (piece_name(piece) == name) {
      removed = true;
    } else {
      kept.emplace_back(piece);
    }
  }
  if (removed) {
    target = join_target(parts.path, kept);
    query_changed = true;
  }
  return removed;
}

bool request_head::set_query(std::string_view name, std::string_view value) {
  const auto parts = split(target);
  const std::string wanted = text::uri_encode(name, true) + "=" + text::uri_encode(value, true);
  std::vector<std::string> pieces;
  bool placed = false;
  for (const auto piece : query_pieces(parts.query)) {
    if (piece_name(piece) != name) {
      pieces.emplace_back(piece);
    } else if (!placed) {
      pieces.push_back(wanted);
      placed = true;
    }
  }
  if (!placed) {
    pieces.push_back(wanted);
  }
  const std::string edited = join_target(parts.path, pieces);
  if (edited == target) {
    return false;
  }
  target = edited;
  query_changed = true;
  return true;
}

std::optional<std::string> request_head::header(std::string_view name) const {
  for (const auto& [field, value] : headers) {
    if (text::iequal(field, name)) {
      return value;
    }
  }
  return std::nullopt;
}

bool request_head::remove_header(std::string_view name) {
  const auto removed =
      std::erase_if(headers, [&](const auto& field) { return text::iequal(field.first, name); });
  if (removed > 0) {
    note_header(name);
  }
  return removed > 0;
}

bool request_head::set_header(std::string_view name, std::string_view value) {
  // The first field of the name takes the value where it stood; later ones go.
  std::vector<std::pair<std::string, std::string>> kept;
  bool placed = false;
  bool changed = false;
  for (auto& field : headers) {
    if (!text::iequal(field.first, name)) {
      kept.push_back(std::move(field));
    } else if (placed) {
      changed = true;
    } else {
      placed = true;
      changed = changed || field.second != value;
      kept.emplace_back(std::move(field.first), std::string(value));
    }
  }
  if (!placed) {
    kept.emplace_back(std::string(name), std::string(value));
    changed = true;
  }
  headers = std::move(kept);
  if (changed) {
    note_header(name);
  }
  return changed;
}

std::optional<std::string> signature_parameter(const request_head& head, std::string_view name) {
  if (const auto authorization = head.header("Authorization")) {
    const std::string key = std::string(name) + "=";
    const auto start = authorization->find(key);
    if (start == std::string::npos) {
      return std::nullopt;
    }
    const auto value = start + key.size();
    return authorization->substr(value, authorization->find(',', value) - value);
  }
  return head.query("X-Amz-" + std::string(name));
}

void request_head::note_header(std::string_view name) {
  std::string lower = text::ascii_lower(name);
  if (std::find(changed_headers.begin(), changed_headers.end(), lower) == changed_headers.end()) {
    changed_headers.push_back(std::move(lower));
  }
}

} // namespace s3fault::faults
