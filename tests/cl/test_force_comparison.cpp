// The published qualitative results of the forces beside GVF, on generated scenes judged by
// ground truth (the scene's geometry, the clean shape's distance field):
// - GGVF (Xu & Prince 1998): a snake enters the U's notch as GVF's does; on a long thin slot
//   neither does (the paper's result is not reproduced there, see below), and K decides a
//   wider one;
// - VFC (Li & Acton 2007): its capture range on the U is far wider than grad f's, and at
//   SNR 3 its direction outside the object still points to the true boundary where grad f's
//   and the distance force's do not; on the slot it goes twice as deep as GVF;
// - the distance force (Cohen & Cohen 1993): nearly everything is captured, but its snake
//   does not enter the U's notch.
#include <doctest/doctest.h>

#include <algorithm>
#include <glm/vec2.hpp>

#include "cl/force_support.hpp"
#include "gvflab/capture_range.hpp"
#include "gvflab/distance_force.hpp"
#include "gvflab/force_reference.hpp"
#include "gvflab/ggvf_solver.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/vfc_field.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {

constexpr int kSize = 96;

std::unique_ptr<Solver> solvedGvf(const GvfInput& in) {
  SolverConfig config;
  config.kind = SolverKind::Multigrid;
  auto solver = makeSolver(test::sharedContext(), in, 0.2, config);
  solver->step(30);
  return solver;
}

std::unique_ptr<GgvfSolver> solvedGgvf(const GvfInput& in, double k) {
  auto solver = std::make_unique<GgvfSolver>(test::sharedContext(), in, 0.25, GgvfParams{k});
  solver->step(6000);
  return solver;
}

std::vector<glm::vec2> circle(float cx, float cy, float r, int n = 120) {
  std::vector<glm::vec2> points;
  for (int i = 0; i < n; ++i) {
    const float a = 6.2831853f * static_cast<float>(i) / static_cast<float>(n);
    points.emplace_back(cx + r * std::cos(a), cy + r * std::sin(a));
  }
  return points;
}

// The deepest row above `limit` that a snake on this field reaches within columns [x0, x1),
// from a circle around the scene (limit: halfway between the notch's end and the object's
// bottom, so the contour's lower side does not count).
float deepestRow(const GvfInput& in, const cl::Buffer& field, int x0, int x1, float limit) {
  ParametricSnake snakes(test::sharedContext(), in.width, in.height);
  snakes.setFields(field, in);
  snakes.add(circle(kSize / 2.0f, kSize / 2.0f, 0.44f * kSize));
  snakes.step(4000);
  const std::vector<SnakeContour> contours = snakes.contours();
  float deepest = 0;
  for (const glm::vec2& p : contours.at(0).points)
    if (p.x >= static_cast<float>(x0) && p.x <= static_cast<float>(x1) && p.y < limit)
      deepest = std::max(deepest, p.y);
  return deepest;
}

}  // namespace

TEST_CASE("GGVF and GVF snakes reach the bottom of the U's notch; the distance force's stops") {
  auto ctx = test::sharedContext();
  // The U's notch spans [0.42, 0.58] of the width and [0.2, 0.66] of the height.
  const GvfInput u = buildGvfInput(*ctx, makePhantom("u", kSize), 1.0);
  const int x0 = static_cast<int>(0.42 * kSize), x1 = static_cast<int>(0.58 * kSize);
  const float top = 0.2f * kSize, notch = 0.46f * kSize, limit = 0.73f * kSize;
  const float ggvf = deepestRow(u, solvedGgvf(u, 0.05)->field(), x0, x1, limit) - top;
  const float gvf = deepestRow(u, solvedGvf(u)->field(), x0, x1, limit) - top;
  const float distance =
      deepestRow(u, distanceForce(*ctx, u, DistanceParams::defaults()), x0, x1, limit) - top;
  MESSAGE("U notch depth " << notch << ": GVF snake " << gvf << ", GGVF " << ggvf << ", distance "
                           << distance);
  CHECK(ggvf > 0.9f * notch);
  CHECK(gvf > 0.9f * notch);
  // Cohen's force points at the nearest edge, the notch's sides: no way down (the concavity
  // problem GVF was made for).
  CHECK(distance < 0.25f * notch);
}

// Xu & Prince show GGVF entering a long thin indentation that GVF cannot. On this slot (8 px
// wide, 32 deep, sigma 1) it does not, at any K from 0.01 to 1 (3.2-4.9 px, GVF 4.8): where the
// walls hold V at grad f (h near 1), the pull of the slot's bottom is a harmonic field between
// them and decays across a few widths. A wider search (headless, 96 px blocks: slots 5-12 px
// wide and 10-40 deep, K 0.01-10, sigma 0-2, GGVF's iterations up to 8 times its rule) found no
// slot whose bottom GGVF's snake reaches and GVF's does not: K = 10 goes 1.5-2.6 times as deep
// as GVF on 6-9 px slots (8 px x 30: 11.7 px against 4.5), where GVF reaches a bottom so does
// GGVF at some K, and a slot deeper than about 1.5 widths stops both. What is measured: VFC goes
// twice as deep as GVF, and GGVF's K decides a 12 px slot (K = 0.05 stops, K = 0.2 goes to the
// bottom, as GVF does).
TEST_CASE("a long thin slot: GVF and GGVF stop at its mouth, VFC goes further, K decides 12 px") {
  auto ctx = test::sharedContext();
  const test::SlotScene slot = test::slotScene(kSize, 8, 32);
  const GvfInput in = buildGvfInput(*ctx, slot.image, 1.0);
  const float depth = static_cast<float>(slot.bottom - slot.top);
  const float limit = 0.5f * (slot.bottom + 0.8f * kSize);
  auto reached = [&](const GvfInput& input, const test::SlotScene& s, const cl::Buffer& field) {
    return deepestRow(input, field, s.slotX0, s.slotX1, limit) - s.top;
  };
  const float gvf = reached(in, slot, solvedGvf(in)->field());
  const float ggvf = reached(in, slot, solvedGgvf(in, 0.05)->field());
  const float vfc = reached(in, slot, vfcField(*ctx, in, VfcParams::defaults()));
  MESSAGE("slot 8 x " << depth << ": GVF snake " << gvf << ", GGVF " << ggvf << ", VFC " << vfc);
  CHECK(gvf < 0.25f * depth);
  CHECK(ggvf < 0.25f * depth);
  CHECK(vfc > 1.5f * gvf);

  const test::SlotScene wide = test::slotScene(kSize, 12, 32);
  const GvfInput wideIn = buildGvfInput(*ctx, wide.image, 1.0);
  const float sharp = reached(wideIn, wide, solvedGgvf(wideIn, 0.05)->field());
  const float smooth = reached(wideIn, wide, solvedGgvf(wideIn, 0.2)->field());
  MESSAGE("slot 12 x " << depth << ": GGVF K 0.05 " << sharp << ", K 0.2 " << smooth);
  CHECK(sharp < 0.5f * depth);
  CHECK(smooth > 0.9f * depth);
}

TEST_CASE("VFC's capture range on the U is far wider than grad f's; the distance force's is all") {
  auto ctx = test::sharedContext();
  const GvfInput u = buildGvfInput(*ctx, makePhantom("u", kSize), 1.0);
  CaptureRange capture(ctx, u);
  const CaptureParams params = CaptureParams::defaults();
  const long gradF = capture.compute(u.v0, params);
  const long vfc = capture.compute(vfcField(*ctx, u, VfcParams::defaults()), params);
  const long distance = capture.compute(distanceForce(*ctx, u, DistanceParams::defaults()), params);
  const long all = static_cast<long>(u.pixelCount());
  MESSAGE("captured of " << all << ": grad f " << gradF << ", VFC " << vfc << ", distance "
                         << distance);
  CHECK(vfc > 0.99 * all);
  CHECK(gradF < 0.5 * all);
  CHECK(distance > 0.95 * all);
}

TEST_CASE("at SNR 3 VFC still points to the true boundary outside the U; grad f, distance do not") {
  auto ctx = test::sharedContext();
  const Image2D clean = makePhantom("u", kSize);
  // The truth: the direction to the nearest boundary of the clean U (its distance field).
  const GvfInput cleanIn = buildGvfInput(*ctx, clean, 1.0);
  const auto cleanF = test::edgeGridOf(*ctx, cleanIn);
  const auto truth = reference::distanceForce(cleanF, 0.5);
  const auto d2 = reference::distanceSquared(cleanF, 0.5);
  const GvfInput noisy = buildGvfInput(*ctx, test::withNoise(clean, 3.0, 7), 1.0);
  // The share of background pixels 3 to 20 px from the boundary where a force points within
  // 90 degrees of the truth.
  auto agreement = [&](const cl::Buffer& field) {
    const auto v = test::readFloats(*ctx, field, 2 * noisy.pixelCount());
    long agree = 0, count = 0;
    for (std::size_t i = 0; i < noisy.pixelCount(); ++i) {
      if (clean.pixels[i] > 0.5f || d2.values[i] < 9 || d2.values[i] > 400) continue;
      ++count;
      agree += v[2 * i] * truth.values[2 * i] + v[2 * i + 1] * truth.values[2 * i + 1] > 0;
    }
    return static_cast<double>(agree) / static_cast<double>(count);
  };
  const double gradF = agreement(noisy.v0);
  const double vfc = agreement(vfcField(*ctx, noisy, VfcParams::defaults()));
  const auto gvf = solvedGvf(noisy);
  const double gvfShare = agreement(gvf->field());
  const double distance = agreement(distanceForce(*ctx, noisy, DistanceParams::defaults()));
  MESSAGE("agreement at SNR 3: grad f " << gradF << ", GVF " << gvfShare << ", VFC " << vfc
                                        << ", distance " << distance);
  CHECK(vfc > 0.95);
  CHECK(vfc > gradF + 0.3);
  // Thresholded noise makes edges of its own: Cohen's force points at them.
  CHECK(vfc > distance + 0.2);
}
