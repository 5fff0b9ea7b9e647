#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <utility>

#include "test_skip.hpp"

namespace gvflab::test {

std::vector<const SkipWhen*>& skipRules() {
  static std::vector<const SkipWhen*> rules;
  return rules;
}

SkipWhen::SkipWhen(const char* suiteName, const char* why, std::function<bool()> holds)
    : suite(suiteName), reason(why), applies(std::move(holds)) {
  skipRules().push_back(this);
}

}  // namespace gvflab::test

int main(int argc, char** argv) {
  doctest::Context context;
  context.applyCommandLine(argc, argv);
  for (const gvflab::test::SkipWhen* rule : gvflab::test::skipRules())
    if (rule->applies()) {
      context.addFilter("test-suite-exclude", rule->suite);
      std::printf("[doctest] skipped: test suite '%s' (%s)\n", rule->suite, rule->reason);
    }
  return context.run();
}
