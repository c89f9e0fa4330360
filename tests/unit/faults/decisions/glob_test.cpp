#include "faults/rule.hpp"

#include <gtest/gtest.h>

using s3fault::faults::glob_matches;

TEST(Glob, Table) {
  struct row {
    const char* pattern;
    const char* text;
    bool expected;
  };
  const row rows[] = {
      {"*", "", true},
      {"*", "anything/at/all", true},
      {"data/*.parquet", "data/a.parquet", true},
      {"data/*.parquet", "data/sub/a.parquet", true}, // * crosses '/' (S3 keys are flat)
      {"data/*.parquet", "data/a.parquet.tmp", false},
      {"part-?", "part-1", true},
      {"part-?", "part-12", false},
      {"log-[0-9][0-9]", "log-42", true},
      {"log-[0-9][0-9]", "log-4a", false},
      {"[!a]*", "bcd", true},
      {"[!a]*", "abc", false},
      {"a[bc]d", "acd", true},
      {"a[bc]d", "aed", false},
      {"[unclosed", "[unclosed", true},
      {"*a*b*c*", "xxaxxbxxcxx", true},
      {"*a*b*c*", "xxaxxcxxbxx", false},
      {"exact", "exact", true},
      {"exact", "exactly", false},
      {"", "", true},
      {"", "x", false},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(glob_matches(r.pattern, r.text), r.expected) << r.pattern << " vs " << r.text;
  }
}
