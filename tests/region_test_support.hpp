#pragma once
// Random inputs shared by the region-snake test suites.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gvflab/region_types.hpp"

namespace gvflab::test {

inline std::vector<std::uint16_t> randomZ(int w, int h, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint16_t> z(static_cast<std::size_t>(w) * h);
  for (auto& v : z) v = static_cast<std::uint16_t>(rng() & 0xFFFF);
  return z;
}

// A random star-shaped (hence simple) polygon around the image centre.
inline std::vector<Point2i> randomStar(int w, int h, int nodes, std::mt19937& rng) {
  std::vector<Point2i> p;
  const double cx = w / 2.0, cy = h / 2.0, rmax = 0.45 * std::min(w, h);
  std::uniform_real_distribution<double> u(0.2, 1.0);
  for (int i = 0; i < nodes; ++i) {
    const double a = 6.283185307179586 * i / nodes, r = rmax * u(rng);
    p.push_back({static_cast<int>(std::lround(cx + r * std::cos(a))),
                 static_cast<int>(std::lround(cy + r * std::sin(a)))});
  }
  return p;
}

}  // namespace gvflab::test
