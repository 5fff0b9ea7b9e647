#pragma once
// How the double references walk a grid: points in order, neighbours, mirrored indices.
#include <algorithm>
#include <array>
#include <cstddef>

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

}  // namespace gvflab::reference
