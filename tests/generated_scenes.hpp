#pragma once
// Generated scenes with known ground truth, for tests that judge a verdict (a snake's or a
// surface's state, a default sigma, a mesh) off the demos: seeded random star-shaped objects,
// optionally cut by a channel (a slot from the boundary inwards) or, in 3D, a pocket (a square
// hole), drawn with anti-aliased edges (contrast 1 on 0) plus Gaussian noise at a chosen SNR
// (contrast / noise standard deviation). The truth is the object's distance field: the distance
// of any point to the object's boundary, found from the boundary sampled at half a pixel.
// Everything is deterministic (xorshift, no <random> distributions, which differ between
// standard libraries). Header-only; links the engine's image types only.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "gvflab/image.hpp"

namespace gvflab::test {

// xorshift64 with Box-Muller: the same numbers on every platform.
class SceneRandom {
 public:
  explicit SceneRandom(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 1) {
    for (int i = 0; i < 4; ++i) uniform();
  }
  double uniform() {  // in (0, 1)
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return (static_cast<double>(s_ >> 11) + 0.5) / 9007199254740992.0;
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  double logUniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  double gaussian() {
    const double u = uniform(), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2 * std::numbers::pi * v);
  }
  glm::dvec3 direction() {  // uniform on the unit sphere
    const double z = uniform(-1, 1), a = uniform(0, 2 * std::numbers::pi);
    const double r = std::sqrt(1 - z * z);
    return {r * std::cos(a), r * std::sin(a), z};
  }

 private:
  std::uint64_t s_;
};

enum class Cut { None, Channel, Pocket };  // Pocket: 3D only (a square hole)

inline const char* cutName(Cut c) {
  return c == Cut::None ? "star" : c == Cut::Channel ? "channel" : "pocket";
}

// A star-shaped object about `centre`: radius r(u) = radius (1 + sum_k a_k cos(m_k angle(u,
// d_k))) for unit directions u, minus an optional cut: a slot `cutWidth` wide (both tangent
// directions for a pocket, one for a channel, whose slot runs through the object along the
// other) from the boundary along -axis to `cutDepth` below the boundary point on `axis`.
struct StarShape {
  int dims = 2;
  glm::dvec3 centre{0.0};
  double radius = 0;
  std::vector<glm::dvec3> lobeAxes;  // d_k (z = 0 in 2D)
  std::vector<double> lobeAmplitude, lobeFrequency;
  Cut cut = Cut::None;
  glm::dvec3 axis{1, 0, 0}, side{0, 1, 0}, up{0, 0, 1};  // the cut's frame (outward, tangents)
  double cutWidth = 0, cutDepth = 0;

  double radiusAlong(const glm::dvec3& u) const {
    double r = 1;
    for (std::size_t k = 0; k < lobeAxes.size(); ++k) {
      const double c = std::clamp(glm::dot(u, lobeAxes[k]), -1.0, 1.0);
      r += lobeAmplitude[k] * std::cos(lobeFrequency[k] * std::acos(c));
    }
    return radius * r;
  }
  bool inStar(const glm::dvec3& p) const {
    const glm::dvec3 d = p - centre;
    const double len = glm::length(d);
    return len < 1e-9 || len < radiusAlong(d / len);
  }
  bool inCut(const glm::dvec3& p) const {
    if (cut == Cut::None) return false;
    const glm::dvec3 d = p - centre;
    const double t = glm::dot(d, axis), s = glm::dot(d, side), u = glm::dot(d, up);
    const double top = radiusAlong(axis);
    if (std::abs(s) >= cutWidth / 2 || t <= top - cutDepth) return false;
    return cut == Cut::Channel || std::abs(u) < cutWidth / 2;
  }
  bool inside(const glm::dvec3& p) const { return inStar(p) && !inCut(p); }
};

// The distance field of a shape, from its boundary sampled on a grid of `step` (the midpoints
// of neighbouring samples on either side), bucketed for nearest-point queries.
class BoundaryDistance {
 public:
  BoundaryDistance(const StarShape& shape, glm::ivec3 size, double step = 0.5) : step_(step) {
    const glm::ivec3 n(static_cast<int>(size.x / step), static_cast<int>(size.y / step),
                       shape.dims == 3 ? static_cast<int>(size.z / step) : 1);
    auto at = [&](int i, int j, int k) {
      return glm::dvec3((i + 0.5) * step, (j + 0.5) * step,
                        shape.dims == 3 ? (k + 0.5) * step : 0.0);
    };
    std::vector<char> in(static_cast<std::size_t>(n.x) * n.y * n.z);
    auto idx = [&](int i, int j, int k) {
      return (static_cast<std::size_t>(k) * n.y + j) * n.x + i;
    };
    for (int k = 0; k < n.z; ++k)
      for (int j = 0; j < n.y; ++j)
        for (int i = 0; i < n.x; ++i) in[idx(i, j, k)] = shape.inside(at(i, j, k));
    for (int k = 0; k < n.z; ++k)
      for (int j = 0; j < n.y; ++j)
        for (int i = 0; i < n.x; ++i) {
          const char a = in[idx(i, j, k)];
          if (i + 1 < n.x && in[idx(i + 1, j, k)] != a)
            points_.push_back(0.5 * (at(i, j, k) + at(i + 1, j, k)));
          if (j + 1 < n.y && in[idx(i, j + 1, k)] != a)
            points_.push_back(0.5 * (at(i, j, k) + at(i, j + 1, k)));
          if (k + 1 < n.z && in[idx(i, j, k + 1)] != a)
            points_.push_back(0.5 * (at(i, j, k) + at(i, j, k + 1)));
        }
    cells_ = glm::ivec3(std::max(1, size.x / kCell + 1), std::max(1, size.y / kCell + 1),
                        shape.dims == 3 ? std::max(1, size.z / kCell + 1) : 1);
    buckets_.resize(static_cast<std::size_t>(cells_.x) * cells_.y * cells_.z);
    for (std::size_t p = 0; p < points_.size(); ++p)
      buckets_[bucket(cellOf(points_[p]))].push_back(p);
  }

  // The distance of p (pixel coordinates, z = 0 in 2D) to the boundary.
  double operator()(const glm::dvec3& p) const {
    const glm::ivec3 c = cellOf(p);
    double best = std::numeric_limits<double>::infinity();
    const int maxShell = std::max({cells_.x, cells_.y, cells_.z});
    for (int shell = 0; shell <= maxShell; ++shell) {
      // Every point outside the shells searched so far lies farther than this.
      if (shell > 0 && (shell - 1) * kCell >= best) break;
      for (int k = c.z - shell; k <= c.z + shell; ++k)
        for (int j = c.y - shell; j <= c.y + shell; ++j)
          for (int i = c.x - shell; i <= c.x + shell; ++i) {
            if (std::max({std::abs(i - c.x), std::abs(j - c.y), std::abs(k - c.z)}) != shell)
              continue;
            if (i < 0 || j < 0 || k < 0 || i >= cells_.x || j >= cells_.y || k >= cells_.z)
              continue;
            for (std::size_t q : buckets_[bucket({i, j, k})])
              best = std::min(best, glm::length(points_[q] - p));
          }
    }
    return best;
  }

 private:
  static constexpr int kCell = 4;
  glm::ivec3 cellOf(const glm::dvec3& p) const {
    auto clampTo = [](double v, int n) {
      return std::clamp(static_cast<int>(v / kCell), 0, n - 1);
    };
    return {clampTo(p.x, cells_.x), clampTo(p.y, cells_.y), clampTo(p.z, cells_.z)};
  }
  std::size_t bucket(const glm::ivec3& c) const {
    return (static_cast<std::size_t>(c.z) * cells_.y + c.y) * cells_.x + c.x;
  }
  double step_;
  std::vector<glm::dvec3> points_;
  glm::ivec3 cells_{1};
  std::vector<std::vector<std::size_t>> buckets_;
};

// One generated scene: the image or volume (exactly one is set), its shape and the truth.
struct GeneratedScene {
  StarShape shape;
  double snr = 0;  // contrast 1 over the noise's standard deviation (infinite: no noise)
  Image2D image;
  Volume volume;
  std::string description;
};

namespace detail {
// The fraction of a pixel's (voxel's) area inside the shape, from s^dims subsamples.
inline float coverage(const StarShape& shape, double x, double y, double z, int s) {
  int in = 0, all = 0;
  for (int k = 0; k < (shape.dims == 3 ? s : 1); ++k)
    for (int j = 0; j < s; ++j)
      for (int i = 0; i < s; ++i, ++all)
        in += shape.inside(
            {x + (i + 0.5) / s, y + (j + 0.5) / s, shape.dims == 3 ? z + (k + 0.5) / s : 0.0});
  return static_cast<float>(in) / static_cast<float>(all);
}

inline StarShape randomShape(SceneRandom& r, int dims, double size, Cut cut, double width = 0,
                             double depth = 0) {
  StarShape s;
  s.dims = dims;
  s.centre = glm::dvec3(size / 2 + r.uniform(-1.5, 1.5), size / 2 + r.uniform(-1.5, 1.5),
                        dims == 3 ? size / 2 + r.uniform(-1.5, 1.5) : 0.0);
  s.radius = size * r.uniform(0.26, 0.30);
  const int lobes = 2;
  for (int k = 0; k < lobes; ++k) {
    glm::dvec3 d = r.direction();
    if (dims == 2) d = glm::normalize(glm::dvec3(d.x, d.y, 0) + glm::dvec3(1e-6, 0, 0));
    s.lobeAxes.push_back(d);
    s.lobeFrequency.push_back(std::floor(r.uniform(2, 5)));
    s.lobeAmplitude.push_back(r.uniform(0.03, 0.08));
  }
  s.cut = cut;
  glm::dvec3 a = r.direction();
  if (dims == 2) a = glm::dvec3(a.x, a.y, 0);
  s.axis = glm::normalize(a + glm::dvec3(1e-6, 0, 0));
  const glm::dvec3 helper = std::abs(s.axis.z) < 0.9 ? glm::dvec3(0, 0, 1) : glm::dvec3(1, 0, 0);
  s.side =
      dims == 2 ? glm::dvec3(-s.axis.y, s.axis.x, 0) : glm::normalize(glm::cross(helper, s.axis));
  s.up = glm::cross(s.axis, s.side);
  if (cut != Cut::None) {
    s.cutWidth = r.uniform(10, 13);
    s.cutDepth = s.radius * r.uniform(0.55, 0.7);
    if (width > 0) s.cutWidth = width;
    if (depth > 0) s.cutDepth = depth;
  }
  return s;
}
}  // namespace detail

// A size x size image: a random star-shaped object (radius 26-30 % of the size) with a cut of
// width 10-13 px (or `cutWidth`) and depth 55-70 % of its radius, noise at `snr` (<= 0: none).
inline GeneratedScene generatedImage(std::uint64_t seed, int size, Cut cut, double snr,
                                     double cutWidth = 0) {
  SceneRandom r(seed);
  GeneratedScene g;
  g.shape = detail::randomShape(r, 2, size, cut, cutWidth);
  g.snr = snr;
  g.image = Image2D(size, size);
  SceneRandom noise(seed ^ 0x5DEECE66Dull);
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x)
      g.image.at(x, y) = detail::coverage(g.shape, x, y, 0, 4) +
                         (snr > 0 ? static_cast<float>(noise.gaussian() / snr) : 0.0f);
  g.description = std::string(cutName(cut)) + " seed " + std::to_string(seed) + " SNR " +
                  (snr > 0 ? std::to_string(snr).substr(0, 4) : std::string("inf"));
  return g;
}

// The same in a size^3 volume (3D cut: Channel or Pocket).
inline GeneratedScene generatedVolume(std::uint64_t seed, int size, Cut cut, double snr,
                                      double cutWidth = 0, double cutDepth = 0) {
  SceneRandom r(seed);
  GeneratedScene g;
  g.shape = detail::randomShape(r, 3, size, cut, cutWidth, cutDepth);
  g.snr = snr;
  g.volume = Volume(size, size, size);
  SceneRandom noise(seed ^ 0x5DEECE66Dull);
  for (int z = 0; z < size; ++z)
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x)
        g.volume.at(x, y, z) = detail::coverage(g.shape, x, y, z, 2) +
                               (snr > 0 ? static_cast<float>(noise.gaussian() / snr) : 0.0f);
  g.description = std::string(cutName(cut)) + " seed " + std::to_string(seed) + " SNR " +
                  (snr > 0 ? std::to_string(snr).substr(0, 4) : std::string("inf"));
  return g;
}

// How well an outline fits the truth: the fraction of its length (2D) or area (3D) that lies
// farther than `distance` from the true boundary, and its largest distance.
struct FitToTruth {
  double farFraction = 1;
  double worst = 0;
  bool within(double allowedFraction) const { return farFraction <= allowedFraction; }
};

// A closed polyline (pixels), sampled every 0.25 px along its segments.
inline FitToTruth fitOf(const std::vector<glm::vec2>& contour, const BoundaryDistance& truth,
                        double distance) {
  FitToTruth f{0, 0};
  double total = 0, far = 0;
  for (std::size_t i = 0; i < contour.size(); ++i) {
    const glm::dvec2 a(contour[i]), b(contour[(i + 1) % contour.size()]);
    const double len = glm::length(b - a);
    const int n = std::max(1, static_cast<int>(std::ceil(len / 0.25)));
    for (int k = 0; k < n; ++k) {
      const glm::dvec2 p = a + (b - a) * ((k + 0.5) / n);
      const double d = truth({p.x, p.y, 0.0});
      total += len / n;
      if (d > distance) far += len / n;
      f.worst = std::max(f.worst, d);
    }
  }
  f.farFraction = total > 0 ? far / total : 1;
  return f;
}

// A triangle mesh (voxels): each triangle's area split over its centroid and its 3 edge
// midpoints' sub-triangles (4 samples a face).
template <class Mesh>
FitToTruth fitOf(const Mesh& mesh, const BoundaryDistance& truth, double distance) {
  FitToTruth f{0, 0};
  double total = 0, far = 0;
  for (const auto& t : mesh.faces) {
    const glm::dvec3 a(mesh.vertices[t[0]]), b(mesh.vertices[t[1]]), c(mesh.vertices[t[2]]);
    const double area = 0.5 * glm::length(glm::cross(b - a, c - a));
    const glm::dvec3 ab = 0.5 * (a + b), bc = 0.5 * (b + c), ca = 0.5 * (c + a);
    const std::array<glm::dvec3, 4> samples = {(a + ab + ca) / 3.0, (b + ab + bc) / 3.0,
                                               (c + bc + ca) / 3.0, (ab + bc + ca) / 3.0};
    for (const auto& p : samples) {
      const double d = truth(p);
      total += area / 4;
      if (d > distance) far += area / 4;
      f.worst = std::max(f.worst, d);
    }
  }
  f.farFraction = total > 0 ? far / total : 1;
  return f;
}

}  // namespace gvflab::test
