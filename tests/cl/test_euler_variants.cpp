// Every precision x memory combination of the Euler solver, 2D and 3D, against the double
// reference. Tolerances (absolute, fields are at most 0.71 in magnitude), after 20 steps:
//   f32 5e-5 (float rounding), snorm16 6e-4 (quantum 3.1e-5 per stored value, 20 roundings),
//   f16 4e-3 (11-bit mantissa: 2.4e-4 relative per rounding, 20 roundings).
#include <doctest/doctest.h>

#include "cl/cl_fixture.hpp"
#include "generated_scenes.hpp"
#include "gvf/tile3d.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/phantoms.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {

double tolerance(Precision p) {
  switch (p) {
    case Precision::F16:
      return 4e-3;
    case Precision::SNorm16:
      return 6e-4;
    default:
      return 5e-5;
  }
}

const Precision kPrecisions[] = {Precision::F32, Precision::F16, Precision::SNorm16};
const MemoryKind kMemories[] = {MemoryKind::Buffer, MemoryKind::Image, MemoryKind::Local};

Volume randomVolume(int w, int h, int d, std::uint32_t seed) {
  Image2D flat = test::randomImage(w, h * d, seed);
  Volume v(w, h, d);
  v.voxels = flat.pixels;
  return v;
}

// A bright ball in a dark box, slightly off centre.
Volume ballVolume(int n) {
  Volume v(n, n, n);
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        double dx = x - 0.45 * n, dy = y - 0.5 * n, dz = z - 0.55 * n;
        v.at(x, y, z) = dx * dx + dy * dy + dz * dz < 0.09 * n * n ? 1.0f : 0.0f;
      }
  return v;
}

reference::Grid toGrid(const Volume& v) {
  return reference::Grid{v.width, v.height, std::vector<double>(v.voxels.begin(), v.voxels.end()),
                         v.depth};
}

}  // namespace

TEST_CASE("2D Euler in every precision and memory kind matches the reference") {
  auto ctx = test::sharedContext();
  const Image2D images[] = {makePhantom("u", 64), test::randomImage(67, 45, 5)};
  for (const Image2D& img : images) {
    GvfInput in = buildGvfInput(*ctx, img, 1.0);
    auto v0 = reference::initialField(test::toGrid(img), 1.0, V0Mode::EdgeGradient);
    auto ref = reference::eulerIterate(v0, v0, 0.15, 20);
    const double refErr = reference::gvfError(ref, v0, 0.15);
    for (Precision p : kPrecisions)
      for (MemoryKind m : kMemories) {
        INFO("precision " << std::string(precisionName(p)));
        INFO("memory " << std::string(memoryName(m)));
        CAPTURE(img.width);
        EulerSolver s(ctx, in, 0.15, {.precision = p, .memory = m});
        s.step(20);
        const double diff = test::maxAbsDiff(s.readField().data, ref.values);
        MESSAGE("max |device - reference| = " << diff << " " << s.note());
        CHECK(diff < tolerance(p));
        CHECK(s.error() == doctest::Approx(refErr).epsilon(p == Precision::F32 ? 1e-3 : 0.05));
        if (m == MemoryKind::Image && s.memory() == MemoryKind::Buffer) CHECK(!s.note().empty());
      }
  }
}

TEST_CASE("local tiles give the same field as buffers in every precision") {
  auto ctx = test::sharedContext();
  Image2D img = test::randomImage(130, 77, 11);
  GvfInput in = buildGvfInput(*ctx, img, 1.0);
  for (Precision p : kPrecisions) {
    INFO("precision " << std::string(precisionName(p)));
    EulerSolver a(ctx, in, 0.15, {.precision = p, .memory = MemoryKind::Buffer});
    EulerSolver b(ctx, in, 0.15, {.precision = p, .memory = MemoryKind::Local});
    a.step(13);
    b.step(13);
    auto fa = a.readField().data, fb = b.readField().data;
    double diff = 0;
    for (std::size_t i = 0; i < fa.size(); ++i)
      diff = std::max(diff, static_cast<double>(std::abs(fa[i] - fb[i])));
    // One storage quantum at most (FMA contraction may differ between the two kernels).
    CHECK(diff <= (p == Precision::F32 ? 1e-6 : p == Precision::F16 ? 5e-4 : 3.1e-5));
  }
}

TEST_CASE("3D two-steps-per-launch tiles equal single steps across tiles and z chunks") {
  // The device's local memory cut to an H200's 48 KB, so both forms of the kernel run: tiles
  // that fit it twice take one barrier a plane (float32's preset), the others two (36 x 36).
  auto shared = test::sharedContext();
  DeviceInfo info = shared->info();
  info.localMemBytes = 48 * 1024;
  auto ctx = ComputeContext::createOn(shared->device(), info, {});
  REQUIRE(2 * detail::tile3dLocalBytes(Tile3D{.tx = 36, .ty = 36, .rows = 3}) > info.localMemBytes);
  // Wider than one tile, deeper than one z chunk, odd sizes and an odd iteration count, a
  // volume smaller than any tile and one of two planes; the presets and tiles of other shapes,
  // rows per work-item, raw prefetch and 64-bit indices. The tiles' frame copies the mirrored
  // voxels exactly, so the fields must be equal, not merely close.
  const Volume vols[] = {randomVolume(61, 30, 70, 3), randomVolume(3, 2, 5, 4),
                         randomVolume(17, 9, 2, 6)};
  const Tile3D tiles[] = {
      Tile3D{}, Tile3D{.tx = 32, .ty = 8, .rows = 1, .zChunk = 16},
      Tile3D{.tx = 13, .ty = 7, .rows = 1, .zChunk = 5},
      Tile3D{.tx = 13, .ty = 9, .rows = 3, .zChunk = 5, .rawPrefetch = true},
      Tile3D{.tx = 20, .ty = 12, .rows = 2, .zChunk = 3},
      // 64 inner columns: whole warps a row, the lanes out of the tile's order.
      Tile3D{.tx = 68, .ty = 8, .rows = 2, .zChunk = 6},
      Tile3D{.tx = 36, .ty = 36, .rows = 3, .rawPrefetch = true},
      Tile3D{.tx = 36, .ty = 39, .rows = 3, .rawPrefetch = true},
      Tile3D{.tx = 20, .ty = 36, .rows = 3, .branchlessPlanes = true},
      Tile3D{
          .tx = 13, .ty = 9, .rows = 3, .zChunk = 4, .rawPrefetch = true, .branchlessPlanes = true},
      Tile3D{.tx = 24, .ty = 16, .rows = 1, .zChunk = 48, .wideIndices = true},
      Tile3D{.tx = 12, .ty = 12, .rows = 3, .zChunk = 7, .rawPrefetch = true, .wideIndices = true},
      // V0 copied asynchronously (float32, NVIDIA sm_80+ only): the preset and odd shapes.
      Tile3D{.tx = 68, .ty = 20, .rows = 4, .branchlessPlanes = true, .asyncV0 = true},
      Tile3D{.tx = 13, .ty = 8, .rows = 2, .zChunk = 5, .asyncV0 = true},
      Tile3D{.tx = 20, .ty = 12, .rows = 3, .zChunk = 3, .wideIndices = true, .asyncV0 = true}};
  const bool async = detail::asyncCopies(info);
  if (!async) MESSAGE("no asynchronous copies on " << info.name << ": +async tiles not run");
  int asyncRuns = 0;
  for (const Volume& vol : vols) {
    GvfInput in = buildGvfInput(*ctx, vol, 1.0);
    const double mu = std::min(0.1, EulerSolver::stabilityBound(in.maxV0Squared, 3));
    for (Precision p : kPrecisions) {
      EulerSolver a(ctx, in, mu, {.precision = p, .memory = MemoryKind::Buffer});
      a.step(7);
      const auto fa = a.readField3D().data;
      for (const Tile3D& t : tiles) {
        if (t.asyncV0 && (!async || p != Precision::F32)) continue;
        asyncRuns += t.asyncV0;
        EulerSolver b(ctx, in, mu, {.precision = p, .memory = MemoryKind::Local, .tile3d = t});
        const Tile3D& r = b.tile3d();
        // Built here: INFO captures its operands lazily and prints a ?: of literals as pointers.
        const std::string label =
            "precision " + std::string(precisionName(p)) + ", " + std::to_string(vol.width) + "x" +
            std::to_string(vol.height) + "x" + std::to_string(vol.depth) + ", tile " +
            std::to_string(r.tx) + "x" + std::to_string(r.ty) + "x" + std::to_string(r.rows) + "x" +
            std::to_string(r.zChunk) + (r.rawPrefetch ? " raw" : "") +
            (r.branchlessPlanes ? " branchless" : "") + (r.wideIndices ? " (64-bit indices)" : "") +
            (r.asyncV0 ? " async V0" : "");
        INFO(label);
        // Half pairs (f16's preset where the device has f16x2) have their own test below.
        if (r.halfPairs) continue;
        REQUIRE(b.memory() == MemoryKind::Local);
        CHECK(r.zChunk >= 1);
        b.step(7);
        const auto fb = b.readField3D().data;
        std::size_t differ = 0;
        for (std::size_t i = 0; i < fa.size(); ++i) differ += fa[i] != fb[i];
        CHECK(differ == 0);
      }
    }
  }
  CHECK(asyncRuns == (async ? 3 * 3 : 0));
  // Chosen tiles that cannot run are refused with a sentence, not clamped or crashed.
  GvfInput in = buildGvfInput(*ctx, randomVolume(9, 9, 9, 5), 1.0);
  for (const Tile3D& bad : {Tile3D{.tx = 4, .ty = 16, .rows = 1, .zChunk = 8},
                            Tile3D{.tx = 24, .ty = 4, .rows = 1, .zChunk = 8},
                            Tile3D{.tx = 24, .ty = 16, .rows = 1, .zChunk = -1},
                            Tile3D{.tx = 24, .ty = 16, .rows = 3, .zChunk = 8},
                            Tile3D{.tx = 24, .ty = 16, .rows = 0, .zChunk = 8},
                            Tile3D{.tx = 1024, .ty = 1024, .rows = 1, .zChunk = 8}})
    CHECK_THROWS_AS(EulerSolver(ctx, in, 0.05, {.memory = MemoryKind::Local, .tile3d = bad}),
                    ParameterError);
  // Asynchronous V0 copies hold float32 values: refused in 16 bit and with raw planes
  // everywhere, and on devices without cp.async.
  const Tile3D async68{.tx = 68, .ty = 20, .rows = 4, .zChunk = 8, .asyncV0 = true};
  for (Precision p : {Precision::F16, Precision::SNorm16})
    CHECK_THROWS_WITH_AS(
        EulerSolver(ctx, in, 0.05,
                    {.precision = p, .memory = MemoryKind::Local, .tile3d = async68}),
        doctest::Contains("precision f32"), ParameterError);
  Tile3D asyncRaw = async68;
  asyncRaw.rawPrefetch = true;
  CHECK_THROWS_AS(EulerSolver(ctx, in, 0.05, {.memory = MemoryKind::Local, .tile3d = asyncRaw}),
                  ParameterError);
  if (!async)
    CHECK_THROWS_WITH_AS(
        EulerSolver(ctx, in, 0.05, {.memory = MemoryKind::Local, .tile3d = async68}),
        doctest::Contains("compute capability 8.0"), ParameterError);
}

TEST_CASE("3D half-pair tiles stay within f16's error of the reference") {
  // Half-precision arithmetic is not float32's, so the fields are compared with the double
  // reference at f16's tolerance, and with float32 arithmetic on f16 storage: after 20 steps
  // the two differ by a few f16 quanta (PoCL and the H200 alike: at most 2.4e-4), where a
  // neighbour or a pair taken from the wrong row moves values by the field's own size.
  auto ctx = test::sharedContext();
  const Volume vols[] = {randomVolume(61, 30, 70, 3), randomVolume(3, 2, 5, 4),
                         randomVolume(17, 9, 2, 6), ballVolume(20)};
  const Tile3D tiles[] = {
      Tile3D{.tx = 68, .ty = 20, .rows = 4, .halfPairs = true},
      Tile3D{.tx = 13, .ty = 8, .rows = 2, .zChunk = 5, .halfPairs = true},
      Tile3D{.tx = 20, .ty = 12, .rows = 4, .zChunk = 3, .halfPairs = true},
      Tile3D{.tx = 36, .ty = 36, .rows = 6, .zChunk = 7, .halfPairs = true},
      Tile3D{.tx = 24, .ty = 16, .rows = 2, .zChunk = 48, .wideIndices = true, .halfPairs = true}};
  for (const Volume& vol : vols) {
    GvfInput in = buildGvfInput(*ctx, vol, 1.0);
    auto v0 = reference::initialField(toGrid(vol), 1.0, V0Mode::EdgeGradient);
    const double mu = std::min(0.1, EulerSolver::stabilityBound(in.maxV0Squared, 3));
    const auto ref = reference::eulerIterate(v0, v0, mu, 20);
    EulerSolver a(ctx, in, mu, {.precision = Precision::F16, .memory = MemoryKind::Buffer});
    a.step(20);
    const auto fa = a.readField3D().data;
    std::vector<float> first;  // every tile's field equals the first's: the same steps
    for (const Tile3D& t : tiles) {
      INFO(vol.width << "x" << vol.height << "x" << vol.depth << ", tile " << t.tx << "x" << t.ty
                     << "x" << t.rows);
      EulerSolver b(ctx, in, mu,
                    {.precision = Precision::F16, .memory = MemoryKind::Local, .tile3d = t});
      REQUIRE(b.tile3d().halfPairs);
      b.step(20);
      const auto fb = b.readField3D().data;
      double toF32 = 0;
      for (std::size_t i = 0; i < fa.size(); ++i)
        toF32 = std::max(toF32, static_cast<double>(std::abs(fa[i] - fb[i])));
      const double toRef = test::maxAbsDiff(fb, ref.values);
      MESSAGE("half pairs: max |h2 - reference| " << toRef << ", |h2 - f32 arithmetic| " << toF32);
      CHECK(toRef < tolerance(Precision::F16));
      CHECK(toF32 < 1e-3);
      if (first.empty()) {
        // Steps one at a time (the single-step kernel in the same half arithmetic) give the
        // field of two-step launches, as a split's exchanges and the viewer take them.
        first = fb;
        EulerSolver c(ctx, in, mu,
                      {.precision = Precision::F16, .memory = MemoryKind::Local, .tile3d = t});
        for (int i = 0; i < 20; ++i) c.step(1);
        CHECK(c.readField3D().data == fb);
      }
      CHECK(fb == first);
    }
  }
  // Half pairs are refused, with a sentence, off f16, with odd rows and on spaced grids.
  GvfInput in = buildGvfInput(*ctx, randomVolume(9, 9, 9, 5), 1.0);
  const Tile3D h2{.tx = 20, .ty = 12, .rows = 4, .zChunk = 3, .halfPairs = true};
  for (Precision p : {Precision::F32, Precision::SNorm16})
    CHECK_THROWS_WITH_AS(
        EulerSolver(ctx, in, 0.05, {.precision = p, .memory = MemoryKind::Local, .tile3d = h2}),
        doctest::Contains("precision f16"), ParameterError);
  Tile3D odd = h2;
  odd.rows = 3;
  CHECK_THROWS_AS(
      EulerSolver(ctx, in, 0.05,
                  {.precision = Precision::F16, .memory = MemoryKind::Local, .tile3d = odd}),
      ParameterError);
  GvfInput spaced = in;
  spaced.spacing = GridSpacing{1.0, 1.0, 2.0};
  CHECK_THROWS_WITH_AS(
      EulerSolver(ctx, spaced, 0.05,
                  {.precision = Precision::F16, .memory = MemoryKind::Local, .tile3d = h2}),
      doctest::Contains("spacing"), ParameterError);
}

TEST_CASE("3D half pairs of columns give the field of pairs of rows, bit for bit") {
  // The same operations in the same order, two columns a word instead of two rows: every
  // voxel equal, on volumes of even widths whose edges fall anywhere in a tile (the edge lanes
  // take their own words as their mirrored neighbours), in tiles of any rows, chunks and lane
  // order, and a generated scene in noise; and within f16's tolerance of the double reference.
  // Odd widths are refused with a sentence.
  auto ctx = test::sharedContext();
  std::vector<Volume> vols = {randomVolume(62, 30, 70, 3), randomVolume(4, 2, 5, 4),
                              randomVolume(18, 9, 2, 6),   ballVolume(20),
                              randomVolume(6, 7, 3, 8),    randomVolume(2, 5, 4, 9)};
  vols.push_back(test::generatedVolume(13, 30, test::Cut::Channel, 3.0).volume);
  const Tile3D rows{.tx = 36, .ty = 20, .rows = 4, .halfPairs = true};
  const Tile3D columns[] = {
      Tile3D{.tx = 34, .ty = 20, .rows = 2, .halfPairs = true, .pairColumns = true},
      Tile3D{.tx = 66, .ty = 12, .rows = 4, .zChunk = 9, .halfPairs = true, .pairColumns = true},
      Tile3D{.tx = 7, .ty = 8, .rows = 1, .zChunk = 5, .halfPairs = true, .pairColumns = true},
      Tile3D{.tx = 10, .ty = 12, .rows = 3, .zChunk = 3, .halfPairs = true, .pairColumns = true},
      Tile3D{.tx = 3,
             .ty = 15,
             .rows = 5,
             .zChunk = 48,
             .wideIndices = true,
             .halfPairs = true,
             .pairColumns = true}};
  for (const Volume& vol : vols) {
    GvfInput in = buildGvfInput(*ctx, vol, 1.0);
    const double mu = std::min(0.1, EulerSolver::stabilityBound(in.maxV0Squared, 3));
    auto v0 = reference::initialField(toGrid(vol), 1.0, V0Mode::EdgeGradient);
    const auto ref = reference::eulerIterate(v0, v0, mu, 20);
    EulerSolver a(ctx, in, mu,
                  {.precision = Precision::F16, .memory = MemoryKind::Local, .tile3d = rows});
    a.step(20);
    const auto fa = a.readField3D().data;
    for (const Tile3D& t : columns) {
      INFO(vol.width << "x" << vol.height << "x" << vol.depth << ", tile " << t.tx << "x" << t.ty
                     << "x" << t.rows);
      EulerSolver b(ctx, in, mu,
                    {.precision = Precision::F16, .memory = MemoryKind::Local, .tile3d = t});
      REQUIRE(b.tile3d().pairColumns);
      b.step(20);
      const auto fb = b.readField3D().data;
      std::size_t differ = 0;
      for (std::size_t i = 0; i < fa.size(); ++i) differ += fa[i] != fb[i];
      CHECK(differ == 0);
      CHECK(test::maxAbsDiff(fb, ref.values) < tolerance(Precision::F16));
    }
  }
  GvfInput odd = buildGvfInput(*ctx, randomVolume(9, 8, 6, 5), 1.0);
  CHECK_THROWS_WITH_AS(
      EulerSolver(ctx, odd, 0.05,
                  {.precision = Precision::F16, .memory = MemoryKind::Local, .tile3d = columns[0]}),
      doctest::Contains("even width"), ParameterError);
}

TEST_CASE("3D half pairs keep f16's accuracy over many steps on generated scenes") {
  // 256 steps on seeded random shapes, one with a pocket in noise and one with a channel, clean:
  // the mean error against the double reference in half-precision pairs stays within 1.5x
  // that of float32 arithmetic on the same f16 storage (the step keeps c exact and rounds only
  // the change; the k c form rounded k and damped flat regions). PoCL: 5.1e-5 against 7.2e-5
  // (pocket, SNR 4), 4.6e-5 against 9.5e-5 (channel).
  auto ctx = test::sharedContext();
  const Tile3D pairs{.tx = 36, .ty = 20, .rows = 4, .halfPairs = true};
  for (const auto& [seed, cut, snr] :
       {std::tuple{11u, test::Cut::Pocket, 4.0}, std::tuple{12u, test::Cut::Channel, 0.0}}) {
    const test::GeneratedScene g = test::generatedVolume(seed, 32, cut, snr);
    INFO(g.description);
    GvfInput in = buildGvfInput(*ctx, g.volume, 1.0);
    auto v0 = reference::initialField(toGrid(g.volume), 1.0, V0Mode::EdgeGradient);
    const double mu = std::min(0.1, EulerSolver::stabilityBound(in.maxV0Squared, 3));
    const auto ref = reference::eulerIterate(v0, v0, mu, 256);
    const auto meanError = [&](const Tile3D& t, MemoryKind m) {
      EulerSolver s(ctx, in, mu, {.precision = Precision::F16, .memory = m, .tile3d = t});
      s.step(256);
      const auto f = s.readField3D().data;
      double sum = 0;
      for (std::size_t i = 0; i < f.size(); ++i) sum += std::abs(f[i] - ref.values[i]);
      return sum / static_cast<double>(f.size());
    };
    const double f32Arithmetic = meanError(Tile3D{}, MemoryKind::Buffer);
    const double halfPairs = meanError(pairs, MemoryKind::Local);
    MESSAGE(g.description << ": mean |f16 - reference| " << f32Arithmetic
                          << " with float32 arithmetic, " << halfPairs << " in half pairs");
    CHECK(halfPairs > 0);
    CHECK(halfPairs <= 1.5 * f32Arithmetic);
  }
}

TEST_CASE("3D edge map and V0 match the reference") {
  auto ctx = test::sharedContext();
  const Volume vols[] = {randomVolume(13, 9, 7, 21), ballVolume(24), randomVolume(3, 2, 5, 4)};
  CHECK_THROWS_AS(buildGvfInput(*ctx, Volume(8, 8, 1), 1.0), InputError);
  for (const Volume& vol : vols)
    for (double sigma : {0.0, 1.0}) {
      CAPTURE(vol.width);
      CAPTURE(sigma);
      GvfInput in = buildGvfInput(*ctx, vol, sigma);
      CHECK(in.dims() == 3);
      auto g = toGrid(vol);
      CHECK(test::maxAbsDiff(readEdgeVolume(*ctx, in).voxels, reference::edgeMap(g, sigma).values) <
            2e-5);
      auto v0 = reference::initialField(g, sigma, V0Mode::EdgeGradient);
      CHECK(test::maxAbsDiff(readV0Volume(*ctx, in).data, v0.values) < 2e-5);
      CHECK(in.maxV0Squared == doctest::Approx(reference::maxSquaredNorm(v0)).epsilon(1e-4));
    }
}

TEST_CASE("3D Euler in every precision and memory kind matches the reference") {
  auto ctx = test::sharedContext();
  const Volume vols[] = {ballVolume(20), randomVolume(37, 19, 21, 8)};
  for (const Volume& vol : vols) {
    GvfInput in = buildGvfInput(*ctx, vol, 1.0);
    auto v0 = reference::initialField(toGrid(vol), 1.0, V0Mode::EdgeGradient);
    const double mu = std::min(0.1, EulerSolver::stabilityBound(in.maxV0Squared, 3));
    auto ref = reference::eulerIterate(v0, v0, mu, 20);
    for (Precision p : kPrecisions)
      for (MemoryKind m : kMemories) {
        INFO("precision " << std::string(precisionName(p)));
        INFO("memory " << std::string(memoryName(m)));
        EulerSolver s(ctx, in, mu, {.precision = p, .memory = m});
        s.step(20);
        const double diff = test::maxAbsDiff(s.readField3D().data, ref.values);
        MESSAGE("3D max |device - reference| = " << diff << " " << s.note());
        CHECK(diff < tolerance(p));
        CHECK(s.error() == doctest::Approx(reference::gvfError(ref, v0, mu))
                               .epsilon(p == Precision::F32 ? 1e-3 : 0.05));
      }
  }
}

TEST_CASE("3D stability bound is (2 - max|V0|^2) / 12 and is enforced") {
  auto ctx = test::sharedContext();
  GvfInput in = buildGvfInput(*ctx, ballVolume(16), 1.0);
  const double bound = EulerSolver::stabilityBound(in.maxV0Squared, 3);
  CHECK(bound == doctest::Approx((2 - in.maxV0Squared) / 12));
  CHECK_THROWS_AS(EulerSolver(ctx, in, bound + 0.01), ParameterError);
  EulerSolver s(ctx, in, bound);
  CHECK_THROWS_AS(s.readField(), Error);
}

TEST_CASE("oversized solves are refused up front with the size, the limit and what fits") {
  auto ctx = test::sharedContext();
  const FieldShape huge{4096, 4096, 4096};
  try {
    checkSolverFits(*ctx, huge, Precision::F32);
    FAIL("a 4096^3 float32 solve cannot fit");
  } catch (const ResourceError& e) {
    const std::string msg = e.what();
    CHECK(msg.find("4096x4096x4096") != std::string::npos);
    CHECK(msg.find("GiB") != std::string::npos);
    CHECK(msg.find(ctx->info().name) != std::string::npos);
    CHECK(msg.find("fit") != std::string::npos);
  }
  CHECK_NOTHROW(checkSolverFits(*ctx, FieldShape{512, 512, 1}, Precision::F32));
  const auto limit = ctx->info().maxAllocBytes;
  // Just above one allocation in f32, but half of it in f16: the message suggests f16.
  const int side = static_cast<int>(std::sqrt(static_cast<double>(limit) / 8.0)) + 64;
  if (static_cast<std::uint64_t>(side) * side * 4 < limit && side <= 16384) {
    try {
      checkSolverFits(*ctx, FieldShape{side, side, 1}, Precision::F32);
      FAIL("should not fit in one allocation");
    } catch (const ResourceError& e) {
      CHECK(std::string(e.what()).find("f16") != std::string::npos);
    }
  }
}
