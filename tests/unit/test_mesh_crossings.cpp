// crossingFacePairs() (mesh_crossings.hpp) against an all-pairs count of the same rule on small
// meshes, on meshes with known answers (a clean sphere: none; two spheres overlapping; a vertex
// pushed through the far side), and untangleCrossings() on a crumpled sphere.
#include <doctest/doctest.h>

#include <glm/geometric.hpp>
#include <random>

#include "gvflab/mesh_crossings.hpp"
#include "gvflab/surface_mesh.hpp"

using namespace gvflab;

namespace {

// Both meshes' vertices and faces in one mesh.
SurfaceMesh joined(const SurfaceMesh& a, const SurfaceMesh& b) {
  SurfaceMesh m = a;
  const auto base = static_cast<std::uint32_t>(a.vertices.size());
  m.vertices.insert(m.vertices.end(), b.vertices.begin(), b.vertices.end());
  for (const auto& f : b.faces) m.faces.push_back(f + glm::uvec3(base));
  return m;
}

// Every pair of faces that crosses by the header's rule, found the slow way: each pair of faces
// of a one-face-pair mesh goes through the fast counter alone (no grid can lose it).
std::size_t allPairs(const SurfaceMesh& m) {
  std::size_t n = 0;
  for (std::size_t f = 0; f < m.faces.size(); ++f)
    for (std::size_t g = f + 1; g < m.faces.size(); ++g) {
      SurfaceMesh two;
      two.vertices = m.vertices;
      two.faces = {m.faces[f], m.faces[g]};
      n += crossingFacePairs(two).size();
    }
  return n;
}

SurfaceMesh crumpled(double amount, unsigned seed) {
  SurfaceMesh m = sphereMesh({10, 10, 10}, 5, 1.5);
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, static_cast<float>(amount));
  for (auto& v : m.vertices) v += glm::vec3(g(rng), g(rng), g(rng));
  return m;
}

}  // namespace

TEST_CASE("a clean sphere does not cross itself") {
  CHECK(crossingFacePairs(sphereMesh({0, 0, 0}, 10, 1.5)).size() == 0);
  CHECK(crossingFacePairs(boxMesh({0, 0, 0}, {3, 4, 5}, 1)).size() == 0);
}

TEST_CASE("two overlapping spheres cross along a circle; apart, they do not") {
  const SurfaceMesh a = sphereMesh({0, 0, 0}, 5, 1.2);
  const std::size_t overlapping =
      crossingFacePairs(joined(a, sphereMesh({6, 0.3, 0.2}, 5, 1.2))).size();
  MESSAGE("overlapping spheres: " << overlapping << " crossing pairs");
  // The circle of intersection (radius 4) crosses about 2 pi 4 / 1.2 ~ 21 faces of each mesh.
  CHECK(overlapping > 20);
  CHECK(crossingFacePairs(joined(a, sphereMesh({10.5, 0, 0}, 5, 1.2))).size() == 0);
}

TEST_CASE("a vertex pushed through the far side of a sphere: its faces cross the far ones") {
  SurfaceMesh m = sphereMesh({0, 0, 0}, 5, 1.5);
  std::size_t top = 0;
  for (std::size_t i = 0; i < m.vertices.size(); ++i)
    if (m.vertices[i].z > m.vertices[top].z) top = i;
  m.vertices[top].z = -6.5f;  // a spike from the north pole out through the south
  const auto pairs = crossingFacePairs(m);
  CHECK(pairs.size() >= 5);
  CHECK(hasFoldedFaces(m));  // the spike's faces turn against their corners' normals
  CHECK_FALSE(hasFoldedFaces(sphereMesh({0, 0, 0}, 5, 1.5)));
  for (const auto& p : pairs) {
    const auto &f = m.faces[p.first], &g = m.faces[p.second];
    const bool hasTop =
        f[0] == top || f[1] == top || f[2] == top || g[0] == top || g[1] == top || g[2] == top;
    CHECK(hasTop);
  }
}

TEST_CASE("the grid finds exactly the pairs that an all-pairs search finds") {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    CAPTURE(seed);
    const SurfaceMesh m = crumpled(0.4 + 0.2 * seed, seed);
    const std::size_t fast = crossingFacePairs(m).size(), slow = allPairs(m);
    MESSAGE("crumpled sphere " << seed << ": " << fast << " crossing pairs");
    CHECK(fast == slow);
    CHECK(fast > 0);
  }
}

TEST_CASE("untangling irons local folds flat and leaves clean faces exactly as they were") {
  for (unsigned seed : {5u, 6u, 7u}) {
    CAPTURE(seed);
    SurfaceMesh m = crumpled(0.5, seed);
    const std::size_t before = crossingFacePairs(m).size();
    REQUIRE(before > 0);
    SurfaceMesh fixed = m;
    const Untangled u = untangleCrossings(fixed);
    const std::size_t left = u.left;
    CHECK(u.found == before);
    MESSAGE("crumpled sphere " << seed << ": " << before << " crossing pairs, " << left
                               << " after untangling");
    CHECK(left == 0);
    CHECK(crossingFacePairs(fixed).size() == 0);
    CHECK(checkMesh(fixed).ok());
  }
  SurfaceMesh clean = sphereMesh({0, 0, 0}, 5, 1.5);
  const SurfaceMesh copy = clean;
  CHECK(untangleCrossings(clean).found == 0);
  CHECK(clean.vertices == copy.vertices);
}
