// Edge map f and V0 on the device against the double reference.
// Tolerance: 2e-5 absolute on f (values in [0, 1]) and on V0 (|V0| <= 0.71): float32 rounding
// of a blur with up to 2*ceil(3σ)+1 taps and one normalisation stays far below that.
#include <doctest/doctest.h>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/phantoms.hpp"
#include "test_support.hpp"

using namespace gvflab;

namespace {
constexpr double kTol = 2e-5;

void compareWithReference(const Image2D& img, double sigma, V0Mode mode) {
  auto ctx = test::sharedContext();
  GvfInput in = buildGvfInput(*ctx, img, sigma, mode);
  auto ref = test::toGrid(img);
  auto fRef = reference::edgeMap(ref, sigma);
  auto v0Ref = reference::initialField(ref, sigma, mode);
  CHECK(test::maxAbsDiff(readEdgeMap(*ctx, in).pixels, fRef.values) < kTol);
  CHECK(test::maxAbsDiff(readV0(*ctx, in).data, v0Ref.values) < kTol);
  double maxS = 0;
  for (std::size_t i = 0; i < v0Ref.values.size(); i += 2)
    maxS = std::max(maxS,
                    v0Ref.values[i] * v0Ref.values[i] + v0Ref.values[i + 1] * v0Ref.values[i + 1]);
  CHECK(in.maxV0Squared == doctest::Approx(maxS).epsilon(1e-4));
}
}  // namespace

TEST_CASE("edge map and V0 match the reference on phantoms") {
  for (const auto& name : phantomNames())
    for (double sigma : {0.0, 1.0, 2.5}) {
      CAPTURE(name);
      CAPTURE(sigma);
      compareWithReference(makePhantom(name, 96), sigma, V0Mode::EdgeGradient);
    }
}

TEST_CASE("edge map and V0 match the reference on random images of awkward sizes") {
  // Sizes that are not multiples of any work-group shape, and degenerate ones.
  const int sizes[][2] = {{67, 45}, {200, 31}, {1, 1}, {3, 2}, {1, 17}, {129, 130}};
  std::uint32_t seed = 1;
  for (auto [w, h] : sizes)
    for (double sigma : {0.0, 1.5}) {
      CAPTURE(w);
      CAPTURE(h);
      CAPTURE(sigma);
      compareWithReference(test::randomImage(w, h, seed++), sigma, V0Mode::EdgeGradient);
      compareWithReference(test::randomImage(w, h, seed++), sigma, V0Mode::ImageGradient);
    }
}

TEST_CASE("gradient_field kernel writes every pixel (outputs poisoned first)") {
  auto ctx = test::sharedContext();
  Image2D img = test::randomImage(37, 23, 9);
  const std::size_t n = img.size();
  cl::Buffer g(ctx->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, img.pixels.data());
  std::vector<float> poison(2 * n, NAN);
  cl::Buffer v0(ctx->context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 8, poison.data());
  cl::Buffer s(ctx->context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, poison.data());
  cl::Kernel k = ctx->kernels().kernel("edge_map.cl", "gradient_field");
  k.setArg(0, g);
  k.setArg(1, v0);
  k.setArg(2, s);
  k.setArg(3, img.width);
  k.setArg(4, img.height);
  ctx->queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(64, 32), cl::NDRange(16, 8));
  std::vector<float> out(2 * n);
  ctx->queue().enqueueReadBuffer(v0, CL_TRUE, 0, n * 8, out.data());
  auto ref = reference::gradient(test::toGrid(img));
  CHECK(test::maxAbsDiff(out, ref.values) < 1e-6);
}

TEST_CASE("bad images are refused with a sentence") {
  auto ctx = test::sharedContext();
  CHECK_THROWS_WITH_AS(buildGvfInput(*ctx, Image2D(), 1.0), doctest::Contains("empty"), InputError);
  Image2D nan(4, 4, 0.5f);
  nan.at(1, 2) = NAN;
  CHECK_THROWS_WITH_AS(buildGvfInput(*ctx, nan, 1.0), doctest::Contains("NaN"), InputError);
  CHECK_THROWS_AS(buildGvfInput(*ctx, Image2D(8, 8), -1.0), ParameterError);
  Image2D huge;
  huge.width = 20000;
  huge.height = 2;
  huge.pixels.assign(40000, 0.0f);
  CHECK_THROWS_WITH_AS(buildGvfInput(*ctx, huge, 1.0), doctest::Contains("16384"), InputError);
}
