#include "gvflab/grid_spacing.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "gvflab/error.hpp"
#include "gvflab/input_limits.hpp"

namespace gvflab {
namespace {

// A float literal that reads back as exactly the float of v.
std::string floatLiteral(double v) {
  std::ostringstream s;
  s << std::setprecision(9) << std::scientific << static_cast<float>(v) << "f";
  return s.str();
}

}  // namespace

GridSpacing gridSpacing(const GridSpacing& spacing, int dims) {
  GridSpacing s = spacing;
  if (dims < 3) s[2] = 1.0;
  return s;
}

bool isUnitSpacing(const GridSpacing& spacing, int dims) {
  const GridSpacing s = gridSpacing(spacing, dims);
  return s[0] == 1.0 && s[1] == 1.0 && s[2] == 1.0;
}

void checkSpacing(const GridSpacing& spacing, int dims, const std::string& what) {
  const GridSpacing s = gridSpacing(spacing, dims);
  for (double h : s)
    if (!(std::isfinite(h) && h >= kMinSpacing && h <= kMaxSpacing)) {
      std::ostringstream msg;
      msg << what << " must be positive and finite along every axis (" << kSpacingRangeText
          << " each), not " << spacingText(spacing, dims) << ".";
      throw ParameterError(msg.str());
    }
}

double blurSigma(double sigma, const GridSpacing& spacing, int dims, int axis) {
  const GridSpacing s = gridSpacing(spacing, dims);
  double finest = s[0];
  for (int i = 1; i < dims; ++i) finest = std::min(finest, s[i]);
  return sigma * finest / s[axis];
}

std::array<int, 3> edgeRefinement(const GridSpacing& spacing, int dims) {
  std::array<int, 3> k{1, 1, 1};
  if (dims < 3) return k;
  const double finest = std::min({spacing[0], spacing[1], spacing[2]});
  for (int i = 0; i < 3; ++i)
    k[i] = std::clamp(static_cast<int>(std::lround(spacing[i] / finest)), 1, kMaxRefinement);
  return k;
}

double inverseSquareSum(const GridSpacing& spacing, int dims) {
  const GridSpacing s = gridSpacing(spacing, dims);
  double sum = 0;
  for (int i = 0; i < dims; ++i) sum += 1.0 / (s[i] * s[i]);
  return sum;
}

std::string spacingText(const GridSpacing& spacing, int dims) {
  std::ostringstream s;
  for (int i = 0; i < dims; ++i) s << (i ? "x" : "") << spacing[i];
  return s.str();
}

std::string spacingBuildOptions(const GridSpacing& spacing, int dims) {
  if (isUnitSpacing(spacing, dims)) return {};
  const GridSpacing s = gridSpacing(spacing, dims);
  std::string o = " -DWORLD_SPACING";
  const char* axis[3] = {"X", "Y", "Z"};
  for (int i = 0; i < 3; ++i) {
    o += std::string(" -DSPACING_") + axis[i] + "=" + floatLiteral(s[i]);
    o += std::string(" -DLAP_W") + axis[i] + "=" + floatLiteral(1.0 / (s[i] * s[i]));
  }
  o += " -DLAP_CENTRE=" + floatLiteral(2.0 * inverseSquareSum(s, dims));
  return o;
}

}  // namespace gvflab
