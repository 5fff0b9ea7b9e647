// ε (multigrid paper, eq. 9) reduced on the device against the double reference.
// Tolerance: 1e-4 relative; the float sum over up to 2^16 pixels is a tree, not a running sum.
#include <doctest/doctest.h>

#include "cl/cl_fixture.hpp"
#include "gvflab/error_metric.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/phantoms.hpp"
#include "test_support.hpp"

using namespace gvflab;

TEST_CASE("device error matches the reference on random fields of awkward sizes") {
  auto ctx = test::sharedContext();
  const int sizes[][2] = {{1, 1}, {17, 3}, {67, 45}, {256, 255}, {300, 7}};
  std::uint32_t seed = 7;
  for (auto [w, h] : sizes) {
    CAPTURE(w);
    CAPTURE(h);
    GvfInput in = buildGvfInput(*ctx, test::randomImage(w, h, seed++), 1.0);
    Field2D v(w, h);
    Image2D noise = test::randomImage(2 * w, h, seed++);
    for (std::size_t i = 0; i < v.data.size(); ++i) v.data[i] = noise.pixels[i] - 0.5f;
    cl::Buffer bv(ctx->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.data.size() * 4,
                  v.data.data());
    ErrorMetric metric(ctx, in);
    double dev = metric.compute(bv, 0.17);
    double ref = reference::gvfError(test::toRef(v), test::toRef(readV0(*ctx, in)), 0.17);
    CHECK(dev == doctest::Approx(ref).epsilon(1e-4));
  }
}

TEST_CASE("error falls as Euler iterates and matches the reference along the way") {
  auto ctx = test::sharedContext();
  Image2D img = makePhantom("u", 64);
  EulerSolver solver(ctx, buildGvfInput(*ctx, img, 1.0), 0.15);
  auto v0 = reference::initialField(test::toGrid(img), 1.0, V0Mode::EdgeGradient);
  double previous = solver.error();
  CHECK(previous == doctest::Approx(reference::gvfError(v0, v0, 0.15)).epsilon(1e-4));
  for (int k = 0; k < 4; ++k) {
    solver.step(50);
    double e = solver.error();
    CHECK(e < previous);
    previous = e;
  }
  auto ref = reference::eulerIterate(v0, v0, 0.15, 200);
  CHECK(previous == doctest::Approx(reference::gvfError(ref, v0, 0.15)).epsilon(1e-3));
}
