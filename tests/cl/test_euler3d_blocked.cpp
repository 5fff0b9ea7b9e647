// 3D Euler tiles of 3 and 4 iterations per launch (gvf_euler3d_blocked.cl): the same floats
// as one iteration per launch, in every precision, across tile and z-chunk borders, with the
// iterations that do not fill a launch left to the two-step and single-step kernels (which
// then also run on a volume of 3 planes, where the two-step kernel once read before its
// buffer).
#include <doctest/doctest.h>

#include <algorithm>

#include "cl/cl_fixture.hpp"
#include "gvf/tile3d.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/reference.hpp"
#include "volume_support.hpp"

using namespace gvflab;

TEST_CASE("3D tiles of 3 and 4 steps per launch equal single steps") {
  auto ctx = test::sharedContext();
  // Sizes that are no multiple of any tile's inner part or z chunk; a volume thinner than the
  // frame in every axis, with fewer planes than steps (reflected more than once).
  const Volume vols[] = {test::randomVolumeOf(29, 23, 19, 31), test::randomVolumeOf(5, 3, 3, 32)};
  const Tile3D tiles[] = {
      Tile3D{.tx = 16, .ty = 12, .rows = 3, .zChunk = 5, .steps = 3},
      Tile3D{.tx = 13, .ty = 12, .rows = 2, .zChunk = 4, .rawPrefetch = true, .steps = 4},
      Tile3D{.tx = 20, .ty = 10, .rows = 1, .zChunk = 7, .branchlessPlanes = true, .steps = 4},
      Tile3D{.tx = 12,
             .ty = 9,
             .rows = 3,
             .zChunk = 6,
             .rawPrefetch = true,
             .branchlessPlanes = true,
             .wideIndices = true,
             .steps = 3}};
  // One precision per tile keeps the kernel builds few (PoCL compiles each build in seconds).
  const Precision precisions[] = {Precision::F32, Precision::F16, Precision::F32,
                                  Precision::SNorm16};
  for (const Volume& vol : vols) {
    GvfInput in = buildGvfInput(*ctx, vol, 1.0);
    const double mu = std::min(0.1, EulerSolver::stabilityBound(in.maxV0Squared, 3));
    for (Precision p : {Precision::F32, Precision::F16, Precision::SNorm16}) {
      EulerSolver a(ctx, in, mu, {p, MemoryKind::Buffer});
      a.step(11);
      const auto fa = a.readField3D().data;
      for (int k = 0; k < 4; ++k) {
        if (precisions[k] != p) continue;
        const Tile3D& t = tiles[k];
        EulerSolver b(ctx, in, mu, {p, MemoryKind::Local, {}, t});
        INFO("precision " << std::string(precisionName(p)) << ", " << vol.width << "x" << vol.height
                          << "x" << vol.depth << ", tile " << t.tx << "x" << t.ty << "x" << t.rows
                          << "x" << t.zChunk << ", " << t.steps << " steps");
        REQUIRE(b.memory() == MemoryKind::Local);
        CHECK(b.tile3d().steps == t.steps);
        // 11 = launches of 3 + a pair, or launches of 4 + a pair + a single step; split in
        // two calls so a launch's worth is left over once.
        b.step(5);
        b.step(6);
        const auto fb = b.readField3D().data;
        std::size_t differ = 0;
        for (std::size_t i = 0; i < fa.size(); ++i) differ += fa[i] != fb[i];
        CHECK(differ == 0);
      }
    }
  }
}

TEST_CASE("3D tiles of 4 steps per launch match the double reference") {
  auto ctx = test::sharedContext();
  const Volume vol = test::ballVolumeOf(27, 22, 17);
  GvfInput in = buildGvfInput(*ctx, vol, 1.0);
  const double mu = std::min(0.1, EulerSolver::stabilityBound(in.maxV0Squared, 3));
  auto v0 = reference::initialField(test::toGridOf(vol), 1.0, V0Mode::EdgeGradient);
  auto ref = reference::eulerIterate(v0, v0, mu, 20);
  EulerSolver s(ctx, in, mu,
                {Precision::F32,
                 MemoryKind::Local,
                 {},
                 Tile3D{.tx = 18, .ty = 14, .rows = 2, .zChunk = 6, .steps = 4}});
  s.step(20);
  // float32 rounding over 20 iterations, as for the other 3D kernels.
  CHECK(test::maxAbsDiff(s.readField3D().data, ref.values) < 5e-5);
}

TEST_CASE("3D tiles refuse steps they cannot take") {
  auto ctx = test::sharedContext();
  GvfInput in = buildGvfInput(*ctx, test::randomVolumeOf(9, 9, 9, 5), 1.0);
  // A frame of `steps` voxels on each side leaves no inner part; 1 or 5 steps are not built.
  for (const Tile3D& bad : {Tile3D{.tx = 8, .ty = 16, .rows = 1, .zChunk = 8, .steps = 4},
                            Tile3D{.tx = 16, .ty = 6, .rows = 1, .zChunk = 8, .steps = 3},
                            Tile3D{.tx = 16, .ty = 16, .rows = 1, .zChunk = 8, .steps = 5},
                            Tile3D{.tx = 16, .ty = 16, .rows = 1, .zChunk = 8, .steps = 1}})
    CHECK_THROWS_AS(EulerSolver(ctx, in, 0.05, {Precision::F32, MemoryKind::Local, {}, bad}),
                    ParameterError);
  // Each launch writes the inner (tx - 2 steps) x (ty - 2 steps) columns.
  const Tile3D four{.tx = 32, .ty = 32, .rows = 2, .zChunk = 8, .steps = 4};
  CHECK(detail::tile3dGroups(four, FieldShape{48, 49, 9}, 0) == 2);
  CHECK(detail::tile3dGroups(four, FieldShape{48, 49, 9}, 1) == 3);
}

TEST_CASE("3D tiles of 3-4 steps split the depth into chunks that cover it") {
  auto ctx = test::sharedContext();
  for (int steps : {3, 4})
    for (FieldShape shape :
         {FieldShape{256, 256, 256}, FieldShape{40, 30, 7}, FieldShape{9, 9, 1}}) {
      const Tile3D t = *detail::resolveTile3D(Tile3D{.tx = 32, .ty = 32, .rows = 2, .steps = steps},
                                              Precision::F32, *ctx, shape);
      CAPTURE(steps);
      CAPTURE(shape.depth);
      CHECK(t.zChunk >= 1);
      CHECK(t.zChunk <= shape.depth);
      // The chunks cover the depth, the last one not empty.
      const std::uint64_t chunks = detail::tile3dGroups(t, shape, 2);
      CHECK(chunks * t.zChunk >= std::uint64_t(shape.depth));
      CHECK((chunks - 1) * t.zChunk < std::uint64_t(shape.depth));
    }
}

TEST_CASE("CPU slabs of planes per work-item equal a work-item per row") {
  auto ctx = test::sharedContext();
  // Depths that are no multiple of the slab; slabs deeper than the volume.
  const Volume vols[] = {test::randomVolumeOf(29, 23, 19, 33), test::randomVolumeOf(5, 3, 3, 34)};
  for (const Volume& vol : vols) {
    GvfInput in = buildGvfInput(*ctx, vol, 1.0);
    const double mu = std::min(0.1, EulerSolver::stabilityBound(in.maxV0Squared, 3));
    EulerSolver a(ctx, in, mu, {Precision::F32, MemoryKind::Buffer});
    a.step(7);
    const auto fa = a.readField3D().data;
    for (int slab : {4, 32}) {
      EulerOptions o{Precision::F32, MemoryKind::Buffer};
      o.cpuSlab = slab;
      EulerSolver b(ctx, in, mu, o);
      b.step(7);
      const auto fb = b.readField3D().data;
      INFO(vol.width << "x" << vol.height << "x" << vol.depth << ", slab " << slab);
      std::size_t differ = 0;
      for (std::size_t i = 0; i < fa.size(); ++i) differ += fa[i] != fb[i];
      CHECK(differ == 0);
    }
  }
}
