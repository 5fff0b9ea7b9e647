// SurfaceSnake on the device against its double reference (surface_reference.hpp): one and five
// iterations of several surfaces in one batch (both forces, vertex counts that are not
// multiples of the 64-wide work-groups, jittered meshes, a random field), the hold test, and
// the method: the Richardson sweeps reach the exact semi-implicit step and stay stable where an
// explicit step blows up. Tolerances: 1e-3 voxel after one iteration, 5e-3 after five
// (coordinates ~10 in float32); hold strengths 1e-3 (unit forces) for 99 % of the vertices.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <random>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/snake_stop.hpp"
#include "gvflab/surface_measures.hpp"
#include "gvflab/surface_reference.hpp"
#include "gvflab/surface_snake.hpp"
#include "volume_support.hpp"

using namespace gvflab;

namespace {

constexpr int kW = 23, kH = 19, kD = 17;

struct Scene3 {
  GvfInput input;
  std::unique_ptr<EulerSolver> solver;
  reference::Field gvf, traditional;
  reference::Grid edge;
};

reference::Field toRef3(const Field3D& f) {
  reference::Field r{f.width, f.height, std::vector<double>(f.data.begin(), f.data.end()), f.depth};
  r.components = 3;
  return r;
}

Scene3 randomScene() {
  auto ctx = test::sharedContext();
  Scene3 s{buildGvfInput(*ctx, test::randomVolumeOf(kW, kH, kD, 99), 1.0), nullptr, {}, {}, {}};
  s.solver = std::make_unique<EulerSolver>(ctx, s.input, 0.1);
  s.solver->step(10);
  s.gvf = toRef3(s.solver->readField3D());
  s.traditional = toRef3(readV0Volume(*ctx, s.input));
  s.edge = test::toGridOf(readEdgeVolume(*ctx, s.input));
  return s;
}

SurfaceMesh jittered(glm::dvec3 c, double r, double edge, unsigned seed) {
  SurfaceMesh m = sphereMesh(c, r, edge);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.15f, 0.15f);
  for (auto& v : m.vertices) v += glm::vec3(u(rng), u(rng), u(rng));
  return m;
}

reference::Rings ringsOf(const SurfaceMesh& m) { return vertexNeighbours(m); }

std::vector<glm::dvec3> toD(const std::vector<glm::vec3>& v) { return {v.begin(), v.end()}; }

double maxDiff(const std::vector<glm::vec3>& a, const std::vector<glm::dvec3>& b) {
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, glm::length(glm::dvec3(a[i]) - b[i]));
  return m;
}

// The reference's step with p's weights, a surface's own pressure and the grid's spacing.
reference::SurfaceStepParams stepParamsOf(const SnakeParams& p, double pressure,
                                          glm::dvec3 spacing = glm::dvec3(1.0)) {
  return {.alpha = p.alpha,
          .beta = p.beta,
          .gamma = p.gamma,
          .kappa = p.kappa,
          .pressure = pressure,
          .normalize = p.normalize,
          .sweeps = surfaceSweeps(p),
          .spacing = spacing};
}

// No remeshing or state checks inside the compared iterations.
SnakeParams quiet(SnakeParams p) {
  p.resample = 1000;
  p.window = 10000;
  return p;
}

}  // namespace

TEST_CASE("surface iterations match the double reference for every kind of parameter") {
  // Both sweep kernels' paths: the umbrella stored between launches, and the 2-ring's one launch.
  auto ctx = test::sharedContext();
  Scene3 s = randomScene();
  struct Case {
    double alpha, beta, gamma, kappa, pressure;
    bool normalize;
  };
  // Defaults; strong internal forces with a small γ (the sweep cap); the raw field, no
  // internal forces and a deflating pressure.
  const Case cases[] = {{0.05, 0.05, 1.0, 0.6, 0.0, true},
                        {10.0, 10.0, 0.05, 2.0, 0.7, true},
                        {0.0, 0.0, 2.0, 3.0, -0.4, false}};
  for (int pass = 0; pass < 6; ++pass) {
    const Case& c = cases[pass % 3];
    const bool ring = pass >= 3;
    CAPTURE(ring);
    CAPTURE(c.alpha);
    CAPTURE(c.gamma);
    SnakeParams p = SnakeParams::defaults();
    p.alpha = c.alpha, p.beta = c.beta, p.gamma = c.gamma, p.kappa = c.kappa;
    p.pressure = c.pressure, p.normalize = c.normalize;
    p = quiet(p);
    SurfaceSnake surfaces(ctx, kW, kH, kD, p);
    surfaces.setRingSweeps(ring);
    surfaces.setFields(s.solver->field(), s.input);
    surfaces.add(jittered({7, 7, 6}, 3.5, 1.5, 1), SnakeForce::Gvf);
    surfaces.add(jittered({15, 11, 9}, 4.5, 1.5, 2), SnakeForce::Traditional);
    surfaces.add(jittered({11, 10, 11}, 2.5, 2.0, 3), SnakeForce::Gvf, 0.25);
    const auto start = surfaces.surfaces();
    REQUIRE(start.size() == 3);
    std::size_t total = 0;
    std::vector<std::vector<glm::dvec3>> ref;
    std::vector<reference::Rings> rings;
    for (const auto& sc : start) {
      total += sc.mesh.vertices.size();
      ref.push_back(toD(sc.mesh.vertices));
      rings.push_back(ringsOf(sc.mesh));
    }
    CHECK(total % 64 != 0);
    for (int step = 1; step <= 5; ++step) {
      CAPTURE(step);
      surfaces.step(1);
      const auto got = surfaces.surfaces();
      for (std::size_t k = 0; k < got.size(); ++k) {
        const reference::SurfaceStepParams rp = stepParamsOf(p, got[k].pressure);
        ref[k] = reference::surfaceStep(
            ref[k], rings[k], got[k].force == SnakeForce::Gvf ? s.gvf : s.traditional, rp);
        CHECK(got[k].iterations == step);
        CHECK(maxDiff(got[k].mesh.vertices, ref[k]) < (step == 1 ? 1e-3 : 5e-3));
      }
    }
  }
}

TEST_CASE("the hold strengths match the double reference, noise floor included") {
  auto ctx = test::sharedContext();
  Scene3 s = randomScene();
  SurfaceSnake surfaces(ctx, kW, kH, kD, quiet(SnakeParams::defaults()));
  surfaces.setFields(s.solver->field(), s.input);
  surfaces.add(jittered({8, 9, 8}, 4.0, 1.5, 4), SnakeForce::Gvf);
  surfaces.add(jittered({14, 10, 9}, 4.5, 1.5, 5), SnakeForce::Traditional);
  surfaces.step(3);
  const auto hold = surfaces.holdStrengths();
  const auto got = surfaces.surfaces();
  REQUIRE(hold.size() == 2);
  const HoldLevels levels = holdLevels(*ctx, s.input);  // the random volume's noise
  int mismatches = 0, vertices = 0, positive = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const auto want =
        reference::surfaceHold(toD(got[k].mesh.vertices), ringsOf(got[k].mesh),
                               got[k].force == SnakeForce::Gvf ? s.gvf : s.traditional,
                               kHoldDistance, &s.edge, levels.edge, levels.strength);
    const auto plain = reference::surfaceHold(
        toD(got[k].mesh.vertices), ringsOf(got[k].mesh),
        got[k].force == SnakeForce::Gvf ? s.gvf : s.traditional, kHoldDistance);
    REQUIRE(hold[k].size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      mismatches += std::abs(hold[k][i] - want[i]) > 1e-3;
      positive += plain[i] > 0;
    }
    vertices += static_cast<int>(want.size());
  }
  CHECK(mismatches <= vertices / 100);
  // The comparison covers sinks of the unit force, which the levels decide (in this random
  // volume, noise only, they hold none).
  CHECK(positive > 0);
}

// Voxels that are not cubes (issue 37): the device moves world positions (voxel coordinates
// times the spacing) and samples the fields at p / spacing; the reference does the same in
// double precision. Positions are compared in world units.
TEST_CASE("with anisotropic spacing, steps and hold strengths match the reference in world units") {
  auto ctx = test::sharedContext();
  Scene3 s = randomScene();
  GvfInput input = s.input;
  input.spacing = {1.0, 1.5, 2.0};
  const glm::dvec3 h(1.0, 1.5, 2.0);
  const SnakeParams p = quiet(SnakeParams::defaults());
  SurfaceSnake surfaces(ctx, kW, kH, kD, p);
  surfaces.setFields(s.solver->field(), input);
  surfaces.add(jittered({11, 9, 8}, 4.0, 1.5, 6), SnakeForce::Gvf);
  surfaces.add(jittered({12, 10, 9}, 3.0, 1.5, 7), SnakeForce::Traditional, 0.3);
  std::vector<std::vector<glm::dvec3>> ref;
  std::vector<reference::Rings> rings;
  for (const auto& sc : surfaces.surfaces()) {
    std::vector<glm::dvec3> world = toD(sc.mesh.vertices);
    for (auto& v : world) v *= h;
    ref.push_back(world);
    rings.push_back(ringsOf(sc.mesh));
  }
  for (int step = 1; step <= 3; ++step) {
    CAPTURE(step);
    surfaces.step(1);
    const auto got = surfaces.surfaces();
    for (std::size_t k = 0; k < got.size(); ++k) {
      const reference::SurfaceStepParams rp = stepParamsOf(p, got[k].pressure, h);
      ref[k] = reference::surfaceStep(ref[k], rings[k],
                                      got[k].force == SnakeForce::Gvf ? s.gvf : s.traditional, rp);
      std::vector<glm::vec3> world = got[k].mesh.vertices;
      for (auto& v : world) v = glm::vec3(glm::dvec3(v) * h);
      CHECK(maxDiff(world, ref[k]) < (step == 1 ? 1e-3 : 5e-3));
    }
  }
  const auto hold = surfaces.holdStrengths();
  const auto got = surfaces.surfaces();
  const HoldLevels levels = holdLevels(*ctx, input);  // the levels the surfaces use
  int mismatches = 0, vertices = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    std::vector<glm::dvec3> world = toD(got[k].mesh.vertices);
    for (auto& v : world) v *= h;
    const auto want = reference::surfaceHold(
        world, ringsOf(got[k].mesh), got[k].force == SnakeForce::Gvf ? s.gvf : s.traditional,
        kHoldDistance, &s.edge, levels.edge, levels.strength, h);
    REQUIRE(hold[k].size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
      mismatches += std::abs(hold[k][i] - want[i]) > 1e-3;
    vertices += static_cast<int>(want.size());
  }
  CHECK(mismatches <= vertices / 100);
}

TEST_CASE("the hold test's noise floor: each guard decides somewhere, as in the reference") {
  // A field with a sink on the sphere r = 6 about (12, 12, 12): V0 = clamp(6 - r, -2, 2) r^ a(z),
  // a(z) = (z / 24)^2, so the raw force at the hold samples is below the floor (8 % of max
  // |V0|) at low z and above it at high z; the edge map is 0.5 for 12 <= x < 18 and 0 elsewhere
  // (a quarter of the volume: its median and spread are 0, the floor kHoldEdge holds).
  auto ctx = test::sharedContext();
  const int n = 24;
  Volume f(n, n, n);
  Field3D v0(n, n, n);
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const glm::dvec3 d = glm::dvec3(x + 0.5, y + 0.5, z + 0.5) - glm::dvec3(12.0);
        const double r = glm::length(d), a = (z + 0.5) * (z + 0.5) / (n * n);
        const glm::dvec3 v = r > 0 ? std::clamp(6 - r, -2.0, 2.0) * a * d / r : glm::dvec3(0.0);
        const std::size_t i = (static_cast<std::size_t>(z) * n + y) * n + x;
        for (int k = 0; k < 3; ++k) v0.data[3 * i + k] = static_cast<float>(v[k]);
        f.at(x, y, z) = x >= 12 && x < 18 ? 0.5f : 0.0f;
      }
  GvfInput in = gvfInputFrom(*ctx, f, &v0);
  SurfaceSnake surfaces(ctx, n, n, n, quiet(SnakeParams::defaults()));
  surfaces.setFields(in.v0, in);
  surfaces.add(sphereMesh({12, 12, 12}, 6, 1.5), SnakeForce::Traditional);
  const auto hold = surfaces.holdStrengths()[0];
  const auto mesh = surfaces.surfaces()[0].mesh;
  const reference::Field force = toRef3(v0);
  const reference::Grid edge = test::toGridOf(f);
  const auto x = toD(mesh.vertices);
  const auto rings = ringsOf(mesh);
  const HoldLevels levels = holdLevels(*ctx, in);
  CHECK(levels.edge == kHoldEdge);
  const auto want =
      reference::surfaceHold(x, rings, force, kHoldDistance, &edge, levels.edge, levels.strength);
  const auto plain = reference::surfaceHold(x, rings, force, kHoldDistance);
  const auto edgeOnly =
      reference::surfaceHold(x, rings, force, kHoldDistance, &edge, levels.edge, INFINITY);
  int mismatches = 0, zeroed = 0, keptByStrength = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    mismatches += std::abs(hold[i] - want[i]) > 1e-3;
    zeroed += plain[i] > 0 && want[i] == 0;
    keptByStrength += want[i] > 0 && edgeOnly[i] == 0;
  }
  MESSAGE(want.size() << " vertices: " << zeroed << " zeroed by the floor, " << keptByStrength
                      << " kept by the force's strength alone");
  CHECK(mismatches <= static_cast<int>(want.size()) / 100);
  CHECK(zeroed > 10);
  CHECK(keptByStrength > 10);
}

TEST_CASE("the Richardson sweeps reach the exact semi-implicit step") {
  // Double precision only: the method, not the code. With enough sweeps the iteration is the
  // exact solve; with surfaceSweeps() the whole step is within kSweepResidual of it.
  Scene3 s = randomScene();
  const SurfaceMesh mesh = jittered({11, 9, 8}, 4.0, 2.0, 6);
  const auto x = toD(mesh.vertices);
  const auto rings = ringsOf(mesh);
  for (double a : {0.05, 1.0, 10.0}) {
    CAPTURE(a);
    SnakeParams p = SnakeParams::defaults();
    p.alpha = a, p.beta = a, p.gamma = 1.0, p.pressure = 0.3;
    reference::SurfaceStepParams rp{.alpha = p.alpha,
                                    .beta = p.beta,
                                    .gamma = p.gamma,
                                    .kappa = p.kappa,
                                    .pressure = p.pressure,
                                    .normalize = true,
                                    .sweeps = 4000};
    const auto exact = reference::surfaceImplicitStep(x, rings, s.gvf, rp);
    const auto many = reference::surfaceStep(x, rings, s.gvf, rp);
    double err = 0, step = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      err = std::max(err, glm::length(many[i] - exact[i]));
      step = std::max(step, glm::length(exact[i] - x[i]));
    }
    CHECK(err < 1e-9);
    rp.sweeps = surfaceSweeps(p);
    const auto few = reference::surfaceStep(x, rings, s.gvf, rp);
    double gap = 0;
    for (std::size_t i = 0; i < x.size(); ++i) gap = std::max(gap, glm::length(few[i] - exact[i]));
    const double g = 1 - p.gamma * surfaceRelaxation(p);
    CHECK(gap <= std::pow(g, rp.sweeps) * 2 * step + 1e-9);
  }
}

TEST_CASE("the sweeps stay stable at the table's extremes where an explicit step blows up") {
  // α = β = 10, γ = 0.05: an explicit step multiplies the roughest mode by up to 1 - 1200.
  Scene3 s = randomScene();
  reference::Field zero = s.gvf;
  std::fill(zero.values.begin(), zero.values.end(), 0.0);
  const SurfaceMesh mesh = jittered({11, 9, 8}, 4.0, 1.5, 7);
  const auto rings = ringsOf(mesh);
  SnakeParams p = SnakeParams::defaults();
  p.alpha = 10, p.beta = 10, p.gamma = 0.05;
  auto spread = [](const std::vector<glm::dvec3>& v) {
    glm::dvec3 c(0.0);
    for (const auto& q : v) c += q;
    c /= static_cast<double>(v.size());
    double r = 0;
    for (const auto& q : v) r = std::max(r, glm::length(q - c));
    return r;
  };
  auto explicitRun = [&](double omega) {
    auto x = toD(mesh.vertices);
    for (int it = 0; it < 20; ++it) {
      const auto l = reference::umbrellaLaplacian(x, rings);
      const auto ll = reference::umbrellaLaplacian(l, rings);
      for (std::size_t i = 0; i < x.size(); ++i) x[i] += omega * (p.alpha * l[i] - p.beta * ll[i]);
    }
    return spread(x);
  };
  const double r0 = spread(toD(mesh.vertices));
  CHECK(explicitRun(1 / p.gamma) > 100 * r0);  // explicit: blows up
  const reference::SurfaceStepParams rp{.alpha = p.alpha,
                                        .beta = p.beta,
                                        .gamma = p.gamma,
                                        .kappa = 0,
                                        .pressure = 0,
                                        .normalize = true,
                                        .sweeps = surfaceSweeps(p)};
  auto x = toD(mesh.vertices);
  for (int it = 0; it < 20; ++it) x = reference::surfaceStep(x, rings, zero, rp);
  CHECK(spread(x) <= r0 + 1e-9);  // the sweeps only smooth and shrink
  CHECK(surfaceSweeps(p) == kMaxSweeps);
  CHECK(surfaceSweeps(SnakeParams::defaults()) == 3);
}

TEST_CASE("surface inputs are refused with one clear sentence") {
  auto ctx = test::sharedContext();
  const SnakeParams p = SnakeParams::defaults();
  CHECK_THROWS_AS(SurfaceSnake::checkSphere({10, 10, 10}, 12, 32, 32, 32, p), ParameterError);
  CHECK_THROWS_AS(SurfaceSnake::checkSphere({10, NAN, 10}, 2, 32, 32, 32, p), ParameterError);
  CHECK_THROWS_AS(SurfaceSnake::checkSphere({10, 10, 10}, 0, 32, 32, 32, p), ParameterError);
  CHECK_THROWS_AS(SurfaceSnake::checkSphere({2000, 2000, 2000}, 1990, 4000, 4000, 4000, p),
                  ResourceError);
  CHECK_NOTHROW(SurfaceSnake::checkSphere({10, 10, 10}, 5, 32, 32, 32, p));
  SurfaceMesh open = sphereMesh({10, 10, 10}, 4, 2);
  open.faces.pop_back();
  CHECK_THROWS_AS(SurfaceSnake::checkSurface(open, 32, 32, 32, p), ParameterError);
  SurfaceSnake surfaces(ctx, 32, 32, 32);
  surfaces.addSphere({10, 10, 10}, 4);
  CHECK_THROWS_AS(surfaces.step(1), InputError);  // no fields yet
  CHECK_THROWS_AS(surfaces.addSphere({10, 10, 10}, 4, SnakeForce::Gvf, 9.0), ParameterError);
  SnakeParams bad = p;
  bad.dmax = bad.dmin;
  CHECK_THROWS_AS(surfaces.setParams(bad), ParameterError);
  CHECK(surfaces.params().dmax == p.dmax);
}
