// The viewer's model as one client of the engine's mu rule (mu_rule.hpp): Session::setMu, the
// μ a user asks for now, runs as asked or not at all (refused, or clamped to Euler's bound with
// a notice). tests/mu_rule_clients.py runs this case with GVFLAB_MU_CASES (and
// GVFLAB_MU_VOLUME for 3D) and compares the verdicts printed here with the CLI's, Python's, a
// session file's and the bench's; alone it checks a few verdicts that hold on any input.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "gvflab/error.hpp"
#include "gvflab/mu_rule.hpp"
#include "viewer/model/session.hpp"
#include "viewer/window/viewer_startup.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {

// Whether the session runs mu as asked on solver kind; why not in `why`.
bool runsAsAsked(Session& s, SolverKind kind, double mu, std::string& why) {
  s.setMu(0.05);  // inside every range, so that the switch clamps nothing
  s.setSolverKind(kind);
  s.clearNotice();
  try {
    s.setMu(mu);
  } catch (const ParameterError& e) {
    why = e.what();
    return false;
  }
  why = s.notice().text;  // a clamp says so
  return s.mu() == mu && s.solver().mu() == mu;
}

}  // namespace

TEST_CASE("mu verdicts of the viewer's model (tests/mu_rule_clients.py)") {
  app::Options o;
  const char* volume = std::getenv("GVFLAB_MU_VOLUME");
  if (volume) {
    o.image = volume;
  } else {
    o.phantom = "blob";
    o.phantomSize = 64;
  }
  Session s(sessionStartup(o));
  REQUIRE(s.startupError().empty());
  const char* cases = std::getenv("GVFLAB_MU_CASES");
  if (!cases) {  // alone: verdicts that hold on any input
    std::string why;
    CHECK(runsAsAsked(s, SolverKind::Euler, 0.0, why));
    CHECK(runsAsAsked(s, SolverKind::Euler, 0.1, why));
    CHECK_FALSE(runsAsAsked(s, SolverKind::Euler, 0.3, why));
    CHECK(why.find("euler solver's range") != std::string::npos);
    CHECK(runsAsAsked(s, SolverKind::Multigrid, 0.5, why));
    CHECK_FALSE(runsAsAsked(s, SolverKind::Multigrid, 0.0, why));
    CHECK(why.find("multigrid solver's range (0, ") != std::string::npos);
    CHECK_FALSE(runsAsAsked(s, SolverKind::Euler, NAN, why));
    return;
  }
  // "euler 0.1;multigrid nan;...": one verdict line each, "MU <solver> <mu> ok|refused <why>".
  std::istringstream in(cases);
  std::string item;
  while (std::getline(in, item, ';')) {
    std::istringstream fields(item);
    std::string solver, text;
    fields >> solver >> text;
    const std::optional<SolverKind> kind = parseSolverKind(solver);
    REQUIRE(kind);
    std::string why;
    const bool ok = runsAsAsked(s, *kind, std::strtod(text.c_str(), nullptr), why);
    std::cout << "MU " << solver << " " << text << " " << (ok ? "ok" : "refused") << " " << why
              << "\n";
  }
}
