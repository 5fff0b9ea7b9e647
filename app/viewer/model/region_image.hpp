#pragma once
// The region mode's own image: a synthetic star of up to 150 MP (beyond GL texture limits)
// with its mip pyramid (level l halves level l-1, by 2 x 2 means) and a display range.
#include <cstdint>
#include <vector>

#include "gvflab/region_phantom.hpp"

namespace gvflab::viewer {

struct MipLevel {
  std::vector<std::uint16_t> pixels;
  int width = 0, height = 0;
};

struct RegionImage {
  RegionPhantomSpec spec;
  std::vector<MipLevel> levels;            // [0]: full resolution; down to about 1024 pixels a side
  float displayLo = 0, displayHi = 65535;  // grey range shown: 1st and 99th percentiles
  bool empty() const { return levels.empty(); }
  const std::vector<std::uint16_t>& pixels() const { return levels.front().pixels; }
};

// A square star image of about mpix megapixels, SNR 2.
RegionImage makeSyntheticStar(double mpix);

}  // namespace gvflab::viewer
