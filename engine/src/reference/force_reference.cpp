#include "gvflab/force_reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "grid_walk.hpp"

namespace gvflab::reference {
namespace {

double ggvfIncrement(const Field& v, const Field& v0, const Grid& g, double mu, Point p, int c) {
  const int d = v.dims();
  const std::size_t i = index(v, p);
  const double lap = laplacian(v, v0.spacing, p, c);
  const double gi = g.values[i];
  return mu * (gi * lap - (1.0 - gi) * (v.values[d * i + c] - v0.values[d * i + c]));
}

}  // namespace

Grid ggvfWeights(const Field& v0, double k) {
  Grid g{v0.width, v0.height, std::vector<double>(v0.count()), v0.depth};
  g.spacing = v0.spacing;
  for (std::size_t i = 0; i < v0.count(); ++i)
    g.values[i] = std::exp(-std::sqrt(squaredNorm(v0, i)) / k);
  return g;
}

Field ggvfStep(const Field& v, const Field& v0, const Grid& g, double mu) {
  return stepped(v, [&](Point p, int c) { return ggvfIncrement(v, v0, g, mu, p, c); });
}

Field ggvfIterate(Field v, const Field& v0, double k, double mu, int iterations) {
  const Grid g = ggvfWeights(v0, k);
  for (int n = 0; n < iterations; ++n) v = ggvfStep(v, v0, g, mu);
  return v;
}

double ggvfError(const Field& v, const Field& v0, double k) {
  const Grid g = ggvfWeights(v0, k);
  return meanNorm(v, [&](Point p, int c) { return ggvfIncrement(v, v0, g, 1.0, p, c); });
}

Field vfcField(const Grid& f, const VfcParams& params) {
  const int d = f.dims(), r = params.radius, rz = d == 3 ? r : 0;
  Field out{f.width, f.height, std::vector<double>(d * f.count(), 0.0), f.depth};
  out.spacing = f.spacing;
  forEach(f, [&](Point p) {
    for (int oz = -rz; oz <= rz; ++oz)
      for (int oy = -r; oy <= r; ++oy)
        for (int ox = -r; ox <= r; ++ox) {
          const Point o{ox, oy, oz}, q{p[0] + ox, p[1] + oy, p[2] + oz};
          if (ox * ox + oy * oy + oz * oz > r * r || (ox == 0 && oy == 0 && oz == 0)) continue;
          if (q[0] < 0 || q[0] >= f.width || q[1] < 0 || q[1] >= f.height || q[2] < 0 ||
              q[2] >= f.depth)
            continue;
          double u[3], len2 = 0;
          for (int a = 0; a < 3; ++a) {
            u[a] = o[a] * f.spacing[a];
            len2 += u[a] * u[a];
          }
          const double len = std::sqrt(len2);
          const double m = params.kernel == VfcKernel::Power
                               ? std::pow(len + kVfcEpsilon, -params.gamma)
                               : std::exp(-len2 / (params.zeta * params.zeta));
          const double fq = f.values[index(f, q)];
          for (int a = 0; a < d; ++a) out.values[d * index(f, p) + a] += fq * m * u[a] / len;
        }
  });
  return out;
}

Grid distanceSquared(const Grid& f, double threshold) {
  std::vector<Point> edges;
  forEach(f, [&](Point p) {
    if (f.values[index(f, p)] >= threshold) edges.push_back(p);
  });
  Grid d = f;  // its grid; every value replaced
  forEach(f, [&](Point p) {
    double best = std::numeric_limits<double>::infinity();
    for (const Point& e : edges) {
      double s = 0;
      for (int a = 0; a < 3; ++a) s += std::pow((p[a] - e[a]) * f.spacing[a], 2);
      best = std::min(best, s);
    }
    d.values[index(f, p)] = best;
  });
  return d;
}

Field distanceForce(const Grid& f, double threshold) {
  Grid distance = distanceSquared(f, threshold);
  for (double& v : distance.values) v = std::sqrt(v);
  Field out = gradient(distance);  // then unit length, pointing to the edge
  const int d = out.dims();
  for (std::size_t i = 0; i < out.count(); ++i) {
    const double len = std::sqrt(squaredNorm(out, i));
    for (int a = 0; a < d; ++a)
      out.values[d * i + a] = std::isfinite(len) && len > 1e-6 ? -out.values[d * i + a] / len : 0.0;
  }
  return out;
}

}  // namespace gvflab::reference
