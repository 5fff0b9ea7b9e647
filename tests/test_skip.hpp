#pragma once
// Test cases that cannot run here (a CPU-only kernel on a GPU, no profiler, a missing data file)
// live in a TEST_SUITE named by a SkipWhen. Before the run, main() (test_main.cpp) asks each
// SkipWhen of its binary and excludes the suites whose condition holds: doctest then counts
// their cases as skipped and the reason is printed, instead of a case that passes having
// asserted nothing.
#include <functional>
#include <vector>

namespace gvflab::test {

struct SkipWhen {
  SkipWhen(const char* suiteName, const char* why, std::function<bool()> holds);
  const char* suite;
  const char* reason;
  std::function<bool()> applies;
};

std::vector<const SkipWhen*>& skipRules();  // those of this binary

}  // namespace gvflab::test
