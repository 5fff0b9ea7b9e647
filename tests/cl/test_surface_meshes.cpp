// Meshes that stay surfaces (issue 37, item 3), on generated scenes: a ball, a cube with a deep
// pocket and a dumbbell, each in Gaussian noise at SNR 3, 5 and 10 (contrast 1 over sigma),
// seeded; GVF and grad-f surfaces started around the object, and a small grad-f sphere in the
// noise alone (the case that grew without bound before). Every final mesh must be closed and
// manifold, cross itself nowhere (countCrossingPairs, a grid, not all pairs), keep its edges in
// [dmin, dmax] but for the collapses remesh() refuses (a few percent, remesh()'s documented
// rule), and stay within its vertex budget. Figures go to MESSAGE.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <glm/geometric.hpp>
#include <memory>
#include <random>
#include <sstream>

#include "cl/cl_fixture.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/mesh_crossings.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/surface_snake.hpp"

using namespace gvflab;

namespace {

constexpr int kSize = 40;
using Sdf = std::function<double(glm::dvec3)>;  // signed distance, < 0 inside

double box(glm::dvec3 p, glm::dvec3 lo, glm::dvec3 hi) {
  const glm::dvec3 c = (lo + hi) * 0.5, h = (hi - lo) * 0.5;
  const glm::dvec3 q = glm::abs(p - c) - h;
  return glm::length(glm::max(q, 0.0)) + std::min(std::max({q.x, q.y, q.z}), 0.0);
}
double ball(glm::dvec3 p, glm::dvec3 c, double r) { return glm::length(p - c) - r; }
double cylinderZ(glm::dvec3 p, double cx, double cy, double r, double z0, double z1) {
  const double radial = std::hypot(p.x - cx, p.y - cy) - r;
  const double along = std::max(z0 - p.z, p.z - z1);
  return std::max(radial, along);
}

struct Scene {
  const char* name;
  Sdf sdf;
};

const Scene kScenes[] = {
    {"ball",
     [](glm::dvec3 p) {
       return ball(p, {20, 20, 20}, 11);
     }},
    // A cube 24 wide with a pocket 8 wide and 16 deep bored from its top face (2:1).
    {"pocket",
     [](glm::dvec3 p) {
       return std::max(box(p, {8, 8, 8}, {32, 32, 32}), -cylinderZ(p, 20, 20, 4, 16, 40));
     }},
    // Two balls joined by a bar 6 wide.
    {"dumbbell",
     [](glm::dvec3 p) {
       return std::min({ball(p, {11, 20, 20}, 7), ball(p, {29, 20, 20}, 7),
                        box(p, {11, 17, 17}, {29, 23, 23})});
     }},
};

// The object (1 inside, 0 outside, a one-voxel ramp) plus noise of sigma 1 / snr.
Volume sceneVolume(const Sdf& sdf, double snr, unsigned seed) {
  Volume v(kSize, kSize, kSize);
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.0f, static_cast<float>(1.0 / snr));
  for (int z = 0; z < kSize; ++z)
    for (int y = 0; y < kSize; ++y)
      for (int x = 0; x < kSize; ++x)
        v.at(x, y, z) =
            static_cast<float>(std::clamp(0.5 - sdf({x + 0.5, y + 0.5, z + 0.5}), 0.0, 1.0)) +
            noise(rng);
  return v;
}

struct EdgeRange {
  double shortest = INFINITY, longest = 0;
  std::size_t count = 0, tooShort = 0, tooLong = 0;
};
EdgeRange edgeRange(const SurfaceMesh& m, double dmin, double dmax) {
  EdgeRange e;
  for (const auto& f : m.faces)
    for (int i = 0; i < 3; ++i) {
      if (f[i] > f[(i + 1) % 3]) continue;  // each edge once
      const double d = glm::distance(m.vertices[f[i]], m.vertices[f[(i + 1) % 3]]);
      ++e.count;
      e.shortest = std::min(e.shortest, d);
      e.longest = std::max(e.longest, d);
      e.tooShort += d < dmin * (1 - 1e-4);
      e.tooLong += d > dmax * (1 + 1e-4);
    }
  return e;
}

}  // namespace

TEST_CASE("surfaces on noisy generated scenes stay surfaces: no crossings, edges, a budget") {
  auto ctx = test::sharedContext();
  const SnakeParams params = SnakeParams::defaults();
  const std::size_t budget = SurfaceSnake::vertexBudget(glm::dvec3(kSize), params, 0);
  std::size_t worstCrossings = 0, mostVertices = 0;
  double shortest = INFINITY, longest = 0, worstShortFraction = 0;
  unsigned seed = 11;
  for (const Scene& scene : kScenes)
    for (double snr : {10.0, 5.0, 3.0}) {
      CAPTURE(scene.name);
      CAPTURE(snr);
      const GvfInput input = buildGvfInput(*ctx, sceneVolume(scene.sdf, snr, seed++), 1.0);
      MultigridSolver solver(ctx, input, 0.2);
      solver.step(8);
      SurfaceSnake s(ctx, kSize, kSize, kSize, params);
      s.setFields(solver.field(), input);
      s.addSphere({20, 20, 20}, 18, SnakeForce::Gvf);
      s.addSphere({20, 20, 20}, 18, SnakeForce::Traditional);
      s.addSphere({6, 6, 6}, 4, SnakeForce::Traditional);  // in the noise alone
      s.step(800);
      s.settleMeshes();
      for (const SurfaceContour& c : s.surfaces()) {
        const MeshCheck check = checkMesh(c.mesh);
        const std::size_t crossings = countCrossingPairs(c.mesh);
        const EdgeRange e = edgeRange(c.mesh, params.dmin, params.dmax);
        std::ostringstream o;
        o << scene.name << " SNR " << snr << ", " << forceName(c.force) << " "
          << snakeStateName(c.state) << " after " << c.iterations << ": " << c.mesh.vertices.size()
          << " vertices, " << crossings << " crossing pairs, edges " << e.shortest << ".."
          << e.longest << " (" << e.tooShort << " short, " << e.tooLong << " long of " << e.count
          << ")";
        MESSAGE(o.str());
        INFO(o.str());
        CHECK(check.ok());
        CHECK(c.mesh.vertices.size() <= budget);
        CHECK(e.tooLong == 0);
        // A surface is untangled when it stops (a moving one is not: smoothing its folds each
        // remeshing kept noisy surfaces from ever settling); one still moving at this cut-off
        // may keep its folds, bounded by the budget. A dot of a few vertices (collapsed, or
        // stalled as one) has only short edges.
        const bool dot = c.state == SnakeState::Collapsed || c.mesh.vertices.size() <= 12;
        if (c.state != SnakeState::Moving) CHECK(crossings == 0);
        // Edges below dmin are the collapses remesh() refuses (a fold, the link condition):
        // few on a surface that converged, more on one crumpled by noise.
        if (c.state == SnakeState::Converged && c.force == SnakeForce::Gvf)
          CHECK(e.tooShort <= 0.03 * e.count);
        else if (c.state != SnakeState::Moving && !dot)
          CHECK(e.tooShort <= 0.1 * e.count);
        worstCrossings = std::max(worstCrossings, crossings);
        mostVertices = std::max(mostVertices, c.mesh.vertices.size());
        shortest = std::min(shortest, e.shortest);
        longest = std::max(longest, e.longest);
        if (c.state != SnakeState::Collapsed)
          worstShortFraction = std::max(worstShortFraction, double(e.tooShort) / e.count);
      }
    }
  MESSAGE("all scenes: at most " << worstCrossings << " crossing pairs, " << mostVertices
                                 << " vertices (budget " << budget << "), edges " << shortest
                                 << ".." << longest << ", short edges at most "
                                 << 100 * worstShortFraction << " %");
}

// World geometry (issue 37, item 4): a ball of radius 12 mm sampled at 1 x 1 x 2 mm (40 x 40 x
// 20 voxels). The surface moves in world units: its edges are in [dmin, dmax] millimetres and it
// comes out round where the field is right; set on the same fields with unit spacing (what the
// snake did before: a voxel-space surface), its edges along z are up to twice dmax in the world.
// With the default μ it lies 0.48 mm from the true sphere on average (the isotropic 40^3 ball:
// 0.29 mm at μ 0.2): the edge map's blur is round in the world (blurSigma). Blurred by σ whole
// voxels along z, the field crossed zero 1.4 mm inside the poles (0.9 mm mean). Its poles stay
// the worst (up to 1.4 mm inside): V0 along z is a difference over 4 mm, weaker, so GVF's
// diffusion moves the zero inward more there than across x and y (more with a larger μ).
TEST_CASE("a surface on a ball sampled at 1x1x2 moves in millimetres") {
  auto ctx = test::sharedContext();
  const glm::dvec3 spacing(1, 1, 2), centre(20, 20, 20);  // mm
  const double radius = 12;
  Volume v(40, 40, 20);
  v.geometry.spacing = {spacing.x, spacing.y, spacing.z};
  v.geometry.known = true;
  for (int z = 0; z < v.depth; ++z)
    for (int y = 0; y < v.height; ++y)
      for (int x = 0; x < v.width; ++x) {
        const glm::dvec3 p = glm::dvec3(x + 0.5, y + 0.5, z + 0.5) * spacing;
        v.at(x, y, z) = static_cast<float>(
            std::clamp(0.5 - (glm::length(p - centre) - radius), 0.0, 1.0));  // a 1 mm ramp
      }
  const GvfInput input = buildGvfInput(*ctx, v, 1.0);
  REQUIRE(input.spacing[2] == 2.0);
  MultigridSolver solver(ctx, input, findSpec(gvfParamSpecs(), "mu").defaultValue);
  solver.step(8);
  // The start: a sphere of 17 mm about the centre, in voxel coordinates.
  SurfaceMesh start = sphereMesh(centre, 17, 1.75);
  for (auto& p : start.vertices) p = glm::vec3(glm::dvec3(p) / spacing);

  struct Outcome {
    SnakeState state{};
    double mean = 0, worst = 0, equator = 0, longestEdge = 0;
    std::size_t crossings = 0;
  };
  auto run = [&](const GvfInput& fields) {
    SurfaceSnake s(ctx, v.width, v.height, v.depth, SnakeParams::defaults());
    s.setFields(solver.field(), fields);
    s.add(start);
    s.step(1500);
    const SurfaceContour c = s.surfaces()[0];
    Outcome o;
    o.state = c.state;
    int ne = 0;
    for (const auto& p : c.mesh.vertices) {
      const glm::dvec3 w = glm::dvec3(p) * spacing - centre;
      const double d = std::abs(glm::length(w) - radius);
      o.mean += d;
      o.worst = std::max(o.worst, d);
      if (std::abs(w.z) < 0.2 * glm::length(w)) o.equator = std::max(o.equator, d), ++ne;
    }
    o.mean /= static_cast<double>(c.mesh.vertices.size());
    for (const auto& f : c.mesh.faces)
      for (int i = 0; i < 3; ++i)
        o.longestEdge = std::max(
            o.longestEdge,
            glm::length(glm::dvec3(c.mesh.vertices[f[i]] - c.mesh.vertices[f[(i + 1) % 3]]) *
                        spacing));
    o.crossings = countCrossingPairs(c.mesh);
    return o;
  };
  const Outcome world = run(input);
  GvfInput unit = input;
  unit.spacing = {1, 1, 1};
  const Outcome voxel = run(unit);
  for (const auto& [name, o] : {std::pair{"world-space", world}, std::pair{"voxel-space", voxel}})
    MESSAGE("1x1x2 ball, " << std::string(name)
                           << " surface: " << std::string(snakeStateName(o.state))
                           << ", distance to the sphere mean " << o.mean << " mm, max " << o.worst
                           << " mm (near the equator " << o.equator << " mm), longest edge "
                           << o.longestEdge << " mm, " << o.crossings << " crossing pairs");
  CHECK(world.state == SnakeState::Converged);
  CHECK(world.mean < 0.5);
  CHECK(world.longestEdge <= SnakeParams::defaults().dmax * (1 + 1e-4));
  CHECK(voxel.longestEdge > 1.5 * SnakeParams::defaults().dmax);
  CHECK(world.mean < voxel.mean);
  CHECK(world.crossings == 0);
}
