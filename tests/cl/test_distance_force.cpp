// The distance transform and the distance force on the device against the brute-force double
// reference. d² is exact up to float rounding (1e-5 relative); the force is compared where the
// reference's |∇d| > 1e-3 (a direction defined well away from the medial axis) to 1e-4, and
// elsewhere it must be 0 or a unit vector.
#include <doctest/doctest.h>

#include <array>

#include "cl/force_support.hpp"
#include "gvflab/distance_force.hpp"
#include "gvflab/error.hpp"
#include "gvflab/force_reference.hpp"
#include "gvflab/phantoms.hpp"
#include "test_support.hpp"
#include "volume_support.hpp"

using namespace gvflab;

namespace {

// |∇d| of the reference before normalising: near 0 at ties (the medial axis, one-sample edges),
// where float and double may pick different sides.
double rawGradientNorm(const reference::Grid& d2, std::array<int, 3> p) {
  double s = 0;
  for (int a = 0; a < d2.dims(); ++a) {
    auto at = [&](int by) {
      std::array<int, 3> q = p;
      q[a] = reference::reflect(q[a] + by, a == 0 ? d2.width : a == 1 ? d2.height : d2.depth);
      return std::sqrt(
          d2.values[(static_cast<std::size_t>(q[2]) * d2.height + q[1]) * d2.width + q[0]]);
    };
    s += std::pow(0.5 * (at(1) - at(-1)) / d2.spacing[a], 2);
  }
  return std::isfinite(s) ? std::sqrt(s) : 0.0;
}

void compareWithReference(const GvfInput& in, double threshold) {
  auto ctx = test::sharedContext();
  const auto f = test::edgeGridOf(*ctx, in);
  const auto d2 = test::readFloats(*ctx, distanceSquared(*ctx, in, {threshold}), in.pixelCount());
  const auto d2Ref = reference::distanceSquared(f, threshold);
  double worst = 0;
  for (std::size_t i = 0; i < d2.size(); ++i) {
    if (std::isinf(d2Ref.values[i])) {
      CHECK(std::isinf(d2[i]));
      continue;
    }
    worst = std::max(worst, std::abs(d2[i] - d2Ref.values[i]) / (1.0 + d2Ref.values[i]));
  }
  CHECK(worst < 1e-5);

  const int dims = in.dims();
  const auto force =
      test::readFloats(*ctx, distanceForce(*ctx, in, {threshold}), in.pixelCount() * dims);
  const auto ref = reference::distanceForce(f, threshold);
  long compared = 0;
  for (int z = 0; z < in.depth; ++z)
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x) {
        const std::size_t i = (static_cast<std::size_t>(z) * in.height + y) * in.width + x;
        double norm = 0, diff = 0;
        for (int a = 0; a < dims; ++a) {
          norm += std::pow(force[dims * i + a], 2);
          diff = std::max(diff, std::abs(force[dims * i + a] - ref.values[dims * i + a]));
        }
        CHECK((norm == 0 || std::abs(norm - 1) < 1e-5));
        if (rawGradientNorm(d2Ref, {x, y, z}) > 1e-3) {
          CHECK(diff < 1e-4);
          ++compared;
        }
      }
  CHECK((compared > 0 || in.pixelCount() < 16));  // tiny grids may hold only ties
}

}  // namespace

TEST_CASE("the distance transform and force match the brute-force reference on phantoms") {
  auto ctx = test::sharedContext();
  for (const auto& name : phantomNames())
    for (double threshold : {0.3, 0.7}) {
      CAPTURE(name);
      CAPTURE(threshold);
      compareWithReference(buildGvfInput(*ctx, makePhantom(name, 64), 1.0), threshold);
    }
}

TEST_CASE("the distance transform matches on random images, awkward sizes and a spacing") {
  auto ctx = test::sharedContext();
  const int sizes[][2] = {{37, 23}, {67, 45}, {1, 17}, {3, 2}, {50, 1}};
  std::uint32_t seed = 21;
  for (auto [w, h] : sizes) {
    CAPTURE(w);
    CAPTURE(h);
    compareWithReference(buildGvfInput(*ctx, test::randomImage(w, h, seed++), 2.0), 0.8);
  }
  compareWithReference(buildGvfInput(*ctx, makePhantom("u", 40), 1.0, V0Mode::EdgeGradient,
                                     GridSpacing{0.7, 1.3, 1.0}),
                       0.5);
}

TEST_CASE("the distance transform matches in 3D, with a spacing") {
  auto ctx = test::sharedContext();
  compareWithReference(buildGvfInput(*ctx, test::ballVolumeOf(15, 13, 11), 1.0), 0.5);
  compareWithReference(buildGvfInput(*ctx, test::ballVolumeOf(12, 14, 9), 1.0, V0Mode::EdgeGradient,
                                     GridSpacing{1.0, 0.8, 2.0}),
                       0.5);
}

TEST_CASE("without an edge point the distance is infinite and the force zero") {
  auto ctx = test::sharedContext();
  const GvfInput in = buildGvfInput(*ctx, Image2D(19, 13, 0.5f), 1.0);
  for (float d : test::readFloats(*ctx, distanceSquared(*ctx, in, {0.3}), in.pixelCount()))
    CHECK(std::isinf(d));
  for (float v : test::readFloats(*ctx, distanceForce(*ctx, in, {0.3}), 2 * in.pixelCount()))
    CHECK(v == 0.0f);
  CHECK_THROWS_WITH_AS(distanceForce(*ctx, in, {1.5}), doctest::Contains("distance threshold"),
                       ParameterError);
}
