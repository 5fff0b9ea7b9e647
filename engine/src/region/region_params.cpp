#include <algorithm>
#include <cmath>
#include <limits>

#include "gvflab/enum_names.hpp"
#include "gvflab/error.hpp"
#include "gvflab/param_fields.hpp"
#include "gvflab/region_types.hpp"

namespace gvflab {

namespace {
constexpr EnumNames<NoiseModel, 3> kNoiseModels{{{NoiseModel::Gaussian, "gaussian"},
                                                 {NoiseModel::Gamma, "gamma"},
                                                 {NoiseModel::Poisson, "poisson"}}};
}  // namespace

std::string noiseModelName(NoiseModel m) { return enumName(kNoiseModels, m); }

// Also the table's number (the --noise parameter is 0, 1 or 2).
NoiseModel parseNoiseModel(const std::string& name) {
  for (const auto& entry : kNoiseModels)
    if (name == std::to_string(static_cast<int>(entry.first))) return entry.first;
  return parseEnum(kNoiseModels, name, "The noise model");
}

const std::vector<ParamSpec>& regionSnakeParamSpecs() {
  static const std::vector<ParamSpec> specs = {
      {"d-max", "d max", 1, 1024, 32, true,
       "Neighbourhood distance of the first iteration in pixels; halved at each iteration."},
      {"min-segment", "min segment", 2, 100000, 16, false,
       "A segment longer than this (pixels) gets a new node in its middle."},
      {"noise", "noise model", 0, 2, 0, true, "Pixel statistics: 0 Gaussian, 1 Gamma, 2 Poisson."},
      {"max-iterations", "max iterations", 1, 1000, 64, true,
       "Upper bound on iterations (node insertions)."},
  };
  return specs;
}

const std::vector<ParamField<RegionSnakeParams>>& regionSnakeParamFields() {
  static const std::vector<ParamField<RegionSnakeParams>> fields = {
      {"d-max", &RegionSnakeParams::dMax},
      {"min-segment", &RegionSnakeParams::minSegment},
      {"max-iterations", &RegionSnakeParams::maxIterations}};
  return fields;
}

void validate(const RegionSnakeParams& p) {
  const auto& s = regionSnakeParamSpecs();
  validateFields(p, s, regionSnakeParamFields());
  validate(findSpec(s, "noise"), static_cast<double>(p.noise));
  if (p.maxStepsPerIteration < 1)
    throw ParameterError("The number of steps per iteration must be at least 1.");
}

namespace {

double termOf(const RegionSums& r, NoiseModel model) {
  const double n = static_cast<double>(r.n);
  const double mean = static_cast<double>(r.s1) / n;
  switch (model) {
    case NoiseModel::Gamma:
      return n * std::log(std::max(mean, kRegionMinMean));
    case NoiseModel::Poisson:
      return r.s1 == 0 ? 0.0
                       : -static_cast<double>(r.s1) * std::log(std::max(mean, kRegionMinMean));
    default: {
      const double var = static_cast<double>(r.s2) / n - mean * mean;
      return 0.5 * n * std::log(std::max(var, kRegionMinVariance));
    }
  }
}

}  // namespace

double regionCriterion(const RegionSums& target, const RegionSums& total, NoiseModel model) {
  const RegionSums background = total - target;
  if (target.n < 2 || background.n < 2) return std::numeric_limits<double>::infinity();
  return termOf(target, model) + termOf(background, model);
}

void fillRegionStats(RegionStats& st, const RegionSums& total, NoiseModel model) {
  st.background = total - st.target;
  auto moments = [](const RegionSums& r, double& mean, double& sigma) {
    if (r.n <= 0) {
      mean = sigma = 0;
      return;
    }
    mean = static_cast<double>(r.s1) / static_cast<double>(r.n);
    sigma = std::sqrt(
        std::max(0.0, static_cast<double>(r.s2) / static_cast<double>(r.n) - mean * mean));
  };
  moments(st.target, st.meanT, st.sigmaT);
  moments(st.background, st.meanB, st.sigmaB);
  st.criterion = regionCriterion(st.target, total, model);
}

std::vector<Point2i> initialRectangle(int width, int height, int x, int y, int w, int h) {
  if (width < 4 || height < 4)
    throw InputError("The region snake needs an image of at least 4 x 4 pixels.");
  if (w <= 0 || h <= 0) {
    // Small images start at the border; the rectangle must keep at least 3 x 3 pixels.
    const int mx = width >= 16 ? width / 8 : 0, my = height >= 16 ? height / 8 : 0;
    x = mx, y = my, w = width - 2 * mx, h = height - 2 * my;
  }
  // In 64 bits: x + w - 1 overflows int for a rectangle near INT_MAX (clamped to the image).
  auto clampTo = [](long long v, int size) {
    return static_cast<int>(std::clamp<long long>(v, 0, size - 1));
  };
  const int x0 = clampTo(x, width), y0 = clampTo(y, height);
  const int x1 = clampTo(static_cast<long long>(x) + w - 1, width);
  const int y1 = clampTo(static_cast<long long>(y) + h - 1, height);
  if (x1 - x0 < 2 || y1 - y0 < 2)
    throw ParameterError(
        "The starting rectangle must lie in the image and span at least 3 x 3 "
        "pixels.");
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

}  // namespace gvflab
