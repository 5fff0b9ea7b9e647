// Meshes that stay surfaces (issue 37, item 3), on generated scenes: a ball, a cube with a deep
// pocket and a dumbbell, each in Gaussian noise at SNR 3, 5 and 10 (contrast 1 over sigma),
// seeded; GVF and grad-f surfaces started around the object, and a small grad-f sphere in the
// noise alone (the case that grew without bound before). Every final mesh must be closed and
// manifold, cross itself nowhere (crossingFacePairs, a grid, not all pairs), keep its edges in
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
#include "gvflab/surface_reference.hpp"
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
        const std::size_t crossings = crossingFacePairs(c.mesh).size();
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
        // stalled as one: 13 vertices, 6 of 33 edges short on an H200) has only short edges.
        const bool dot = c.state == SnakeState::Collapsed || c.mesh.vertices.size() <= 20;
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

// World geometry (issue 37, item 4): a ball sampled on an anisotropic grid (a 1 mm ramp at the
// voxel centres). The surface moves in world units: its edges are in [dmin, dmax] millimetres;
// set on the same fields with unit spacing (a voxel-space surface), its edges along the coarse
// axis are up to twice dmax in the world. It lies on its field's zero: the step's unit force is
// the field over its cell's longest corner (kernels/surface_step.cl; corners normalised first put
// the 1x1x2 ball's poles 1.34 mm inside). The field's zero lies inside a convex edge by about μ
// over |V0|² times the curvature; f and V0 taken by central differences across 2 mm samples made
// |V0| at the poles 0.16 (0.39 at the equator) and put them 0.69 mm inside at the default μ.
// Built on the grid refined to the finest spacing (edgeRefinement), every vertex is within
// 0.46 mm (0.37 mm on a 1 mm grid). Where a pole falls on a sample the 1 mm ramp, sampled 2 mm
// apart, reads as a terrace up to 0.5 mm inside near it: no interpolation of the samples gets
// that back (the field solved on the volume resampled to 1 mm: 0.80 mm; here 0.75, 1.13 before).
namespace {

struct BallOutcome {
  SnakeState state{};
  double mean = 0, p99 = 0, worst = 0, offField = 0, longestEdge = 0;
  std::size_t crossings = 0;
};

// The ball sampled at `spacing` (mm), its field solved with μ, and a surface started as a
// sphere of 17 mm about its centre, run 1500 iterations on the field as if at `snakeSpacing`.
// offField: the largest distance of a vertex from the field's zero along the ray from the
// centre through it (the radial component of the raw field, trilinear, as the reference samples).
BallOutcome ballSurface(const glm::dvec3& spacing, const glm::dvec3& centre, double radius,
                        double mu, bool unitSpacing = false) {
  auto ctx = test::sharedContext();
  const glm::ivec3 n(glm::ceil(glm::dvec3(40.0) / spacing));
  Volume v(n.x, n.y, n.z);
  v.geometry.spacing = {spacing.x, spacing.y, spacing.z};
  v.geometry.known = true;
  for (int z = 0; z < v.depth; ++z)
    for (int y = 0; y < v.height; ++y)
      for (int x = 0; x < v.width; ++x) {
        const glm::dvec3 p = (glm::dvec3(x, y, z) + 0.5) * spacing;
        v.at(x, y, z) = static_cast<float>(
            std::clamp(0.5 - (glm::length(p - centre) - radius), 0.0, 1.0));  // a 1 mm ramp
      }
  GvfInput input = buildGvfInput(*ctx, v, 1.0);
  MultigridSolver solver(ctx, input, mu);
  solver.step(8);
  const Field3D f = solver.readField3D();
  const reference::Field field{f.width, f.height, {f.data.begin(), f.data.end()}, f.depth};
  if (unitSpacing) input.spacing = {1, 1, 1};
  SurfaceMesh start = sphereMesh(centre, 17, 1.75);
  for (auto& p : start.vertices) p = glm::vec3(glm::dvec3(p) / spacing);
  SurfaceSnake s(ctx, v.width, v.height, v.depth, SnakeParams::defaults());
  s.setFields(solver.field(), input);
  s.add(start);
  s.step(1500);
  const SurfaceContour c = s.surfaces()[0];
  BallOutcome o;
  o.state = c.state;
  std::vector<double> d;
  for (const auto& p : c.mesh.vertices) {
    const glm::dvec3 w = glm::dvec3(p) * spacing - centre;
    const double r = glm::length(w);
    d.push_back(std::abs(r - radius));
    // The nearest sign change of the field's radial component along the ray, 0.01 mm steps.
    const glm::dvec3 dir = w / r;
    auto radial = [&](double t) {
      return glm::dot(
          reference::sampleForce3(field, (centre + t * dir) / spacing, reference::ForceScale::Raw),
          dir);
    };
    double zero = r;
    for (double t = 0; t < 3; t += 0.01)
      if (radial(r + t) * radial(r + t + 0.01) <= 0) {
        zero = r + t;
        break;
      } else if (radial(r - t) * radial(r - t - 0.01) <= 0) {
        zero = r - t;
        break;
      }
    o.offField = std::max(o.offField, std::abs(r - zero));
  }
  std::sort(d.begin(), d.end());
  for (double x : d) o.mean += x / static_cast<double>(d.size());
  o.p99 = d[d.size() * 99 / 100];
  o.worst = d.back();
  for (const auto& t : c.mesh.faces)
    for (int i = 0; i < 3; ++i)
      o.longestEdge =
          std::max(o.longestEdge,
                   glm::length(glm::dvec3(c.mesh.vertices[t[i]] - c.mesh.vertices[t[(i + 1) % 3]]) *
                               spacing));
  o.crossings = crossingFacePairs(c.mesh).size();
  MESSAGE("ball of " << radius << " mm at " << spacing.x << "x" << spacing.y << "x" << spacing.z
                     << std::string(unitSpacing ? " (voxel-space surface)" : "") << ", mu " << mu
                     << ": " << std::string(snakeStateName(o.state))
                     << ", distance to the sphere mean " << o.mean << " mm, 99th percentile "
                     << o.p99 << ", max " << o.worst << "; off the field's zero " << o.offField
                     << " mm; longest edge " << o.longestEdge << " mm, " << o.crossings
                     << " crossing pairs");
  return o;
}

// Corners normalised first put the vertices 0.59-0.8 mm off the field's zero on these grids.
void checkOnItsField(const BallOutcome& o, double offField) {
  CHECK(o.state == SnakeState::Converged);
  CHECK(o.offField < offField);
  CHECK(o.longestEdge <= SnakeParams::defaults().dmax * (1 + 1e-4));
  CHECK(o.crossings == 0);
}

}  // namespace

TEST_CASE("a surface on a ball sampled at 1x1x2 lies within 0.5 mm of it, on its field's zero") {
  const double mu = findSpec(gvfParamSpecs(), "mu").defaultValue;
  const glm::dvec3 spacing(1, 1, 2), centre(20, 20, 20);
  const BallOutcome world = ballSurface(spacing, centre, 12, mu);
  checkOnItsField(world, 0.1);
  CHECK(world.worst <= 0.5);  // 0.46; 0.71 with f and V0 on the 2 mm samples
  const BallOutcome voxel = ballSurface(spacing, centre, 12, mu, true);
  CHECK(voxel.longestEdge > 1.3 * SnakeParams::defaults().dmax);
  const BallOutcome fine = ballSurface(spacing, centre, 12, 0.05);
  checkOnItsField(fine, 0.1);
  CHECK(fine.worst < 0.4);  // 0.35
  const BallOutcome onSample = ballSurface(spacing, centre + glm::dvec3(0, 0, 1), 12, mu);
  checkOnItsField(onSample, 0.1);
  CHECK(onSample.worst < 0.85);
}

// Coarser axes at μ 0.05: the 99th percentile 0.35 (2x1x1) and 0.55 mm (1x1x3), the worst 0.53
// and 0.57 (0.73 and 0.68 before f and V0 were built on the refined grid; p99 0.60 both): the
// terraces of the coarse samples.
TEST_CASE("surfaces on balls sampled at 2x1x1 and 1x1x3, seeded sizes and places") {
  std::mt19937 rng(37);
  std::uniform_real_distribution<double> shift(-1.5, 1.5), size(10.5, 13);
  for (const glm::dvec3 spacing : {glm::dvec3(2, 1, 1), glm::dvec3(1, 1, 3)}) {
    const glm::dvec3 centre = glm::dvec3(20) + glm::dvec3(shift(rng), shift(rng), shift(rng));
    const double radius = size(rng);
    const BallOutcome o = ballSurface(spacing, centre, radius, 0.05);
    // Measured 0.05 (2x1x1) and 0.47 on PoCL (1x1x3: 3 mm cells).
    checkOnItsField(o, spacing.z > 1 ? 0.65 : 0.3);
    CHECK(o.p99 < 0.65);
    CHECK(o.worst < 0.7);
  }
}
