#pragma once
// Generated U shapes for verdicts judged by ground truth (issue 39): a seeded random U (image
// size, box, notch, levels), blurred, with Gaussian noise at a stated SNR, and the distance of
// a point to its true boundary. Pixel k is centred at coordinate k, as the snakes see it. The
// numbers are generated_scenes.hpp's (SceneRandom), as every generated scene's.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "generated_scenes.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/image.hpp"

namespace gvflab::test {

struct GeneratedU {
  Image2D image;
  // Pixel columns [left, right) and rows [top, bottom) of the box; the notch [notchLeft,
  // notchRight) x [top, notchBottom) is cut from its top.
  int left, right, top, bottom, notchLeft, notchRight, notchBottom;
  double snr, blur;

  // The boundary as a closed polygon in snake coordinates (pixel edges at k - 0.5).
  std::vector<std::array<double, 2>> outline() const {
    const double l = left - 0.5, r = right - 0.5, t = top - 0.5, b = bottom - 0.5;
    const double nl = notchLeft - 0.5, nr = notchRight - 0.5, nb = notchBottom - 0.5;
    return {{l, t}, {nl, t}, {nl, nb}, {nr, nb}, {nr, t}, {r, t}, {r, b}, {l, b}};
  }
  // Distance of (x, y) to the true boundary: the shape's distance field, unsigned.
  double boundaryDistance(double x, double y) const {
    const auto poly = outline();
    double best = 1e300;
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const auto& a = poly[i];
      const auto& b = poly[(i + 1) % poly.size()];
      const double ex = b[0] - a[0], ey = b[1] - a[1];
      const double t =
          std::clamp(((x - a[0]) * ex + (y - a[1]) * ey) / (ex * ex + ey * ey), 0.0, 1.0);
      best = std::min(best, std::hypot(x - a[0] - t * ex, y - a[1] - t * ey));
    }
    return best;
  }
};

// A U of random size and proportions (notch at least 16 px wide, 55-75 % of the box deep but
// at most 3 times its width),
// levels lo and lo + contrast, blurred by a Gaussian of `blur` px, plus noise of contrast / snr.
// Sides drawn from [minSide, maxSide).
inline GeneratedU generatedU(std::uint64_t seed, double snr, double blur, int minSide = 112,
                             int maxSide = 160) {
  SceneRandom rng(seed);
  GeneratedU u{};
  const int w = static_cast<int>(rng.uniform(minSide, maxSide));
  const int h = static_cast<int>(rng.uniform(minSide, maxSide));
  u.left = static_cast<int>(w * rng.uniform(0.2, 0.28));
  u.right = static_cast<int>(w * rng.uniform(0.72, 0.8));
  u.top = static_cast<int>(h * rng.uniform(0.18, 0.25));
  u.bottom = static_cast<int>(h * rng.uniform(0.75, 0.82));
  const int boxW = u.right - u.left, boxH = u.bottom - u.top;
  const int notchW = std::max(16, static_cast<int>(boxW * rng.uniform(0.28, 0.4)));
  const int centre = (u.left + u.right) / 2 + static_cast<int>(rng.uniform(-0.08, 0.08) * boxW);
  u.notchLeft = centre - notchW / 2;
  u.notchRight = u.notchLeft + notchW;
  // At most 3 times as deep as wide (Xu and Prince's U: 2.9): the default snake does not
  // reach the floor of narrower slots even without noise (18x108, 28x127 stalled clean).
  u.notchBottom = u.top + std::min(static_cast<int>(boxH * rng.uniform(0.55, 0.75)), 3 * notchW);
  u.snr = snr;
  u.blur = blur;
  const double lo = rng.uniform(0.1, 0.25), contrast = rng.uniform(0.45, 0.7);
  std::vector<double> clean(static_cast<std::size_t>(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const bool box = x >= u.left && x < u.right && y >= u.top && y < u.bottom;
      const bool notch = x >= u.notchLeft && x < u.notchRight && y < u.notchBottom;
      clean[static_cast<std::size_t>(y) * w + x] = box && !notch ? lo + contrast : lo;
    }
  // Separable blur with the engine's taps, edges clamped.
  const auto taps = gaussianWeights(blur);
  const int r = static_cast<int>(taps.size()) - 1;
  auto pass = [&](const std::vector<double>& in, int sx, int sy) {
    std::vector<double> out(in.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        double s = 0;
        for (int k = -r; k <= r; ++k) {
          const int xx = std::clamp(x + k * sx, 0, w - 1), yy = std::clamp(y + k * sy, 0, h - 1);
          s += taps[static_cast<std::size_t>(std::abs(k))] *
               in[static_cast<std::size_t>(yy) * w + xx];
        }
        out[static_cast<std::size_t>(y) * w + x] = s;
      }
    return out;
  };
  const auto blurred = pass(pass(clean, 1, 0), 0, 1);
  u.image = Image2D(w, h);
  const double sd = contrast / snr;
  for (std::size_t i = 0; i < blurred.size(); ++i)
    u.image.pixels[i] = static_cast<float>(blurred[i] + sd * rng.gaussian());
  return u;
}

}  // namespace gvflab::test
