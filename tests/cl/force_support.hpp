#pragma once
// Shared by the external-force tests: device buffers as references' inputs, and the scenes of
// the qualitative comparisons (a long slot, a noisy U).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "cl/cl_fixture.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/image.hpp"
#include "gvflab/reference.hpp"

namespace gvflab::test {

inline std::vector<float> readFloats(ComputeContext& ctx, const cl::Buffer& b, std::size_t n) {
  std::vector<float> out(n);
  ctx.queue().enqueueReadBuffer(b, CL_TRUE, 0, n * sizeof(float), out.data());
  return out;
}

// The input's f (as the device holds it, so a threshold sees the same floats) and V0.
inline reference::Grid edgeGridOf(ComputeContext& ctx, const GvfInput& in) {
  reference::Grid g{in.width, in.height, {}, in.depth};
  const auto f = readFloats(ctx, in.edge, in.pixelCount());
  g.values.assign(f.begin(), f.end());
  g.spacing = in.spacing;
  return g;
}
inline reference::Field v0FieldOf(ComputeContext& ctx, const GvfInput& in) {
  reference::Field v{in.width, in.height, {}, in.depth};
  const auto f = readFloats(ctx, in.v0, in.pixelCount() * in.dims());
  v.values.assign(f.begin(), f.end());
  v.spacing = in.spacing;
  return v;
}

// A solid block with a long thin slot cut down from its top (Xu & Prince's case for GGVF,
// longer and narrower than the U's notch): the slot is `width` wide (its wall pixels partly
// covered) and `depth` deep, its centre line `offset` px right of pixel column n / 2's centre;
// the block spans [0.2, 0.8] of the image.
struct SlotScene {
  Image2D image;
  double centre;       // the slot's centre line (x, pixel centres at +0.5)
  int slotX0, slotX1;  // the columns it touches [x0, x1)
  int top, bottom;     // the block's top row and the slot's last row + 1
};
inline SlotScene centredSlotScene(int n, double width, int depth, double offset) {
  const double centre = n / 2 + 0.5 + offset, a = centre - width / 2, b = centre + width / 2;
  SlotScene s{Image2D(n, n, 0.0f),
              centre,
              static_cast<int>(std::floor(a)),
              static_cast<int>(std::ceil(b)),
              static_cast<int>(0.2 * n),
              static_cast<int>(0.2 * n) + depth};
  for (int y = s.top; y < static_cast<int>(0.8 * n); ++y)
    for (int x = static_cast<int>(0.2 * n); x < static_cast<int>(0.8 * n); ++x) {
      const double open = std::max(0.0, std::min<double>(x + 1, b) - std::max<double>(x, a));
      s.image.at(x, y) = static_cast<float>(y < s.bottom ? 1.0 - open : 1.0);
    }
  return s;
}

// image + Gaussian noise of standard deviation contrast / snr (contrast 1: the phantoms'),
// seeded and the same on every platform.
inline Image2D withNoise(Image2D image, double snr, std::uint64_t seed) {
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  auto uniform = [&s] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return (static_cast<double>(s >> 11) + 0.5) / 9007199254740992.0;
  };
  for (float& p : image.pixels) {
    const double g =
        std::sqrt(-2.0 * std::log(uniform())) * std::cos(6.283185307179586 * uniform());
    p = static_cast<float>(p + g / snr);
  }
  return image;
}

}  // namespace gvflab::test
