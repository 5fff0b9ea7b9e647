#include "gvflab/snake_reference.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <initializer_list>
#include <utility>

#include "grid_walk.hpp"
#include "gvflab/snake_types.hpp"
#include "gvflab/surface_reference.hpp"

namespace gvflab::reference {

std::vector<double> snakeMatrix(int n, double alpha, double beta, double gamma) {
  std::vector<double> m(static_cast<std::size_t>(n) * n, 0.0);
  const double stencil[5] = {beta, -alpha - 4 * beta, gamma + 2 * alpha + 6 * beta,
                             -alpha - 4 * beta, beta};
  for (int i = 0; i < n; ++i)
    for (int k = -2; k <= 2; ++k) {
      const int j = ((i + k) % n + n) % n;
      m[static_cast<std::size_t>(i) * n + j] += stencil[k + 2];
    }
  return m;
}

std::vector<double> snakeMatrix(int n, double alpha, double beta, double gamma,
                                SnakeBoundary boundary) {
  if (isClosed(boundary)) return snakeMatrix(n, alpha, beta, gamma);
  std::vector<double> m(static_cast<std::size_t>(n) * n, 0.0);
  auto at = [&](int r, int c) -> double& { return m[static_cast<std::size_t>(r) * n + c]; };
  for (int i = 0; i < n; ++i) at(i, i) = gamma;
  // The gradient of each energy term w Σ c_k x_k squared adds 2w c cᵀ / 2 = w c cᵀ.
  auto term = [&](double w, std::initializer_list<std::pair<int, double>> c) {
    for (auto [r, cr] : c)
      for (auto [k, ck] : c) at(r, k) += w * cr * ck;
  };
  for (int i = 0; i + 1 < n; ++i) term(alpha, {{i, -1.0}, {i + 1, 1.0}});
  for (int i = 1; i + 1 < n; ++i) term(beta, {{i - 1, 1.0}, {i, -2.0}, {i + 1, 1.0}});
  auto pin = [&](int r) {
    for (int c = 0; c < n; ++c) at(r, c) = c == r ? 1.0 : 0.0;
  };
  if (startFixed(boundary)) pin(0);
  if (endFixed(boundary)) pin(n - 1);
  return m;
}

std::vector<glm::dvec2> solveDense(std::vector<double> m, std::vector<glm::dvec2> b) {
  return solveDenseSystem(std::move(m), std::move(b));
}

glm::dvec2 sampleForce(const Field& field, glm::dvec2 p, bool normalize) {
  return trilinear<glm::dvec2>(
      field.width, field.height, 1, glm::dvec3(p, 0.5), [&](int x, int y, int) {
        const std::size_t i = static_cast<std::size_t>(y) * field.width + x;
        glm::dvec2 v(field.values[2 * i], field.values[2 * i + 1]);
        return normalize ? v / std::sqrt(glm::dot(v, v) + 1e-12) : v;
      });
}

double sampleScalar(const Grid& grid, glm::dvec2 p) {
  return sampleScalar3(grid, glm::dvec3(p, 0.5));  // one plane: bilinear
}

namespace {
// Outward unit normal at node i of a contour with a positive shoelace area (open: an end
// takes its one segment).
glm::dvec2 outwardNormal(const std::vector<glm::dvec2>& x, int i, bool closed = true) {
  const int n = static_cast<int>(x.size());
  const int next = closed ? (i + 1) % n : std::min(i + 1, n - 1);
  const int prev = closed ? (i + n - 1) % n : std::max(i - 1, 0);
  const glm::dvec2 t = x[next] - x[prev];
  const double len = glm::length(t);
  return len > 0 ? glm::dvec2(t.y, -t.x) / len : glm::dvec2(0.0);
}

// The snake_hold kernel's edge_across: f's crest within 3 px along n (every 0.5 px) lies above f
// 2.5 px on both sides of it by max(edgeLevel / 10, 2 edgeNoise, crest / 8).
bool edgeAcross(const Grid& edge, glm::dvec2 p, glm::dvec2 n, double edgeLevel, double edgeNoise) {
  double crest = -1, at = 0;
  for (int k = -6; k <= 6; ++k)
    if (const double f = sampleScalar(edge, p + 0.5 * k * n); f > crest) crest = f, at = 0.5 * k;
  const double sides =
      std::max(sampleScalar(edge, p + (at - 2.5) * n), sampleScalar(edge, p + (at + 2.5) * n));
  return crest >= sides + std::max({0.1 * edgeLevel, 2 * edgeNoise, 0.125 * crest});
}
}  // namespace

std::vector<double> holdStrengths(const std::vector<glm::dvec2>& x, const Field& force, double d,
                                  const Grid* edge, double edgeLevel, double minStrength,
                                  double edgeNoise) {
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const glm::dvec2 n = outwardNormal(x, static_cast<int>(i));
    const double outside = -glm::dot(sampleForce(force, x[i] + d * n, true), n);
    const double inside = glm::dot(sampleForce(force, x[i] - d * n, true), n);
    out[i] = std::min(outside, inside);
    if (!edge || out[i] <= 0) continue;
    const double strength = std::min(glm::length(sampleForce(force, x[i] + d * n, false)),
                                     glm::length(sampleForce(force, x[i] - d * n, false)));
    double ridge = 0;
    for (int k = -3; k <= 3; ++k)
      ridge = std::max(ridge, sampleScalar(*edge, x[i] + (d * k / 3) * n));
    if (strength < minStrength &&
        (ridge < edgeLevel || !edgeAcross(*edge, x[i], n, edgeLevel, edgeNoise)))
      out[i] = out[i] >= kHoldLevel ? kHoldOffEdge : 0;
  }
  return out;
}

std::vector<glm::dvec2> snakeStep(const std::vector<glm::dvec2>& x, const Field& force,
                                  const SnakeStepParams& p) {
  const int n = static_cast<int>(x.size());
  const bool closed = isClosed(p.boundary);
  std::vector<glm::dvec2> rhs(n);
  for (int i = 0; i < n; ++i)
    rhs[i] = p.gamma * x[i] + p.kappa * sampleForce(force, x[i], p.normalize) +
             p.pressure * outwardNormal(x, i, closed);
  if (startFixed(p.boundary)) rhs[0] = x[0];
  if (endFixed(p.boundary)) rhs[n - 1] = x[n - 1];
  auto out = solveDense(snakeMatrix(n, p.alpha, p.beta, p.gamma, p.boundary), rhs);
  for (auto& q : out) {
    q.x = std::clamp(q.x, 0.0, static_cast<double>(force.width));
    q.y = std::clamp(q.y, 0.0, static_cast<double>(force.height));
  }
  return out;
}

std::vector<int> captureSteps(const Field& field, const Grid& edge, double threshold,
                              int maxSteps) {
  std::vector<int> out(static_cast<std::size_t>(field.width) * field.height, -1);
  for (int y = 0; y < field.height; ++y)
    for (int x = 0; x < field.width; ++x) {
      glm::dvec2 p(x + 0.5, y + 0.5);
      for (int s = 0; s <= maxSteps; ++s) {
        if (sampleScalar(edge, p) >= threshold) {
          out[static_cast<std::size_t>(y) * field.width + x] = s;
          break;
        }
        if (s == maxSteps) break;
        const glm::dvec2 d = sampleForce(field, p, true);
        const double len = glm::length(d);
        if (len < 1e-3) break;
        p = glm::clamp(p + d / len, glm::dvec2(0.0), glm::dvec2(field.width, field.height));
      }
    }
  return out;
}

}  // namespace gvflab::reference
