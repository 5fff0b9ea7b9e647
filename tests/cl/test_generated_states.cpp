// The states judged against ground truth on generated scenes (generated_scenes.hpp), not on the
// demos: seeded random star-shaped objects, some cut by a channel (2D, 3D) or a pocket (3D),
// noise at random SNR 3-30, random starts outside and inside, GVF and grad f (and GGVF, VFC,
// the distance force: the state rule does not assume GVF). A contour or
// surface is right when it reads converged exactly where it lies within kTruthDistance of the
// object's true boundary over all but kTruthFraction of its length or area (and, in 2D,
// encloses a quarter of the object at least), and stalled (or collapsed) otherwise; it must stop
// within its iterations. Tallies go to MESSAGE.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <numbers>
#include <sstream>
#include <string>

#include "cl/cl_fixture.hpp"
#include "generated_scenes.hpp"
#include "gvflab/force_fields.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/surface_mesh.hpp"
#include "gvflab/surface_snake.hpp"

using namespace gvflab;
using test::Cut;

namespace {

// Converged means: within 3 px (voxels) of the true boundary over all but 1 % of it. A snake
// rounds the channel's corners by up to 2.6 px at SNR 4; a contour hanging across a channel's
// 10 px mouth leaves 4 px or more of its ~170 px beyond 3 px.
constexpr double kTruthDistance = 3.0;
constexpr double kTruthFraction = 0.01;
// In slots 3-8 px wide the truth is closer: on the boundary within 1.25 px; not, where more than
// kTruthFraction lies beyond 2 px (a cap across a 4 px slot's middle); between, either state.
constexpr double kSlotOn = 1.25, kSlotOff = 2.0;
// Of the slots' 180 contours, at most these read wrong (21 and 2 before the edge-across rule, 8
// and 3 before its crest had to stand an eighth above its sides): VFC caps about 2 px above an 8
// px slot's bottom or with one unheld node across a 7 px slot, and a distance contour from inside
// still read converged; contours bridging 3-3.5 px mouths stalled (within 1.5 px of the truth):
// 3 on PoCL, 4 on an H200 (seed 1's GVF contour, its unheld gap 8.55 px against the 8 allowed).
constexpr int kSlotOffConverged = 4, kSlotOtherWrong = 4;

struct Tally {
  int runs = 0, wrong = 0, moving = 0, convergedRight = 0, notConvergedRight = 0;
  int offConverged = 0;  // off the boundary, read converged
  std::ostringstream lines;
  // outlines: false for a contour that lies on the boundary but encloses next to nothing (it
  // collapsed onto a stretch of edge, e.g. a channel's two walls: it outlines nothing).
  void add(const std::string& what, SnakeState state, const test::FitToTruth& fit,
           bool outlines = true, const test::FitToTruth* off = nullptr) {
    const bool truth = fit.within(kTruthFraction) && outlines;
    const bool either = !truth && outlines && off && off->within(kTruthFraction);
    const bool right =
        state != SnakeState::Moving && (either || (state == SnakeState::Converged) == truth);
    ++runs;
    wrong += !right;
    offConverged += !truth && !either && state == SnakeState::Converged;
    moving += state == SnakeState::Moving;
    convergedRight += right && truth;
    notConvergedRight += right && !truth;
    lines << (right ? "  ok    " : "  WRONG ") << what << ": " << snakeStateName(state)
          << ", truth "
          << (truth    ? "converged"
              : either ? "either"
                       : "not")
          << " (far " << fit.farFraction * 100 << " %, worst " << fit.worst << ")\n";
  }
  std::string summary() const {
    std::ostringstream o;
    o << runs - wrong << "/" << runs << " states match the truth (" << convergedRight
      << " converged, " << notConvergedRight << " not; " << moving << " still moving)\n"
      << lines.str();
    return o.str();
  }
};

// The star's surface (without its cut) 2.5 voxels out, as in 2D.
SurfaceMesh starOutline(const test::StarShape& shape) {
  SurfaceMesh outline = sphereMesh(shape.centre, 10, 1.75);
  for (auto& v : outline.vertices) {
    const glm::dvec3 u = glm::normalize(glm::dvec3(v) - shape.centre);
    v = glm::vec3(shape.centre + (shape.radiusAlong(u) + 2.5) * u);
  }
  return outline;
}

const char* forceLabel(SnakeForce f) {
  return f == SnakeForce::Traditional ? "grad f" : forceName(f);
}

// Contours of `forces` from outside, inside and the outline on kScenes seeded scenes; with
// `slots`, every scene's channel is a slot 3-8 px wide, judged by the slots' closer truth: there
// the counts may not exceed what the rule reached (see the slots' case).
void checkContourStates(const std::vector<SnakeForce>& forces, int kScenes, bool slots = false) {
  constexpr int kSize = 72;
  auto ctx = test::sharedContext();
  Tally tally;
  for (int seed = 1; seed <= kScenes; ++seed) {
    test::SceneRandom r(static_cast<std::uint64_t>(seed) * 7919);
    const Cut cut = seed % 2 || slots ? Cut::Channel : Cut::None;
    const double snr = r.logUniform(3, 30);
    const double width = slots ? 3 + 5.0 * (seed - 1) / std::max(1, kScenes - 1) : 0;
    const test::GeneratedScene g = test::generatedImage(seed, kSize, cut, snr, width);
    const test::BoundaryDistance truth(g.shape, {kSize, kSize, 1});
    GvfInput input = buildGvfInput(*ctx, g.image, 1.5);
    MultigridSolver solver(ctx, input, 0.2);
    solver.step(8);
    ForceFields fields(ctx, input, {});
    ParametricSnake snakes(ctx, kSize, kSize);
    snakes.setFields(fields.fields(forces, solver.field()), input);
    const glm::dvec3 c = g.shape.centre + glm::dvec3(r.uniform(-2, 2), r.uniform(-2, 2), 0);
    const double outside = g.shape.radius * 1.16 + r.uniform(3, 6);
    const double inside = g.shape.radius * r.uniform(0.3, 0.45);
    // The star's outline (without its cut) 2.5 px out: grad f's capture range reaches the
    // object all round but the channel, whose mouth it must bridge.
    std::vector<glm::vec2> outline;
    for (int k = 0; k < 120; ++k) {
      const double a = 2 * std::numbers::pi * k / 120;
      const glm::dvec3 u(std::cos(a), std::sin(a), 0);
      const glm::dvec3 p = g.shape.centre + (g.shape.radiusAlong(u) + 2.5) * u;
      outline.push_back(glm::vec2(p.x, p.y));
    }
    for (SnakeForce force : forces) {
      snakes.add(circleContour(c.x, c.y, outside, 1.75), force);
      snakes.add(circleContour(c.x, c.y, inside, 1.75), force);
      snakes.add(outline, force);
    }
    snakes.step(4000);
    const auto contours = snakes.contours();
    for (std::size_t k = 0; k < contours.size(); ++k) {
      std::ostringstream what;
      what << g.description << ", " << forceLabel(contours[k].force)
           << (k % 3 == 0   ? " from outside"
               : k % 3 == 1 ? " from inside"
                            : " from the outline")
           << ", held " << contours[k].held << ", gap " << contours[k].holdGap;
      // An outline encloses at least a quarter of the object (the star less its channel).
      const bool outlines =
          std::abs(signedArea2(contours[k].points)) > 0.25 * std::abs(signedArea2(outline));
      const auto& points = contours[k].points;
      const test::FitToTruth off = test::fitOf(points, truth, kSlotOff);
      if (slots)
        tally.add(what.str() + ", slot " + std::to_string(width).substr(0, 4), contours[k].state,
                  test::fitOf(points, truth, kSlotOn), outlines, &off);
      else
        tally.add(what.str(), contours[k].state, test::fitOf(points, truth, kTruthDistance),
                  outlines);
    }
  }
  MESSAGE(tally.summary());
  if (!slots) {
    CHECK(tally.wrong == 0);
    return;
  }
  CHECK(tally.offConverged <= kSlotOffConverged);
  CHECK(tally.wrong - tally.offConverged <= kSlotOtherWrong);
}

}  // namespace

TEST_CASE("generated 2D scenes (contours): every contour's state matches the truth") {
  checkContourStates({SnakeForce::Gvf, SnakeForce::Traditional}, 16);
}

TEST_CASE("generated 2D scenes under the other forces (GGVF, VFC, distance): states match") {
  checkContourStates({SnakeForce::Ggvf, SnakeForce::Vfc, SnakeForce::Distance}, 10);
}

// VFC's field has a sink inside slots this narrow: its contour stops 3.5-9 px in, its nodes
// held by the force; before, the walls' edges beside them made them read converged. Now a node
// counts as on an edge only where one lies across its normal (snake_hold's edge_across).
TEST_CASE("generated slots 3-8 px wide under every force: a contour off the boundary stalls") {
  checkContourStates({SnakeForce::Gvf, SnakeForce::Traditional, SnakeForce::Ggvf, SnakeForce::Vfc,
                      SnakeForce::Distance},
                     12, true);
}

TEST_CASE("generated 3D scenes (surfaces, 48^3): every surface's state matches the truth") {
  constexpr int kSize = 48, kScenes = 6;
  auto ctx = test::sharedContext();
  Tally tally;
  for (int seed = 1; seed <= kScenes; ++seed) {
    test::SceneRandom r(static_cast<std::uint64_t>(seed) * 104729);
    const Cut cut = seed % 3 == 0 ? Cut::None : seed % 3 == 1 ? Cut::Channel : Cut::Pocket;
    const double snr = r.logUniform(3, 30);
    const test::GeneratedScene g = test::generatedVolume(seed, kSize, cut, snr);
    const test::BoundaryDistance truth(g.shape, {kSize, kSize, kSize});
    GvfInput input = buildGvfInput(*ctx, g.volume, 1.0);
    MultigridSolver solver(ctx, input, 0.2);
    solver.step(8);
    SurfaceSnake surfaces(ctx, kSize, kSize, kSize);
    surfaces.setFields(solver.field(), input);
    const glm::dvec3 c = g.shape.centre + glm::dvec3(r.uniform(-1.5, 1.5), r.uniform(-1.5, 1.5),
                                                     r.uniform(-1.5, 1.5));
    const double outside = std::min(g.shape.radius * 1.16 + r.uniform(2, 4), kSize / 2.0 - 2.5);
    const SurfaceMesh outline = starOutline(g.shape);
    // GVF from a sphere around the object and from the outline; grad f from the outline (a
    // grad-f sphere in noise alone is the last case's).
    surfaces.addSphere(c, outside, SnakeForce::Gvf);
    surfaces.add(outline, SnakeForce::Gvf);
    surfaces.add(outline, SnakeForce::Traditional);
    surfaces.step(1200);
    for (const auto& s : surfaces.surfaces()) {
      std::ostringstream what;
      what << g.description << ", " << forceLabel(s.force)
           << (s.id == 1 ? " from outside" : " from the outline") << ", held " << s.held << ", gap "
           << s.holdGap;
      tally.add(what.str(), s.state, test::fitOf(s.mesh, truth, kTruthDistance));
    }
  }
  MESSAGE(tally.summary());
  CHECK(tally.wrong == 0);
}

TEST_CASE("noise: a grad-f surface in noise alone reads stalled at SNR 10, 5 and 3") {
  // 48^3 of noise around a flat level with one small ball far away: the sphere lies 10 voxels
  // or more from any edge, where only noise moves it.
  constexpr int kSize = 48;
  auto ctx = test::sharedContext();
  for (double snr : {10.0, 5.0, 3.0}) {
    CAPTURE(snr);
    test::GeneratedScene g = test::generatedVolume(11, kSize, Cut::None, snr);
    // Shrink the object to a ball of radius 6 in a corner, so the start sees noise only.
    test::SceneRandom noise(99);
    for (int z = 0; z < kSize; ++z)
      for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
          const double dx = x + 0.5 - 38, dy = y + 0.5 - 38, dz = z + 0.5 - 38;
          g.volume.at(x, y, z) = (dx * dx + dy * dy + dz * dz < 36 ? 1.0f : 0.0f) +
                                 static_cast<float>(noise.gaussian() / snr);
        }
    GvfInput input = buildGvfInput(*ctx, g.volume, 1.0);
    for (double alpha : {0.05, 0.005}) {
      SnakeParams params = SnakeParams::defaults();
      params.alpha = alpha;
      SurfaceSnake surfaces(ctx, kSize, kSize, kSize, params);
      surfaces.setFields(input.v0, input);
      surfaces.addSphere({15, 15, 15}, 8, SnakeForce::Traditional);
      surfaces.step(1500);
      const SurfaceContour s = surfaces.surfaces()[0];
      MESSAGE("SNR " << snr << ", alpha " << alpha << ": " << std::string(snakeStateName(s.state))
                     << " after " << s.iterations << ", held " << s.held << ", gap " << s.holdGap);
      CHECK(s.state != SnakeState::Converged);
      CHECK(s.state != SnakeState::Moving);
    }
  }
}

namespace {
void checkCreep(const std::shared_ptr<ComputeContext>& ctx) {
  constexpr int kSize = 48;
  constexpr double kWidth = 12, kDepth = 16;
  const test::GeneratedScene g = test::generatedVolume(8, kSize, Cut::Pocket, 20, kWidth, kDepth);
  const test::StarShape& shape = g.shape;
  GvfInput input = buildGvfInput(*ctx, g.volume, 1.0);
  MultigridSolver solver(ctx, input, 0.2);
  solver.step(8);
  ForceFields fields(ctx, input, {});
  const auto field = fields.fields({SnakeForce::Ggvf}, solver.field());
  // How far the surface reaches down the pocket, from its mouth.
  auto depth = [&](const SurfaceMesh& m) {
    double d = 0;
    for (const glm::vec3& v : m.vertices) {
      const glm::dvec3 p = glm::dvec3(v) - shape.centre;
      if (std::abs(glm::dot(p, shape.side)) < kWidth / 2 &&
          std::abs(glm::dot(p, shape.up)) < kWidth / 2 && glm::dot(p, shape.axis) > 0)
        d = std::max(d, shape.radiusAlong(shape.axis) - glm::dot(p, shape.axis));
    }
    return d;
  };
  SurfaceSnake surfaces(ctx, kSize, kSize, kSize);
  surfaces.setFields(field, input);
  surfaces.add(starOutline(shape), SnakeForce::Ggvf);
  surfaces.step(3000);
  const SurfaceContour s = surfaces.surfaces()[0];
  SnakeParams free = SnakeParams::defaults();
  free.window = 10000;  // no stop within its run
  SurfaceSnake freed(ctx, kSize, kSize, kSize, free);
  freed.setFields(field, input);
  freed.add(s.mesh, SnakeForce::Ggvf);
  freed.step(1500);
  const double stopped = depth(s.mesh), further = depth(freed.surfaces()[0].mesh);
  MESSAGE(std::string(snakeStateName(s.state))
          << " after " << s.iterations << " iterations, " << stopped
          << " voxels down the pocket; left free 1500 more: " << further);
  CHECK(s.state != SnakeState::Moving);
  CHECK(further - stopped < 1.0);
}
}  // namespace

// A GGVF surface goes down a square pocket 12 voxels wide and 16 deep at 0.2-0.4 voxels a
// window, under the tolerance (0.5): before, it read stalled after 400 iterations 7.2 voxels
// in, and the same surface left free to move went on to 12.8. Now its volume's steady change
// keeps it moving (surface_snake.cpp, creptSteadily) until it stops where it does stop: left
// free from there, it goes less than a voxel further. Its tip crawls 7.2-7.9 voxels in for
// hundreds of iterations, the volume jittering by +-10 voxel^3 each 10: other float rounding
// (an H200; PoCL with -cl-fast-relaxed-math) nets one window -0.3 to +5 and, before
// creptOverall, it read stalled 7.5 voxels in; so it runs under both roundings.
TEST_CASE("creep: a surface creeping down a generated pocket reads moving until it stops") {
  auto ctx = test::sharedContext();
  checkCreep(ctx);
  // A context of its own, its kernels built (lazily, in checkCreep) with relaxed float math.
  auto relaxed = ComputeContext::create({});
  setenv("GVFLAB_CL_OPTIONS", "-cl-fast-relaxed-math", 1);
  checkCreep(relaxed);
  unsetenv("GVFLAB_CL_OPTIONS");
}
