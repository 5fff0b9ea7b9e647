// crossingFacePairs() and untangleCrossings() (mesh_crossings.hpp).
#include "gvflab/mesh_crossings.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/geometric.hpp>

namespace gvflab {
namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;
using Tri = std::array<glm::dvec3, 3>;

// Six times the signed volume of the tetrahedron a b c d.
double orient(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c, const glm::dvec3& d) {
  return glm::dot(glm::cross(b - a, c - a), d - a);
}

int sign(double v, double eps) { return v > eps ? 1 : v < -eps ? -1 : 0; }

// Whether segment p-q meets triangle t (not lying in its plane). eps: the volumes below it
// count as zero, so that touching counts as meeting.
bool segmentMeetsTriangle(const glm::dvec3& p, const glm::dvec3& q, const Tri& t, double eps) {
  const int sp = sign(orient(t[0], t[1], t[2], p), eps),
            sq = sign(orient(t[0], t[1], t[2], q), eps);
  if (sp == sq) return false;  // both on one side, or both in the plane (coplanar: not counted)
  const int s0 = sign(orient(p, q, t[0], t[1]), eps), s1 = sign(orient(p, q, t[1], t[2]), eps),
            s2 = sign(orient(p, q, t[2], t[0]), eps);
  return (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0);
}

bool trianglesCross(const Tri& a, const Tri& b, double eps) {
  for (int i = 0; i < 3; ++i)
    if (segmentMeetsTriangle(a[i], a[(i + 1) % 3], b, eps) ||
        segmentMeetsTriangle(b[i], b[(i + 1) % 3], a, eps))
      return true;
  return false;
}

struct Box {
  glm::dvec3 lo, hi;
};

class FaceGrid {
 public:
  explicit FaceGrid(const SurfaceMesh& mesh) : mesh_(mesh) {
    const std::size_t nf = mesh.faces.size();
    tris_.resize(nf);
    boxes_.resize(nf);
    planes_.resize(nf);
    std::vector<double> edges;
    edges.reserve(nf);
    glm::dvec3 lo(INFINITY), hi(-INFINITY);
    for (std::size_t f = 0; f < nf; ++f) {
      Tri& t = tris_[f];
      for (int i = 0; i < 3; ++i) t[i] = glm::dvec3(mesh.vertices[mesh.faces[f][i]]);
      boxes_[f] = {glm::min(t[0], glm::min(t[1], t[2])), glm::max(t[0], glm::max(t[1], t[2]))};
      const glm::dvec3 n = glm::cross(t[1] - t[0], t[2] - t[0]);
      planes_[f] = {n, glm::dot(n, t[0])};
      lo = glm::min(lo, boxes_[f].lo);
      hi = glm::max(hi, boxes_[f].hi);
      edges.push_back(glm::length(t[1] - t[0]));
    }
    std::nth_element(edges.begin(), edges.begin() + static_cast<std::ptrdiff_t>(nf / 2),
                     edges.end());
    const glm::dvec3 extent = hi - lo;
    const double scale = std::max({extent.x, extent.y, extent.z, 1e-30});
    eps_ = 1e-12 * scale * scale * scale;
    // Cells as wide as the median edge, coarser when that would make more cells than faces.
    cell_ = std::max(edges[nf / 2], 1e-9 * scale);
    while ((extent.x / cell_ + 1) * (extent.y / cell_ + 1) * (extent.z / cell_ + 1) > 4.0 * nf + 64)
      cell_ *= 1.5;
    origin_ = lo;
    for (int a = 0; a < 3; ++a) dims_[a] = static_cast<int>(extent[a] / cell_) + 1;
    ranges_.resize(nf);
    for (std::size_t f = 0; f < nf; ++f)
      for (int a = 0; a < 3; ++a)
        ranges_[f].lo[a] = cellOf(boxes_[f].lo[a], a),
        ranges_[f].hi[a] = cellOf(boxes_[f].hi[a], a);
    // Faces per cell, in compressed rows (counting sort).
    start_.assign(static_cast<std::size_t>(dims_[0]) * dims_[1] * dims_[2] + 1, 0);
    forEachCell(nf, [&](std::size_t c, std::uint32_t) { ++start_[c + 1]; });
    for (std::size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
    faces_.resize(start_.back());
    std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
    forEachCell(nf, [&](std::size_t c, std::uint32_t f) { faces_[fill[c]++] = f; });
  }

  std::vector<Pair> crossings() const {
    std::vector<Pair> out;
    for (int z = 0; z < dims_[2]; ++z)
      for (int y = 0; y < dims_[1]; ++y)
        for (int x = 0; x < dims_[0]; ++x) {
          const std::size_t c = index(x, y, z);
          for (std::uint32_t i = start_[c]; i < start_[c + 1]; ++i)
            for (std::uint32_t j = i + 1; j < start_[c + 1]; ++j)
              test(faces_[i], faces_[j], x, y, z, out);
        }
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::size_t index(int x, int y, int z) const {
    return (static_cast<std::size_t>(z) * dims_[1] + y) * dims_[0] + x;
  }
  int cellOf(double v, int axis) const {
    return std::clamp(static_cast<int>((v - origin_[axis]) / cell_), 0, dims_[axis] - 1);
  }
  template <class Visit>
  void forEachCell(std::size_t nf, Visit&& visit) const {
    for (std::size_t f = 0; f < nf; ++f) {
      const CellRange& r = ranges_[f];
      for (int z = r.lo[2]; z <= r.hi[2]; ++z)
        for (int y = r.lo[1]; y <= r.hi[1]; ++y)
          for (int x = r.lo[0]; x <= r.hi[0]; ++x)
            visit(index(x, y, z), static_cast<std::uint32_t>(f));
    }
  }

  // Tests faces f and g once: in the cell of the low corner of their boxes' overlap.
  void test(std::uint32_t f, std::uint32_t g, int x, int y, int z, std::vector<Pair>& out) const {
    // The low corner of the overlap of the boxes' cell ranges (integers first: cheap).
    const CellRange &rf = ranges_[f], &rg = ranges_[g];
    if (std::max(rf.lo[0], rg.lo[0]) != x || std::max(rf.lo[1], rg.lo[1]) != y ||
        std::max(rf.lo[2], rg.lo[2]) != z)
      return;
    const Box &a = boxes_[f], &b = boxes_[g];
    const glm::dvec3 lo = glm::max(a.lo, b.lo), hi = glm::min(a.hi, b.hi);
    if (lo.x > hi.x || lo.y > hi.y || lo.z > hi.z) return;
    const auto &vf = mesh_.faces[f], &vg = mesh_.faces[g];
    int shared = 0, fi = -1, gi = -1;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (vf[i] == vg[j]) {
          ++shared;
          fi = i;
          gi = j;
        }
    // Möller's early rejection: the other face's vertices (but a shared one) all strictly on one
    // side of a face's plane.
    if (oneSide(f, g, vf, vg) || oneSide(g, f, vg, vf)) return;
    bool cross = false;
    if (shared == 0) {
      cross = trianglesCross(tris_[f], tris_[g], eps_);
    } else if (shared == 1) {  // only the edges opposite the shared vertex can pierce
      const Tri &tf = tris_[f], &tg = tris_[g];
      cross = segmentMeetsTriangle(tf[(fi + 1) % 3], tf[(fi + 2) % 3], tg, eps_) ||
              segmentMeetsTriangle(tg[(gi + 1) % 3], tg[(gi + 2) % 3], tf, eps_);
    }
    if (cross) out.push_back({std::min(f, g), std::max(f, g)});
  }

  bool oneSide(std::uint32_t f, std::uint32_t g, const glm::uvec3& vf, const glm::uvec3& vg) const {
    const Plane& p = planes_[f];
    const double eps = 1e-9 * glm::length(p.normal) * cell_;
    int below = 0, above = 0;
    for (int j = 0; j < 3; ++j) {
      if (vg[j] == vf[0] || vg[j] == vf[1] || vg[j] == vf[2]) continue;
      const double s = glm::dot(p.normal, tris_[g][j]) - p.offset;
      below += s < -eps;
      above += s > eps;
      if (below && above) return false;
      if (!(s < -eps) && !(s > eps)) return false;  // on the plane: test exactly
    }
    return true;
  }

  struct CellRange {
    int lo[3], hi[3];
  };
  struct Plane {
    glm::dvec3 normal;  // (b - a) x (c - a)
    double offset;      // normal . a
  };
  const SurfaceMesh& mesh_;
  std::vector<Tri> tris_;
  std::vector<Plane> planes_;
  std::vector<CellRange> ranges_;
  std::vector<Box> boxes_;
  double cell_ = 1, eps_ = 0;
  glm::dvec3 origin_{0.0};
  int dims_[3] = {1, 1, 1};
  std::vector<std::uint32_t> start_, faces_;
};

}  // namespace

std::vector<Pair> crossingFacePairs(const SurfaceMesh& mesh) {
  if (mesh.faces.size() < 2) return {};
  return FaceGrid(mesh).crossings();
}

bool hasFoldedFaces(const SurfaceMesh& mesh) {
  const std::vector<glm::vec3> normals = vertexNormals(mesh);
  for (const auto& f : mesh.faces) {
    const glm::vec3 a = mesh.vertices[f[0]];
    const glm::vec3 n = glm::cross(mesh.vertices[f[1]] - a, mesh.vertices[f[2]] - a);
    for (int i = 0; i < 3; ++i)
      if (glm::dot(n, normals[f[i]]) < 0) return true;
  }
  return false;
}

Untangled untangleCrossings(SurfaceMesh& mesh, int rounds) {
  std::vector<Pair> pairs = crossingFacePairs(mesh);
  const std::size_t found = pairs.size();
  if (pairs.empty()) return {};
  const std::vector<std::vector<std::uint32_t>> rings = vertexNeighbours(mesh);
  const std::size_t nv = mesh.vertices.size();
  std::vector<char> in(nv);
  std::vector<std::uint32_t> region;
  std::vector<glm::dvec3> moved;
  for (int round = 0; round < rounds && !pairs.empty(); ++round) {
    // The crossing faces' vertices, grown by round + 1 rings.
    std::fill(in.begin(), in.end(), 0);
    region.clear();
    for (const Pair& p : pairs)
      for (std::uint32_t f : {p.first, p.second})
        for (int i = 0; i < 3; ++i) {
          const std::uint32_t v = mesh.faces[f][i];
          if (!in[v]) in[v] = 1, region.push_back(v);
        }
    for (int grow = 0; grow <= round; ++grow) {
      const std::size_t n = region.size();
      for (std::size_t k = 0; k < n; ++k)
        for (std::uint32_t w : rings[region[k]])
          if (!in[w]) in[w] = 1, region.push_back(w);
    }
    // A few Jacobi passes of Laplacian smoothing over the region.
    moved.resize(region.size());
    for (int pass = 0; pass < 3; ++pass) {
      for (std::size_t k = 0; k < region.size(); ++k) {
        glm::dvec3 sum(0.0);
        for (std::uint32_t w : rings[region[k]]) sum += glm::dvec3(mesh.vertices[w]);
        const auto& r = rings[region[k]];
        moved[k] = r.empty() ? glm::dvec3(mesh.vertices[region[k]]) : sum / double(r.size());
      }
      for (std::size_t k = 0; k < region.size(); ++k)
        mesh.vertices[region[k]] = glm::vec3(moved[k]);
    }
    pairs = crossingFacePairs(mesh);
  }
  return {found, pairs.size()};
}

}  // namespace gvflab
