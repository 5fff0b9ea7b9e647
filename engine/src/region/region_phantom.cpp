#include "gvflab/region_phantom.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>

#include "gvflab/error.hpp"

namespace gvflab {
namespace {

// splitmix64: a fast, seedable generator; one stream per row keeps results thread-count free.
struct SplitMix {
  std::uint64_t s;
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type(0); }
  result_type operator()() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (static_cast<double>((*this)() >> 11) + 0.5) * 0x1.0p-53; }
};

std::uint16_t clampGrey(double v) {
  return static_cast<std::uint16_t>(std::clamp(std::lround(v), 0l, 65535l));
}

void makeRows(const RegionPhantomSpec& sp, std::uint16_t* out, int y0, int y1) {
  const double muB = 22000, sigma = 3000, muT = muB + sp.snr * sigma;
  const double gB = 8000, gT = gB * (1 + sp.snr / 2), order = 4;
  const double lB = 20, lT = lB + sp.snr * std::sqrt(lB);
  for (int y = y0; y < y1; ++y) {
    SplitMix rng{(static_cast<std::uint64_t>(sp.seed) << 32) ^ static_cast<std::uint64_t>(y)};
    std::gamma_distribution<double> gamma(order, 1.0 / order);
    std::poisson_distribution<int> poisB(lB), poisT(lT);
    std::uint16_t* row = out + static_cast<std::size_t>(y) * sp.width;
    for (int x = 0; x < sp.width; ++x) {
      const bool in = regionPhantomInside(sp, x, y);
      double v;
      switch (sp.noise) {
        case NoiseModel::Gamma:
          v = (in ? gT : gB) * gamma(rng);
          break;
        case NoiseModel::Poisson:
          v = in ? poisT(rng) : poisB(rng);
          break;
        default: {
          // Box-Muller; one normal per pixel keeps the stream simple.
          const double u1 = rng.uniform(), u2 = rng.uniform();
          v = (in ? muT : muB) +
              sigma * std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
        }
      }
      row[x] = clampGrey(v);
    }
  }
}

}  // namespace

bool regionPhantomInside(const RegionPhantomSpec& sp, int x, int y) {
  const double cx = sp.width / 2.0, cy = sp.height / 2.0;
  const double R = 0.3 * std::min(sp.width, sp.height);
  const double dx = x - cx, dy = y - cy, r = std::hypot(dx, dy);
  if (r == 0) return true;
  const double c = dx / r;  // cos θ; cos 5θ by its Chebyshev polynomial, no atan2
  const double c5 = ((16 * c * c - 20) * c * c + 5) * c;
  return r < R * (1 + 0.25 * c5);
}

void makeRegionPhantom(const RegionPhantomSpec& sp, std::uint16_t* out) {
  if (sp.width < 4 || sp.height < 4)
    throw InputError("A region phantom needs at least 4 x 4 pixels.");
  int threads = sp.threads > 0 ? sp.threads : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::clamp(threads, 1, std::max(1, sp.height / 16));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(makeRows, std::cref(sp), out,
                      static_cast<int>(std::int64_t(sp.height) * t / threads),
                      static_cast<int>(std::int64_t(sp.height) * (t + 1) / threads));
  for (auto& th : pool) th.join();
}

std::vector<std::uint16_t> makeRegionPhantom(const RegionPhantomSpec& sp) {
  std::vector<std::uint16_t> z(static_cast<std::size_t>(sp.width) * sp.height);
  makeRegionPhantom(sp, z.data());
  return z;
}

double regionPhantomIoU(const RegionPhantomSpec& sp, const std::vector<Point2i>& poly,
                        int rowStride) {
  std::int64_t inter = 0, uni = 0;
  std::vector<int> winding(static_cast<std::size_t>(sp.width) + 1);
  const std::size_t n = poly.size();
  for (int y = 0; y < sp.height; y += std::max(1, rowStride)) {
    std::fill(winding.begin(), winding.end(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      const Point2i a = poly[i], b = poly[(i + 1) % n];
      if (a.y == b.y || y < std::min(a.y, b.y) || y >= std::max(a.y, b.y)) continue;
      const Point2i top = a.y < b.y ? a : b, bot = a.y < b.y ? b : a;
      const std::int64_t num = std::int64_t(y - top.y) * (bot.x - top.x), den = bot.y - top.y;
      const std::int64_t k = top.x + (num >= 0 ? num / den : -((-num + den - 1) / den));
      winding[std::clamp<std::int64_t>(k, -1, sp.width - 1) + 1] += b.y > a.y ? 1 : -1;
    }
    int w = 0;
    for (int x = sp.width - 1; x >= 0; --x) {
      w += winding[x + 1];
      const bool p = w != 0, t = regionPhantomInside(sp, x, y);
      inter += p && t;
      uni += p || t;
    }
  }
  return uni ? static_cast<double>(inter) / static_cast<double>(uni) : 1.0;
}

}  // namespace gvflab
