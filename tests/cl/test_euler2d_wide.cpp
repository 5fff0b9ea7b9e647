// The 2D tiles with several columns per work-item (gvf_euler2d_wide.cl) against the tiles of
// one column per work-item (gvf_euler2d_tiled.cl): the same arithmetic in the same order, so the
// fields must be equal to the bit, per launch and in one launch, in every precision, on sizes
// that are not multiples of the tile (and narrower than the halo: the reflected frame folds
// more than once).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "cl/cl_fixture.hpp"
#include "gvf/march_tile.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/mu_rule.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {
TileShape narrow(TileShape t) {
  t.colsPerItem = 1;
  return t;
}
}  // namespace

TEST_CASE("tiles of several columns per work-item equal one column per work-item") {
  auto ctx = test::sharedContext();
  const std::vector<std::array<int, 2>> sizes = {{67, 45}, {1, 1}, {2, 3}, {3, 70}, {130, 90}};
  const TileShape shapes[] = {
      {.width = 32, .height = 32, .rowsPerItem = 4, .halo = 4, .colsPerItem = 2},
      {.width = 64, .height = 32, .rowsPerItem = 2, .halo = 4, .colsPerItem = 4},
      {.width = 16, .height = 16, .rowsPerItem = 2, .halo = 2, .colsPerItem = 2},
      {.width = 48, .height = 24, .rowsPerItem = 3, .halo = 5, .colsPerItem = 3}};
  std::uint32_t seed = 4100;
  for (auto [w, h] : sizes) {
    GvfInput in = buildGvfInput(*ctx, test::randomImage(w, h, seed++), 1.0);
    for (const TileShape& t : shapes) {
      // Every precision on the first shape, float32 on the others (PoCL builds are slow).
      for (Precision p : {Precision::F32, Precision::F16, Precision::SNorm16}) {
        if (p != Precision::F32 && t.width != shapes[0].width) continue;
        EulerOptions o{.precision = p, .memory = MemoryKind::Local, .tile = narrow(t)};
        o.persistent = false;
        EulerSolver one(ctx, in, 0.14, o);
        o.tile = t;
        EulerSolver wide(ctx, in, 0.14, o);
        for (int n : {1, 3, 9, 2}) {
          CAPTURE(w);
          CAPTURE(h);
          CAPTURE(t.width);
          CAPTURE(t.colsPerItem);
          CAPTURE(n);
          CAPTURE(std::string(precisionName(p)));
          one.step(n);
          wide.step(n);
          CHECK(wide.readField().data == one.readField().data);
        }
      }
    }
  }
  // Anisotropic spacing (WORLD_SPACING: the neighbour pairs weighted per axis).
  const GvfInput spaced = buildGvfInput(*ctx, test::randomImage(75, 41, 12), 1.0,
                                        V0Mode::EdgeGradient, GridSpacing{0.8, 1.7, 1.0});
  for (Precision p : {Precision::F32, Precision::F16}) {
    const double mu = std::min(0.12, muBound(SolverKind::Euler, spaced));
    EulerOptions o{.precision = p,
                   .memory = MemoryKind::Local,
                   .tile = TileShape{.width = 32, .height = 32, .rowsPerItem = 4, .halo = 4}};
    o.persistent = false;
    EulerSolver one(ctx, spaced, mu, o);
    o.tile.colsPerItem = 2;
    EulerSolver wide(ctx, spaced, mu, o);
    one.step(11);
    wide.step(11);
    CAPTURE(std::string(precisionName(p)));
    CHECK(wide.readField().data == one.readField().data);
  }
  // Columns must divide the tile's width.
  GvfInput in = buildGvfInput(*ctx, test::randomImage(20, 20, 1), 1.0);
  CHECK_THROWS_AS(
      EulerSolver(
          ctx, in, 0.14,
          {.memory = MemoryKind::Local,
           .tile = {.width = 32, .height = 32, .rowsPerItem = 4, .halo = 4, .colsPerItem = 3}}),
      ParameterError);
}

TEST_CASE("one launch with several columns per work-item equals launches per phase" *
          doctest::test_suite("euler-one-launch")) {  // skipped as test_euler.cpp says
  auto ctx = test::sharedContext();
  const int units = ctx->info().computeUnits;
  std::vector<std::array<int, 2>> sizes = {{40, 37}, {1, 1}, {5, 20}};
  if (units >= 2) sizes.push_back({96, 45});
  if (units >= 121) sizes.push_back({512, 512});
  std::uint32_t seed = 4200;
  for (auto [w, h] : sizes) {
    GvfInput in = buildGvfInput(*ctx, test::randomImage(w, h, seed++), 1.0);
    for (Precision p : {Precision::F32, Precision::F16, Precision::SNorm16}) {
      EulerOptions o{.precision = p,
                     .memory = MemoryKind::Local,
                     .tile = TileShape{
                         .width = 64, .height = 64, .rowsPerItem = 4, .halo = 8, .colsPerItem = 2}};
      o.persistent = false;
      EulerSolver launches(ctx, in, 0.14, o);
      o.persistent = true;
      EulerSolver one(ctx, in, 0.14, o);
      REQUIRE(one.persistent());
      for (int n : {1, 8, 9, 30}) {
        CAPTURE(w);
        CAPTURE(h);
        CAPTURE(n);
        CAPTURE(std::string(precisionName(p)));
        launches.step(n);
        one.step(n);
        CHECK(one.readField().data == launches.readField().data);
      }
      if (!one.persistent()) MESSAGE("fell back: " << one.note());
    }
  }
}

// The marching warps (gvf_euler2d_march.cl) against the wide tiles, bit for bit: widths that
// are not multiples of a strip's written columns (and one below a strip; 252: whole vectors in
// every precision), heights that are not multiples of the chunk (and chunks that hold neither
// image end row, compiled without the row rule), step counts that are not multiples of the
// steps a launch. Rows 0 and height-1 are compared too, so a dropped row rule fails here.
TEST_CASE("marching warps equal the wide tiles and the reference") {
  auto ctx = test::sharedContext();
  const std::vector<std::array<int, 2>> sizes = {{252, 131}, {37, 300}, {131, 7}, {1, 1}, {5, 2}};
  const TileShape wideTile{
      .width = 64, .height = 32, .rowsPerItem = 4, .halo = 4, .colsPerItem = 2};
  const TileShape marches[] = {
      {.width = 128, .height = 16, .rowsPerItem = 2, .halo = 4, .colsPerItem = 4, .march = true},
      {.width = 64, .height = 9, .rowsPerItem = 1, .halo = 3, .colsPerItem = 2, .march = true},
      // NVIDIA's default at 4096² on 132 compute units (march_tile.hpp): at 300 rows one chunk
      // of three is plain.
      detail::marchTile(4096, 4096, 132)};
  std::uint32_t seed = 4300;
  for (auto [w, h] : sizes) {
    const Image2D img = test::randomImage(w, h, seed++);
    GvfInput in = buildGvfInput(*ctx, img, 1.0);
    for (const TileShape& t : marches) {
      for (Precision p : {Precision::F32, Precision::F16, Precision::SNorm16}) {
        if (p != Precision::F32 && t.width != marches[0].width) continue;
        EulerOptions o{.precision = p, .memory = MemoryKind::Local, .tile = wideTile};
        o.persistent = false;
        EulerSolver wide(ctx, in, 0.14, o);
        o.tile = t;
        o.persistent.reset();  // auto: never one launch with marching tiles
        EulerSolver march(ctx, in, 0.14, o);
        CHECK_FALSE(march.persistent());
        for (int n : {1, 3, 4, 9}) {
          INFO(w << "x" << h << ", " << t.halo << " steps a launch, " << n << " steps, "
                 << precisionName(p));
          wide.step(n);
          march.step(n);
          CHECK(march.readField().data == wide.readField().data);
        }
        if (p == Precision::F32) {  // 17 iterations; tolerance as in test_euler.cpp
          auto v0 = reference::initialField(test::toGrid(img), 1.0, V0Mode::EdgeGradient);
          CHECK(test::maxAbsDiff(march.readField().data,
                                 reference::eulerIterate(v0, v0, 0.14, 17).values) < 5e-5);
        }
      }
    }
  }
  // The strip must be 32 lanes of COLS columns; one launch is refused.
  GvfInput in = buildGvfInput(*ctx, test::randomImage(20, 20, 1), 1.0);
  TileShape bad = marches[0];
  bad.width = 96;
  CHECK_THROWS_AS(EulerSolver(ctx, in, 0.14, {.memory = MemoryKind::Local, .tile = bad}),
                  ParameterError);
  CHECK_THROWS_AS(
      EulerSolver(ctx, in, 0.14,
                  {.memory = MemoryKind::Local, .tile = marches[0], .persistent = true}),
      ParameterError);
}

// The marching chunks keep every warp of the grid resident at once, in as few rows as that
// allows (a second wave of warps costs a whole chunk's time again).
TEST_CASE("marching chunks are the shortest that keep the grid in one wave") {
  const TileShape t = detail::marchTile(4096, 4096, 132);
  CHECK(t.march);
  CHECK(t.width == 64);
  CHECK(t.halo == 4);
  CHECK(t.height == 118);  // 74 strips x 35 chunks = 2590 warps of 2640
  CHECK(detail::marchFetchesAhead(t));
  CHECK_FALSE(detail::marchFetchesAhead(detail::marchTile(8192, 8192, 132)));  // 482 rows
  std::uint32_t seed = 42;
  for (int n = 0; n < 300; ++n) {
    seed = seed * 1664525u + 1013904223u;
    const int width = 2049 + static_cast<int>(seed % 30000u);
    seed = seed * 1664525u + 1013904223u;
    const int height = 1 + static_cast<int>(seed % 30000u);
    const int units = 1 + static_cast<int>(seed >> 24) % 200;
    const TileShape m = detail::marchTile(width, height, units);
    const int inner = m.width - 2 * m.halo;
    const int strips = (width + inner - 1) / inner;
    const auto chunks = [&](int rows) { return (height + rows - 1) / rows; };
    const int capacity = units * detail::kMarchWarpsPerComputeUnit;
    INFO(width << "x" << height << " on " << units << " units: " << m.height << " rows");
    CHECK(m.height >= 16);
    if (strips <= capacity) {
      CHECK(strips * chunks(m.height) <= capacity);
      if (m.height > 16) CHECK(strips * chunks(m.height - 1) > capacity);
    } else {
      CHECK(m.height >= height);  // wider than one wave: a chunk is the whole height
    }
  }
}
