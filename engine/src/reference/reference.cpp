#include "gvflab/reference.hpp"

#include <algorithm>
#include <cmath>

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

namespace {
double at(const Grid& g, int x, int y) {
  return g.values[static_cast<std::size_t>(reflect(y, g.height)) * g.width + reflect(x, g.width)];
}
}  // namespace

Grid gaussianBlur(const Grid& image, double sigma) {
  const auto w = gvflab::gaussianWeights(sigma);
  const int r = static_cast<int>(w.size()) - 1;
  Grid tmp = image, out = image;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      double acc = w[0] * at(image, x, y);
      for (int k = 1; k <= r; ++k) acc += w[k] * (at(image, x - k, y) + at(image, x + k, y));
      tmp.values[static_cast<std::size_t>(y) * image.width + x] = acc;
    }
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) {
      double acc = w[0] * at(tmp, x, y);
      for (int k = 1; k <= r; ++k) acc += w[k] * (at(tmp, x, y - k) + at(tmp, x, y + k));
      out.values[static_cast<std::size_t>(y) * image.width + x] = acc;
    }
  return out;
}

Field gradient(const Grid& g) {
  Field f{g.width, g.height, std::vector<double>(2 * g.values.size())};
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x) {
      std::size_t i = static_cast<std::size_t>(y) * g.width + x;
      f.values[2 * i] = 0.5 * (at(g, x + 1, y) - at(g, x - 1, y));
      f.values[2 * i + 1] = 0.5 * (at(g, x, y + 1) - at(g, x, y - 1));
    }
  return f;
}

Grid gradientMagnitude(const Grid& g) {
  Field d = gradient(g);
  Grid m{g.width, g.height, std::vector<double>(g.values.size())};
  for (std::size_t i = 0; i < m.values.size(); ++i)
    m.values[i] = std::hypot(d.values[2 * i], d.values[2 * i + 1]);
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
// μ∇²V − (V − V0)|V0|² at pixel i, component c.
double residual(const Field& v, const Field& v0, double mu, int x, int y, int c) {
  auto val = [&](int xx, int yy) {
    return v.values[2 * (static_cast<std::size_t>(reflect(yy, v.height)) * v.width +
                         reflect(xx, v.width)) + c];
  };
  std::size_t i = static_cast<std::size_t>(y) * v.width + x;
  double lap = val(x - 1, y) + val(x + 1, y) + val(x, y - 1) + val(x, y + 1) - 4 * val(x, y);
  double bx = v0.values[2 * i], by = v0.values[2 * i + 1];
  return mu * lap - (val(x, y) - v0.values[2 * i + c]) * (bx * bx + by * by);
}
}  // namespace

Field eulerStep(const Field& v, const Field& v0, double mu) {
  Field out = v;
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x)
      for (int c = 0; c < 2; ++c) {
        std::size_t i = static_cast<std::size_t>(y) * v.width + x;
        out.values[2 * i + c] = v.values[2 * i + c] + residual(v, v0, mu, x, y, c);
      }
  return out;
}

Field eulerIterate(Field v, const Field& v0, double mu, int iterations) {
  for (int k = 0; k < iterations; ++k) v = eulerStep(v, v0, mu);
  return v;
}

double gvfError(const Field& v, const Field& v0, double mu) {
  double sum = 0;
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x)
      sum += std::hypot(residual(v, v0, mu, x, y, 0), residual(v, v0, mu, x, y, 1));
  return sum / (static_cast<double>(v.width) * v.height);
}

}  // namespace gvflab::reference
