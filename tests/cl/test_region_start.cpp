// The region snake's target is the inside of its start (region/start_rule.hpp, issue 44): on
// seeded random blobs (lobes and pockets, brighter or darker, on a background lit unevenly as
// in a photo, blurred, Gaussian noise at SNR 3 to 9), a rectangle drawn around the blob with more
// background than blob inside gives the blob, as a start inside it does, and so does a start across
// the blob's edge. Judged by IoU with the blob's own pixels.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cl/cl_fixture.hpp"
#include "gvflab/polygon_fill.hpp"
#include "gvflab/region_snake.hpp"

using namespace gvflab;

namespace {

constexpr int kSide = 160;

struct Blob {
  double cx, cy, radius, a2, a3, p2, p3;
  double r(double theta) const {
    return radius * (1 + a2 * std::cos(2 * theta + p2) + a3 * std::cos(3 * theta + p3));
  }
  bool inside(double x, double y) const {
    return std::hypot(x - cx, y - cy) < r(std::atan2(y - cy, x - cx));
  }
  double reach() const { return radius * (1 + a2 + a3); }
};

struct Scene {
  Blob blob;
  std::vector<std::uint16_t> z;
};

// A blob of radius 14-20 px somewhere in the image, its level snr * sigma above or below a
// background that brightens by 3.75 sigma from left to right (the light of a photo, which
// makes a start's background band differ from the background beyond it), a 3 x 3 blur
// before Gaussian noise of sigma.
Scene makeScene(std::uint32_t seed, double snr) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Scene s;
  Blob& b = s.blob;
  b.radius = 14 + 6 * u(rng);
  b.a2 = 0.15 * u(rng), b.a3 = 0.12 * u(rng), b.p2 = 6.28 * u(rng), b.p3 = 6.28 * u(rng);
  const double margin = 2.2 * b.reach();
  b.cx = margin + (kSide - 2 * margin) * u(rng);
  b.cy = margin + (kSide - 2 * margin) * u(rng);
  const double sigma = 1500, level = (seed % 2 ? 1 : -1) * snr * sigma;
  std::vector<double> clean(kSide * kSide);
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) clean[y * kSide + x] = b.inside(x + 0.5, y + 0.5) ? level : 0;
  std::normal_distribution<double> noise(0, sigma);
  s.z.resize(clean.size());
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) {
      double sum = 0;
      int n = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int xx = std::clamp(x + dx, 0, kSide - 1), yy = std::clamp(y + dy, 0, kSide - 1);
          sum += clean[yy * kSide + xx], ++n;
        }
      const double light = 3.75 * sigma * (x + 0.5) / kSide;
      s.z[y * kSide + x] = static_cast<std::uint16_t>(
          std::clamp(30000 + light + sum / n + noise(rng), 0.0, 65535.0));
    }
  return s;
}

double iou(const Blob& blob, const std::vector<Point2i>& polygon) {
  std::vector<std::array<double, 2>> centres;
  for (const auto& p : polygon) centres.push_back({p.x + 0.5, p.y + 0.5});
  const auto mask = polygonInside(kSide, kSide, centres);
  long both = 0, either = 0;
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) {
      const bool a = mask[y * kSide + x] != 0, b = blob.inside(x + 0.5, y + 0.5);
      both += a && b, either += a || b;
    }
  return double(both) / double(either);
}

std::vector<Point2i> square(double cx, double cy, double half) {
  const int x0 = int(std::lround(cx - half)), y0 = int(std::lround(cy - half));
  const int x1 = int(std::lround(cx + half)), y1 = int(std::lround(cy + half));
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

struct Outcome {
  double iou;
  bool restarted;
};

Outcome segment(const Scene& s, const std::vector<Point2i>& start) {
  RegionSnakeParams params;
  params.dMax = 8;
  params.minSegment = 6;
  RegionSnake snake(test::sharedContext(), s.z.data(), kSide, kSide, params);
  snake.reset(start);
  snake.run();
  return {iou(s.blob, snake.nodes()), snake.restarted()};
}

}  // namespace

TEST_CASE("a start drawn around a blob gives the blob, as a start inside it does") {
  int restarts = 0;
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    const double snr = seed % 3 == 0 ? 3 : seed % 3 == 1 ? 6 : 9;
    const Scene s = makeScene(seed, snr);
    const Blob& b = s.blob;
    // Around: the blob is a third of the square or less; inside: a square within its core.
    const Outcome around = segment(s, square(b.cx, b.cy, 1.6 * b.reach()));
    const Outcome inside = segment(s, square(b.cx, b.cy, 0.35 * b.radius));
    MESSAGE("seed " << seed << " SNR " << snr << ": around IoU " << around.iou
                    << std::string(around.restarted ? " (restarted)" : "") << ", inside IoU "
                    << inside.iou);
    CHECK(around.iou >= 0.85);
    CHECK(inside.iou >= 0.85);
    CHECK_FALSE(inside.restarted);
    restarts += around.restarted;
  }
  CHECK(restarts > 0);  // the rule, not luck, gave some of them
}

TEST_CASE("a start across the blob's edge still gives the blob") {
  for (std::uint32_t seed = 1; seed <= 4; ++seed) {
    const Scene s = makeScene(seed, 8);
    const Blob& b = s.blob;
    const Outcome across = segment(s, square(b.cx + b.radius, b.cy, 0.5 * b.radius));
    MESSAGE("seed " << seed << ": across IoU " << across.iou);
    CHECK(across.iou >= 0.85);
  }
}
