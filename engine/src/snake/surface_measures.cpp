#include "gvflab/surface_measures.hpp"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>
#include <numeric>
#include <unordered_map>
#include <utility>

namespace gvflab {

double surfaceRelaxation(const SnakeParams& p) {
  return 1.0 / (p.gamma + 2 * p.alpha + 4 * p.beta);
}

int surfaceSweeps(const SnakeParams& p) {
  const double g = (2 * p.alpha + 4 * p.beta) * surfaceRelaxation(p);
  if (g <= kSweepResidual) return 1;
  const int k = static_cast<int>(std::ceil(std::log(kSweepResidual) / std::log(g)));
  return std::clamp(k, 1, kMaxSweeps);
}

namespace {

// The closest point of triangle abc to p (Ericson, Real-Time Collision Detection, 5.1.5).
glm::dvec3 closestOnTriangle(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
  const glm::dvec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const glm::dvec3 bp = p - b;
  const double d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const glm::dvec3 cp = p - c;
  const double d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denom = va + vb + vc;
  if (denom == 0) return a;  // a degenerate triangle: its first corner
  return a + ab * (vb / denom) + ac * (vc / denom);
}

}  // namespace

MeshDistance::MeshDistance(const SurfaceMesh& mesh, double cap) : mesh_(mesh) {
  // Cells at least cap wide: every triangle within cap of p lies in p's cell or a neighbour.
  if (mesh.faces.empty()) return;
  double longest = 0;
  glm::dvec3 lo(mesh.vertices[mesh.faces[0][0]]), hi = lo;
  for (const auto& f : mesh.faces)
    for (int k = 0; k < 3; ++k) {
      const glm::dvec3 v(mesh.vertices[f[k]]);
      lo = glm::min(lo, v);
      hi = glm::max(hi, v);
      longest = std::max(longest, glm::length(v - glm::dvec3(mesh.vertices[f[(k + 1) % 3]])));
    }
  cell_ = std::max({cap, longest, 1e-6});
  // At most ~8 cells per triangle: coarser cells for a mesh far smaller than its box.
  const glm::dvec3 extent = hi - lo;
  while ((extent.x / cell_ + 1) * (extent.y / cell_ + 1) * (extent.z / cell_ + 1) >
         8.0 * static_cast<double>(mesh.faces.size()) + 64)
    cell_ *= 1.5;
  origin_ = lo;
  for (int a = 0; a < 3; ++a) dims_[a] = static_cast<int>(extent[a] / cell_) + 1;
  const std::size_t cells = static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2];
  // Two passes (count, fill) over each triangle's bounding box of cells.
  start_.assign(cells + 1, 0);
  auto each = [&](auto&& visit) {
    for (std::size_t t = 0; t < mesh.faces.size(); ++t) {
      const auto& f = mesh.faces[t];
      glm::dvec3 a(mesh.vertices[f[0]]), b = a;
      for (int k = 1; k < 3; ++k) {
        a = glm::min(a, glm::dvec3(mesh.vertices[f[k]]));
        b = glm::max(b, glm::dvec3(mesh.vertices[f[k]]));
      }
      int i0[3], i1[3];
      for (int k = 0; k < 3; ++k) {
        i0[k] = std::clamp(static_cast<int>((a[k] - lo[k]) / cell_), 0, dims_[k] - 1);
        i1[k] = std::clamp(static_cast<int>((b[k] - lo[k]) / cell_), 0, dims_[k] - 1);
      }
      for (int z = i0[2]; z <= i1[2]; ++z)
        for (int y = i0[1]; y <= i1[1]; ++y)
          for (int x = i0[0]; x <= i1[0]; ++x)
            visit((static_cast<std::size_t>(z) * dims_[1] + y) * dims_[0] + x,
                  static_cast<std::uint32_t>(t));
    }
  };
  each([&](std::size_t c, std::uint32_t) { ++start_[c + 1]; });
  for (std::size_t c = 0; c < cells; ++c) start_[c + 1] += start_[c];
  triangles_.resize(start_[cells]);
  std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
  each([&](std::size_t c, std::uint32_t t) { triangles_[fill[c]++] = t; });
}

bool MeshDistance::within(const glm::dvec3& p, double d) const {
  if (start_.empty()) return false;
  int at[3];
  for (int k = 0; k < 3; ++k) {
    const double u = std::floor((p[k] - origin_[k]) / cell_);
    if (u < -1 || u > dims_[k]) return false;  // no cell within one of p: farther than cap
    at[k] = static_cast<int>(u);
  }
  auto cell = [&](int x, int y, int z) {
    if (x < 0 || y < 0 || z < 0 || x >= dims_[0] || y >= dims_[1] || z >= dims_[2]) return false;
    const std::size_t c = (static_cast<std::size_t>(z) * dims_[1] + y) * dims_[0] + x;
    for (std::uint32_t i = start_[c]; i < start_[c + 1]; ++i) {
      const auto& f = mesh_.faces[triangles_[i]];
      const glm::dvec3 q =
          closestOnTriangle(p, glm::dvec3(mesh_.vertices[f[0]]), glm::dvec3(mesh_.vertices[f[1]]),
                            glm::dvec3(mesh_.vertices[f[2]]));
      if (glm::length(p - q) <= d) return true;
    }
    return false;
  };
  if (cell(at[0], at[1], at[2])) return true;  // its own cell first: usually enough
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if ((dx || dy || dz) && cell(at[0] + dx, at[1] + dy, at[2] + dz)) return true;
  return false;
}

bool collapsedSurface(const SurfaceMesh& mesh, double initialVolume, double dmin) {
  const double volume = meshVolume(mesh);
  if (!(volume < kCollapseFraction * initialVolume)) return false;  // the area is not needed
  return volume <
         std::max(kCollapseArea * dmin * dmin * dmin, kCollapseWidth * dmin * meshArea(mesh));
}

double unheldPatchExtent(const SurfaceMesh& mesh, const std::vector<bool>& held, double reach) {
  const std::size_t n = mesh.vertices.size();
  if (std::all_of(held.begin(), held.end(), [](bool h) { return h; })) return 0;
  if (std::none_of(held.begin(), held.end(), [](bool h) { return h; })) {  // the box's diagonal
    glm::dvec3 lo(mesh.vertices[0]), hi = lo;
    for (const auto& v : mesh.vertices) {
      lo = glm::min(lo, glm::dvec3(v));
      hi = glm::max(hi, glm::dvec3(v));
    }
    return glm::length(hi - lo);
  }
  // Union-find over the unheld vertices along the faces' edges.
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  auto root = [&](std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const auto& f : mesh.faces)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = f[k], b = f[(k + 1) % 3];
      if (!held[a] && !held[b]) parent[root(a)] = root(b);
    }
  std::unordered_map<std::uint32_t, std::pair<double, double>> patch;  // root -> area, border
  for (const auto& f : mesh.faces) {
    const glm::dvec3 p[3] = {glm::dvec3(mesh.vertices[f[0]]), glm::dvec3(mesh.vertices[f[1]]),
                             glm::dvec3(mesh.vertices[f[2]])};
    const double third = glm::length(glm::cross(p[1] - p[0], p[2] - p[0])) / 6;
    int unheld = 0;
    for (int k = 0; k < 3; ++k)
      if (!held[f[k]]) {
        ++unheld;
        patch[root(f[k])].first += third;
      }
    if (unheld == 0 || unheld == 3) continue;
    // The border crosses the two edges with one held and one unheld end.
    glm::dvec3 mid[2];
    int m = 0;
    std::uint32_t owner = 0;
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = f[k], b = f[(k + 1) % 3];
      if (held[a] == held[b]) continue;
      mid[m++] = 0.5 * (p[k] + p[(k + 1) % 3]);
      owner = root(held[a] ? b : a);
    }
    patch[owner].second += glm::length(mid[1] - mid[0]);
  }
  double widest = 0;
  for (const auto& [r, ab] : patch) {
    const double area = ab.first + reach * ab.second + std::numbers::pi * reach * reach;
    widest = std::max(widest, 2 * std::sqrt(area / std::numbers::pi));
  }
  return widest;
}

}  // namespace gvflab
