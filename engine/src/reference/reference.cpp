#include "gvflab/reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/geometric.hpp>

#include "grid_walk.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/surface_reference.hpp"

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
  for (std::size_t i = 0; i < v.count(); ++i) m = std::max(m, squaredNorm(v, i));
  return m;
}

Grid gradientMagnitude(const Grid& g) {
  const Field d = gradient(g);
  Grid m = g;  // its grid; every value replaced
  for (std::size_t i = 0; i < m.values.size(); ++i) m.values[i] = std::sqrt(squaredNorm(d, i));
  return m;
}

namespace {

struct EdgeInput {
  Grid f;
  Field v0;
};

// f and V0 on the image's own grid.
EdgeInput edgeInputOn(const Grid& image, double sigma, V0Mode mode) {
  const Grid smooth = gaussianBlur(image, sigma);
  Grid f = gradientMagnitude(smooth);
  const double m = *std::max_element(f.values.begin(), f.values.end());
  for (double& v : f.values) v = m > 0 ? v / m : 0.0;
  Field v0 = gradient(mode == V0Mode::EdgeGradient ? f : smooth);
  return {std::move(f), std::move(v0)};
}

// The grid k times finer per axis, trilinear between the centres (refine_linear3d).
Grid refined(const Grid& g, const std::array<int, 3>& k) {
  Grid out{g.width * k[0], g.height * k[1], {}, g.depth * k[2]};
  for (int a = 0; a < 3; ++a) out.spacing[a] = g.spacing[a] / k[a];
  out.values.resize(out.count());
  forEach(out, [&](Point p) {
    out.values[index(out, p)] = sampleScalar3(
        g, glm::dvec3(p[0] + 0.5, p[1] + 0.5, p[2] + 0.5) / glm::dvec3(k[0], k[1], k[2]));
  });
  return out;
}

// Each voxel's f and V0 from its sub-samples (coarsen_input3d): f their mean, |V0|² V0 the mean
// of theirs.
EdgeInput coarsened(const EdgeInput& fine, const Grid& image, const std::array<int, 3>& k) {
  EdgeInput out{
      image, Field{image.width, image.height, std::vector<double>(3 * image.count()), image.depth}};
  out.v0.spacing = image.spacing;
  const double n = k[0] * k[1] * k[2];
  forEach(image, [&](Point p) {
    double f = 0;
    glm::dvec3 bv(0.0);
    forEach(Grid{k[0], k[1], {}, k[2]}, [&](Point q) {
      const std::size_t j =
          index(fine.f, Point{p[0] * k[0] + q[0], p[1] * k[1] + q[1], p[2] * k[2] + q[2]});
      const glm::dvec3 g(fine.v0.values[3 * j], fine.v0.values[3 * j + 1],
                         fine.v0.values[3 * j + 2]);
      f += fine.f.values[j];
      bv += glm::dot(g, g) * g;
    });
    const std::size_t i = index(image, p);
    out.f.values[i] = f / n;
    const double l = glm::length(bv);
    for (int a = 0; a < 3; ++a) out.v0.values[3 * i + a] = l > 0 ? bv[a] * std::cbrt(l / n) / l : 0;
  });
  return out;
}

// buildGvfInput's f and V0: on a volume of anisotropic voxels, built on the grid refined by
// edgeRefinement (the blur as wide in the world) and coarsened.
EdgeInput edgeInput(const Grid& image, double sigma, V0Mode mode) {
  const std::array<int, 3> k = edgeRefinement(image.spacing, image.dims());
  if (k[0] * k[1] * k[2] == 1) return edgeInputOn(image, sigma, mode);
  const Grid fine = refined(image, k);
  const double fineSigma = sigma * *std::min_element(image.spacing.begin(), image.spacing.end()) /
                           *std::min_element(fine.spacing.begin(), fine.spacing.end());
  return coarsened(edgeInputOn(fine, fineSigma, mode), image, k);
}

}  // namespace

Grid edgeMap(const Grid& image, double sigma) {
  return edgeInput(image, sigma, V0Mode::EdgeGradient).f;
}

Field initialField(const Grid& image, double sigma, V0Mode mode) {
  return edgeInput(image, sigma, mode).v0;
}

namespace {
// μ∇²V − (V − V0)|V0|² at point p, component c, the Laplacian in V0's spacing.
double residual(const Field& v, const Field& v0, double mu, Point p, int c) {
  const int d = v.dims();
  const std::size_t i = index(v, p);
  return mu * laplacian(v, v0.spacing, p, c) -
         (v.values[d * i + c] - v0.values[d * i + c]) * squaredNorm(v0, i);
}
}  // namespace

Field eulerStep(const Field& v, const Field& v0, double mu) {
  return stepped(v, [&](Point p, int c) { return residual(v, v0, mu, p, c); });
}

Field eulerIterate(Field v, const Field& v0, double mu, int iterations) {
  for (int k = 0; k < iterations; ++k) v = eulerStep(v, v0, mu);
  return v;
}

double gvfError(const Field& v, const Field& v0, double mu) {
  return meanNorm(v, [&](Point p, int c) { return residual(v, v0, mu, p, c); });
}

}  // namespace gvflab::reference
