#include "faults/operations/catalogue.hpp"

#include "text/text.hpp"

#include <algorithm>
#include <functional>

namespace s3fault::faults {
namespace {

bool is_multipart(const operation_shape& shape) {
  const auto names = [](const auto& list, std::string_view name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  return names(shape.subresources, "uploads") || names(shape.query, "uploadId");
}

bool reads(const operation_shape& shape) {
  return shape.method == "GET" || shape.method == "HEAD";
}

struct named_set {
  std::string_view name;
  std::string_view holds;
  std::function<bool(const operation_shape&)> member;
};

// Written once here, from the table: a set is what its entries share on the wire.
const std::vector<named_set>& named_sets() {
  static const std::vector<named_set> sets = {
      {"@multipart", "the operations of multipart uploads (?uploads or an uploadId)", is_multipart},
      {"@read", "every GET and HEAD operation", reads},
      {"@write", "every PUT, POST and DELETE operation",
       [](const operation_shape& shape) { return !reads(shape); }},
  };
  return sets;
}

} // namespace

// A function's static, not a global: other files' globals may classify requests while the
// program starts (the initialisation order across files is unspecified).
const std::vector<operation_shape>& catalogue() {
  static const std::vector<operation_shape> table = {
#include "faults/operations/catalogue.generated.inc"
  };
  return table;
}

const operation_shape* shape_of(s3_operation operation) {
  static const std::vector<const operation_shape*> by_operation = [] {
    std::vector<const operation_shape*> shapes(s3_operation_count, nullptr);
    for (const auto& shape : catalogue()) {
      if (!shape.alias) {
        shapes[static_cast<std::size_t>(shape.operation)] = &shape;
      }
    }
    return shapes;
  }();
  const auto index = static_cast<std::size_t>(operation);
  return index < by_operation.size() ? by_operation[index] : nullptr;
}

std::string_view operation_name(s3_operation operation) {
  const auto* shape = shape_of(operation);
  return shape ? shape->name : "Other";
}

std::optional<s3_operation> parse_operation(std::string_view name) {
  if (text::iequal(name, "Other")) {
    return s3_operation::Other;
  }
  for (const auto& shape : catalogue()) {
    if (text::iequal(shape.name, name)) {
      return shape.operation;
    }
  }
  return std::nullopt;
}

const std::vector<s3_operation>& all_operations() {
  static const std::vector<s3_operation> operations = [] {
    std::vector<s3_operation> list;
    for (std::size_t i = 0; i < s3_operation_count; ++i) {
      list.push_back(static_cast<s3_operation>(i));
    }
    return list;
  }();
  return operations;
}

std::optional<std::vector<s3_operation>> operation_set(std::string_view name) {
  for (const auto& set : named_sets()) {
    if (text::iequal(set.name, name)) {
      std::vector<s3_operation> members;
      for (const auto& shape : catalogue()) {
        if (!shape.alias && set.member(shape)) {
          members.push_back(shape.operation);
        }
      }
      return members;
    }
  }
  return std::nullopt;
}

const std::vector<std::pair<std::string_view, std::string_view>>& operation_sets() {
  static const std::vector<std::pair<std::string_view, std::string_view>> sets = [] {
    std::vector<std::pair<std::string_view, std::string_view>> list;
    for (const auto& set : named_sets()) {
      list.emplace_back(set.name, set.holds);
    }
    return list;
  }();
  return sets;
}

std::string request_form(const operation_shape& shape) {
  std::string form = std::string(shape.method) + " ";
  switch (shape.form) {
  case path_form::service:
    form += "/";
    break;
  case path_form::bucket:
    form += "/BUCKET";
    break;
  case path_form::object:
    form += "/BUCKET/KEY";
    break;
  case path_form::literal:
    form += shape.literal_path;
    break;
  }
  char separator = '?';
  const auto add = [&](std::string_view item) {
    form += separator;
    form += item;
    separator = '&';
  };
  for (const auto name : shape.subresources) {
    add(name);
  }
  for (const auto& [name, value] : shape.query_values) {
    add(std::string(name) + "=" + std::string(value));
  }
  for (const auto name : shape.query) {
    add(std::string(name) + "=");
  }
  for (const auto header : shape.headers) {
    form += " + " + std::string(header);
  }
  return form;
}

namespace {

// Every name one list of the entries holds, once each, in the catalogue's order.
std::vector<std::string_view> names_in(std::vector<std::string_view> operation_shape::*list) {
  std::vector<std::string_view> names;
  for (const auto& shape : catalogue()) {
    for (const auto name : shape.*list) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
    }
  }
  return names;
}

} // namespace

const std::vector<std::string_view>& distinguishing_headers() {
  static const std::vector<std::string_view> headers = names_in(&operation_shape::headers);
  return headers;
}

const std::vector<std::string_view>& model_subresources() {
  static const std::vector<std::string_view> names = names_in(&operation_shape::subresources);
  return names;
}

} // namespace s3fault::faults
