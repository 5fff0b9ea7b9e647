#include "gvflab/surface_reference.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <utility>

#include "grid_walk.hpp"

namespace gvflab::reference {

glm::dvec3 sampleForce3(const Field& f, glm::dvec3 p, ForceScale scale) {
  double peak = 0;
  const glm::dvec3 s =
      trilinear<glm::dvec3>(f.width, f.height, f.depth, p, [&](int x, int y, int z) {
        const std::size_t i = (static_cast<std::size_t>(z) * f.height + y) * f.width + x;
        const glm::dvec3 v(f.values[3 * i], f.values[3 * i + 1], f.values[3 * i + 2]);
        peak = std::max(peak, glm::length(v));
        return scale == ForceScale::UnitCorners ? v / std::sqrt(glm::dot(v, v) + 1e-12) : v;
      });
  return scale == ForceScale::CellPeak ? s / std::sqrt(peak * peak + 1e-12) : s;
}

double sampleScalar3(const Grid& g, glm::dvec3 p) {
  return trilinear<double>(g.width, g.height, g.depth, p, [&](int x, int y, int z) {
    return g.values[(static_cast<std::size_t>(z) * g.height + y) * g.width + x];
  });
}

std::vector<glm::dvec3> umbrellaLaplacian(const std::vector<glm::dvec3>& x, const Rings& rings) {
  std::vector<glm::dvec3> out(x.size(), glm::dvec3(0.0));
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (rings[i].empty()) continue;
    glm::dvec3 s(0.0);
    for (auto j : rings[i]) s += x[j];
    out[i] = s / static_cast<double>(rings[i].size()) - x[i];
  }
  return out;
}

std::vector<glm::dvec3> ringNormals(const std::vector<glm::dvec3>& x, const Rings& rings) {
  std::vector<glm::dvec3> out(x.size(), glm::dvec3(0.0));
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto& r = rings[i];
    glm::dvec3 n(0.0);
    for (std::size_t k = 0; k < r.size(); ++k)
      n += glm::cross(x[r[k]] - x[i], x[r[(k + 1) % r.size()]] - x[i]);
    const double l = glm::length(n);
    if (l > 0) out[i] = n / l;
  }
  return out;
}

namespace {
std::vector<glm::dvec3> rightHandSide(const std::vector<glm::dvec3>& x, const Rings& rings,
                                      const Field& force, const SurfaceStepParams& p) {
  const auto n = ringNormals(x, rings);
  std::vector<glm::dvec3> b(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    b[i] = p.gamma * x[i] +
           p.kappa * sampleForce3(force, x[i] / p.spacing,
                                  p.normalize ? ForceScale::CellPeak : ForceScale::Raw) +
           p.pressure * n[i];
  return b;
}
void clampInto(std::vector<glm::dvec3>& x, const Field& f, const glm::dvec3& spacing) {
  for (auto& q : x)
    q = glm::clamp(q, glm::dvec3(0.0), glm::dvec3(f.width, f.height, f.depth) * spacing);
}
}  // namespace

std::vector<glm::dvec3> surfaceStep(const std::vector<glm::dvec3>& x, const Rings& rings,
                                    const Field& force, const SurfaceStepParams& p) {
  const auto b = rightHandSide(x, rings, force, p);
  const double omega = 1.0 / (p.gamma + 2 * p.alpha + 4 * p.beta);
  std::vector<glm::dvec3> y = x;
  for (int k = 0; k < p.sweeps; ++k) {
    const auto l = umbrellaLaplacian(y, rings);
    const auto ll = umbrellaLaplacian(l, rings);
    for (std::size_t i = 0; i < y.size(); ++i)
      y[i] += omega * (b[i] - (p.gamma * y[i] - p.alpha * l[i] + p.beta * ll[i]));
  }
  clampInto(y, force, p.spacing);
  return y;
}

std::vector<glm::dvec3> surfaceImplicitStep(const std::vector<glm::dvec3>& x, const Rings& rings,
                                            const Field& force, const SurfaceStepParams& p) {
  const std::size_t n = x.size();
  // L = W − I with W the ring means; M = γI − αL + βL².
  std::vector<double> l(n * n, 0.0), m(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    l[i * n + i] -= 1;
    for (auto j : rings[i]) l[i * n + j] += 1.0 / static_cast<double>(rings[i].size());
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double ll = 0;
      for (std::size_t k = 0; k < n; ++k) ll += l[i * n + k] * l[k * n + j];
      m[i * n + j] = (i == j ? p.gamma : 0.0) - p.alpha * l[i * n + j] + p.beta * ll;
    }
  std::vector<glm::dvec3> y = solveDenseSystem(std::move(m), rightHandSide(x, rings, force, p));
  clampInto(y, force, p.spacing);
  return y;
}

std::vector<double> surfaceHold(const std::vector<glm::dvec3>& x, const Rings& rings,
                                const Field& force, double d, const Grid* edge, double edgeLevel,
                                double minStrength, const glm::dvec3& spacing) {
  const auto normals = ringNormals(x, rings);
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const glm::dvec3 n = normals[i];
    const glm::dvec3 po = (x[i] + d * n) / spacing, pi = (x[i] - d * n) / spacing;
    out[i] = std::min(-glm::dot(sampleForce3(force, po, ForceScale::UnitCorners), n),
                      glm::dot(sampleForce3(force, pi, ForceScale::UnitCorners), n));
    if (!edge || out[i] <= 0) continue;
    const double strength = std::min(glm::length(sampleForce3(force, po, ForceScale::Raw)),
                                     glm::length(sampleForce3(force, pi, ForceScale::Raw)));
    double ridge = 0;
    for (int k = -3; k <= 3; ++k)
      ridge = std::max(ridge, sampleScalar3(*edge, (x[i] + (d * k / 3) * n) / spacing));
    if (ridge < edgeLevel && strength < minStrength) out[i] = 0;
  }
  return out;
}

}  // namespace gvflab::reference
