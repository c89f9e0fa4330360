#include "conformance/writers/writers.hpp"

#include <algorithm>

namespace s3fault::writers {
namespace {

struct entry {
  std::string_view name;
  writer_function function;
  std::string_view algorithm;
};

const std::vector<entry>& catalog() {
  static const std::vector<entry> entries = {
      {"naive", &write_naive,
       "one attempt per request; Complete's 200 taken as success, its body unread"},
      {"careful", &write_careful,
       "Content-MD5 on every body, retries with backoff, Complete's <Error> in a 200 retried"},
  };
  return entries;
}

} // namespace

writer_function find_writer(std::string_view name) {
  const auto& entries = catalog();
  const auto found =
      std::find_if(entries.begin(), entries.end(), [&](const entry& e) { return e.name == name; });
  return found == entries.end() ? nullptr : found->function;
}

const std::vector<std::string_view>& writer_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> list;
    for (const auto& e : catalog()) {
      list.push_back(e.name);
    }
    return list;
  }();
  return names;
}

std::string_view writer_algorithm(std::string_view name) {
  for (const auto& e : catalog()) {
    if (e.name == name) {
      return e.algorithm;
    }
  }
  return {};
}

} // namespace s3fault::writers
