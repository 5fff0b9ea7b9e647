// Start shapes, checks and measures of closed triangle meshes (surface_mesh.hpp). The check
// works on per-vertex lists, sorted per vertex, never on global sorts or maps: linear in the
// 50k-vertex surfaces of the snakes, O(d log d) in a vertex of degree d.
#include "gvflab/surface_mesh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

#include "gvflab/error.hpp"

namespace gvflab {
namespace {

// Meshes beyond this many vertices are refused before they are built (a typo in a radius must
// not exhaust memory); SurfaceSnake's own limit is far below.
constexpr double kMaxBuiltVertices = 1u << 26;

// Icosahedron of circumradius 1: edge length and inradius. The radial projection of a face onto
// the sphere stretches lengths by at most 1 / inradius, so a frequency n with
// edge / (inradius n) <= edgeLength / radius bounds every projected edge by edgeLength.
const double kIcoEdge = 4.0 / std::sqrt(10.0 + 2.0 * std::sqrt(5.0));
const double kIcoInradius = std::sqrt(3.0) / 12.0 * (3.0 + std::sqrt(5.0)) * kIcoEdge;

bool finite(const glm::dvec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

void checkEdgeLength(double edgeLength) {
  if (!std::isfinite(edgeLength) || edgeLength <= 0)
    throw ParameterError("A mesh's edge length must be a positive number (got " +
                         std::to_string(edgeLength) + ").");
}

void checkSphereArgs(double radius, double edgeLength) {
  if (!std::isfinite(radius) || radius <= 0)
    throw ParameterError("A sphere's radius must be a positive number (got " +
                         std::to_string(radius) + ").");
  checkEdgeLength(edgeLength);
}

// The subdivision frequency (each icosahedron edge cut into n), as a double so that absurd
// ratios saturate instead of overflowing.
double sphereFrequency(double radius, double edgeLength) {
  double n = std::ceil(kIcoEdge * radius / (kIcoInradius * edgeLength) - 1e-9);
  return std::max(1.0, n);
}

double sphereVertices(double n) { return 10.0 * n * n + 2.0; }

std::vector<glm::dvec3> icosahedronVertices() {
  const double p = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<glm::dvec3> v = {{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0},
                               {0, -1, p}, {0, 1, p}, {0, -1, -p}, {0, 1, -p},
                               {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
  for (auto& x : v) x = glm::normalize(x);
  return v;
}

std::vector<std::array<int, 3>> icosahedronFaces(const std::vector<glm::dvec3>& v) {
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (auto& t : f) {  // outward whatever the table's order
    glm::dvec3 n = glm::cross(v[t[1]] - v[t[0]], v[t[2]] - v[t[0]]);
    if (glm::dot(n, v[t[0]] + v[t[1]] + v[t[2]]) < 0) std::swap(t[1], t[2]);
  }
  return f;
}

// Each vertex's corners as (next, previous) vertex pairs of its faces, in flat per-vertex
// lists: pairs[offset[v] .. offset[v + 1]).
struct Corners {
  std::vector<std::uint32_t> offset;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
};

Corners cornersOf(const SurfaceMesh& mesh) {
  Corners c;
  std::size_t n = mesh.vertices.size();
  c.offset.assign(n + 1, 0);
  for (const auto& f : mesh.faces)
    for (int i = 0; i < 3; ++i) ++c.offset[f[i] + 1];
  for (std::size_t v = 0; v < n; ++v) c.offset[v + 1] += c.offset[v];
  c.pairs.resize(c.offset[n]);
  std::vector<std::uint32_t> fill(c.offset.begin(), c.offset.end() - 1);
  for (const auto& f : mesh.faces)
    for (int i = 0; i < 3; ++i) c.pairs[fill[f[i]]++] = {f[(i + 1) % 3], f[(i + 2) % 3]};
  return c;
}

std::string edgeName(std::uint32_t a, std::uint32_t b) {
  return std::to_string(std::min(a, b)) + "-" + std::to_string(std::max(a, b));
}

}  // namespace

std::size_t sphereMeshVertexCount(double radius, double edgeLength) {
  checkSphereArgs(radius, edgeLength);
  double count = sphereVertices(sphereFrequency(radius, edgeLength));
  if (count >= static_cast<double>(std::numeric_limits<std::size_t>::max()))
    return std::numeric_limits<std::size_t>::max();
  return static_cast<std::size_t>(count);
}

SurfaceMesh sphereMesh(const glm::dvec3& centre, double radius, double edgeLength) {
  if (!finite(centre)) throw ParameterError("A sphere's centre must be finite.");
  checkSphereArgs(radius, edgeLength);
  double nd = sphereFrequency(radius, edgeLength);
  if (sphereVertices(nd) > kMaxBuiltVertices)
    throw ResourceError("A sphere of radius " + std::to_string(radius) + " with edges of " +
                        std::to_string(edgeLength) + " would have more than " +
                        std::to_string(static_cast<long>(kMaxBuiltVertices)) + " vertices.");
  const int n = static_cast<int>(nd);
  const auto ico = icosahedronVertices();
  const auto icoFaces = icosahedronFaces(ico);

  std::vector<glm::dvec3> flat;  // points on the icosahedron, projected at the end
  flat.reserve(static_cast<std::size_t>(sphereVertices(nd)));
  flat = ico;
  std::map<std::pair<int, int>, std::uint32_t> edgeStart;  // first of each edge's n - 1 points
  for (const auto& t : icoFaces)
    for (int i = 0; i < 3; ++i) {
      int a = t[i], b = t[(i + 1) % 3];
      auto key = std::make_pair(std::min(a, b), std::max(a, b));
      if (edgeStart.count(key)) continue;
      edgeStart[key] = static_cast<std::uint32_t>(flat.size());
      for (int k = 1; k < n; ++k)
        flat.push_back(ico[key.first] + (ico[key.second] - ico[key.first]) * (double(k) / n));
    }
  // The point k steps from corner a towards corner b.
  auto onEdge = [&](int a, int b, int k) -> std::uint32_t {
    if (k == 0) return static_cast<std::uint32_t>(a);
    if (k == n) return static_cast<std::uint32_t>(b);
    auto start = edgeStart.at({std::min(a, b), std::max(a, b)});
    return start + static_cast<std::uint32_t>((a < b ? k : n - k) - 1);
  };

  SurfaceMesh mesh;
  mesh.faces.reserve(20u * n * n);
  std::vector<std::uint32_t> grid((n + 1) * (n + 1));
  for (const auto& t : icoFaces) {
    const glm::dvec3 A = ico[t[0]], B = ico[t[1]], C = ico[t[2]];
    auto id = [&](int i, int j) -> std::uint32_t& { return grid[i * (n + 1) + j]; };
    // Point (i, j) is A + (B - A) i / n + (C - A) j / n.
    for (int i = 0; i <= n; ++i)
      for (int j = 0; i + j <= n; ++j) {
        if (j == 0)
          id(i, j) = onEdge(t[0], t[1], i);
        else if (i == 0)
          id(i, j) = onEdge(t[0], t[2], j);
        else if (i + j == n)
          id(i, j) = onEdge(t[1], t[2], j);
        else {
          id(i, j) = static_cast<std::uint32_t>(flat.size());
          flat.push_back(A + (B - A) * (double(i) / n) + (C - A) * (double(j) / n));
        }
      }
    for (int i = 0; i < n; ++i)
      for (int j = 0; i + j < n; ++j) {
        mesh.faces.push_back({id(i, j), id(i + 1, j), id(i, j + 1)});
        if (i + j < n - 1) mesh.faces.push_back({id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
      }
  }
  mesh.vertices.reserve(flat.size());
  for (const auto& p : flat)
    mesh.vertices.push_back(glm::vec3(centre + radius * glm::normalize(p)));
  return mesh;
}

SurfaceMesh boxMesh(const glm::dvec3& lo, const glm::dvec3& hi, double edgeLength) {
  if (!finite(lo) || !finite(hi) || !(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z))
    throw ParameterError("A box's corners must be finite with lo < hi on every axis.");
  checkEdgeLength(edgeLength);
  glm::dvec3 size = hi - lo;
  double cells[3];
  for (int a = 0; a < 3; ++a) cells[a] = std::max(1.0, std::ceil(size[a] / edgeLength - 1e-9));
  double count = 2 * (cells[0] * cells[1] + cells[1] * cells[2] + cells[0] * cells[2]) + 2;
  if (count > kMaxBuiltVertices)
    throw ResourceError("A box with edges of " + std::to_string(edgeLength) +
                        " would have more than " +
                        std::to_string(static_cast<long>(kMaxBuiltVertices)) + " vertices.");
  const int nc[3] = {int(cells[0]), int(cells[1]), int(cells[2])};

  SurfaceMesh mesh;
  std::unordered_map<std::uint64_t, std::uint32_t> index;  // lattice point -> vertex
  auto vertex = [&](int i, int j, int k) {
    std::uint64_t key = (std::uint64_t(i) << 42) | (std::uint64_t(j) << 21) | std::uint64_t(k);
    auto [it, added] = index.try_emplace(key, static_cast<std::uint32_t>(mesh.vertices.size()));
    if (added)
      mesh.vertices.push_back(glm::vec3(
          lo + size * glm::dvec3(double(i) / nc[0], double(j) / nc[1], double(k) / nc[2])));
    return it->second;
  };
  for (int w = 0; w < 3; ++w) {                  // the axis each face is normal to
    const int u = (w + 1) % 3, v = (w + 2) % 3;  // (u, v, w) is right-handed
    for (int side = 0; side < 2; ++side) {
      for (int iu = 0; iu < nc[u]; ++iu)
        for (int iv = 0; iv < nc[v]; ++iv) {
          std::uint32_t q[4];
          const int du[4] = {0, 1, 1, 0}, dv[4] = {0, 0, 1, 1};
          for (int c = 0; c < 4; ++c) {
            int ijk[3];
            ijk[u] = iu + du[c];
            ijk[v] = iv + dv[c];
            ijk[w] = side ? nc[w] : 0;
            q[c] = vertex(ijk[0], ijk[1], ijk[2]);
          }
          // q0 q1 q2 q3 turns counter-clockwise about +w: outward on the high side.
          if (side) {
            mesh.faces.push_back({q[0], q[1], q[2]});
            mesh.faces.push_back({q[0], q[2], q[3]});
          } else {
            mesh.faces.push_back({q[0], q[2], q[1]});
            mesh.faces.push_back({q[0], q[3], q[2]});
          }
        }
    }
  }
  return mesh;
}

MeshCheck checkMesh(const SurfaceMesh& mesh) {
  MeshCheck check;
  const std::size_t nv = mesh.vertices.size();
  if (mesh.faces.empty()) {
    check.problem = "The mesh has no faces.";
    return check;
  }
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const auto& t = mesh.faces[f];
    for (int i = 0; i < 3; ++i)
      if (t[i] >= nv) {
        check.problem = "Face " + std::to_string(f) + " names vertex " + std::to_string(t[i]) +
                        " of a mesh with " + std::to_string(nv) + " vertices.";
        return check;
      }
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) {
      check.problem = "Face " + std::to_string(f) + " repeats a vertex.";
      return check;
    }
  }
  check.closed = check.manifold = check.oriented = true;
  auto fault = [&](bool& flag, std::string sentence) {
    flag = false;
    if (check.problem.empty()) check.problem = std::move(sentence);
  };
  Corners c = cornersOf(mesh);
  // Each vertex's corners sorted by their next vertex, so that every lookup below is a binary
  // search: the check is O(E log degree), not quadratic in a vertex's degree (a hostile mesh).
  for (std::uint32_t a = 0; a < nv; ++a)
    std::sort(c.pairs.begin() + c.offset[a], c.pairs.begin() + c.offset[a + 1]);
  const auto byFirst = [](const std::pair<std::uint32_t, std::uint32_t>& p, std::uint32_t v) {
    return p.first < v;
  };
  // The first of a's corners whose next vertex is b (end when none).
  auto find = [&](std::uint32_t a, std::uint32_t b) {
    return std::lower_bound(c.pairs.begin() + c.offset[a], c.pairs.begin() + c.offset[a + 1], b,
                            byFirst);
  };
  // Directed edge a->b is pairs[..].first of a's corners; count its uses both ways.
  auto uses = [&](std::uint32_t a, std::uint32_t b) {
    int k = 0;
    const auto end = c.pairs.begin() + c.offset[a + 1];
    for (auto it = find(a, b); it != end && it->first == b; ++it) ++k;
    return k;
  };
  long edges = 0, used = 0;
  for (std::uint32_t a = 0; a < nv; ++a) {
    const auto begin = c.offset[a], end = c.offset[a + 1];
    if (begin == end) {
      fault(check.manifold, "Vertex " + std::to_string(a) + " belongs to no face.");
      continue;
    }
    ++used;
    for (auto i = begin; i < end; ++i) {
      const std::uint32_t b = c.pairs[i].first;
      if (i > begin && c.pairs[i - 1].first == b) continue;  // counted at its first use
      const int forward = uses(a, b), backward = uses(b, a);
      if (a < b || backward == 0) ++edges;
      if (forward + backward == 1)
        fault(check.closed, "Edge " + edgeName(a, b) + " has only one face: the mesh is open.");
      else if (forward + backward > 2)
        fault(check.manifold,
              "Edge " + edgeName(a, b) + " has " + std::to_string(forward + backward) + " faces.");
      else if (forward != 1)
        fault(check.oriented,
              "The two faces of edge " + edgeName(a, b) + " are oriented differently.");
    }
    // One fan: following next -> previous around a from the first corner visits every corner.
    if (check.closed && check.oriented) {
      std::uint32_t start = c.pairs[begin].first, at = start;
      std::uint32_t visited = 0;
      do {
        const auto it = find(a, at);
        if (it == c.pairs.begin() + end || it->first != at) break;
        at = it->second;
        ++visited;
      } while (at != start && visited <= end - begin);
      if (visited != end - begin)
        fault(check.manifold, "The faces around vertex " + std::to_string(a) +
                                  " form more than one fan (the surface touches itself there).");
    }
  }
  check.eulerCharacteristic = static_cast<int>(used - edges + static_cast<long>(mesh.faces.size()));
  return check;
}

double meshVolume(const SurfaceMesh& mesh) {
  double v = 0;
  for (const auto& f : mesh.faces) {
    glm::dvec3 a = mesh.vertices[f[0]], b = mesh.vertices[f[1]], c = mesh.vertices[f[2]];
    v += glm::dot(a, glm::cross(b, c));
  }
  return v / 6.0;
}

double meshArea(const SurfaceMesh& mesh) {
  double area = 0;
  for (const auto& f : mesh.faces) {
    glm::dvec3 a = mesh.vertices[f[0]], b = mesh.vertices[f[1]], c = mesh.vertices[f[2]];
    area += glm::length(glm::cross(b - a, c - a));
  }
  return area / 2.0;
}

std::vector<glm::vec3> vertexNormals(const SurfaceMesh& mesh) {
  std::vector<glm::dvec3> sum(mesh.vertices.size(), glm::dvec3(0));
  for (const auto& f : mesh.faces) {
    glm::dvec3 a = mesh.vertices[f[0]], b = mesh.vertices[f[1]], c = mesh.vertices[f[2]];
    glm::dvec3 n = glm::cross(b - a, c - a);  // twice the area along the normal
    for (int i = 0; i < 3; ++i) sum[f[i]] += n;
  }
  std::vector<glm::vec3> normals(sum.size(), glm::vec3(0));
  for (std::size_t v = 0; v < sum.size(); ++v) {
    double len = glm::length(sum[v]);
    if (len > 0) normals[v] = glm::vec3(sum[v] / len);
  }
  return normals;
}

std::vector<std::vector<std::uint32_t>> vertexNeighbours(const SurfaceMesh& mesh) {
  const MeshRings r = meshRings(mesh);
  std::vector<std::vector<std::uint32_t>> rings(mesh.vertices.size());
  for (std::size_t v = 0; v < rings.size(); ++v)
    rings[v].assign(r.ring.begin() + r.start[v], r.ring.begin() + r.start[v + 1]);
  return rings;
}

}  // namespace gvflab
