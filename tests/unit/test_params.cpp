#include <doctest/doctest.h>

#include <cmath>

#include "gvflab/error.hpp"
#include "gvflab/params.hpp"

using namespace gvflab;

TEST_CASE("parameter specs validate ranges, NaN and whole numbers") {
  const auto& mu = findSpec(gvfParamSpecs(), "mu");
  CHECK_NOTHROW(validate(mu, mu.defaultValue));
  CHECK_THROWS_AS(validate(mu, NAN), ParameterError);
  CHECK_THROWS_AS(validate(mu, INFINITY), ParameterError);
  CHECK_THROWS_AS(validate(mu, -0.01), ParameterError);
  CHECK_THROWS_AS(validate(mu, 0.3), ParameterError);
  const auto& it = findSpec(gvfParamSpecs(), "iterations");
  CHECK_THROWS_AS(validate(it, 2.5), ParameterError);
  CHECK_NOTHROW(validate(it, 100));
  CHECK_THROWS_AS(findSpec(gvfParamSpecs(), "nope"), ParameterError);
  for (const auto& s : gvfParamSpecs()) {
    CHECK(s.minValue <= s.defaultValue);
    CHECK(s.defaultValue <= s.maxValue);
    CHECK(!s.help.empty());
  }
}
