// Surface snakes on the volume phantoms (volume_phantoms.hpp, 48^3): a GVF surface converges
// onto the "sphere" within a voxel; on the "cup" the GVF surface enters the well while its
// traditional twin stays over the rim; remeshing keeps every mesh closed and manifold; each
// state occurs (converged, stalled, collapsed, moving). Also the measures behind the states
// (surface_measures.hpp) on meshes with known answers. Figures go to MESSAGE for the report.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <map>
#include <memory>
#include <numbers>
#include <random>
#include <sstream>

#include "cl/cl_fixture.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/snake_stop.hpp"
#include "gvflab/surface_measures.hpp"
#include "gvflab/surface_snake.hpp"
#include "gvflab/volume_phantoms.hpp"

using namespace gvflab;

namespace {

constexpr int kSize = 48;

struct Phantom {
  GvfInput input;
  std::unique_ptr<MultigridSolver> solver;
};

// The phantom (contrast 1) with Gaussian noise of standard deviation `noise`, its edge map
// (σ 1) and its GVF (multigrid, μ 0.2, converged), built once.
Phantom& phantom(const std::string& name, double noise = 0) {
  static std::map<std::pair<std::string, double>, Phantom> cache;
  auto it = cache.find({name, noise});
  if (it == cache.end()) {
    auto ctx = test::sharedContext();
    Volume volume = makeVolumePhantom(name, kSize);
    std::mt19937 random(7);
    std::normal_distribution<float> gauss(0.0f, static_cast<float>(noise));
    if (noise > 0)
      for (float& v : volume.voxels) v += gauss(random);
    Phantom p{buildGvfInput(*ctx, volume, 1.0), nullptr};
    p.solver = std::make_unique<MultigridSolver>(ctx, p.input, 0.2);
    p.solver->step(8);
    it = cache.emplace(std::make_pair(name, noise), std::move(p)).first;
  }
  return it->second;
}

std::unique_ptr<SurfaceSnake> surfacesOn(Phantom& p, const SnakeParams& params) {
  auto s = std::make_unique<SurfaceSnake>(test::sharedContext(), kSize, kSize, kSize, params);
  s->setFields(p.solver->field(), p.input);
  return s;
}

std::string describe(const SurfaceContour& c) {
  std::ostringstream o;
  o << forceName(c.force) << " " << snakeStateName(c.state) << " after " << c.iterations << " it, "
    << c.mesh.vertices.size() << " vertices, volume " << meshVolume(c.mesh) << ", held " << c.held
    << ", widest unheld patch " << c.holdGap;
  return o.str();
}

// Steps in chunks, checking that every mesh stays closed, manifold and oriented.
void runChecked(SurfaceSnake& s, int iterations, int chunk = 50) {
  for (int done = 0; done < iterations && !s.allStopped(); done += chunk) {
    s.step(chunk);
    for (const auto& c : s.surfaces()) {
      const MeshCheck check = checkMesh(c.mesh);
      INFO(check.problem);
      REQUIRE(check.ok());
      REQUIRE(check.eulerCharacteristic == 2);
    }
  }
}

}  // namespace

TEST_CASE("a GVF surface around the sphere phantom converges onto it within a voxel") {
  Phantom& p = phantom("sphere");
  auto s = surfacesOn(p, SnakeParams::defaults());
  const double c = kSize / 2.0, radius = kBallRadius * kSize;
  s->addSphere({c, c, c}, 0.42 * kSize);
  runChecked(*s, 1500);
  const auto got = s->surfaces();
  MESSAGE(describe(got[0]));
  CHECK(got[0].state == SnakeState::Converged);
  double mean = 0, worst = 0;
  for (const auto& v : got[0].mesh.vertices) {
    const double d = std::abs(glm::length(glm::dvec3(v) - glm::dvec3(c)) - radius);
    mean += d;
    worst = std::max(worst, d);
  }
  mean /= static_cast<double>(got[0].mesh.vertices.size());
  MESSAGE("distance to the ball's sphere: mean " << mean << ", max " << worst);
  CHECK(mean < 0.5);
  CHECK(worst < 1.0);
  CHECK(got[0].held > 0.5);
}

// The cup's well is wide enough for GVF to pull down it (volume_phantoms.hpp says why).
TEST_CASE("on the cup, a GVF surface enters the well and its traditional twin stays over it") {
  Phantom& p = phantom("cup");
  auto s = surfacesOn(p, SnakeParams::defaults());
  const double c = kSize / 2.0, top = kCupTop * kSize, wellR = kCupWellRadius * kSize;
  s->addSphere({c, c, c}, 23, SnakeForce::Gvf);
  s->addSphere({c, c, c}, 23, SnakeForce::Traditional);
  runChecked(*s, 1000);
  const auto got = s->surfaces();
  // How deep a surface reaches into the well: its lowest vertex near the well's axis above the
  // cup's solid bottom (below that lies the part of the surface under the cup).
  const double solid = kCupBottom * kSize + 2;
  auto depth = [&](const SurfaceContour& sc) {
    double deepest = 0;
    for (const auto& v : sc.mesh.vertices)
      if (std::hypot(v.x - c, v.y - c) < 0.6 * wellR && v.z > solid)
        deepest = std::max(deepest, top - v.z);
    return deepest;
  };
  MESSAGE(describe(got[0]) << ", depth " << depth(got[0]));
  MESSAGE(describe(got[1]) << ", depth " << depth(got[1]));
  const double wellDepth = kCupWellDepth * kSize;
  CHECK(depth(got[0]) > 0.75 * wellDepth);  // GVF: most of the way down the well
  CHECK(depth(got[1]) < 0.25 * wellDepth);  // traditional: over the rim
  CHECK(got[0].state == SnakeState::Converged);
  CHECK(got[1].state != SnakeState::Converged);
}

TEST_CASE("noisy ball: GVF converges onto it at SNR 20 and 10; a surface in noise alone stalls") {
  // Off the clean phantoms the states must not mislead: the ball with Gaussian noise of σ 0.05
  // and 0.1 (contrast 1). A GVF surface still converges onto the ball; a small grad-f sphere
  // far from it lies in noise only, where the hold test (with its noise floor) holds nothing:
  // stalled, never converged. (At σ 0.2 and 0.3 noise passes the fixed edge level kHoldEdge
  // and holds half the lone sphere, which then reads converged at 0.3: the rule's limit.)
  for (double noise : {0.05, 0.1}) {
    CAPTURE(noise);
    Phantom& p = phantom("sphere", noise);
    const double c = kSize / 2.0, radius = kBallRadius * kSize;
    auto s = surfacesOn(p, SnakeParams::defaults());
    s->addSphere({c, c, c}, 0.42 * kSize);
    runChecked(*s, 1500);
    SnakeParams weak = SnakeParams::defaults();
    weak.alpha = 0.005;
    auto lone = surfacesOn(p, weak);
    lone->addSphere({8, 8, 8}, 5, SnakeForce::Traditional);
    runChecked(*lone, 1500, 100);
    const SurfaceContour ball = s->surfaces()[0], alone = lone->surfaces()[0];
    double mean = 0;
    for (const auto& v : ball.mesh.vertices)
      mean += std::abs(glm::length(glm::dvec3(v) - glm::dvec3(c)) - radius);
    mean /= static_cast<double>(ball.mesh.vertices.size());
    MESSAGE("noise " << noise << ": " << describe(ball) << ", mean distance " << mean << "; "
                     << describe(alone));
    CHECK(ball.state == SnakeState::Converged);
    CHECK(mean < 1.0);
    CHECK(alone.state == SnakeState::Stalled);
    CHECK(alone.held < 0.1);
  }
}

TEST_CASE("surface states: stalled in a flat region, collapsed, moving when iterations run out") {
  Phantom& p = phantom("sphere");
  // Far from the ball (its edge at 14.4 voxels from the centre, this sphere's nearest point at
  // 22.7): grad f is exactly 0 there. A weak elasticity (α 0.005) lets it stop within a window:
  // the default α shrinks a sphere of radius 5 by ~1 voxel a window until it collapses.
  SnakeParams weak = SnakeParams::defaults();
  weak.alpha = 0.005;
  auto s = surfacesOn(p, weak);
  s->addSphere({8, 8, 8}, 5, SnakeForce::Traditional);
  s->addSphere({8, 8, 40}, 5, SnakeForce::Traditional, -0.5);  // deflates to nothing
  runChecked(*s, 1000, 100);
  const auto got = s->surfaces();
  MESSAGE(describe(got[0]));
  MESSAGE(describe(got[1]));
  CHECK(got[0].state == SnakeState::Stalled);
  CHECK(got[0].held == 0);
  CHECK(got[0].iterations <= 300);
  CHECK(got[1].state == SnakeState::Collapsed);
  CHECK(got[1].iterations <= 100);

  auto m = surfacesOn(p, SnakeParams::defaults());
  m->addSphere({24, 24, 24}, 20);
  m->step(30);
  CHECK(m->surfaces()[0].state == SnakeState::Moving);
  CHECK(m->surfaces()[0].iterations == 30);
  m->restart();
  CHECK(m->surfaces()[0].iterations == 0);
}

TEST_CASE("points near a mesh, collapse and unheld patch extents") {
  const glm::dvec3 c(20, 20, 20);
  const SurfaceMesh sphere = sphereMesh(c, 10, 1.0);
  // Points 0.3 and 3 voxels outside the sphere along a few directions: the chord error of
  // the mesh is below 0.05 voxel at this spacing.
  std::vector<glm::vec3> points;
  for (int k = 0; k < 20; ++k) {
    const double t = 0.7 * k, z = std::cos(1.3 * k);
    const glm::dvec3 dir(std::sqrt(1 - z * z) * std::cos(t), std::sqrt(1 - z * z) * std::sin(t), z);
    points.push_back(glm::vec3(c + (k % 2 ? 10.3 : 13.0) * dir));
  }
  const MeshDistance d(sphere, 5.0), capped(sphere, 1.0);
  for (int k = 0; k < 20; ++k) {
    const glm::dvec3 p(points[k]);
    const double want = k % 2 ? 0.3 : 3.0, tol = 0.02 * (1 + want);
    CHECK(d.within(p, want + tol));
    CHECK_FALSE(d.within(p, want - tol));
    CHECK(capped.within(p, 1.0) == (k % 2 == 1));  // nothing within 1 of the far points
  }

  const double v0 = meshVolume(sphere);
  CHECK_FALSE(collapsedSurface(sphereMesh(c, 2, 1.0), v0, 1.0));  // small, still a ball
  CHECK(collapsedSurface(sphereMesh(c, 0.6, 0.5), v0, 1.0));      // a dot
  SurfaceMesh flat = sphere;                                      // squashed into a sheet 0.2 thick
  for (auto& v : flat.vertices) v.z = static_cast<float>(c.z + 0.01 * (v.z - c.z));
  CHECK(collapsedSurface(flat, v0, 1.0));

  // The extent the states judge is an area: a polar cap of angular radius 0.5 unheld (area
  // 2 pi 10^2 (1 - cos 0.5) = 77) grown by the reach 1.5 along its border (2 pi 10 sin 0.5 =
  // 30) is a disc about 12.6 wide; a band 3 voxels wide round the equator (area 188) is far
  // wider than its width.
  std::vector<bool> held(sphere.vertices.size());
  for (std::size_t i = 0; i < held.size(); ++i)
    held[i] = (sphere.vertices[i].z - c.z) / 10.0 < std::cos(0.5);
  const double capExtent = unheldPatchExtent(sphere, held, kHoldDistance);
  MESSAGE("cap extent " << capExtent);
  CHECK(capExtent == doctest::Approx(12.6).epsilon(0.08));
  std::vector<bool> band(sphere.vertices.size());
  for (std::size_t i = 0; i < band.size(); ++i)
    band[i] = std::abs(sphere.vertices[i].z - c.z) > 1.5;
  CHECK(unheldPatchExtent(sphere, band, kHoldDistance) > 16.0);
  CHECK(unheldPatchExtent(sphere, std::vector<bool>(held.size(), true), kHoldDistance) == 0);
  CHECK(unheldPatchExtent(sphere, std::vector<bool>(held.size(), false), kHoldDistance) > 30);
}

// A sphere inflating by pressure in a zero field: its edges grow all the time.
std::unique_ptr<SurfaceSnake> inflating(const std::shared_ptr<ComputeContext>& ctx,
                                        const GvfInput& flat, double pressure) {
  SnakeParams p = SnakeParams::defaults();
  p.alpha = p.beta = 0;
  p.pressure = pressure;
  auto s = std::make_unique<SurfaceSnake>(ctx, flat.width, flat.height, flat.depth, p);
  s->setFields(flat.v0, flat);
  s->addSphere({16, 16, 16}, 5, SnakeForce::Traditional);
  return s;
}

TEST_CASE("remeshing waits for far-out edges or its patience, not every resampling") {
  // Remeshing whenever some edge leaves [dmin, dmax] would remesh the inflating sphere at nearly
  // every resampling (40 times in 400 iterations); the rule remeshes when an edge is
  // kRemeshFar out or after kRemeshPatience periods. Counted as changes of the vertex count
  // between 10-iteration steps.
  auto ctx = test::sharedContext();
  GvfInput flat = gvfInputFrom(*ctx, Volume(32, 32, 32));
  auto s = inflating(ctx, flat, 0.02);
  std::size_t last = s->vertexCount();
  int changes = 0;
  for (int k = 0; k < 40; ++k) {
    s->step(10);
    const auto got = s->surfaces();
    REQUIRE(checkMesh(got[0].mesh).ok());
    changes += got[0].mesh.vertices.size() != last;
    last = got[0].mesh.vertices.size();
  }
  MESSAGE(changes << " remeshings in 400 iterations, " << last << " vertices at the end");
  CHECK(changes >= 2);
  CHECK(changes <= 10);
}

TEST_CASE("iterations enqueued before a check's flags give the surface checked steps give") {
  // step(400) enqueues the next 10 iterations before a clean check's flags come back, and
  // throws them away when a far-out edge remeshes after all; step(10) ends at its check.
  auto ctx = test::sharedContext();
  GvfInput flat = gvfInputFrom(*ctx, Volume(32, 32, 32));
  auto checked = inflating(ctx, flat, 0.15), ahead = inflating(ctx, flat, 0.15);
  for (int k = 0; k < 40; ++k) checked->step(10);
  ahead->step(400);
  const auto a = checked->surfaces(), b = ahead->surfaces();
  MESSAGE(ahead->traffic().early << " chunks early, " << ahead->traffic().wasted << " wasted, "
                                 << ahead->traffic().remeshes << " remeshes");
  CHECK(checked->traffic().early == 0);
  CHECK(ahead->traffic().early > 0);
  CHECK(ahead->traffic().wasted > 0);
  CHECK(ahead->traffic().remeshes == checked->traffic().remeshes);
  CHECK(a[0].mesh.vertices == b[0].mesh.vertices);
  CHECK(a[0].mesh.faces == b[0].mesh.faces);
  CHECK(a[0].state == b[0].state);
}
