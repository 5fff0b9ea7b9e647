// Every parameter is declared once (issue 40 item 2): each key of every ParamSpec table is bound
// to one field, and every bound value survives the CLI and a session file.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "cli/options.hpp"
#include "gvflab/error.hpp"
#include "gvflab/force_fields.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/param_fields.hpp"
#include "io/session_file.hpp"

using namespace gvflab;
using namespace gvflab::app;

namespace {

template <class T>
int countBindings(const std::vector<ParamField<T>>& fields, const std::string& key) {
  int n = 0;
  for (const auto& f : fields) n += key == f.key;
  return n;
}

// A valid value other than the default: half way to the top of the range, the other state of
// a switch (dmin and dmax both move up, so dmax >= 2 dmin still holds).
double otherValue(const ParamSpec& s, bool isBool = false) {
  if (isBool) return s.defaultValue != 0 ? 0 : 1;
  const double v = s.defaultValue + (s.maxValue - s.defaultValue) / 2;
  return s.integer ? std::floor(v) : v;
}
template <class T>
double otherValue(const ParamField<T>& f, const std::vector<ParamSpec>& specs) {
  return otherValue(findSpec(specs, f.key), f.isBool());
}

// Each key of `specs` bound once by `fields` (none for the keys in `unbound`), and no binding
// naming a key the table lacks.
template <class T>
void checkBound(const std::vector<ParamSpec>& specs, const std::vector<ParamField<T>>& fields,
                std::initializer_list<std::string_view> unbound = {}) {
  for (const ParamSpec& s : specs)
    CHECK_MESSAGE(countBindings(fields, s.key) == (std::ranges::count(unbound, s.key) ? 0 : 1),
                  s.key);
  for (const auto& f : fields) CHECK_NOTHROW(findSpec(specs, f.key));
}

}  // namespace

TEST_CASE("every key of the snake and capture tables is bound to exactly one field") {
  for (const ParamSpec& s : snakeParamSpecs())
    CHECK_MESSAGE(
        countBindings(snakeParamFields(), s.key) + countBindings(snakeLoopFields(), s.key) == 1,
        s.key);
  for (const ParamSpec& s : captureParamSpecs())
    CHECK_MESSAGE(countBindings(captureParamFields(), s.key) == 1, s.key);
  // And no binding names a key the tables lack.
  for (const auto& f : snakeParamFields()) CHECK_NOTHROW(findSpec(snakeParamSpecs(), f.key));
  for (const auto& f : snakeLoopFields()) CHECK_NOTHROW(findSpec(snakeParamSpecs(), f.key));
  for (const auto& f : captureParamFields()) CHECK_NOTHROW(findSpec(captureParamSpecs(), f.key));
}

TEST_CASE("every key of the gvf, multigrid, region and force tables is bound to one field") {
  checkBound(gvfParamSpecs(), gvfParamFields(), {"iterations"});  // a count per run
  checkBound(multigridParamSpecs(), multigridParamFields());
  checkBound(regionSnakeParamSpecs(), regionSnakeParamFields(), {"noise"});  // NoiseModel, by name
  checkBound(ggvfParamSpecs(), ggvfParamFields());
  checkBound(vfcParamSpecs(), vfcParamFields());
  checkBound(distanceParamSpecs(), distanceParamFields());
  // MultigridSolver::setOwnParamValues reads values in the table's order through the fields.
  for (std::size_t i = 0; i < multigridParamFields().size(); ++i)
    CHECK(multigridParamFields()[i].key == multigridParamSpecs()[i].key);
  // The force tables' defaults and checks go through the fields: a bound value out of range is
  // refused with the table's sentence.
  VfcParams vfc = VfcParams::defaults();
  CHECK(vfc.radius == 32);
  vfc.zeta = 1000;
  CHECK_THROWS_WITH_AS(vfc.validate(2), doctest::Contains("zeta"), ParameterError);
}

TEST_CASE("every force parameter round-trips through a session file and sets its flag") {
  SessionFile saved;
  saved.phantom = "u";
  for (const ParamSpec* s : forceParamSpecs()) {
    REQUIRE_MESSAGE(otherValue(*s) != forceParam(saved.forces, s->key), s->key);
    setForceParam(saved.forces, s->key, otherValue(*s));
  }
  saved.forces.vfc.kernel = VfcKernel::Gaussian;
  for (const auto& f : gvfParamFields()) f.set(saved.gvf, otherValue(f, gvfParamSpecs()) / 8);
  const SessionFile loaded = sessionFromJson(sessionToJson(saved));
  for (const ParamSpec* s : forceParamSpecs()) {
    CHECK_MESSAGE(forceParam(loaded.forces, s->key) == forceParam(saved.forces, s->key), s->key);
    const Options o = parseOptions({"--" + s->key, std::to_string(otherValue(*s))});
    CHECK_MESSAGE(forceParam(o.snakes.forces, s->key) == doctest::Approx(otherValue(*s)), s->key);
  }
  CHECK(loaded.forces.vfc.kernel == VfcKernel::Gaussian);
  for (const auto& f : gvfParamFields())
    CHECK_MESSAGE(f.get(loaded.gvf) == f.get(saved.gvf), f.key);
}

TEST_CASE("every snake parameter round-trips through a session file, hold_gap included") {
  SessionFile saved;
  saved.phantom = "u";
  for (const auto& f : snakeParamFields()) {
    const double v = otherValue(f, snakeParamSpecs());
    REQUIRE_MESSAGE(v != f.get(saved.snake), f.key);
    f.set(saved.snake, v);
  }
  saved.gvf.v0Mode = V0Mode::ImageGradient;
  const std::string json = sessionToJson(saved);
  CHECK(json.find("\"hold_gap\"") != std::string::npos);
  const SessionFile loaded = sessionFromJson(json);
  for (const auto& f : snakeParamFields())
    CHECK_MESSAGE(f.get(loaded.snake) == f.get(saved.snake), f.key);
  CHECK(loaded.gvf.v0Mode == V0Mode::ImageGradient);
}

TEST_CASE("every snake, region and capture flag sets its bound field") {
  for (const auto& f : snakeParamFields()) {
    const double v = otherValue(f, snakeParamSpecs());
    const std::string flag = "--" + std::string(f.key);
    // dmax >= 2 dmin is checked across the two flags: dmin's value needs a larger dmax.
    const Options o = parseOptions({"--dmax", "100", flag, std::to_string(v)});
    CHECK_MESSAGE(f.get(o.snakes.params) == doctest::Approx(v), flag);
  }
  for (const auto& f : snakeLoopFields()) {
    const double v = otherValue(f, snakeParamSpecs());
    const Options o = parseOptions({"--" + std::string(f.key), std::to_string(v)});
    CHECK_MESSAGE(f.get(o.snakes) == v, f.key);
  }
  for (const auto& f : regionSnakeParamFields()) {
    if (f.key == std::string_view("max-iterations")) continue;  // a safety bound, no flag
    const double v = otherValue(f, regionSnakeParamSpecs());
    const Options o = parseOptions({"--" + std::string(f.key), std::to_string(v)});
    CHECK_MESSAGE(f.get(o.region) == doctest::Approx(v), f.key);
  }
  for (const auto& f : captureParamFields()) {
    const double v = otherValue(f, captureParamSpecs());
    const Options o = parseOptions({"--" + std::string(f.key), std::to_string(v)});
    CHECK_MESSAGE(f.get(o.snakes.capture) == doctest::Approx(v), f.key);
  }
}

TEST_CASE("V0 modes have one name each, read back by the one parser") {
  for (V0Mode m : {V0Mode::EdgeGradient, V0Mode::ImageGradient})
    CHECK(parseV0Mode(v0ModeName(m)) == m);
  CHECK(!parseV0Mode("gradient"));
  CHECK(paramKeyword("snake-hold-gap") == "hold_gap");
  CHECK(paramKeyword("d-max") == "d_max");
}
