#pragma once
// Types shared by the region-based polygonal snake (third paper, PLH criterion) and its
// double-precision reference. No OpenCL here, so the reference and the tests use them freely.
//
// Geometry rule, the same in the kernels and the reference: nodes sit on integer pixel
// centres. A segment between nodes a and b covers the rows y in [min(ya, yb), max(ya, yb))
// (half-open, horizontal segments cover none); on such a row it crosses at column
// k(y) = xt + floor((y - yt) (xb' - xt) / (yb' - yt)) with (xt, yt) its top end. A segment
// going down adds the row prefix at k(y), one going up subtracts it, so a closed polygon adds
// up exactly the pixels whose winding number is non-zero: pixel (x, y) is inside when the
// signed crossings at columns >= x do not cancel. One lookup per covered row, exact integers.
#include <cstdint>
#include <string>
#include <vector>

#include "gvflab/params.hpp"

namespace gvflab {

struct Point2i {
  int x = 0;
  int y = 0;
  friend bool operator==(const Point2i& a, const Point2i& b) { return a.x == b.x && a.y == b.y; }
};

// Sums over a region of the pixel count, Σz and Σz² (z: 16-bit grey levels). Exact.
struct RegionSums {
  std::int64_t n = 0;
  std::int64_t s1 = 0;
  std::int64_t s2 = 0;
  RegionSums& operator+=(const RegionSums& o) {
    n += o.n, s1 += o.s1, s2 += o.s2;
    return *this;
  }
  RegionSums& operator-=(const RegionSums& o) {
    n -= o.n, s1 -= o.s1, s2 -= o.s2;
    return *this;
  }
  friend RegionSums operator+(RegionSums a, const RegionSums& b) { return a += b; }
  friend RegionSums operator-(RegionSums a, const RegionSums& b) { return a -= b; }
  friend bool operator==(const RegionSums& a, const RegionSums& b) {
    return a.n == b.n && a.s1 == b.s1 && a.s2 == b.s2;
  }
};

// Pixel statistics models of Chesnaud, Réfrégier & Boulet; each gives the criterion (to be
// minimised, constants dropped) from the sums of the target T and the background B:
//   Gaussian: ½ Σ N log σ²     Gamma: Σ N log μ     Poisson: −Σ S1 log μ
enum class NoiseModel { Gaussian = 0, Gamma = 1, Poisson = 2 };

std::string noiseModelName(NoiseModel m);
// "gaussian" | "gamma" | "poisson"; throws ParameterError otherwise.
NoiseModel parseNoiseModel(const std::string& name);

// Floors that keep the logarithms finite on flat regions: the variance of integer rounding
// (1/12 grey level²) and half a grey level for means.
constexpr double kRegionMinVariance = 1.0 / 12.0;
constexpr double kRegionMinMean = 0.5;

struct RegionSnakeParams {
  int dMax = 32;             // first neighbourhood distance (pixels); halved per iteration
  double minSegment = 16.0;  // a segment longer than this gets a node in its middle
  NoiseModel noise = NoiseModel::Gaussian;
  int maxIterations = 64;  // iteration level (node insertions); a safety bound
  int maxStepsPerIteration = 100000;
};

// d_max, min_segment, noise (0 gaussian, 1 gamma, 2 poisson), max_iterations.
const std::vector<ParamSpec>& regionSnakeParamSpecs();
// Throws ParameterError naming the parameter when a value is out of range.
void validate(const RegionSnakeParams& p);

// A snapshot of the snake for the statistics panel and reports.
struct RegionStats {
  RegionSums target;                                    // T, inside the polygon
  RegionSums background;                                // B = image − T
  double meanT = 0, sigmaT = 0, meanB = 0, sigmaB = 0;  // grey levels (0..65535)
  double criterion = 0;
  int step = 0;       // d, pixels
  int iteration = 0;  // iteration level (node insertions so far)
  long steps = 0;     // step level, all iterations
  int nodes = 0;
  bool converged = false;  // no node can be added any more
};

// The criterion of one partition; +infinity when a region has fewer than 2 pixels.
double regionCriterion(const RegionSums& target, const RegionSums& total, NoiseModel model);
// Fills the means, σ and the criterion of stats from stats.target and total.
void fillRegionStats(RegionStats& stats, const RegionSums& total, NoiseModel model);

// Rectangle nodes in order (x, y), (x + w − 1, y), (x + w − 1, y + h − 1), (x, y + h − 1),
// clamped to the image; w = h = 0 gives the default inset (1/8 of each side; none below 16 px).
std::vector<Point2i> initialRectangle(int width, int height, int x = 0, int y = 0, int w = 0,
                                      int h = 0);

}  // namespace gvflab
