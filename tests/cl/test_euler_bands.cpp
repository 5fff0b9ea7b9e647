// CPUs, 2D buffers: gvf_euler_band (EulerOptions::cpuBandSteps, several iterations per pass over
// bands of 16 rows) must give exactly the floats of gvf_euler_rows (one iteration a launch), in
// every storage, for grids that are not multiples of the band (and lower than one band), and
// iteration counts that are not multiples of the steps per pass.
#include <doctest/doctest.h>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/phantoms.hpp"
#include "test_skip.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {
const test::SkipWhen onGpu{"euler-bands", "the band kernel is the CPU path: not on a GPU",
                           [] { return test::sharedContext()->info().isGpu; }};
}  // namespace

TEST_CASE("Euler row bands of several steps equal one step per launch, bit for bit" *
          doctest::test_suite("euler-bands")) {
  auto ctx = test::sharedContext();
  const Image2D images[] = {test::randomImage(37, 29, 3), test::randomImage(61, 7, 4),
                            test::randomImage(5, 40, 6),  test::randomImage(23, 1, 7),
                            test::randomImage(1, 19, 8),  makePhantom("u", 48)};
  const Precision precisions[] = {Precision::F32, Precision::F16, Precision::SNorm16};
  for (const Image2D& img : images) {
    GvfInput in = buildGvfInput(*ctx, img, 1.0);
    for (Precision p : precisions) {
      EulerSolver rows(ctx, in, 0.15, {p, MemoryKind::Buffer});
      rows.step(7);
      const auto want = rows.readField().data;
      rows.step(5);
      const auto want12 = rows.readField().data;
      for (int k : {1, 2, 3, 4, 9}) {
        INFO("size " << img.width << "x" << img.height << ", " << precisionName(p) << ", " << k
                     << " steps per pass");
        EulerOptions o{p, MemoryKind::Buffer};
        o.cpuBandSteps = k;
        EulerSolver bands(ctx, in, 0.15, o);
        bands.step(7);
        CHECK(bands.readField().data == want);
        bands.step(5);
        CHECK(bands.readField().data == want12);
        CHECK(bands.iterations() == 12);
        CHECK(bands.deviceBytes() > rows.deviceBytes());  // the scratch counts too
      }
    }
  }
}

TEST_CASE("Euler row bands match the double reference") {
  auto ctx = test::sharedContext();
  Image2D img = test::randomImage(45, 37, 12);
  GvfInput in = buildGvfInput(*ctx, img, 1.0);
  auto v0 = reference::initialField(test::toGrid(img), 1.0, V0Mode::EdgeGradient);
  auto ref = reference::eulerIterate(v0, v0, 0.15, 11);
  EulerOptions o{Precision::F32, MemoryKind::Buffer};
  o.cpuBandSteps = 4;
  EulerSolver s(ctx, in, 0.15, o);
  s.step(11);
  CHECK(test::maxAbsDiff(s.readField().data, ref.values) < 5e-5);
}

TEST_CASE("Euler row bands refuse more than 64 steps per pass" *
          doctest::test_suite("euler-bands")) {
  auto ctx = test::sharedContext();
  GvfInput in = buildGvfInput(*ctx, test::randomImage(9, 9, 1), 1.0);
  EulerOptions o{Precision::F32, MemoryKind::Buffer};
  o.cpuBandSteps = 65;
  CHECK_THROWS_AS(EulerSolver(ctx, in, 0.15, o), ParameterError);
}
