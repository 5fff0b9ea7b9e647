#pragma once
// Synthetic 16-bit images for the region snake: a five-lobed star (a smooth, non-convex shape)
// on a background, with Gaussian, Gamma or Poisson noise. Made directly as uint16 (no float
// image on the host), in parallel rows, deterministic for a seed whatever the thread count.
#include <cstdint>
#include <vector>

#include "gvflab/region_types.hpp"

namespace gvflab {

struct RegionPhantomSpec {
  int width = 256;
  int height = 256;
  NoiseModel noise = NoiseModel::Gaussian;
  // Gaussian: SNR = (μ_T − μ_B) / σ with σ = 3000 grey levels and μ_B = 22000.
  // Gamma: order L = 4 speckle, μ_B = 8000, μ_T = μ_B (1 + snr / 2).
  // Poisson: counts with λ_B = 20, λ_T = λ_B + snr √λ_B.
  double snr = 2.0;
  std::uint32_t seed = 1;
  int threads = 0;  // 0: all hardware threads
};

// The star: centre (w/2, h/2), radius R (1 + 0.25 cos 5θ), R = 0.3 min(w, h); pixel centres.
bool regionPhantomInside(const RegionPhantomSpec& spec, int x, int y);
// Writes width × height pixels into out.
void makeRegionPhantom(const RegionPhantomSpec& spec, std::uint16_t* out);
std::vector<std::uint16_t> makeRegionPhantom(const RegionPhantomSpec& spec);
// Intersection over union of the polygon (inside rule of region_types.hpp) with the star,
// over the rows y ≡ 0 (mod rowStride).
double regionPhantomIoU(const RegionPhantomSpec& spec, const std::vector<Point2i>& polygon,
                        int rowStride = 1);

}  // namespace gvflab
