#pragma once
// Test volumes and their conversions to the double reference.
#include <cstdint>

#include "gvflab/image.hpp"
#include "test_support.hpp"

namespace gvflab::test {

inline Volume randomVolumeOf(int w, int h, int d, std::uint32_t seed) {
  Image2D flat = randomImage(w, h * d, seed);
  Volume v(w, h, d);
  v.voxels = flat.pixels;
  return v;
}

// A bright ball (radius r·n) in a dark box, off centre: edges plus wide flat regions where
// GVF must diffuse far.
inline Volume ballVolumeOf(int w, int h, int d, double r = 0.25) {
  Volume v(w, h, d);
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double dx = (x - 0.4 * w) / w, dy = (y - 0.5 * h) / h, dz = (z - 0.55 * d) / d;
        v.at(x, y, z) = dx * dx + dy * dy + dz * dz < r * r ? 1.0f : 0.0f;
      }
  return v;
}

inline reference::Grid toGridOf(const Volume& v) {
  return reference::Grid{v.width, v.height, std::vector<double>(v.voxels.begin(), v.voxels.end()),
                         v.depth};
}

}  // namespace gvflab::test
