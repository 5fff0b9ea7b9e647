// Euler GVF on the device against the double reference, the stability guard and the
// boundary rule. Tolerance: 1e-5 absolute after 1 step and 5e-5 after 60 steps (fields are
// O(0.5); float32 accumulates ~1e-7 relative per step).
#include <doctest/doctest.h>

#include <optional>

#include "cl/cl_fixture.hpp"
#include "gvf/persistent_wait.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/phantoms.hpp"
#include "test_skip.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {

void compareIterations(const Image2D& img, double sigma, double mu, int iterations, double tol) {
  auto ctx = test::sharedContext();
  EulerSolver solver(ctx, buildGvfInput(*ctx, img, sigma), mu);
  auto v0 = reference::initialField(test::toGrid(img), sigma, V0Mode::EdgeGradient);
  solver.step(iterations);
  CHECK(solver.iterations() == iterations);
  auto ref = reference::eulerIterate(v0, v0, mu, iterations);
  CHECK(test::maxAbsDiff(solver.readField().data, ref.values) < tol);
}

}  // namespace

TEST_CASE("Euler iterations match the reference on phantoms and random images") {
  compareIterations(makePhantom("u", 64), 1.0, 0.15, 1, 1e-5);
  compareIterations(makePhantom("u", 64), 1.0, 0.15, 60, 5e-5);
  compareIterations(makePhantom("room", 80), 0.0, 0.1, 60, 5e-5);
  compareIterations(makePhantom("blob", 72), 2.0, 0.2, 60, 5e-5);
  const int sizes[][2] = {{67, 45}, {200, 31}, {1, 1}, {2, 3}, {5, 1}, {33, 129}};
  std::uint32_t seed = 100;
  for (auto [w, h] : sizes) {
    CAPTURE(w);
    CAPTURE(h);
    compareIterations(test::randomImage(w, h, seed++), 1.0, 0.12, 25, 5e-5);
  }
}

TEST_CASE("the Euler kernel writes every pixel and follows the boundary rule (poisoned output)") {
  auto ctx = test::sharedContext();
  const int w = 45, h = 19;
  const std::size_t n = std::size_t(w) * h;
  auto v = test::toRef(Field2D(w, h));
  auto v0 = v;
  for (std::size_t i = 0; i < v.values.size(); ++i) {
    v.values[i] = std::sin(0.1 * i);
    v0.values[i] = 0.5 * std::cos(0.07 * i);
  }
  std::vector<float> vf(v.values.begin(), v.values.end()), v0f(v0.values.begin(), v0.values.end());
  std::vector<float> poison(2 * n, NAN);
  cl::Buffer bv(ctx->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 8, vf.data());
  cl::Buffer bv0(ctx->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 8, v0f.data());
  cl::Buffer out(ctx->context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 8, poison.data());
  cl::Kernel k = ctx->kernels().kernel("gvf_euler2d.cl", "gvf_euler_step");
  k.setArg(0, bv);
  k.setArg(1, bv0);
  k.setArg(2, out);
  k.setArg(3, w);
  k.setArg(4, h);
  k.setArg(5, 0.2f);
  ctx->queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(64, 24), cl::NDRange(16, 8));
  std::vector<float> res(2 * n);
  ctx->queue().enqueueReadBuffer(out, CL_TRUE, 0, n * 8, res.data());
  auto ref = reference::eulerStep(v, v0, 0.2);
  CHECK(test::maxAbsDiff(res, ref.values) < 1e-5);
  // Border pixel (0, 5): its left neighbour is read from x = 1 (mirror), not clamped.
  auto at = [&](int x, int y, int c) { return v.values[2 * (y * w + x) + c]; };
  double lap = 2 * at(1, 5, 0) + at(0, 4, 0) + at(0, 6, 0) - 4 * at(0, 5, 0);
  double s = v0.values[2 * (5 * w)] * v0.values[2 * (5 * w)] +
             v0.values[2 * (5 * w) + 1] * v0.values[2 * (5 * w) + 1];
  double expect = at(0, 5, 0) + 0.2 * lap - (at(0, 5, 0) - v0.values[2 * (5 * w)]) * s;
  CHECK(res[2 * (5 * w)] == doctest::Approx(expect).epsilon(1e-5));
}

TEST_CASE("the stability guard refuses mu beyond the bound, NaN and negatives") {
  auto ctx = test::sharedContext();
  GvfInput in = buildGvfInput(*ctx, makePhantom("u", 64), 1.0);
  const double bound = EulerSolver::stabilityBound(in.maxV0Squared);
  CHECK(bound > 0.1);
  CHECK(bound <= 0.25);
  CHECK_THROWS_WITH_AS(EulerSolver(ctx, in, bound + 0.01), doctest::Contains("stability bound"),
                       ParameterError);
  EulerSolver solver(ctx, in, bound);
  CHECK_THROWS_AS(solver.setMu(NAN), ParameterError);
  CHECK_THROWS_AS(solver.setMu(-0.1), ParameterError);
  CHECK_THROWS_AS(solver.setMu(bound * 1.5), ParameterError);
  CHECK(solver.mu() == bound);  // a refused value leaves the solver as it was
  // At the bound itself the iteration stays bounded.
  solver.step(300);
  auto f = solver.readField();
  double m = 0;
  for (float x : f.data) m = std::max(m, static_cast<double>(std::abs(x)));
  CHECK(m < 1.0);
}

TEST_CASE("reset returns to V0 and iterations to zero") {
  auto ctx = test::sharedContext();
  GvfInput in = buildGvfInput(*ctx, makePhantom("room", 48), 1.0);
  EulerSolver solver(ctx, in, 0.15);
  const auto v0 = readV0(*ctx, in).data;
  solver.step(7);
  CHECK(solver.readField().data != v0);
  solver.reset();
  CHECK(solver.iterations() == 0);
  CHECK(solver.readField().data == v0);
}

TEST_CASE("tiled launches (several steps per launch) equal single-step launches") {
  auto ctx = test::sharedContext();
  const int sizes[][2] = {{512, 64}, {67, 45}, {200, 31}, {1, 1}, {2, 3}, {57, 24}, {130, 90}};
  std::uint32_t seed = 300;
  for (auto [w, h] : sizes) {
    for (int iterations : {1, 3, 4, 9, 37}) {
      CAPTURE(w);
      CAPTURE(h);
      CAPTURE(iterations);
      Image2D img = test::randomImage(w, h, seed++);
      GvfInput in = buildGvfInput(*ctx, img, 1.0);
      EulerSolver single(ctx, in, 0.14,
                         {.precision = Precision::F32, .memory = MemoryKind::Buffer});
      EulerSolver tiled(ctx, in, 0.14, {.precision = Precision::F32, .memory = MemoryKind::Local});
      CHECK(tiled.memory() == MemoryKind::Local);
      single.step(iterations);
      tiled.step(iterations);
      CHECK(tiled.iterations() == iterations);
      auto a = single.readField().data, b = tiled.readField().data;
      double diff = 0;
      for (std::size_t i = 0; i < a.size(); ++i)
        diff = std::max(diff, static_cast<double>(std::abs(a[i] - b[i])));
      CHECK(diff <= 1e-6);  // same arithmetic; only FMA contraction may differ
      auto v0 = reference::initialField(test::toGrid(img), 1.0, V0Mode::EdgeGradient);
      CHECK(test::maxAbsDiff(b, reference::eulerIterate(v0, v0, 0.14, iterations).values) < 5e-5);
    }
  }
}

TEST_CASE("other tile shapes give the same field; impossible shapes are refused") {
  auto ctx = test::sharedContext();
  Image2D img = test::randomImage(150, 71, 77);
  GvfInput in = buildGvfInput(*ctx, img, 1.0);
  EulerSolver single(ctx, in, 0.14, {.precision = Precision::F32, .memory = MemoryKind::Buffer});
  single.step(19);
  const auto ref = single.readField().data;
  for (TileShape t : {TileShape{.width = 32, .height = 32, .rowsPerItem = 4, .halo = 4},
                      TileShape{.width = 64, .height = 32, .rowsPerItem = 8, .halo = 8},
                      TileShape{.width = 32, .height = 16, .rowsPerItem = 2, .halo = 2}}) {
    CAPTURE(t.width);
    CAPTURE(t.height);
    CAPTURE(t.halo);
    EulerSolver tiled(ctx, in, 0.14,
                      {.precision = Precision::F32, .memory = MemoryKind::Local, .tile = t});
    tiled.step(19);
    auto f = tiled.readField().data;
    double diff = 0;
    for (std::size_t i = 0; i < f.size(); ++i)
      diff = std::max(diff, static_cast<double>(std::abs(f[i] - ref[i])));
    CHECK(diff <= 1e-6);
  }
  CHECK_THROWS_AS(EulerSolver(ctx, in, 0.14,
                              {.memory = MemoryKind::Local,
                               .tile = {.width = 16, .height = 8, .rowsPerItem = 3, .halo = 4}}),
                  ParameterError);
  // More local memory than any device has.
  CHECK_THROWS_AS(
      EulerSolver(ctx, in, 0.14,
                  {.memory = MemoryKind::Local,
                   .tile = {.width = 1024, .height = 4096, .rowsPerItem = 4096, .halo = 8}}),
      ParameterError);
}

namespace {
// The one launch needs a device-wide fence gvflab knows only on NVIDIA GPUs and CPU devices
// (test_euler2d_wide.cpp's one-launch case is in the suite too).
bool fenceUnknown() {
  const DeviceInfo& info = test::sharedContext()->info();
  return info.isGpu && info.platformName.find("NVIDIA") == std::string::npos;
}
// Local-memory tiles of 64 x 64 with halo 8, one launch per phase or (persistent) for all.
EulerOptions tiles64(Precision p, std::optional<bool> persistent) {
  return {.precision = p,
          .memory = MemoryKind::Local,
          .tile = {.width = 64, .height = 64, .rowsPerItem = 4, .halo = 8},
          .persistent = persistent};
}
// The one launch on `in` is refused when asked for, and auto does not take it.
void checkOneLaunchRefused(const GvfInput& in) {
  auto ctx = test::sharedContext();
  CHECK_THROWS_AS(EulerSolver(ctx, in, 0.14, tiles64(Precision::F32, true)), ParameterError);
  CHECK_FALSE(EulerSolver(ctx, in, 0.14, tiles64(Precision::F32, std::nullopt)).persistent());
}
const test::SkipWhen noFence{"euler-one-launch", "a GPU other than NVIDIA's", fenceUnknown};
const test::SkipWhen noGiveUp{
    "euler-give-up", "no fence, or one compute unit: nothing gives up",
    [] { return fenceUnknown() || test::sharedContext()->info().computeUnits < 2; }};
const test::SkipWhen fence{"euler-no-fence", "NVIDIA GPUs and CPU devices have the fence",
                           [] { return !fenceUnknown(); }};
}  // namespace

TEST_CASE("one launch is refused where no device-wide fence is known, and never taken by default" *
          doctest::test_suite("euler-no-fence")) {
  checkOneLaunchRefused(buildGvfInput(*test::sharedContext(), test::randomImage(40, 37, 1), 1.0));
}

// The one-launch path needs all tiles running at once. On GPUs the test uses grids of several
// tiles; on a CPU device (PoCL, 2 compute units here) grids of one or two tiles, where the two
// may still not run at once: then the kernel gives up waiting and the solver must redo the
// iterations launch by launch, which the equality checks as well. Both paths run the same
// tile steps (gvf_euler2d_tiled.cl), so the fields must be equal to the bit; per-launch tiles
// against single steps are checked above.
TEST_CASE("one launch for all iterations (persistent tiles) equals one launch per phase" *
          doctest::test_suite("euler-one-launch")) {
  auto ctx = test::sharedContext();
  const int units = ctx->info().computeUnits;
  std::vector<std::array<int, 2>> sizes = {{40, 37}, {1, 1}, {48, 20}};
  if (units >= 2) sizes.push_back({96, 45});  // two 64x64 tiles of halo 8 side by side
  if (units >= 16) {
    sizes.push_back({190, 150});  // 4 x 4 tiles
    sizes.push_back({100, 7});
  }
  if (units >= 121) sizes.push_back({512, 512});  // 11 x 11 tiles, the benchmark's grid
  std::uint32_t seed = 900;
  for (auto [w, h] : sizes) {
    Image2D img = test::randomImage(w, h, seed++);
    GvfInput in = buildGvfInput(*ctx, img, 1.0);
    for (Precision p : {Precision::F32, Precision::F16, Precision::SNorm16}) {
      EulerSolver launches(ctx, in, 0.14, tiles64(p, false));
      EulerSolver one(ctx, in, 0.14, tiles64(p, true));
      REQUIRE(one.persistent());
      for (int n : {1, 8, 9, 30, 3}) {  // phases of 8 with a shorter last one; several calls
        CAPTURE(w);
        CAPTURE(h);
        CAPTURE(n);
        CAPTURE(std::string(precisionName(p)));
        launches.step(n);
        one.step(n);
        CHECK(one.iterations() == launches.iterations());
        CHECK(one.readField().data == launches.readField().data);
      }
      if (!one.persistent()) MESSAGE("fell back: " << one.note());
      // And against the double-precision reference (51 iterations; tolerance as for the
      // per-launch tiles in float32 above).
      if (p == Precision::F32) {
        auto v0 = reference::initialField(test::toGrid(img), 1.0, V0Mode::EdgeGradient);
        CHECK(test::maxAbsDiff(one.readField().data,
                               reference::eulerIterate(v0, v0, 0.14, 51).values) < 5e-5);
      }
    }
  }
  // More tiles than compute units cannot all run at once: refused when asked for, and auto
  // does not take it.
  const int side = 48 * (units + 1);
  GvfInput big = buildGvfInput(*ctx, test::randomImage(side, 40, 5), 1.0);
  checkOneLaunchRefused(big);
  GvfInput small = buildGvfInput(*ctx, test::randomImage(30, 30, 6), 1.0);
  CHECK_FALSE(EulerSolver(ctx, small, 0.14, tiles64(Precision::F32, false)).persistent());
}

// A wait that gives up at once stands for tiles that do not all run: the solver notices when
// the field is read and redoes the iterations launch by launch. (With as many tiles as a GPU
// runs at once, five phases make it all but certain that some group gives up: with 4 tiles
// on an H200 all of them once arrived before any looked.)
TEST_CASE("one launch redoes its iterations launch by launch when its wait gives up" *
          doctest::test_suite("euler-give-up")) {
  auto ctx = test::sharedContext();
  const int units = ctx->info().computeUnits;
  const int side = units >= 121 ? 512 : 96, height = units >= 121 ? 512 : 45;
  GvfInput in = buildGvfInput(*ctx, test::randomImage(side, height, 3), 1.0);
  EulerSolver launches(ctx, in, 0.14, tiles64(Precision::F16, false));
  const int saved = detail::persistentSpinLimit;
  detail::persistentSpinLimit = 0;
  EulerSolver one(ctx, in, 0.14, tiles64(Precision::F16, true));
  detail::persistentSpinLimit = saved;
  launches.step(41);
  one.step(41);
  CHECK(one.readField().data == launches.readField().data);
  CHECK_FALSE(one.persistent());
  CHECK(one.note().find("did not run all tiles at once") != std::string::npos);
  CHECK(one.iterations() == 41);
  one.step(5);  // goes on launch by launch
  launches.step(5);
  CHECK(one.readField().data == launches.readField().data);
}
