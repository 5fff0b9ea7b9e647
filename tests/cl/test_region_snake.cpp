// The device region snake against the double reference: cumulated images (both scans, wide
// rows, many launches, odd sizes), contour sums and criterion, steps node for node, crossing
// rejection, IoU on noisy stars, the other noise models, and the refusals.
// Tolerances: integer sums exact; criterion 1e-12 relative (same double formula, device log).
// SNR = (μ_T − μ_B) / σ of the Gaussian noise (region_phantom.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/region_phantom.hpp"
#include "gvflab/region_reference.hpp"
#include "gvflab/region_snake.hpp"
#include "region_test_support.hpp"

using namespace gvflab;
namespace ref = gvflab::reference;
using gvflab::test::randomStar;
using gvflab::test::randomZ;

namespace {}  // namespace

TEST_CASE("device cumulated images equal the reference") {
  auto ctx = test::sharedContext();
  struct Case {
    int w, h;
    PrefixScan scan;
    int local, rowsPerLaunch;
  };
  const Case cases[] = {
      {1000, 7, PrefixScan::WorkGroup, 32, 0},   // a row spans 4 chunks of 256 pixels
      {4, 300, PrefixScan::WorkGroup, 64, 7},    // 43 launches of balanced slices
      {257, 33, PrefixScan::WorkGroup, 256, 5},  // one pixel past a chunk
      {4, 4, PrefixScan::Sequential, 0, 0},      {333, 91, PrefixScan::Sequential, 0, 10},
      {65536, 4, PrefixScan::WorkGroup, 128, 1},  // widest row, near the 32-bit limit
  };
  std::uint32_t seed = 3;
  for (const auto& c : cases) {
    CAPTURE(c.w);
    CAPTURE(c.h);
    CAPTURE(c.local);
    auto z = randomZ(c.w, c.h, seed++);
    if (c.w == 65536) std::fill(z.begin(), z.begin() + c.w, std::uint16_t(65535));
    RegionSnakeOptions opt{
        .scan = c.scan, .scanLocalSize = c.local, .maxRowsPerLaunch = c.rowsPerLaunch};
    RegionSnake snake(ctx, z.data(), c.w, c.h, {}, opt);
    std::vector<std::uint32_t> cz;
    std::vector<std::uint64_t> cz2;
    snake.readPrefix(cz, cz2);
    auto r = ref::regionPrefix(z.data(), c.w, c.h);
    CHECK(cz == r.cz);
    CHECK(cz2 == r.cz2);
    CHECK(snake.imageSums() == r.total);
    if (c.w * c.h >= 1000) CHECK(snake.bytesPerPixel() < 10.5);
  }
}

TEST_CASE("device contour sums and criterion equal the reference for the same polygon") {
  auto ctx = test::sharedContext();
  std::mt19937 rng(5);
  const int w = 180, h = 140;
  auto z = randomZ(w, h, 9);
  auto p = ref::regionPrefix(z.data(), w, h);
  for (NoiseModel model : {NoiseModel::Gaussian, NoiseModel::Gamma, NoiseModel::Poisson}) {
    RegionSnakeParams params;
    params.noise = model;
    RegionSnake snake(ctx, z.data(), w, h, params);
    for (int trial = 0; trial < 6; ++trial) {
      auto poly = randomStar(w, h, 4 + 3 * trial, rng);
      if (trial % 2) std::reverse(poly.begin(), poly.end());
      CAPTURE(trial);
      snake.reset(poly);
      const RegionSums expect = ref::polygonSums(p, poly);
      CHECK(snake.targetSums() == expect);
      const double c = regionCriterion(expect, p.total, model);
      CHECK(snake.criterion() == doctest::Approx(c).epsilon(1e-12));
      CHECK(snake.nodes() == poly);
    }
  }
}

namespace {
// A small noisy star on ctx (not yet run), beside the reference's run of the same image.
struct SmallStarRuns {
  RegionSnake snake;
  ref::RegionRun reference;
};

SmallStarRuns runSmallStar(const std::shared_ptr<ComputeContext>& ctx) {
  RegionPhantomSpec spec;
  spec.width = 120, spec.height = 100, spec.snr = 2, spec.seed = 4;
  auto z = makeRegionPhantom(spec);
  RegionSnakeParams params;
  params.dMax = 8;
  params.minSegment = 12;
  return {RegionSnake(ctx, z.data(), spec.width, spec.height, params),
          ref::runRegionSnake(ref::regionPrefix(z.data(), spec.width, spec.height),
                              initialRectangle(spec.width, spec.height), params)};
}
}  // namespace

TEST_CASE("device steps move the same nodes as the reference") {
  auto [snake, run] = runSmallStar(test::sharedContext());
  snake.run();
  CHECK(snake.converged());
  CHECK(snake.nodes() == run.nodes);
  CHECK(snake.stats().steps == run.stats.steps);
  CHECK(snake.stats().iteration == run.stats.iteration);
}

TEST_CASE("a queue without profiling moves the same nodes and records no timings") {
  auto ctx = ComputeContext::create({"", {}, {}, /*profiling=*/false});
  REQUIRE_FALSE(ctx->profiler().enabled());
  auto [snake, run] = runSmallStar(ctx);
  snake.run();
  CHECK(snake.nodes() == run.nodes);
  CHECK(snake.stats().steps == run.stats.steps);
  CHECK(std::isnan(snake.uploadMs()));  // no event timing on this queue
  CHECK(ctx->profiler().endFrame() == 0.0);
  CHECK(ctx->profiler().stats().empty());
}

TEST_CASE("hundreds of nodes moving in one phase: same nodes as the reference, step by step") {
  // A dense start rectangle (nodes every 4 px) makes ~170 nodes move in the first phases:
  // more than one round of region_phase's conflict test (BLOCK = 128). Also the steps the
  // host queues past an iteration's end (run) against one step per call (step), and node
  // insertion keeping the polygon simple when nearby midpoints go in together.
  auto ctx = test::sharedContext();
  RegionPhantomSpec spec;
  spec.width = 500, spec.height = 400, spec.snr = 3, spec.seed = 8;
  auto z = makeRegionPhantom(spec);
  auto p = ref::regionPrefix(z.data(), spec.width, spec.height);
  std::vector<Point2i> start;
  const int x0 = 50, y0 = 50, x1 = 450, y1 = 350;
  for (int x = x0; x < x1; x += 4) start.push_back({x, y0});
  for (int y = y0; y < y1; y += 4) start.push_back({x1, y});
  for (int x = x1; x > x0; x -= 4) start.push_back({x, y1});
  for (int y = y1; y > y0; y -= 4) start.push_back({x0, y});
  RegionSnakeParams params;
  params.dMax = 4;
  params.minSegment = 12;
  auto run = ref::runRegionSnake(p, start, params);
  CHECK(ref::polygonIsSimple(run.nodes));
  RegionSnake batched(ctx, z.data(), spec.width, spec.height, params);
  batched.reset(start);
  batched.run();
  CHECK(batched.nodes() == run.nodes);
  CHECK(batched.stats().steps == run.stats.steps);
  RegionSnake single(ctx, z.data(), spec.width, spec.height, params);
  single.reset(start);
  while (single.step()) {
  }
  CHECK(single.nodes() == run.nodes);
  CHECK(single.stats().steps == run.stats.steps);
  CHECK(single.stats().iteration == run.stats.iteration);
  CHECK(single.criterion() == doctest::Approx(run.stats.criterion).epsilon(1e-12));
}

TEST_CASE("few groups per phase, banded uploads, pipelined batches: same as the reference") {
  // region_phase with fewer work-groups than (segment, chunk) units strides over them; the
  // banded upload writes row bands on a second queue, each band's prefix waiting for it; the
  // pipelined run queues a batch of steps ahead of the one it reads. Odd counts (3, 7 groups
  // and steps; 7 bands of a 91-row image) so that nothing divides evenly.
  auto ctx = test::sharedContext();
  for (const PrefixScan scan : {PrefixScan::WorkGroup, PrefixScan::Sequential}) {
    CAPTURE(static_cast<int>(scan));
    auto z = randomZ(333, 91, 17);
    RegionSnakeOptions opt{
        .scan = scan, .scanLocalSize = 32, .maxRowsPerLaunch = 0, .uploadBands = 7};
    RegionSnake banded(ctx, z.data(), 333, 91, {}, opt);
    std::vector<std::uint32_t> cz;
    std::vector<std::uint64_t> cz2;
    banded.readPrefix(cz, cz2);
    auto r = ref::regionPrefix(z.data(), 333, 91);
    CHECK(cz == r.cz);
    CHECK(cz2 == r.cz2);
    CHECK(banded.imageSums() == r.total);
  }
  RegionPhantomSpec spec;
  spec.width = 120, spec.height = 100, spec.snr = 2, spec.seed = 4;
  auto z = makeRegionPhantom(spec);
  RegionSnakeParams params;
  params.dMax = 8;
  params.minSegment = 12;
  const auto run = ref::runRegionSnake(ref::regionPrefix(z.data(), spec.width, spec.height),
                                       initialRectangle(spec.width, spec.height), params);
  for (const int groups : {1, 3, 7}) {
    CAPTURE(groups);
    RegionSnakeOptions opt;
    opt.uploadBands = groups;
    opt.nodeReserve = 100 * groups;
    RegionSnake snake(ctx, z.data(), spec.width, spec.height, params, opt);
    snake.run();
    CHECK(snake.converged());
    CHECK(snake.nodes() == run.nodes);
    CHECK(snake.stats().steps == run.stats.steps);
    CHECK(snake.stats().iteration == run.stats.iteration);
    CHECK(snake.criterion() == doctest::Approx(run.stats.criterion).epsilon(1e-12));
  }
  // Iterations cut short by the step limit (5 steps): the batches are cut there.
  RegionSnakeParams capped = params;
  capped.maxStepsPerIteration = 5;
  const auto cappedRun = ref::runRegionSnake(ref::regionPrefix(z.data(), spec.width, spec.height),
                                             initialRectangle(spec.width, spec.height), capped);
  RegionSnake cut(ctx, z.data(), spec.width, spec.height, capped);
  cut.run();
  CHECK(cut.nodes() == cappedRun.nodes);
  CHECK(cut.stats().steps == cappedRun.stats.steps);
  CHECK(cut.stats().iteration == cappedRun.stats.iteration);
  // Many moving nodes per phase (the blocked choice).
  RegionPhantomSpec dense;
  dense.width = 300, dense.height = 240, dense.snr = 3, dense.seed = 8;
  auto zd = makeRegionPhantom(dense);
  std::vector<Point2i> start;
  for (int x = 30; x < 270; x += 4) start.push_back({x, 30});
  for (int y = 30; y < 210; y += 4) start.push_back({270, y});
  for (int x = 270; x > 30; x -= 4) start.push_back({x, 210});
  for (int y = 210; y > 30; y -= 4) start.push_back({30, y});
  RegionSnakeParams dp;
  dp.dMax = 4;
  dp.minSegment = 12;
  const auto drun =
      ref::runRegionSnake(ref::regionPrefix(zd.data(), dense.width, dense.height), start, dp);
  RegionSnake snake(ctx, zd.data(), dense.width, dense.height, dp);
  snake.reset(start);
  snake.run();
  CHECK(snake.nodes() == drun.nodes);
  CHECK(snake.stats().steps == drun.stats.steps);
}

TEST_CASE("moves that would make segments cross are rejected") {
  auto ctx = test::sharedContext();
  // Two bright discs 6 px apart in noise, started around both: the contour is pulled into the
  // gap from both sides. After every step the polygon must stay simple.
  const int w = 96, h = 64;
  std::vector<std::uint16_t> z(w * h);
  std::mt19937 rng(2);
  std::normal_distribution<double> noise(0, 2000);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const bool in = std::hypot(x - 24.5, y - 32.0) < 21 || std::hypot(x - 71.5, y - 32.0) < 21;
      z[y * w + x] = static_cast<std::uint16_t>(
          std::clamp(20000 + (in ? 8000 : 0) + noise(rng), 0.0, 65535.0));
    }
  RegionSnakeParams params;
  params.dMax = 8;
  params.minSegment = 6;
  RegionSnake snake(ctx, z.data(), w, h, params);
  int steps = 0;
  while (snake.step() && steps < 2000) {
    ++steps;
    REQUIRE(ref::polygonIsSimple(snake.nodes()));
  }
  CHECK(ref::polygonIsSimple(snake.nodes()));
  CHECK(snake.nodes().size() > 8);
}

TEST_CASE("IoU with the true star at SNR 4, 2 and 1") {
  auto ctx = test::sharedContext();
  // The goal is 0.95 at SNR 2; measured 0.996 / 0.994 / 0.985 (200 x 200, seed 17).
  const double snrs[] = {4, 2, 1};
  const double goals[] = {0.98, 0.97, 0.95};
  for (int k = 0; k < 3; ++k) {
    RegionPhantomSpec spec;
    spec.width = spec.height = 200;
    spec.snr = snrs[k];
    spec.seed = 17;
    auto z = makeRegionPhantom(spec);
    RegionSnakeParams params;
    params.minSegment = 10;
    params.dMax = 16;
    RegionSnake snake(ctx, z.data(), spec.width, spec.height, params);
    snake.run();
    const double iou = regionPhantomIoU(spec, snake.nodes());
    MESSAGE("SNR " << snrs[k] << ": IoU " << iou << ", " << snake.nodes().size() << " nodes, "
                   << snake.stats().steps << " steps, " << snake.stats().iteration
                   << " iterations");
    CHECK(snake.converged());
    CHECK(iou >= goals[k]);
  }
}

TEST_CASE("Gamma and Poisson models segment their own kind of noise") {
  auto ctx = test::sharedContext();
  for (NoiseModel model : {NoiseModel::Gamma, NoiseModel::Poisson}) {
    RegionPhantomSpec spec;
    spec.width = spec.height = 160;
    spec.noise = model;
    spec.snr = 2;
    auto z = makeRegionPhantom(spec);
    RegionSnakeParams params;
    params.noise = model;
    params.minSegment = 10;
    params.dMax = 16;
    RegionSnake snake(ctx, z.data(), spec.width, spec.height, params);
    snake.run();
    const double iou = regionPhantomIoU(spec, snake.nodes());
    const RegionStats st = snake.stats();
    MESSAGE(noiseModelName(model) << ": IoU " << iou << ", mean T " << st.meanT << ", mean B "
                                  << st.meanB);
    CHECK(snake.converged());
    CHECK(iou >= 0.9);
    CHECK(st.meanT > st.meanB);  // the star is the brighter region
  }
}

TEST_CASE("refusals: too wide, polygon outside, too few nodes") {
  auto ctx = test::sharedContext();
  std::vector<std::uint16_t> z(65537 * 4, 0);
  CHECK_THROWS_AS(RegionSnake(ctx, z.data(), 65537, 4), InputError);
  CHECK_THROWS_AS(RegionSnake(ctx, z.data(), 3, 3), InputError);
  RegionSnake snake(ctx, z.data(), 64, 64);
  CHECK_THROWS_AS(snake.reset({{0, 0}, {70, 0}, {70, 10}, {0, 10}}), ParameterError);
  CHECK_THROWS_AS(snake.reset({{0, 0}, {10, 0}, {10, 10}}), ParameterError);
  CHECK_THROWS_AS(snake.reset({{0, 0}, {10, 10}, {10, 0}, {0, 10}}), ParameterError);  // a bow tie
  RegionSnakeParams bad;
  bad.dMax = 0;
  CHECK_THROWS_AS(RegionSnake(ctx, z.data(), 64, 64, bad), ParameterError);
}
