#include "gvflab/surface_measures.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <glm/geometric.hpp>
#include <limits>
#include <queue>
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

MeshRings meshRings(const SurfaceMesh& mesh) {
  const auto rings = vertexNeighbours(mesh);
  MeshRings r;
  r.start.reserve(rings.size() + 1);
  r.start.push_back(0);
  for (const auto& one : rings) {
    r.ring.insert(r.ring.end(), one.begin(), one.end());
    r.start.push_back(static_cast<std::uint32_t>(r.ring.size()));
  }
  return r;
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

struct CellKey {
  std::int64_t x, y, z;
  bool operator==(const CellKey&) const = default;
};
struct CellHash {
  std::size_t operator()(const CellKey& k) const {
    return static_cast<std::size_t>(k.x * 73856093LL ^ k.y * 19349663LL ^ k.z * 83492791LL);
  }
};

// Triangles bucketed by the cells their bounding boxes overlap.
class TriangleGrid {
 public:
  TriangleGrid(const SurfaceMesh& mesh, double cap) : mesh_(mesh) {
    double longest = 0;
    for (const auto& f : mesh.faces)
      for (int k = 0; k < 3; ++k)
        longest = std::max(longest, static_cast<double>(glm::length(mesh.vertices[f[k]] -
                                                                    mesh.vertices[f[(k + 1) % 3]])));
    cell_ = std::max({cap, longest, 1e-6});
    for (std::size_t t = 0; t < mesh.faces.size(); ++t) {
      const auto& f = mesh.faces[t];
      glm::dvec3 lo(mesh.vertices[f[0]]), hi = lo;
      for (int k = 1; k < 3; ++k) {
        lo = glm::min(lo, glm::dvec3(mesh.vertices[f[k]]));
        hi = glm::max(hi, glm::dvec3(mesh.vertices[f[k]]));
      }
      const CellKey a = key(lo), b = key(hi);
      for (auto z = a.z; z <= b.z; ++z)
        for (auto y = a.y; y <= b.y; ++y)
          for (auto x = a.x; x <= b.x; ++x) cells_[{x, y, z}].push_back(static_cast<int>(t));
    }
  }
  // Exact when some triangle lies within one cell of p; else at least a cell away.
  double distance(glm::dvec3 p) const {
    const CellKey c = key(p);
    double best = std::numeric_limits<double>::infinity();
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          auto it = cells_.find({c.x + dx, c.y + dy, c.z + dz});
          if (it == cells_.end()) continue;
          for (int t : it->second) {
            const auto& f = mesh_.faces[t];
            const glm::dvec3 q =
                closestOnTriangle(p, glm::dvec3(mesh_.vertices[f[0]]),
                                  glm::dvec3(mesh_.vertices[f[1]]), glm::dvec3(mesh_.vertices[f[2]]));
            best = std::min(best, glm::length(p - q));
          }
        }
    return best;
  }

 private:
  CellKey key(glm::dvec3 p) const {
    return {static_cast<std::int64_t>(std::floor(p.x / cell_)),
            static_cast<std::int64_t>(std::floor(p.y / cell_)),
            static_cast<std::int64_t>(std::floor(p.z / cell_))};
  }
  const SurfaceMesh& mesh_;
  double cell_ = 1;
  std::unordered_map<CellKey, std::vector<int>, CellHash> cells_;
};

}  // namespace

std::vector<double> distancesToMesh(const std::vector<glm::vec3>& points, const SurfaceMesh& mesh,
                                    double cap) {
  std::vector<double> out(points.size(), cap);
  if (mesh.faces.empty()) return out;
  const TriangleGrid grid(mesh, cap);
  for (std::size_t i = 0; i < points.size(); ++i)
    out[i] = std::min(cap, grid.distance(glm::dvec3(points[i])));
  return out;
}

double surfaceProgress(const SurfaceMesh& now, const std::deque<SurfaceMesh>& past, double cap) {
  if (past.empty()) return cap;
  std::vector<TriangleGrid> grids;
  grids.reserve(past.size());
  for (const auto& m : past) grids.emplace_back(m, cap);
  double worst = 0;
  for (const auto& v : now.vertices) {
    double best = cap;
    for (const auto& g : grids) best = std::min(best, g.distance(glm::dvec3(v)));
    worst = std::max(worst, best);
    if (worst >= cap) return cap;  // moved: no need to measure the rest
  }
  return worst;
}

bool collapsedSurface(const SurfaceMesh& mesh, double initialVolume, double dmin) {
  const double volume = meshVolume(mesh);
  const double small =
      std::max(kCollapseArea * dmin * dmin * dmin, kCollapseWidth * dmin * meshArea(mesh));
  return volume < kCollapseFraction * initialVolume && volume < small;
}

double unheldPatchWidth(const SurfaceMesh& mesh, const std::vector<bool>& held) {
  const std::size_t n = mesh.vertices.size();
  if (std::none_of(held.begin(), held.end(), [](bool h) { return h; })) {
    if (n == 0) return 0;
    glm::dvec3 lo(mesh.vertices[0]), hi = lo;
    for (const auto& v : mesh.vertices) {
      lo = glm::min(lo, glm::dvec3(v));
      hi = glm::max(hi, glm::dvec3(v));
    }
    return glm::length(hi - lo);
  }
  // Multi-source Dijkstra from the held vertices along the mesh's edges.
  std::vector<std::vector<std::uint32_t>> adj(n);
  for (const auto& f : mesh.faces)
    for (int k = 0; k < 3; ++k) {
      adj[f[k]].push_back(f[(k + 1) % 3]);
      adj[f[(k + 1) % 3]].push_back(f[k]);
    }
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  for (std::size_t v = 0; v < n; ++v)
    if (held[v]) {
      dist[v] = 0;
      queue.push({0.0, static_cast<std::uint32_t>(v)});
    }
  double widest = 0;
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d > dist[v]) continue;
    widest = std::max(widest, d);
    for (std::uint32_t u : adj[v]) {
      const double nd = d + glm::length(glm::dvec3(mesh.vertices[u]) - glm::dvec3(mesh.vertices[v]));
      if (nd < dist[u]) {
        dist[u] = nd;
        queue.push({nd, u});
      }
    }
  }
  return 2 * widest;
}

}  // namespace gvflab
