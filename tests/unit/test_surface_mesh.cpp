#include <doctest/doctest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <set>
#include <tuple>

#include "gvflab/error.hpp"
#include "gvflab/surface_mesh.hpp"

using namespace gvflab;

namespace {

constexpr double kPi = 3.14159265358979323846;

// The longest and shortest edges of a mesh.
std::pair<double, double> edgeRange(const SurfaceMesh& m) {
  double lo = 1e300, hi = 0;
  for (const auto& f : m.faces)
    for (int i = 0; i < 3; ++i) {
      double d =
          glm::distance(glm::dvec3(m.vertices[f[i]]), glm::dvec3(m.vertices[f[(i + 1) % 3]]));
      lo = std::min(lo, d);
      hi = std::max(hi, d);
    }
  return {lo, hi};
}

// A tetrahedron with outward faces, its apex at `top`.
SurfaceMesh tetrahedron(glm::vec3 o = glm::vec3(0)) {
  SurfaceMesh m;
  m.vertices = {o, o + glm::vec3(1, 0, 0), o + glm::vec3(0, 1, 0), o + glm::vec3(0, 0, 1)};
  m.faces = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  return m;
}

// Each ring step (v, ring[i], ring[i + 1]) is a face of the mesh; on a smooth mesh (not at a
// tetrahedron's corners) it also turns about the vertex normal.
void checkRings(const SurfaceMesh& m, bool smooth) {
  std::set<std::tuple<unsigned, unsigned, unsigned>> faces;
  for (const auto& f : m.faces) {
    faces.insert({f[0], f[1], f[2]});
    faces.insert({f[1], f[2], f[0]});
    faces.insert({f[2], f[0], f[1]});
  }
  auto rings = vertexNeighbours(m);
  auto normals = vertexNormals(m);
  REQUIRE(rings.size() == m.vertices.size());
  std::size_t corners = 0;
  for (std::uint32_t v = 0; v < rings.size(); ++v) {
    const auto& ring = rings[v];
    corners += ring.size();
    REQUIRE(ring.size() >= 3);
    for (std::size_t i = 0; i < ring.size(); ++i) {
      std::uint32_t a = ring[i], b = ring[(i + 1) % ring.size()];
      CHECK(faces.count({v, a, b}) == 1);
      glm::dvec3 p = m.vertices[v];
      glm::dvec3 turn = glm::cross(glm::dvec3(m.vertices[a]) - p, glm::dvec3(m.vertices[b]) - p);
      if (smooth) CHECK(glm::dot(turn, glm::dvec3(normals[v])) > 0);
    }
  }
  CHECK(corners == 3 * m.faces.size());
}

}  // namespace

TEST_CASE("sphereMesh: a closed outward icosphere with edges at most the length asked") {
  for (auto [r, e] : {std::pair{10.0, 1.0}, {3.0, 2.5}, {20.0, 0.7}, {1.0, 5.0}, {7.3, 0.9}}) {
    CAPTURE(r);
    CAPTURE(e);
    glm::dvec3 c(30.5, 20.25, 12);
    SurfaceMesh m = sphereMesh(c, r, e);
    CHECK(m.vertices.size() == sphereMeshVertexCount(r, e));
    MeshCheck check = checkMesh(m);
    CHECK(check.ok());
    CHECK(check.problem == "");
    CHECK(check.eulerCharacteristic == 2);
    CHECK(edgeRange(m).second <= e * (1 + 1e-5));
    for (const auto& v : m.vertices) CHECK(glm::distance(glm::dvec3(v), c) == doctest::Approx(r));
    double sphereVolume = 4.0 / 3.0 * kPi * r * r * r;
    CHECK(meshVolume(m) > 0);
    CHECK(meshVolume(m) <= sphereVolume);
    if (e < r / 5) {  // fine enough to be near the sphere
      CHECK(meshVolume(m) == doctest::Approx(sphereVolume).epsilon(0.02));
      CHECK(meshArea(m) == doctest::Approx(4 * kPi * r * r).epsilon(0.02));
      CHECK(edgeRange(m).first > 0.6 * e);  // not needlessly fine
    }
  }
  CHECK(sphereMeshVertexCount(10, 1) == 10 * 14 * 14 + 2);  // frequency ceil(1.323 * 10)
  CHECK(sphereMeshVertexCount(1, 100) == 12);               // the icosahedron
}

TEST_CASE("sphereMesh and boxMesh refuse impossible shapes") {
  CHECK_THROWS_AS(sphereMesh({0, 0, 0}, 0, 1), ParameterError);
  CHECK_THROWS_AS(sphereMesh({0, 0, 0}, -1, 1), ParameterError);
  CHECK_THROWS_AS(sphereMesh({0, NAN, 0}, 1, 1), ParameterError);
  CHECK_THROWS_AS(sphereMesh({0, 0, 0}, 1, 0), ParameterError);
  CHECK_THROWS_AS(sphereMesh({0, 0, 0}, INFINITY, 1), ParameterError);
  CHECK_THROWS_AS(sphereMeshVertexCount(1, NAN), ParameterError);
  CHECK_THROWS_AS(sphereMesh({0, 0, 0}, 1e6, 1e-3), ResourceError);
  CHECK(sphereMeshVertexCount(1e6, 1e-3) > std::size_t(1) << 40);
  CHECK_THROWS_AS(boxMesh({0, 0, 0}, {1, 0, 1}, 1), ParameterError);
  CHECK_THROWS_AS(boxMesh({0, 0, 0}, {1, 1, 1}, -1), ParameterError);
  CHECK_THROWS_AS(boxMesh({0, 0, 0}, {1, 1, INFINITY}, 1), ParameterError);
}

TEST_CASE("boxMesh: a closed outward box of squares at most the length asked") {
  glm::dvec3 lo(2, 3, 4), hi(7, 5, 10);
  SurfaceMesh m = boxMesh(lo, hi, 1.5);
  MeshCheck check = checkMesh(m);
  CHECK(check.ok());
  CHECK(check.eulerCharacteristic == 2);
  CHECK(meshVolume(m) == doctest::Approx(5.0 * 2 * 6));
  CHECK(meshArea(m) == doctest::Approx(2 * (5.0 * 2 + 2 * 6 + 5 * 6)));
  CHECK(edgeRange(m).second <= 1.5 * std::sqrt(2.0) + 1e-5);  // the squares' diagonals
  // 4 x 2 x 4 squares: the lattice points on the box's surface.
  CHECK(m.vertices.size() == 5 * 3 * 5 - 3 * 1 * 3);
  for (const auto& v : m.vertices) {
    glm::dvec3 p(v);
    bool onFace = false;
    for (int a = 0; a < 3; ++a) onFace |= p[a] == lo[a] || p[a] == hi[a];
    CHECK(onFace);
  }
  checkRings(m, true);
}

TEST_CASE("checkMesh names the first fault") {
  SurfaceMesh good = tetrahedron();
  CHECK(checkMesh(good).ok());
  CHECK(checkMesh(good).eulerCharacteristic == 2);
  CHECK(meshVolume(good) == doctest::Approx(1.0 / 6));

  SurfaceMesh open = good;
  open.faces.pop_back();
  MeshCheck c = checkMesh(open);
  CHECK_FALSE(c.ok());
  CHECK_FALSE(c.closed);
  CHECK(c.problem.find("only one face") != std::string::npos);

  SurfaceMesh flipped = good;
  std::swap(flipped.faces[1][1], flipped.faces[1][2]);
  c = checkMesh(flipped);
  CHECK_FALSE(c.ok());
  CHECK_FALSE(c.oriented);
  CHECK(c.problem.find("oriented differently") != std::string::npos);

  SurfaceMesh inverted = good;
  for (auto& f : inverted.faces) std::swap(f[1], f[2]);
  CHECK(checkMesh(inverted).ok());  // consistent, only inside out
  CHECK(meshVolume(inverted) == doctest::Approx(-1.0 / 6));

  SurfaceMesh repeated = good;
  repeated.faces[0] = {0, 0, 1};
  CHECK(checkMesh(repeated).problem.find("repeats a vertex") != std::string::npos);

  SurfaceMesh beyond = good;
  beyond.faces[0][2] = 9;
  CHECK(checkMesh(beyond).problem.find("names vertex 9") != std::string::npos);

  CHECK_FALSE(checkMesh(SurfaceMesh{}).ok());

  SurfaceMesh stray = good;
  stray.vertices.push_back({5, 5, 5});
  CHECK(checkMesh(stray).problem.find("belongs to no face") != std::string::npos);

  // Two tetrahedra sharing a vertex: every edge is fine, the shared vertex has two fans.
  SurfaceMesh pinched = good;
  SurfaceMesh other = tetrahedron(glm::vec3(-1, -1, -1));
  other.vertices[3] = good.vertices[0];  // its apex on the first's corner
  for (auto f : other.faces) {
    for (int i = 0; i < 3; ++i) f[i] = f[i] == 3 ? 0 : f[i] + 4;
    pinched.faces.push_back(f);
  }
  for (int i = 0; i < 3; ++i) pinched.vertices.push_back(other.vertices[i]);
  c = checkMesh(pinched);
  CHECK(c.closed);
  CHECK(c.oriented);
  CHECK_FALSE(c.manifold);
  CHECK(c.problem.find("more than one fan") != std::string::npos);

  // Three faces on one edge.
  SurfaceMesh fin = good;
  fin.vertices.push_back({0.5f, -1, 0.5f});
  fin.faces.push_back({0, 1, 4});
  c = checkMesh(fin);
  CHECK_FALSE(c.manifold);
  CHECK_FALSE(c.ok());
}

TEST_CASE("vertexNormals point outwards; vertexNeighbours turn counter-clockwise outside") {
  glm::dvec3 c(5, 6, 7);
  SurfaceMesh m = sphereMesh(c, 4, 1);
  auto normals = vertexNormals(m);
  for (std::size_t v = 0; v < m.vertices.size(); ++v) {
    CHECK(glm::length(normals[v]) == doctest::Approx(1.0));
    CHECK(glm::dot(glm::dvec3(normals[v]), glm::normalize(glm::dvec3(m.vertices[v]) - c)) > 0.99);
  }
  auto rings = vertexNeighbours(m);
  std::size_t valence5 = 0;
  for (const auto& ring : rings) {
    CHECK((ring.size() == 5 || ring.size() == 6));
    valence5 += ring.size() == 5;
  }
  CHECK(valence5 == 12);
  checkRings(m, true);
  checkRings(tetrahedron(), false);

  SurfaceMesh stray = tetrahedron();
  stray.vertices.push_back({5, 5, 5});
  CHECK(vertexNormals(stray)[4] == glm::vec3(0));
  CHECK(vertexNeighbours(stray)[4].empty());
}
