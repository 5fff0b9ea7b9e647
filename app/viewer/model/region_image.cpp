#include "viewer/model/region_image.hpp"

#include <algorithm>
#include <cmath>

namespace gvflab::viewer {

RegionImage makeSyntheticStar(double mpix) {
  RegionImage r;
  const int side = static_cast<int>(std::lround(std::sqrt(mpix * 1e6)));
  r.spec.width = r.spec.height = side;
  r.spec.snr = 2;
  MipLevel full{std::vector<std::uint16_t>(static_cast<std::size_t>(side) * side, 0), side, side};
  makeRegionPhantom(r.spec, full.pixels.data());
  r.levels.push_back(std::move(full));
  while (std::max(r.levels.back().width, r.levels.back().height) > 1024) {
    const MipLevel& src = r.levels.back();
    const int w = src.width;
    MipLevel m{{}, std::max(1, src.width / 2), std::max(1, src.height / 2)};
    m.pixels.resize(static_cast<std::size_t>(m.width) * m.height);
    for (int y = 0; y < m.height; ++y)
      for (int x = 0; x < m.width; ++x) {
        const std::size_t i = static_cast<std::size_t>(2 * y) * w + 2 * x;
        const auto& s = src.pixels;
        m.pixels[static_cast<std::size_t>(y) * m.width + x] =
            static_cast<std::uint16_t>((s[i] + s[i + 1] + s[i + w] + s[i + w + 1] + 2) / 4);
      }
    r.levels.push_back(std::move(m));
  }
  // Display range from full-resolution pixels (means of mip levels are less noisy and would
  // clip the noise the snake works against).
  const auto& large = r.pixels();
  std::vector<std::uint16_t> sample;
  for (std::size_t i = 0; i < large.size(); i += std::max<std::size_t>(1, large.size() >> 18))
    sample.push_back(large[i]);
  std::sort(sample.begin(), sample.end());
  r.displayLo = sample[sample.size() / 100];
  r.displayHi = std::max<float>(sample[sample.size() * 99 / 100], r.displayLo + 1);
  return r;
}

}  // namespace gvflab::viewer
