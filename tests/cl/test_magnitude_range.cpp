// The smallest and largest |V| of a field, reduced on the device (the viewer's legend), against
// the double reference. Tolerance 1e-6 relative: each |V|^2 is one float product sum, its root
// taken on the host; min and max themselves are exact.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "cl/cl_fixture.hpp"
#include "gvflab/magnitude_range.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {

cl::Buffer upload(ComputeContext& ctx, const Field2D& v) {
  return cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    v.data.size() * sizeof(float), const_cast<float*>(v.data.data()));
}

Field2D randomField(int w, int h, std::uint32_t seed) {
  Field2D v(w, h);
  Image2D noise = test::randomImage(2 * w, h, seed);
  for (std::size_t i = 0; i < v.data.size(); ++i) v.data[i] = 3.0f * (noise.pixels[i] - 0.5f);
  return v;
}

}  // namespace

TEST_CASE("the device's |V| range matches the reference on fields of awkward sizes") {
  auto ctx = test::sharedContext();
  MagnitudeRangeReduction reduction(ctx->context(), ctx->device());
  // One vector, fewer than a group, odd sizes, and more vectors than the first pass's threads
  // (1024 groups of 256), so its loop runs more than once.
  const int sizes[][2] = {{1, 1}, {17, 3}, {301, 217}, {700, 500}};
  std::uint32_t seed = 11;
  for (auto [w, h] : sizes) {
    CAPTURE(w);
    CAPTURE(h);
    Field2D v = randomField(w, h, seed++);
    if (v.pixelCount() > 100) {  // a zero vector and a long one away from the ends
      v.data[2 * 57] = v.data[2 * 57 + 1] = 0.0f;
      v.data[2 * (v.pixelCount() - 31)] = -7.5f;
    }
    const MagnitudeRange dev = reduction.compute(ctx->queue(), upload(*ctx, v), v.pixelCount());
    const reference::MagnitudeRangeD ref = reference::magnitudeRange(test::toRef(v));
    CHECK(dev.min == doctest::Approx(ref.min).epsilon(1e-6));
    CHECK(dev.max == doctest::Approx(ref.max).epsilon(1e-6));
    CHECK(dev.min <= dev.max);
  }
}

TEST_CASE("the |V| range skips NaN and has no scale without a finite maximum") {
  auto ctx = test::sharedContext();
  MagnitudeRangeReduction reduction(ctx->context(), ctx->device());
  Field2D v = randomField(40, 30, 5);
  v.data[2 * 100] = std::numeric_limits<float>::quiet_NaN();
  const reference::MagnitudeRangeD ref = reference::magnitudeRange(test::toRef(v));
  MagnitudeRange dev = reduction.compute(ctx->queue(), upload(*ctx, v), v.pixelCount());
  CHECK(std::isfinite(ref.max));
  CHECK(dev.min == doctest::Approx(ref.min).epsilon(1e-6));
  CHECK(dev.max == doctest::Approx(ref.max).epsilon(1e-6));

  v.data[2 * 200 + 1] = std::numeric_limits<float>::infinity();
  dev = reduction.compute(ctx->queue(), upload(*ctx, v), v.pixelCount());
  CHECK(dev.min == 0.0f);  // as the viewer's host pass did: no finite range, no scale
  CHECK(dev.max == 0.0f);

  Field2D zero(8, 8);
  dev = reduction.compute(ctx->queue(), upload(*ctx, zero), zero.pixelCount());
  CHECK(dev.min == 0.0f);
  CHECK(dev.max == 0.0f);
}
