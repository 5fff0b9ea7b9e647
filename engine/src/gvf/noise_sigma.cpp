#include "gvflab/noise_sigma.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace gvflab {

namespace {

// At most about this many sample positions per estimate, so a 16384² image costs what a
// 1024² one does: every `stride`-th row and column.
constexpr double kMaxSamples = 1 << 20;

int sampleStride(const Image2D& image) {
  const double n = static_cast<double>(image.width) * image.height;
  return std::max(1, static_cast<int>(std::ceil(std::sqrt(n / kMaxSamples))));
}

// The q-quantile (0..1) of v, reordering v.
double quantile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[static_cast<std::size_t>(k)];
}

std::string formatted(const char* format, double a, double b, double c, double d) {
  char buf[200];
  std::snprintf(buf, sizeof buf, format, a, b, c, d);
  return buf;
}

SigmaChoice asGiven(const GvfParams& params) {
  return {params.sigma, false, {}, formatted("sigma %.2f as given.", params.sigma, 0, 0, 0)};
}

}  // namespace

NoiseEstimate estimateNoise(const Image2D& image) {
  NoiseEstimate e;
  if (image.width < 5 || image.height < 5) return e;
  const int stride = sampleStride(image);
  // Immerkær (1996): the mask [1 -2 1; -2 4 -2; 1 -2 1] cancels planes and ramps; on white
  // noise of σ its response is N(0, 36σ²), so σ = median|r| / (0.6745 · 6).
  std::vector<double> residual;
  for (int y = 1; y + 1 < image.height; y += stride)
    for (int x = 1; x + 1 < image.width; x += stride) {
      auto p = [&](int dx, int dy) { return static_cast<double>(image.at(x + dx, y + dy)); };
      const double r = p(-1, -1) + p(1, -1) + p(-1, 1) + p(1, 1) -
                       2 * (p(0, -1) + p(-1, 0) + p(1, 0) + p(0, 1)) + 4 * p(0, 0);
      residual.push_back(std::abs(r));
    }
  e.noise = quantile(residual, 0.5) / (0.6745 * 6.0);
  std::vector<double> means;
  for (int y = 2; y + 2 < image.height; y += stride)
    for (int x = 2; x + 2 < image.width; x += stride) {
      double s = 0;
      for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) s += image.at(x + dx, y + dy);
      means.push_back(s / 25.0);
    }
  const double low = quantile(means, 0.01);
  e.contrast = quantile(means, 0.99) - low;
  return e;
}

double sigmaForSnr(double snr, int shortSide) {
  const double floor = findSpec(gvfParamSpecs(), "sigma").defaultValue;
  const double top = std::max(floor, std::min(kMaxNoiseSigma, shortSide / kSidePerSigma));
  const double s = snr > 0 ? std::clamp(kSigmaPerSnr / snr, floor, top) : top;
  return std::max(floor, std::floor(s * 4.0 + 1e-9) / 4.0);
}

SigmaChoice chooseSigma(const Image2D& image, const GvfParams& params) {
  if (!params.sigmaFromNoise) return asGiven(params);
  SigmaChoice c;
  c.fromNoise = true;
  c.estimate = estimateNoise(image);
  c.sigma = sigmaForSnr(c.estimate.snr(), std::min(image.width, image.height));
  if (c.sigma <= findSpec(gvfParamSpecs(), "sigma").defaultValue)
    c.reason =
        formatted("sigma %.2f (the default): noise %.3g of contrast %.3g, SNR %.0f.", c.sigma,
                  c.estimate.noise, c.estimate.contrast, std::min(c.estimate.snr(), 999.0));
  else
    c.reason = formatted(
        "sigma %.2f from the noise: %.3g of contrast %.3g, SNR %.1f (30 / SNR, 1 to 4, side / 80).",
        c.sigma, c.estimate.noise, c.estimate.contrast, c.estimate.snr());
  return c;
}

SigmaChoice chooseSigma(const Volume&, const GvfParams& params) {
  if (!params.sigmaFromNoise) return asGiven(params);
  SigmaChoice c;
  c.sigma = findSpec(gvfParamSpecs(), "sigma").defaultValue;
  c.reason =
      formatted("sigma %.2f (the default; volumes take no noise estimate).", c.sigma, 0, 0, 0);
  return c;
}

}  // namespace gvflab
