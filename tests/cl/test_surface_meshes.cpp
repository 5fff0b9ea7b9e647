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
    {"ball", [](glm::dvec3 p) { return ball(p, {20, 20, 20}, 11); }},
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
        v.at(x, y, z) = static_cast<float>(std::clamp(0.5 - sdf({x + 0.5, y + 0.5, z + 0.5}), 0.0,
                                                      1.0)) +
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
      for (const SurfaceContour& c : s.surfaces()) {
        const MeshCheck check = checkMesh(c.mesh);
        const std::size_t crossings = countCrossingPairs(c.mesh);
        const EdgeRange e = edgeRange(c.mesh, params.dmin, params.dmax);
        std::ostringstream o;
        o << scene.name << " SNR " << snr << ", " << forceName(c.force) << " "
          << snakeStateName(c.state) << " after " << c.iterations << ": "
          << c.mesh.vertices.size() << " vertices, " << crossings << " crossing pairs, edges "
          << e.shortest << ".." << e.longest << " (" << e.tooShort << " short, " << e.tooLong
          << " long of " << e.count << ")";
        MESSAGE(o.str());
        INFO(o.str());
        CHECK(check.ok());
        CHECK(crossings == 0);
        CHECK(c.mesh.vertices.size() <= budget);
        if (c.state != SnakeState::Moving) {  // a moving mesh waits for its next remeshing
          CHECK(e.tooLong == 0);
          CHECK(e.tooShort <= 0.05 * e.count);
        }
        worstCrossings = std::max(worstCrossings, crossings);
        mostVertices = std::max(mostVertices, c.mesh.vertices.size());
        shortest = std::min(shortest, e.shortest);
        longest = std::max(longest, e.longest);
        worstShortFraction = std::max(worstShortFraction, double(e.tooShort) / e.count);
      }
    }
  MESSAGE("all scenes: at most " << worstCrossings << " crossing pairs, " << mostVertices
                                 << " vertices (budget " << budget << "), edges " << shortest
                                 << ".." << longest << ", short edges at most "
                                 << 100 * worstShortFraction << " %");
}

// World geometry (issue 37, item 4): a ball of radius 12 mm sampled at 1 x 1 x 2 mm (40 x 40 x
// 20 voxels). The surface moves in world units, so it converges onto the ball in millimetres;
// set on the same fields with unit spacing (what the snake did before: a voxel-space surface),
// it lands squashed along z.
TEST_CASE("a surface converges onto a ball sampled at 1x1x2 within 0.5 mm in world units") {
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
        // One voxel's ramp across the boundary along the local sampling (about 1 mm here).
        v.at(x, y, z) = static_cast<float>(std::clamp(0.5 - (glm::length(p - centre) - radius),
                                                      0.0, 1.0));
      }
  const GvfInput input = buildGvfInput(*ctx, v, 1.0);
  REQUIRE(input.spacing[2] == 2.0);
  MultigridSolver solver(ctx, input, 0.2);
  solver.step(8);
  // The start: a sphere of 17 mm about the centre, in voxel coordinates.
  SurfaceMesh start = sphereMesh(centre, 17, 1.75);
  for (auto& p : start.vertices) p = glm::vec3(glm::dvec3(p) / spacing);

  auto worldError = [&](const GvfInput& fields, double& mean, double& worst, SnakeState& state) {
    SurfaceSnake s(ctx, v.width, v.height, v.depth, SnakeParams::defaults());
    s.setFields(solver.field(), fields);
    s.add(start);
    s.step(1500);
    const SurfaceContour c = s.surfaces()[0];
    mean = worst = 0;
    for (const auto& p : c.mesh.vertices) {
      const double d = std::abs(glm::length(glm::dvec3(p) * spacing - centre) - radius);
      mean += d;
      worst = std::max(worst, d);
    }
    mean /= static_cast<double>(c.mesh.vertices.size());
    state = c.state;
    CHECK(countCrossingPairs(c.mesh) == 0);
  };
  double mean = 0, worst = 0, voxelMean = 0, voxelWorst = 0;
  SnakeState state{}, voxelState{};
  worldError(input, mean, worst, state);
  GvfInput unit = input;
  unit.spacing = {1, 1, 1};
  worldError(unit, voxelMean, voxelWorst, voxelState);
  MESSAGE("1x1x2 ball: world-space surface " << snakeStateName(state) << ", distance to the sphere mean "
                                             << mean << " mm, max " << worst
                                             << " mm; voxel-space surface " << snakeStateName(voxelState)
                                             << ", mean " << voxelMean << " mm, max " << voxelWorst
                                             << " mm");
  CHECK(state == SnakeState::Converged);
  CHECK(worst < 0.5);
  CHECK(voxelWorst > worst);
}
