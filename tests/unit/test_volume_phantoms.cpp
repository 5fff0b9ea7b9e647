#include <doctest/doctest.h>

#include <cmath>

#include "gvflab/error.hpp"
#include "gvflab/volume_phantoms.hpp"

using namespace gvflab;

namespace {

constexpr double kPi = 3.14159265358979323846;

double total(const Volume& v) {
  double s = 0;
  for (float x : v.voxels) s += x;
  return s;
}

}  // namespace

TEST_CASE("cup phantom: a solid cylinder with a deep narrow well open towards high z") {
  const int n = 64;
  Volume cup = makeVolumePhantom("cup", n);
  REQUIRE(cup.width == n);
  REQUIRE(cup.height == n);
  REQUIRE(cup.depth == n);
  for (float v : cup.voxels) REQUIRE((v >= 0 && v <= 1));
  // Voxel 32 is centred on 32.5, beside the axis at 32.
  for (int k = 22; k < n; ++k) CHECK(cup.at(32, 32, k) == 0.0f);    // the well and above it
  for (int k = 13; k <= 18; ++k) CHECK(cup.at(32, 32, k) == 1.0f);  // its floor
  CHECK(cup.at(32, 32, 9) == 0.0f);                                 // below the cup
  for (int k = 13; k <= 50; ++k) {
    CHECK(cup.at(45, 32, k) == 1.0f);  // the wall, 13.5 from the axis
    CHECK(cup.at(32, 19, k) == 1.0f);
    // 4.5 from the axis: the floor up to z = 20.48 (voxel 20 straddles it), then the well.
    if (k != 20) CHECK(cup.at(32, 36, k) == (k < 20 ? 1.0f : 0.0f));
  }
  CHECK(cup.at(32, 40, 30) == 1.0f);  // 8.5 from the axis: the wall
  CHECK(cup.at(55, 32, 30) == 0.0f);  // outside, 23.5 from the axis
  CHECK(cup.at(45, 32, 55) == 0.0f);  // above the rim
  // The well is about 13 voxels wide: along x at mid depth, from 26 to 38.
  int wide = 0;
  for (int i = 0; i < n; ++i) wide += cup.at(i, 32, 36) < 0.5f;
  CHECK(wide == n - 41 + 13);  // outside both sides (64 - 41) plus the well
  // Its volume: the cylinder less the well, within the ramped edges' error.
  double s = n;
  double expected = kPi * std::pow(kCupRadius * s, 2) * (kCupTop - kCupBottom) * s -
                    kPi * std::pow(kCupWellRadius * s, 2) * kCupWellDepth * s;
  CHECK(total(cup) == doctest::Approx(expected).epsilon(0.01));
  long partial = 0;
  for (float v : cup.voxels) partial += v > 0 && v < 1;
  CHECK(partial > 0);  // smoothed edges
}

TEST_CASE("sphere phantom: a ball of radius 0.3 size at the centre") {
  Volume ball = makeVolumePhantom("sphere", 40);
  CHECK(ball.at(20, 20, 20) == 1.0f);
  CHECK(ball.at(0, 0, 0) == 0.0f);
  CHECK(ball.at(20, 20, 30) == 1.0f);  // centred 10.52 from the centre: inside the 12 radius
  CHECK(ball.at(20, 20, 31) > 0.9f);   // 11.52: on the ramp
  CHECK(ball.at(20, 20, 31) < 1.0f);
  CHECK(ball.at(20, 20, 32) == 0.0f);  // 12.52
  double r = kBallRadius * 40;
  CHECK(total(ball) == doctest::Approx(4.0 / 3.0 * kPi * r * r * r).epsilon(0.01));
  CHECK(makeVolumePhantom("sphere", 40).voxels == ball.voxels);  // deterministic
}

TEST_CASE("volume phantoms refuse unknown names and sizes out of range") {
  CHECK(volumePhantomNames() == std::vector<std::string>{"cup", "sphere"});
  CHECK_THROWS_WITH_AS(makeVolumePhantom("u"), doctest::Contains("cup, sphere"), InputError);
  CHECK_THROWS_AS(makeVolumePhantom("cup", 15), InputError);
  CHECK_THROWS_AS(makeVolumePhantom("sphere", 513), InputError);
  CHECK(makeVolumePhantom("cup", 16).voxels.size() == 16u * 16 * 16);
}
