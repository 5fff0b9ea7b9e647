// The region snake's double reference against brute force: contour sums equal mask sums, the
// crossing rules, insertion, and a full run on a small noisy star.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "gvflab/error.hpp"
#include "gvflab/region_phantom.hpp"
#include "gvflab/region_reference.hpp"
#include "region_test_support.hpp"

using namespace gvflab;
namespace ref = gvflab::reference;
using gvflab::test::randomStar;
using gvflab::test::randomZ;

namespace {

RegionSums maskSums(const std::vector<std::uint16_t>& z, const std::vector<std::uint8_t>& mask) {
  RegionSums s;
  for (std::size_t i = 0; i < z.size(); ++i)
    if (mask[i]) s.n += 1, s.s1 += z[i], s.s2 += std::int64_t(z[i]) * z[i];
  return s;
}

}  // namespace

TEST_CASE("prefix reference: last column is the row sum, exact at the 16-bit maximum") {
  // The widest row the engine accepts, all at 65535: Σz still fits 32 bits.
  std::vector<std::uint16_t> z(65536, 65535);
  auto p = ref::regionPrefix(z.data(), 65536, 1);
  CHECK(p.cz.back() == 65536u * 65535u);
  CHECK(p.cz2.back() == 65536ull * 65535ull * 65535ull);
  CHECK(p.total.n == 65536);
  CHECK(p.total.s1 == 65536ll * 65535);
}

TEST_CASE("contour sums equal the sums over the inside mask") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 30; ++trial) {
    const int w = 20 + trial * 3, h = 15 + trial * 2;
    auto z = randomZ(w, h, trial);
    auto p = ref::regionPrefix(z.data(), w, h);
    auto poly = randomStar(w, h, 4 + trial % 9, rng);
    if (trial % 2) std::reverse(poly.begin(), poly.end());  // both orientations
    CAPTURE(trial);
    REQUIRE(ref::polygonIsSimple(poly));
    const RegionSums contour = ref::polygonSums(p, poly);
    const RegionSums mask = maskSums(z, ref::polygonMask(w, h, poly));
    CHECK(contour.n == mask.n);
    CHECK(contour.s1 == mask.s1);
    CHECK(contour.s2 == mask.s2);
    CHECK(contour.n > 0);
  }
}

TEST_CASE("the default rectangle holds (w-1)(h-1) pixels of the half-open rule") {
  auto rect = initialRectangle(64, 48, 10, 5, 20, 30);
  std::vector<std::uint16_t> z(64 * 48, 1);
  auto p = ref::regionPrefix(z.data(), 64, 48);
  CHECK(ref::polygonSums(p, rect).n == 19 * 29);
  CHECK(ref::polygonOrientation(rect) == 1);
  CHECK_THROWS_AS(initialRectangle(64, 48, 70, 5, 20, 30), ParameterError);
}

TEST_CASE("crossing rules") {
  CHECK(ref::segmentsIntersect({0, 0}, {10, 10}, {0, 10}, {10, 0}));
  CHECK(ref::segmentsIntersect({0, 0}, {10, 0}, {5, 0}, {5, 5}));  // touching counts
  CHECK_FALSE(ref::segmentsIntersect({0, 0}, {10, 0}, {0, 1}, {10, 1}));
  CHECK(ref::sharedEndOverlap({0, 0}, {5, 0}, {9, 0}));
  CHECK_FALSE(ref::sharedEndOverlap({0, 0}, {5, 0}, {-9, 0}));
  // A U whose right arm sits 4 px from the left one: moving the right arm's inner top node
  // 8 px to the left would cross the left arm.
  std::vector<Point2i> u = {{10, 10}, {50, 10}, {50, 50}, {32, 50},
                            {32, 20}, {28, 20}, {28, 50}, {10, 50}};
  REQUIRE(ref::polygonIsSimple(u));
  CHECK_FALSE(ref::moveKeepsSimple(u, 4, {24, 20}));
  CHECK_FALSE(ref::moveKeepsSimple(u, 4, {28, 20}));  // onto its neighbour
  CHECK(ref::moveKeepsSimple(u, 4, {36, 20}));
  CHECK(ref::moveKeepsSimple(u, 1, {58, 2}));
}

TEST_CASE("insertion puts midpoints into long segments only") {
  std::vector<Point2i> s = {{0, 0}, {40, 0}, {40, 10}, {0, 10}};
  CHECK(ref::insertNodes(s, 16) == 2);
  REQUIRE(s.size() == 6);
  CHECK(s[1] == Point2i{20, 0});
  CHECK(s[4] == Point2i{20, 10});
  CHECK(ref::insertNodes(s, 100) == 0);
}

TEST_CASE("the reference run segments a noisy star") {
  RegionPhantomSpec spec;
  spec.width = spec.height = 96;
  spec.snr = 4;
  auto z = makeRegionPhantom(spec);
  auto p = ref::regionPrefix(z.data(), spec.width, spec.height);
  RegionSnakeParams params;
  params.dMax = 8;
  params.minSegment = 10;
  auto run = ref::runRegionSnake(p, initialRectangle(96, 96), params);
  CHECK(run.stats.converged);
  CHECK(ref::polygonIsSimple(run.nodes));
  const double iou = regionPhantomIoU(spec, run.nodes);
  MESSAGE("reference IoU at SNR 4, 96x96: " << iou << ", nodes " << run.nodes.size());
  CHECK(iou >= 0.9);
}
