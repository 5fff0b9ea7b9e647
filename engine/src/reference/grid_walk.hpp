#pragma once
// How the double references walk a grid: points in order, neighbours, mirrored indices.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <glm/vec3.hpp>
#include <utility>
#include <vector>

#include "gvflab/reference.hpp"

namespace gvflab::reference {

using Point = std::array<int, 3>;

template <typename T>
std::size_t index(const T& g, Point p) {
  return (static_cast<std::size_t>(reflect(p[2], g.depth)) * g.height + reflect(p[1], g.height)) *
             g.width +
         reflect(p[0], g.width);
}

template <typename T, typename F>
void forEach(const T& g, F f) {
  for (int z = 0; z < g.depth; ++z)
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x) f(Point{x, y, z});
}

inline Point shifted(Point p, int axis, int by) {
  p[axis] += by;
  return p;
}

// Linear interpolation along an axis of n samples (sample i's centre at i + 0.5, clamped to the
// end ones): the samples either side of coordinate p and the second's weight.
struct AxisCorners {
  int i0, i1;
  double f;
};
inline AxisCorners axisCorners(int n, double p) {
  const double u = std::clamp(p - 0.5, 0.0, n - 1.0);
  const int i0 = std::min(static_cast<int>(u), n - 1);
  return {i0, std::min(i0 + 1, n - 1), u - i0};
}

// at(x, y, z) interpolated trilinearly at p on a w x h x d grid (d = 1: bilinearly, exactly).
template <class T, class At>
T trilinear(int w, int h, int d, glm::dvec3 p, At at) {
  const AxisCorners x = axisCorners(w, p.x), y = axisCorners(h, p.y), z = axisCorners(d, p.z);
  auto row = [&](int j, int k) { return at(x.i0, j, k) * (1 - x.f) + at(x.i1, j, k) * x.f; };
  return (row(y.i0, z.i0) * (1 - y.f) + row(y.i1, z.i0) * y.f) * (1 - z.f) +
         (row(y.i0, z.i1) * (1 - y.f) + row(y.i1, z.i1) * y.f) * z.f;
}

// The Laplacian of component c of the field v at p, on the grid spacing `spacing`.
template <typename F, typename S>
double laplacian(const F& v, const S& spacing, Point p, int c) {
  const int d = v.dims();
  const std::size_t i = index(v, p);
  double lap = 0;
  for (int a = 0; a < d; ++a)
    lap += (v.values[d * index(v, shifted(p, a, -1)) + c] - 2.0 * v.values[d * i + c] +
            v.values[d * index(v, shifted(p, a, 1)) + c]) /
           (spacing[a] * spacing[a]);
  return lap;
}

// |v|² at point i.
inline double squaredNorm(const Field& v, std::size_t i) {
  double s = 0;
  for (int a = 0; a < v.dims(); ++a) s += v.values[v.dims() * i + a] * v.values[v.dims() * i + a];
  return s;
}

// One explicit step: v + delta(p, c) at every point p and component c.
template <typename D>
Field stepped(const Field& v, D delta) {
  Field out = v;
  const int d = v.dims();
  forEach(v, [&](Point p) {
    for (int c = 0; c < d; ++c) out.values[d * index(v, p) + c] += delta(p, c);
  });
  return out;
}

// The mean over the points of the vector (delta(p, 0), delta(p, 1)[, delta(p, 2)])'s length.
template <typename D>
double meanNorm(const Field& v, D delta) {
  double sum = 0;
  forEach(v, [&](Point p) {
    double s = 0;
    for (int c = 0; c < v.dims(); ++c) s += std::pow(delta(p, c), 2);
    sum += std::sqrt(s);
  });
  return sum / static_cast<double>(v.count());
}

// Solves m x = b (m dense, n x n, row-major) by Gaussian elimination with partial pivoting;
// V is a point type (glm::dvec2, glm::dvec3): one right-hand side per coordinate.
template <typename V>
std::vector<V> solveDenseSystem(std::vector<double> m, std::vector<V> b) {
  const std::size_t n = b.size();
  auto at = [&](std::size_t r, std::size_t c) -> double& { return m[r * n + c]; };
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t piv = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(at(r, c)) > std::abs(at(piv, c))) piv = r;
    if (piv != c) {
      for (std::size_t k = 0; k < n; ++k) std::swap(at(c, k), at(piv, k));
      std::swap(b[c], b[piv]);
    }
    for (std::size_t r = c + 1; r < n; ++r) {
      const double f = at(r, c) / at(c, c);
      if (f == 0) continue;
      for (std::size_t k = c; k < n; ++k) at(r, k) -= f * at(c, k);
      b[r] -= f * b[c];
    }
  }
  std::vector<V> x(n);
  for (std::size_t r = n; r-- > 0;) {
    V s = b[r];
    for (std::size_t k = r + 1; k < n; ++k) s -= at(r, k) * x[k];
    x[r] = s / at(r, r);
  }
  return x;
}

}  // namespace gvflab::reference
