#include "gvflab/reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "grid_walk.hpp"
#include "gvflab/gvf_input.hpp"

namespace gvflab::reference {

int reflect(int i, int n) {
  if (n == 1) return 0;
  while (i < 0 || i >= n) {
    if (i < 0) i = -i;
    if (i >= n) i = 2 * n - 2 - i;
  }
  return i;
}

Grid gaussianBlur(const Grid& image, double sigma) {
  Grid cur = image;
  for (int axis = 0; axis < image.dims(); ++axis) {
    const auto w = gvflab::gaussianWeights(blurSigma(sigma, image.spacing, image.dims(), axis));
    const int r = static_cast<int>(w.size()) - 1;
    Grid next = cur;
    forEach(cur, [&](Point p) {
      double acc = w[0] * cur.values[index(cur, p)];
      for (int k = 1; k <= r; ++k)
        acc += w[k] * (cur.values[index(cur, shifted(p, axis, -k))] +
                       cur.values[index(cur, shifted(p, axis, k))]);
      next.values[index(cur, p)] = acc;
    });
    cur = std::move(next);
  }
  return cur;
}

Field gradient(const Grid& g) {
  const int d = g.dims();
  Field f{g.width, g.height, std::vector<double>(d * g.count()), g.depth};
  f.spacing = g.spacing;
  forEach(g, [&](Point p) {
    for (int a = 0; a < d; ++a)
      f.values[d * index(g, p) + a] =
          0.5 * (g.values[index(g, shifted(p, a, 1))] - g.values[index(g, shifted(p, a, -1))]) /
          g.spacing[a];
  });
  return f;
}

double maxSquaredNorm(const Field& v) {
  double m = 0;
  const int d = v.dims();
  for (std::size_t i = 0; i < v.count(); ++i) {
    double s = 0;
    for (int a = 0; a < d; ++a) s += v.values[d * i + a] * v.values[d * i + a];
    m = std::max(m, s);
  }
  return m;
}

Grid gradientMagnitude(const Grid& g) {
  Field d = gradient(g);
  const int n = g.dims();
  Grid m{g.width, g.height, std::vector<double>(g.count()), g.depth};
  m.spacing = g.spacing;
  for (std::size_t i = 0; i < m.values.size(); ++i) {
    double s = 0;
    for (int a = 0; a < n; ++a) s += d.values[n * i + a] * d.values[n * i + a];
    m.values[i] = std::sqrt(s);
  }
  return m;
}

Grid edgeMap(const Grid& image, double sigma) {
  Grid f = gradientMagnitude(gaussianBlur(image, sigma));
  double m = *std::max_element(f.values.begin(), f.values.end());
  for (double& v : f.values) v = m > 0 ? v / m : 0.0;
  return f;
}

Field initialField(const Grid& image, double sigma, V0Mode mode) {
  return mode == V0Mode::EdgeGradient ? gradient(edgeMap(image, sigma))
                                      : gradient(gaussianBlur(image, sigma));
}

namespace {
// μ∇²V − (V − V0)|V0|² at point p, component c, the Laplacian in V0's spacing.
double residual(const Field& v, const Field& v0, double mu, Point p, int c) {
  const int d = v.dims();
  const std::size_t i = index(v, p);
  const double lap = laplacian(v, v0.spacing, p, c);
  double s = 0;
  for (int a = 0; a < d; ++a) s += v0.values[d * i + a] * v0.values[d * i + a];
  return mu * lap - (v.values[d * i + c] - v0.values[d * i + c]) * s;
}
}  // namespace

Field eulerStep(const Field& v, const Field& v0, double mu) {
  Field out = v;
  const int d = v.dims();
  forEach(v, [&](Point p) {
    for (int c = 0; c < d; ++c)
      out.values[d * index(v, p) + c] = v.values[d * index(v, p) + c] + residual(v, v0, mu, p, c);
  });
  return out;
}

Field eulerIterate(Field v, const Field& v0, double mu, int iterations) {
  for (int k = 0; k < iterations; ++k) v = eulerStep(v, v0, mu);
  return v;
}

double gvfError(const Field& v, const Field& v0, double mu) {
  double sum = 0;
  const int d = v.dims();
  forEach(v, [&](Point p) {
    double s = 0;
    for (int c = 0; c < d; ++c) s += std::pow(residual(v, v0, mu, p, c), 2);
    sum += std::sqrt(s);
  });
  return sum / static_cast<double>(v.count());
}

}  // namespace gvflab::reference
