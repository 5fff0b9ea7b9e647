// The engine's one GVF pipeline (gvf_pipeline.hpp): the factory builds the input and either
// solver for images and volumes, refuses what does not fit before allocating, and μ is set and
// bounded through the Solver interface alone.
#include <doctest/doctest.h>

#include <cmath>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/phantoms.hpp"
#include "volume_support.hpp"

using namespace gvflab;

TEST_CASE("solver kinds have one name each, both ways") {
  for (SolverKind k : {SolverKind::Euler, SolverKind::Multigrid})
    CHECK(parseSolverKind(solverKindName(k)) == k);
  CHECK(std::string(solverKindName(SolverKind::Multigrid)) == "multigrid");
  CHECK_FALSE(parseSolverKind("Euler").has_value());
}

TEST_CASE("the factory builds Euler and multigrid for an image and a volume") {
  auto ctx = test::sharedContext();
  const Image2D image = makePhantom("u", 32);
  const Volume volume = test::ballVolumeOf(12, 10, 8);
  GvfParams params;
  params.mu = 0.1;
  for (SolverKind kind : {SolverKind::Euler, SolverKind::Multigrid}) {
    CAPTURE(solverKindName(kind));
    SolverConfig config;
    config.kind = kind;
    GvfPipeline p2 = buildGvfPipeline(ctx, image, params, config, MuRule::Refuse);
    CHECK(p2.solver->name() == solverKindName(kind));
    CHECK(p2.solver->depth() == 1);
    CHECK(p2.input.width == 32);
    CHECK(p2.mu.mu == doctest::Approx(0.1));
    CHECK_FALSE(p2.mu.clamped);
    p2.solver->step(2);
    CHECK(std::isfinite(p2.solver->error()));
    GvfPipeline p3 = buildGvfPipeline(ctx, volume, params, config, MuRule::Refuse);
    CHECK(p3.solver->name() == solverKindName(kind));
    CHECK(p3.solver->depth() == 8);
    CHECK(p3.input.dims() == 3);
    p3.solver->step(1);
    CHECK(p3.solver->readField3D().data.size() == 3u * 12 * 10 * 8);
  }
}

TEST_CASE("the factory refuses a volume too large before allocating anything") {
  auto ctx = test::sharedContext();
  // Only the header is large: building f and V0 would read voxels that are not there, so the
  // ResourceError proves the fit check ran first.
  Volume huge;
  huge.width = huge.height = huge.depth = 4096;
  for (SolverKind kind : {SolverKind::Euler, SolverKind::Multigrid}) {
    SolverConfig config;
    config.kind = kind;
    CHECK_THROWS_WITH_AS(makeGvfInput(*ctx, huge, 1.0, V0Mode::EdgeGradient, config),
                         doctest::Contains("4096x4096x4096"), ResourceError);
    GvfParams params;
    CHECK_THROWS_AS(buildGvfPipeline(ctx, huge, params, config, MuRule::Refuse), ResourceError);
    GvfInput fake;  // no buffers at all
    fake.width = fake.height = fake.depth = 4096;
    CHECK_THROWS_AS(makeSolver(ctx, fake, 0.1, config), ResourceError);
  }
  SolverConfig config;
  CHECK_THROWS_AS(checkFits(*ctx, {4096, 4096, 4096}, config, true), ResourceError);
}

TEST_CASE("mu through the Solver interface: Euler refuses beyond its bound, multigrid does not") {
  auto ctx = test::sharedContext();
  const GvfInput in = buildGvfInput(*ctx, makePhantom("u", 32), 1.0);
  SolverConfig config;
  std::unique_ptr<Solver> euler = makeSolver(ctx, in, 0.1, config);
  config.kind = SolverKind::Multigrid;
  std::unique_ptr<Solver> mg = makeSolver(ctx, in, 0.1, config);

  const double bound = euler->muBound();
  CHECK(bound == doctest::Approx(EulerSolver::stabilityBound(in.maxV0Squared, 2)));
  CHECK(bound == muBound(SolverKind::Euler, in));
  CHECK(bound < 0.25);
  euler->setMu(0.9 * bound);
  CHECK(euler->mu() == doctest::Approx(0.9 * bound));
  CHECK_THROWS_WITH_AS(euler->setMu(1.01 * bound), doctest::Contains("stability bound"),
                       ParameterError);
  CHECK_THROWS_AS(euler->setMu(NAN), ParameterError);
  CHECK_THROWS_AS(euler->setMu(-0.1), ParameterError);
  CHECK(euler->mu() == doctest::Approx(0.9 * bound));  // a refused μ changes nothing

  // Multigrid has no stability bound: its muBound() is the top of its own range (issue 18:
  // the README said so while the shared [0, 0.25] range refused --mu 0.5).
  CHECK(mg->muBound() == multigridMuSpec().maxValue);
  CHECK(mg->muBound() > findSpec(gvfParamSpecs(), "mu").maxValue);
  mg->setMu(1.5 * bound);
  CHECK(mg->mu() == doctest::Approx(1.5 * bound));
  mg->setMu(0.5);  // beyond Euler's whole range
  mg->step(1);
  CHECK(std::isfinite(mg->error()));
  mg->setMu(1.5 * bound);
  mg->step(1);
  CHECK(std::isfinite(mg->error()));
  CHECK_THROWS_AS(mg->setMu(NAN), ParameterError);
}

TEST_CASE("checkMu: the one rule, refuse or clamp") {
  auto ctx = test::sharedContext();
  const GvfInput in = buildGvfInput(*ctx, makePhantom("u", 32), 1.0);
  const double bound = muBound(SolverKind::Euler, in);
  CHECK_THROWS_AS(checkMu(SolverKind::Euler, in, 1.01 * bound, MuRule::Refuse), ParameterError);
  const MuCheck c = checkMu(SolverKind::Euler, in, 0.5, MuRule::ClampBound);
  CHECK(c.clamped);
  CHECK(c.mu == bound);
  CHECK_FALSE(checkMu(SolverKind::Euler, in, 0.5 * bound, MuRule::ClampBound).clamped);
  // Multigrid: no stability bound and its own range, so 0.3 runs as asked under every rule;
  // beyond the range it is refused, not clamped, when the user asks now...
  for (MuRule r : {MuRule::Refuse, MuRule::ClampBound, MuRule::ClampAll})
    CHECK(checkMu(SolverKind::Multigrid, in, 0.3, r).mu == 0.3);
  const double top = multigridMuSpec().maxValue;
  CHECK_THROWS_AS(checkMu(SolverKind::Multigrid, in, 2 * top, MuRule::ClampBound), ParameterError);
  // ...and clamped when a μ asked for earlier meets a new multigrid solver.
  CHECK(checkMu(SolverKind::Multigrid, in, 2 * top, MuRule::ClampAll).mu == top);
  for (MuRule r : {MuRule::Refuse, MuRule::ClampBound, MuRule::ClampAll}) {
    CHECK_THROWS_AS(checkMu(SolverKind::Euler, in, NAN, r), ParameterError);
    CHECK_THROWS_AS(checkMu(SolverKind::Multigrid, in, -1, r), ParameterError);
  }
}
