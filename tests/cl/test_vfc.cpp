// VFC on the device against the double reference.
// Tolerance: 1e-5 of Σ|m| over the kernel's taps, the largest |V| any f in [0, 1] can give:
// float32 sums over up to a few thousand taps in another order than the reference's.
#include <doctest/doctest.h>

#include "cl/force_support.hpp"
#include "gvflab/error.hpp"
#include "gvflab/force_reference.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/vfc_field.hpp"
#include "test_support.hpp"
#include "volume_support.hpp"

using namespace gvflab;

namespace {

double tapMagnitudeSum(const VfcTaps& taps) {
  double sum = 0;
  for (std::size_t t = 0; t < taps.count(); ++t) {
    double s = 0;
    for (int a = 0; a < taps.dims; ++a) s += std::pow(taps.vectors[taps.dims * t + a], 2);
    sum += std::sqrt(s);
  }
  return sum;
}

void compareWithReference(const GvfInput& in, const VfcParams& params) {
  auto ctx = test::sharedContext();
  const cl::Buffer field = vfcField(*ctx, in, params);
  const auto ref = reference::vfcField(test::edgeGridOf(*ctx, in), params);
  const auto got = test::readFloats(*ctx, field, in.pixelCount() * in.dims());
  const double scale = tapMagnitudeSum(vfcTaps(params, in.dims(), in.spacing));
  CHECK(test::maxAbsDiff(got, ref.values) < 1e-5 * scale);
  CHECK(test::maxAbs(ref.values) > 1e-3 * scale);  // not a comparison of zeros
}

VfcParams power(int radius, double gamma) { return {VfcKernel::Power, radius, gamma, 8.0}; }
VfcParams gaussian(int radius, double zeta) { return {VfcKernel::Gaussian, radius, 1.7, zeta}; }

}  // namespace

TEST_CASE("VFC matches the reference on phantoms and random images, both kernels") {
  auto ctx = test::sharedContext();
  for (const auto& name : phantomNames()) {
    CAPTURE(name);
    const GvfInput in = buildGvfInput(*ctx, makePhantom(name, 64), 1.0);
    compareWithReference(in, power(16, 1.7));
    compareWithReference(in, gaussian(12, 5.0));
  }
  const int sizes[][2] = {{37, 23}, {67, 45}, {1, 17}, {3, 2}};
  std::uint32_t seed = 11;
  for (auto [w, h] : sizes) {
    CAPTURE(w);
    CAPTURE(h);
    const GvfInput in = buildGvfInput(*ctx, test::randomImage(w, h, seed++), 1.0);
    compareWithReference(in, power(7, 2.4));
    compareWithReference(in, gaussian(5, 2.0));
  }
  compareWithReference(buildGvfInput(*ctx, test::randomImage(31, 26, 4), 1.0, V0Mode::EdgeGradient,
                                     GridSpacing{0.7, 1.6, 1.0}),
                       power(6, 1.5));
}

TEST_CASE("VFC matches the reference in 3D, with a spacing") {
  auto ctx = test::sharedContext();
  compareWithReference(buildGvfInput(*ctx, test::ballVolumeOf(15, 12, 11), 1.0), power(4, 1.7));
  compareWithReference(buildGvfInput(*ctx, test::randomVolumeOf(11, 9, 7, 2), 1.0,
                                     V0Mode::EdgeGradient, GridSpacing{1.0, 1.0, 2.0}),
                       gaussian(3, 2.0));
}

TEST_CASE("VFC's taps are the disc's (ball's) lattice points but the centre") {
  auto count = [](int r, int dims) { return vfcTaps(power(r, 1.7), dims, {1, 1, 1}).count(); };
  CHECK(count(1, 2) == 4);
  CHECK(count(2, 2) == 12);
  CHECK(count(1, 3) == 6);
  CHECK(count(2, 3) == 32);
  // Each tap points from the centre to its offset (k(−o) of a kernel that points inwards).
  const VfcTaps t = vfcTaps(gaussian(1, 1.0), 2, {1, 1, 1});
  for (std::size_t i = 0; i < t.count(); ++i)
    for (int a = 0; a < 2; ++a)
      CHECK(t.vectors[2 * i + a] == doctest::Approx(std::exp(-1.0) * t.offsets[2 * i + a]));
}

TEST_CASE("VFC refuses parameters outside its table with a sentence") {
  auto ctx = test::sharedContext();
  const GvfInput in = buildGvfInput(*ctx, test::randomImage(20, 20, 1), 1.0);
  CHECK_THROWS_WITH_AS(vfcField(*ctx, in, power(0, 1.7)), doctest::Contains("VFC radius"),
                       ParameterError);
  CHECK_THROWS_WITH_AS(vfcField(*ctx, in, power(8, 9.0)), doctest::Contains("VFC gamma"),
                       ParameterError);
  CHECK_THROWS_AS(vfcField(*ctx, in, gaussian(8, NAN)), ParameterError);
  const GvfInput vol = buildGvfInput(*ctx, test::randomVolumeOf(8, 8, 8, 1), 1.0);
  CHECK_THROWS_WITH_AS(vfcField(*ctx, vol, power(20, 1.7)), doctest::Contains("for a volume"),
                       ParameterError);
  CHECK(parseVfcKernel("gaussian", "K") == VfcKernel::Gaussian);
  CHECK(parseVfcKernel(vfcKernelName(VfcKernel::Power), "K") == VfcKernel::Power);
  CHECK_THROWS_WITH_AS(parseVfcKernel("box", "K"), "K must be power or gaussian, not 'box'.",
                       ParameterError);
}
