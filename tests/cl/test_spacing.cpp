// GVF in world units on anisotropic grids (gvflab/grid_spacing.hpp, kernels/spacing.clh):
// - the edge map f and V0 against the double reference, 2D and 3D, with spacing: 2e-5 absolute
//   (as test_edge_map; |V0| <= 0.9 here);
// - Euler in each precision and memory kind (2D: buffer, image, local tiles; 3D: buffer,
//   image, the two-steps-per-launch tiles) after 20 steps against the double
//   reference with the same spacing: f32 5e-5, snorm16 6e-4, f16 4e-3 absolute (the tolerances
//   of test_euler_variants), and ε within 1e-3 (f32) or 5% relative;
// - multigrid (per-level launches, the one-work-group coarse solve in local and global memory,
//   fused sweeps): one V-cycle and two iterations against the reference, 2e-5 relative;
// - a smooth phantom sampled at 1 x 1 x 2 gives, once solved, the field of its 1 x 1 x 1
//   sampling at the shared points: within 4% of max |V| (second-order truncation of the
//   coarser z axis; measured 1.6%), against 25% or more when the spacing is ignored (71%);
// - unit spacing keeps the unit-spacing kernels: the same floats as before, to the bit.
// Sizes are neither multiples of the work-groups nor of the tiles; inputs random and phantoms.
#include <doctest/doctest.h>

#include <cmath>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/mu_rule.hpp"
#include "gvflab/multigrid_reference.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/phantoms.hpp"
#include "volume_support.hpp"

using namespace gvflab;
namespace ref = gvflab::reference;

namespace {

double tolerance(Precision p) {
  return p == Precision::F16 ? 4e-3 : p == Precision::SNorm16 ? 6e-4 : 5e-5;
}

ref::Grid gridOf(const Image2D& img, const GridSpacing& h) {
  ref::Grid g = test::toGrid(img);
  g.spacing = h;
  return g;
}

ref::Grid gridOf(const Volume& v, const GridSpacing& h) {
  ref::Grid g = test::toGridOf(v);
  g.spacing = h;
  return g;
}

// V0 as the device made it, in the reference's layout, with the input's spacing.
ref::Field deviceV0(ComputeContext& ctx, const GvfInput& in) {
  ref::Field f;
  if (in.dims() == 2) {
    f = test::toRef(readV0(ctx, in));
  } else {
    Field3D v = readV0Volume(ctx, in);
    f = ref::Field{v.width, v.height, std::vector<double>(v.data.begin(), v.data.end()), v.depth};
  }
  f.spacing = in.spacing;
  return f;
}

std::vector<float> fieldOf(Solver& s) {
  return s.depth() == 1 ? s.readField().data : s.readField3D().data;
}

double relDiff(const std::vector<float>& a, const std::vector<double>& b) {
  double scale = 1e-30;
  for (double x : b) scale = std::max(scale, std::abs(x));
  return test::maxAbsDiff(a, b) / scale;
}

}  // namespace

TEST_CASE("edge map and V0 in world units match the reference (2D and 3D)") {
  auto ctx = test::sharedContext();
  const GridSpacing h2{0.8, 1.7, 1.0}, h3{1.0, 0.7, 2.0};
  for (V0Mode mode : {V0Mode::EdgeGradient, V0Mode::ImageGradient}) {
    const Image2D img = test::randomImage(67, 45, 5);
    GvfInput in = buildGvfInput(*ctx, img, 1.0, mode, h2);
    CHECK(in.spacing == h2);
    CHECK(test::maxAbsDiff(readEdgeMap(*ctx, in).pixels,
                           ref::edgeMap(gridOf(img, h2), 1.0).values) < 2e-5);
    const ref::Field v0 = ref::initialField(gridOf(img, h2), 1.0, mode);
    CHECK(test::maxAbsDiff(readV0(*ctx, in).data, v0.values) < 2e-5);
    CHECK(in.maxV0Squared == doctest::Approx(ref::maxSquaredNorm(v0)).epsilon(1e-4));

    const Volume vol = test::ballVolumeOf(19, 13, 11);
    GvfInput in3 = buildGvfInput(*ctx, vol, 0.5, mode, h3);
    CHECK(test::maxAbsDiff(readEdgeVolume(*ctx, in3).voxels,
                           ref::edgeMap(gridOf(vol, h3), 0.5).values) < 2e-5);
    CHECK(test::maxAbsDiff(readV0Volume(*ctx, in3).data,
                           ref::initialField(gridOf(vol, h3), 0.5, mode).values) < 2e-5);
  }
  // The image's own geometry is the default; an override replaces it.
  Image2D img = makePhantom("u", 40);
  img.geometry.spacing = {2.0, 0.5, 1.0};
  CHECK((buildGvfInput(*ctx, img, 1.0).spacing == GridSpacing{2.0, 0.5, 1.0}));
  CHECK((buildGvfInput(*ctx, img, 1.0, V0Mode::EdgeGradient, GridSpacing{1, 1, 7}).spacing ==
         GridSpacing{1.0, 1.0, 1.0}));  // z of an image is 1
  img.geometry.spacing = {0.0, 1.0, 1.0};
  CHECK_THROWS_WITH_AS(buildGvfInput(*ctx, img, 1.0), doctest::Contains("spacing"), ParameterError);
}

TEST_CASE("2D Euler with anisotropic spacing matches the reference in every variant") {
  auto ctx = test::sharedContext();
  const GridSpacing h{0.8, 1.7, 1.0};
  // A phantom and a random image wider than one tile; odd sizes.
  const Image2D images[] = {makePhantom("u", 64), test::randomImage(130, 77, 11)};
  for (const Image2D& img : images) {
    CAPTURE(img.width);
    const GvfInput in = buildGvfInput(*ctx, img, 1.0, V0Mode::EdgeGradient, h);
    const double mu = std::min(0.12, muBound(SolverKind::Euler, in));
    CHECK(mu > 0.05);
    const ref::Field v0 = deviceV0(*ctx, in);
    const ref::Field expect = ref::eulerIterate(v0, v0, mu, 20);
    const double refErr = ref::gvfError(expect, v0, mu);
    // Each memory kind and each precision (not every pair: PoCL compiles each slowly).
    const EulerOptions variants[] = {
        {.precision = Precision::F32, .memory = MemoryKind::Buffer},
        {.precision = Precision::F32, .memory = MemoryKind::Image},
        {.precision = Precision::F32, .memory = MemoryKind::Local},
        {.precision = Precision::F16, .memory = MemoryKind::Image},
        {.precision = Precision::F16, .memory = MemoryKind::Local},
        {.precision = Precision::SNorm16, .memory = MemoryKind::Buffer},
        {.precision = Precision::SNorm16, .memory = MemoryKind::Local}};
    for (const EulerOptions& o : variants) {
      const Precision p = o.precision;
      CAPTURE(precisionName(p));
      CAPTURE(memoryName(*o.memory));
      EulerSolver s(ctx, in, mu, o);
      s.step(20);
      CHECK(test::maxAbsDiff(s.readField().data, expect.values) < tolerance(p));
      CHECK(s.error() == doctest::Approx(refErr).epsilon(p == Precision::F32 ? 1e-3 : 0.05));
    }
  }
}

TEST_CASE("3D Euler with anisotropic spacing matches the reference in every variant") {
  auto ctx = test::sharedContext();
  const GridSpacing h{1.0, 0.7, 2.0};
  const Volume vols[] = {test::ballVolumeOf(23, 17, 13), test::randomVolumeOf(19, 13, 11, 4)};
  for (const Volume& vol : vols) {
    CAPTURE(vol.width);
    const GvfInput in = buildGvfInput(*ctx, vol, 1.0, V0Mode::EdgeGradient, h);
    const double mu = std::min(0.08, muBound(SolverKind::Euler, in));
    CHECK(mu > 0.04);
    const ref::Field v0 = deviceV0(*ctx, in);
    const ref::Field expect = ref::eulerIterate(v0, v0, mu, 20);
    const double refErr = ref::gvfError(expect, v0, mu);
    const EulerOptions variants[] = {
        {.precision = Precision::F32, .memory = MemoryKind::Buffer},
        {.precision = Precision::F16, .memory = MemoryKind::Image},
        {.precision = Precision::SNorm16, .memory = MemoryKind::Buffer},
        {.precision = Precision::F32,
         .memory = MemoryKind::Local,
         .tile3d = Tile3D{.tx = 13, .ty = 9, .rows = 3, .zChunk = 4}},
        {.precision = Precision::F16,
         .memory = MemoryKind::Local,
         .tile3d = Tile3D{.tx = 12, .ty = 12, .rows = 3, .zChunk = 5, .rawPrefetch = true}}};
    for (const EulerOptions& o : variants) {
      const Precision p = o.precision;
      CAPTURE(precisionName(p));
      CAPTURE(memoryName(*o.memory));
      EulerSolver s(ctx, in, mu, o);
      s.step(20);
      CHECK(test::maxAbsDiff(s.readField3D().data, expect.values) < tolerance(p));
      CHECK(s.error() == doctest::Approx(refErr).epsilon(p == Precision::F32 ? 1e-3 : 0.05));
    }
    // The tiles' frame mirrors pairs of neighbours, weighted alike: equal to single steps
    // (variants 3 and 0).
    EulerSolver a(ctx, in, mu, variants[0]), b(ctx, in, mu, variants[3]);
    a.step(7);
    b.step(7);
    CHECK(a.readField3D().data == b.readField3D().data);
  }
}

TEST_CASE("multigrid with anisotropic spacing matches the reference (2D and 3D)") {
  auto ctx = test::sharedContext();
  // The spacings of the Euler cases (each spacing builds its own programs: PoCL compiles slowly).
  const GridSpacing h2{0.8, 1.7, 1.0}, h3{1.0, 0.7, 2.0};
  const GvfInput inputs[] = {
      buildGvfInput(*ctx, test::randomImage(37, 23, 3), 1.0, V0Mode::EdgeGradient, h2),
      buildGvfInput(*ctx, makePhantom("u", 33), 1.0, V0Mode::EdgeGradient, h2),
      buildGvfInput(*ctx, test::ballVolumeOf(13, 9, 7), 0.5, V0Mode::EdgeGradient, h3),
      buildGvfInput(*ctx, test::randomVolumeOf(10, 6, 5, 9), 1.0, V0Mode::EdgeGradient, h3)};
  for (const GvfInput& in : inputs) {
    CAPTURE(in.width);
    CAPTURE(in.depth);
    const ref::Field v0 = deviceV0(*ctx, in);
    const ref::MultigridParams p{.mu = 0.1};  // the solver's default sweeps
    // Per-level launches (0), the one-work-group solve in local and in global memory (12), fused
    // sweeps, and level 0's runs in one launch each (2).
    for (auto [coarseSide, global, fused] :
         {std::tuple{0, false, 0}, std::tuple{12, false, 0}, std::tuple{12, true, 0},
          std::tuple{0, false, 1}, std::tuple{12, false, 2}}) {
      CAPTURE(coarseSide);
      CAPTURE(global);
      CAPTURE(fused);
      MultigridSolver mg(ctx, in, 0.1,
                         {.coarseSide = coarseSide, .coarseGlobal = global, .fused = fused});
      mg.vCycle();
      CHECK(relDiff(fieldOf(mg), ref::multigridVCycle(v0, v0, p).values) < 2e-5);
      mg.reset();
      mg.step(2);
      CHECK(relDiff(fieldOf(mg), ref::multigridIterate(v0, v0, p, 2).values) < 2e-5);
    }
  }
}

TEST_CASE("a phantom sampled at 1x1x2 gives the isotropic sampling's field at shared points") {
  auto ctx = test::sharedContext();
  // A smooth ellipsoidal blob in world coordinates (mm), sampled every 1 mm and every
  // 1 x 1 x 2 mm; V0 = its gradient (no blur: σ is in samples), so both grids solve the same
  // continuous problem and differ by truncation only.
  // Both grids end at z = 32 mm, so their borders (mirrored) coincide.
  const int n = 28, nz = 33;
  auto blob = [](double x, double y, double z) {
    const double dx = (x - 13.2) / 6.0, dy = (y - 14.1) / 5.0, dz = (z - 16.3) / 8.0;
    return std::exp(-0.5 * (dx * dx + dy * dy + dz * dz));
  };
  Volume iso(n, n, nz), aniso(n, n, (nz + 1) / 2);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        iso.at(x, y, z) = float(blob(x, y, z));
        if (z % 2 == 0) aniso.at(x, y, z / 2) = float(blob(x, y, z));
      }
  aniso.geometry.spacing = {1.0, 1.0, 2.0};
  auto solve = [&](const Volume& v, std::optional<GridSpacing> h) {
    GvfInput in = buildGvfInput(*ctx, v, 0.0, V0Mode::ImageGradient, h);
    MultigridSolver mg(ctx, in, 0.2);
    mg.step(20);
    // Measured 2e-9 isotropic, 6.5e-7 on 1x1x2: point smoothing converges slower on anisotropic
    // grids (every level coarsens all axes), though still far below the truncation compared.
    CHECK(mg.error() < 2e-6);
    return mg.readField3D();
  };
  const Field3D a = solve(iso, std::nullopt), b = solve(aniso, std::nullopt),
                ignored = solve(aniso, GridSpacing{1, 1, 1});
  double scale = 0, diff = 0, diffIgnored = 0;
  for (int z = 0; z < nz; z += 2)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x)
        for (int c = 0; c < 3; ++c) {
          const std::size_t i = 3 * ((std::size_t(z) * n + y) * n + x) + c;
          const std::size_t j = 3 * ((std::size_t(z / 2) * n + y) * n + x) + c;
          scale = std::max(scale, double(std::abs(a.data[i])));
          diff = std::max(diff, double(std::abs(a.data[i] - b.data[j])));
          diffIgnored = std::max(diffIgnored, double(std::abs(a.data[i] - ignored.data[j])));
        }
  MESSAGE("max |V| " << scale << ", 1x1x2 vs 1x1x1 " << diff / scale << ", spacing ignored "
                     << diffIgnored / scale);
  CHECK(diff < 0.04 * scale);
  CHECK(diffIgnored > 0.25 * scale);
}

TEST_CASE("unit spacing gives the unit-spacing kernels' floats, to the bit") {
  auto ctx = test::sharedContext();
  const Image2D img = test::randomImage(45, 31, 8);
  Image2D scaled = img;
  scaled.geometry.spacing = {1.0, 1.0, 1.0};
  scaled.geometry.known = true;
  const GvfInput a = buildGvfInput(*ctx, img, 1.0), b = buildGvfInput(*ctx, scaled, 1.0);
  CHECK(readV0(*ctx, a).data == readV0(*ctx, b).data);
  // A 2D image's z spacing is never used.
  const GvfInput c = buildGvfInput(*ctx, img, 1.0, V0Mode::EdgeGradient, GridSpacing{1, 1, 3});
  EulerSolver ea(ctx, a, 0.15), ec(ctx, c, 0.15);
  ea.step(9);
  ec.step(9);
  CHECK(ea.readField().data == ec.readField().data);
}
