#include "faults/operations/operation_match.hpp"

#include <algorithm>

namespace s3fault::faults {
namespace {

bool has_query(const operation_request& request, std::string_view name) {
  return std::any_of(request.query.begin(), request.query.end(),
                     [name](const auto& item) { return item.first == name; });
}

bool has_query_value(const operation_request& request, std::string_view name,
                     std::string_view value) {
  return std::any_of(request.query.begin(), request.query.end(),
                     [&](const auto& item) { return item.first == name && item.second == value; });
}

bool has_header(const operation_request& request, std::string_view name) {
  return std::find(request.headers.begin(), request.headers.end(), name) != request.headers.end();
}

// The first "?name" without '=' the model knows no operation or parameter by: a sub-resource
// of an operation newer than the model.
std::string unknown_subresource(std::string_view raw_query) {
  while (!raw_query.empty()) {
    const auto amp = raw_query.find('&');
    const std::string_view item = raw_query.substr(0, amp);
    raw_query = amp == std::string_view::npos ? std::string_view{} : raw_query.substr(amp + 1);
    if (item.empty() || item.find('=') != std::string_view::npos) {
      continue;
    }
    const auto known = [item](const operation_shape& shape) {
      const auto in = [item](const auto& names) {
        return std::find(names.begin(), names.end(), item) != names.end();
      };
      return in(shape.subresources) || in(shape.query) ||
             std::any_of(shape.query_values.begin(), shape.query_values.end(),
                         [item](const auto& pair) { return pair.first == item; });
    };
    if (std::none_of(catalogue().begin(), catalogue().end(), known)) {
      return std::string(item);
    }
  }
  return {};
}

bool names_foreign_subresource(const operation_request& request, const operation_shape& shape) {
  return std::any_of(request.query.begin(), request.query.end(), [&shape](const auto& item) {
    const auto& subs = model_subresources();
    return std::find(subs.begin(), subs.end(), item.first) != subs.end() &&
           std::find(shape.subresources.begin(), shape.subresources.end(), item.first) ==
               shape.subresources.end();
  });
}

bool is_candidate(const operation_request& request, const operation_shape& shape) {
  if (shape.alias || shape.method != request.method || shape.form == path_form::literal ||
      shape.form != request.form) {
    return false;
  }
  return std::all_of(shape.subresources.begin(), shape.subresources.end(),
                     [&](auto name) { return has_query(request, name); }) &&
         !names_foreign_subresource(request, shape);
}

bool has_required_members(const operation_request& request, const operation_shape& shape) {
  return std::all_of(
             shape.query_values.begin(), shape.query_values.end(),
             [&](const auto& pair) { return has_query_value(request, pair.first, pair.second); }) &&
         std::all_of(shape.query.begin(), shape.query.end(),
                     [&](auto name) { return has_query(request, name); }) &&
         std::all_of(shape.headers.begin(), shape.headers.end(),
                     [&](auto name) { return has_header(request, name); });
}

std::size_t requirements(const operation_shape& shape) {
  return shape.subresources.size() + shape.query_values.size() + shape.query.size() +
         shape.headers.size();
}

// WriteGetObjectResponse is sent to its own host ({RequestRoute}.s3-object-lambda...), whose
// name looks like a virtual-hosted bucket: its fixed path and required headers name it.
const operation_shape* literal_path_operation(const operation_request& request) {
  for (const auto& shape : catalogue()) {
    if (shape.form == path_form::literal && shape.method == request.method &&
        shape.literal_path == request.path && has_required_members(request, shape)) {
      return &shape;
    }
  }
  return nullptr;
}

std::string_view form_name(path_form form) {
  switch (form) {
  case path_form::service:
    return "the service";
  case path_form::bucket:
    return "a bucket";
  default:
    return "an object";
  }
}

} // namespace

operation_match match_operation(const operation_request& request) {
  if (const auto* shape = literal_path_operation(request)) {
    return {shape->operation, {}, {}};
  }
  if (auto unknown = unknown_subresource(request.raw_query); !unknown.empty()) {
    return {s3_operation::Other,
            "?" + unknown + " is a sub-resource of no S3 operation in the model", unknown};
  }
  const operation_shape* best = nullptr;
  const operation_shape* named_by_subresource = nullptr;
  std::size_t named_count = 0;
  bool tie = false;
  for (const auto& shape : catalogue()) {
    if (!is_candidate(request, shape)) {
      continue;
    }
    if (!has_required_members(request, shape)) {
      if (!shape.subresources.empty()) {
        named_by_subresource = &shape;
        ++named_count;
      }
      continue;
    }
    if (best == nullptr || requirements(shape) > requirements(*best)) {
      best = &shape;
      tie = false;
    } else if (requirements(shape) == requirements(*best)) {
      tie = true;
    }
  }
  if (best != nullptr && !tie) {
    return {best->operation, {}, {}};
  }
  if (best == nullptr && named_count == 1) {
    return {named_by_subresource->operation, {}, {}};
  }
  const std::string what =
      std::string(request.method) + " on " + std::string(form_name(request.form));
  return {s3_operation::Other,
          tie ? what + " with this query fits two S3 operations"
              : "no S3 operation is a " + what + " with this query",
          {}};
}

} // namespace s3fault::faults
