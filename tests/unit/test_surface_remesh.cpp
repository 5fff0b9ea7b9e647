#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>

#include "gvflab/error.hpp"
#include "gvflab/surface_mesh.hpp"

using namespace gvflab;

namespace {

// The snakes' default spacing bounds (SnakeParams: dmin 1, dmax 2.5).
constexpr double kMin = 1.0, kMax = 2.5;

struct Edges {
  std::size_t count = 0, tooShort = 0, tooLong = 0;
  double longest = 0;
  double shortFraction() const { return double(tooShort) / count; }
};

Edges edgesOf(const SurfaceMesh& m, double dmin, double dmax) {
  Edges e;
  for (const auto& f : m.faces)
    for (int i = 0; i < 3; ++i) {
      std::uint32_t a = f[i], b = f[(i + 1) % 3];
      if (a > b) continue;  // each edge once (closed: its twin has a < b)
      double d = glm::distance(glm::dvec3(m.vertices[a]), glm::dvec3(m.vertices[b]));
      ++e.count;
      e.tooShort += d < dmin;
      e.tooLong += d > dmax * (1 + 1e-6);
      e.longest = std::max(e.longest, d);
    }
  return e;
}

// Faces that turn away from `centre` (folded over, on a star-shaped surface about it).
std::size_t facesFacingIn(const SurfaceMesh& m, glm::dvec3 centre) {
  std::size_t n = 0;
  for (const auto& f : m.faces) {
    glm::dvec3 a = m.vertices[f[0]], b = m.vertices[f[1]], c = m.vertices[f[2]];
    n += glm::dot(glm::cross(b - a, c - a), (a + b + c) / 3.0 - centre) <= 0;
  }
  return n;
}

// Mean distance of the valences from 6 (flips bring them nearer; a remeshed sphere has
// mostly 5, 6 and 7).
double valenceSpread(const SurfaceMesh& m) {
  auto rings = vertexNeighbours(m);
  double sum = 0;
  for (const auto& r : rings) sum += std::abs(int(r.size()) - 6);
  return sum / rings.size();
}

template <typename Move>
SurfaceMesh moved(SurfaceMesh m, Move move) {
  for (auto& v : m.vertices) v = glm::vec3(move(glm::dvec3(v)));
  return m;
}

class Random {  // deterministic everywhere
 public:
  double uniform() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return static_cast<double>(s_ >> 11) / 9007199254740992.0;
  }

 private:
  std::uint64_t s_ = 0x2545F4914F6CDD1Dull;
};

// What every remeshed surface must be: a closed, manifold, oriented sphere-like mesh with no
// edge beyond dmax (splits are never refused) and few below dmin (collapses that would fold a
// face, pinch the surface or make an edge longer than dmax are).
void checkRemeshed(const SurfaceMesh& m, double dmin, double dmax, double shortAllowed) {
  MeshCheck check = checkMesh(m);
  CHECK(check.ok());
  CHECK(check.problem == "");
  CHECK(check.eulerCharacteristic == 2);
  Edges e = edgesOf(m, dmin, dmax);
  CHECK(e.tooLong == 0);
  CHECK(e.longest <= dmax * (1 + 1e-6));
  CHECK(e.shortFraction() <= shortAllowed);
  auto rings = vertexNeighbours(m);
  for (const auto& r : rings) REQUIRE(r.size() >= 3);
}

}  // namespace

TEST_CASE("remesh keeps a mesh already in range and checks its bounds") {
  SurfaceMesh sphere = sphereMesh({0, 0, 0}, 8, 1);
  SurfaceMesh same = remesh(sphere, 0.4, 1.2);
  CHECK(same.vertices == sphere.vertices);
  CHECK(same.faces == sphere.faces);
  CHECK_THROWS_AS(remesh(sphere, 0.7, 1.2), ParameterError);  // dmax < 2 dmin
  CHECK_THROWS_AS(remesh(sphere, 0, 1.2), ParameterError);
  CHECK_THROWS_AS(remesh(sphere, NAN, 1.2), ParameterError);
}

TEST_CASE("remesh stops a surface that would outgrow its vertex budget") {
  SurfaceMesh sphere = sphereMesh({0, 0, 0}, 3, 1);
  SurfaceMesh blown = moved(sphere, [](glm::dvec3 p) { return p * 1e6; });
  CHECK_THROWS_WITH_AS(remesh(blown, kMin, kMax, 5000), doctest::Contains("5000 vertices"),
                       ResourceError);
  CHECK(remesh(moved(sphere, [](glm::dvec3 p) { return p * 4.0; }), kMin, kMax, 5000)
            .vertices.size() < 5000);
}

TEST_CASE("remesh refuses an open or pinched mesh, naming the fault") {
  SurfaceMesh open = sphereMesh({0, 0, 0}, 5, 1);
  open.faces.pop_back();
  CHECK_THROWS_WITH_AS(remesh(open, kMin, kMax), doctest::Contains("only one face"),
                       ParameterError);
  SurfaceMesh flipped = sphereMesh({0, 0, 0}, 5, 1);
  std::swap(flipped.faces[7][0], flipped.faces[7][1]);
  CHECK_THROWS_AS(remesh(flipped, kMin, kMax), ParameterError);
  // Two spheres sharing one vertex: every edge has two faces, the vertex two fans.
  SurfaceMesh a = sphereMesh({0, 0, 0}, 3, 1.5), b = sphereMesh({0, 0, 0}, 3, 1.5);
  SurfaceMesh pinched = a;
  const auto offset = static_cast<std::uint32_t>(a.vertices.size());
  for (auto f : b.faces) {
    for (int i = 0; i < 3; ++i) f[i] = f[i] == 0 ? 0 : f[i] + offset;
    pinched.faces.push_back(f);
  }
  for (const auto& v : b.vertices) pinched.vertices.push_back(v + glm::vec3(0, 0, 6));
  CHECK_THROWS_WITH_AS(remesh(pinched, kMin, kMax), doctest::Contains("more than one fan"),
                       ParameterError);
  CHECK_THROWS_AS(remesh(SurfaceMesh{}, kMin, kMax), ParameterError);
}

TEST_CASE("remesh splits a sphere stretched four times along z") {
  SurfaceMesh sphere = sphereMesh({0, 0, 0}, 12, 1.75);
  SurfaceMesh stretched = moved(sphere, [](glm::dvec3 p) { return glm::dvec3(p.x, p.y, 4 * p.z); });
  REQUIRE(edgesOf(stretched, kMin, kMax).tooLong > stretched.vertices.size());
  SurfaceMesh m = remesh(stretched, kMin, kMax);
  checkRemeshed(m, kMin, kMax, 0.02);  // measured 1.1%
  CHECK(m.vertices.size() > 2 * sphere.vertices.size());
  // Midpoint splits keep the shape; the collapses and flips that follow move it little.
  CHECK(meshVolume(m) == doctest::Approx(meshVolume(stretched)).epsilon(0.005));
  CHECK(valenceSpread(m) < 0.6);  // measured 0.37; 0.88 without flips
}

TEST_CASE("remesh collapses a sphere shrunk three times") {
  SurfaceMesh sphere = sphereMesh({0, 0, 0}, 15, 0.6);
  SurfaceMesh shrunk = moved(sphere, [](glm::dvec3 p) { return p / 3.0; });
  const double dmin = 0.5, dmax = 1.25;  // radius 5: eight times dmin
  REQUIRE(edgesOf(shrunk, dmin, dmax).shortFraction() == 1.0);
  SurfaceMesh m = remesh(shrunk, dmin, dmax);
  checkRemeshed(m, dmin, dmax, 0.01);
  CHECK(m.vertices.size() < shrunk.vertices.size() / 5);
  // Coarser facets cut a little more off the sphere than the fine ones did.
  CHECK(meshVolume(m) == doctest::Approx(meshVolume(shrunk)).epsilon(0.03));
  CHECK(meshVolume(m) < meshVolume(shrunk));
  CHECK(facesFacingIn(m, {0, 0, 0}) == 0);
  CHECK(valenceSpread(m) < 0.5);  // measured 0.32; 0.71 without flips
  for (const auto& v : m.vertices) CHECK(glm::length(glm::dvec3(v)) < 5.0 + 1e-4);
}

TEST_CASE("remesh evens out a randomly jittered sphere") {
  Random random;
  SurfaceMesh jittered = moved(sphereMesh({20, 20, 20}, 12, 1.75), [&](glm::dvec3 p) {
    return p +
           0.7 * glm::dvec3(random.uniform() - 0.5, random.uniform() - 0.5, random.uniform() - 0.5);
  });
  Edges before = edgesOf(jittered, kMin, kMax);
  REQUIRE(before.tooShort > 50);
  SurfaceMesh m = remesh(jittered, kMin, kMax);
  checkRemeshed(m, kMin, kMax, 0.025);  // measured 1.6%; 6% without collapses
  CHECK(facesFacingIn(m, {20, 20, 20}) == 0);
  CHECK(meshVolume(m) == doctest::Approx(meshVolume(jittered)).epsilon(0.005));
  // Settled: remeshing again changes (almost) nothing.
  SurfaceMesh again = remesh(m, kMin, kMax);
  CHECK(std::abs(double(again.vertices.size()) - double(m.vertices.size())) <=
        0.005 * m.vertices.size());
}

TEST_CASE("remesh folds no face over: a crumpled sphere comes out with its faces outward") {
  // Vertices slid along the sphere by up to about half an edge: some faces of the input are
  // folded over. The collapses about them are refused unless the faces come out turned less
  // than 78 degrees, so the folds go instead of spreading (without that check all stay).
  for (auto [amplitude, foldsLeft] : {std::pair{0.8, 0}, {1.0, 3}}) {
    CAPTURE(amplitude);
    Random random;
    SurfaceMesh crumpled = moved(sphereMesh({0, 0, 0}, 12, 1.2), [&](glm::dvec3 p) {
      glm::dvec3 n = glm::normalize(p);
      glm::dvec3 j(random.uniform() - 0.5, random.uniform() - 0.5, random.uniform() - 0.5);
      return 12.0 * glm::normalize(p + amplitude * (j - glm::dot(j, n) * n));
    });
    const std::size_t folds = facesFacingIn(crumpled, {0, 0, 0});
    REQUIRE(folds >= 9);
    SurfaceMesh m = remesh(crumpled, kMin, kMax);
    checkRemeshed(m, kMin, kMax, 0.04);  // measured 2.6%: folds hold collapses back
    CHECK(facesFacingIn(m, {0, 0, 0}) <= std::size_t(foldsLeft));  // 9 and 58 without the check
  }
}

TEST_CASE("remesh follows a sphere pushed deep into a narrow tube") {
  // Like a surface entering a well: the vertices over a disc of radius 4 on top of a radius 12
  // sphere are pushed down by up to 18, stretching the tube's walls.
  SurfaceMesh sphere = sphereMesh({0, 0, 0}, 12, 1.75);
  const double depth = 18, width = 4;
  SurfaceMesh tube = moved(sphere, [&](glm::dvec3 p) {
    double rho2 = p.x * p.x + p.y * p.y;
    if (p.z > 0 && rho2 < width * width) p.z -= depth * (1 - rho2 / (width * width));
    return p;
  });
  REQUIRE(edgesOf(tube, kMin, kMax).longest > 3 * kMax);
  SurfaceMesh m = remesh(tube, kMin, kMax);
  checkRemeshed(m, kMin, kMax, 0.02);  // measured 0.5%; 4% without collapses
  CHECK(valenceSpread(m) < 0.12);      // measured 0.07; 0.17 without flips
  CHECK(m.vertices.size() > tube.vertices.size());
  CHECK(meshVolume(m) == doctest::Approx(meshVolume(tube)).epsilon(0.01));
  // The tube keeps its depth: a vertex near its axis stays near its bottom.
  double lowest = 1e9;
  for (const auto& v : m.vertices)
    if (v.x * v.x + v.y * v.y < 1 && v.z > -12 + 1) lowest = std::min<double>(lowest, v.z);
  CHECK(lowest < 12 - depth + 1);
  // Its walls got vertices all the way down: none of them more than dmax from the next.
  int wallVertices = 0;
  for (const auto& v : m.vertices) {
    double rho = std::hypot(v.x, v.y);
    wallVertices += rho > 1 && rho < width && v.z < 0 && v.z > -5;
  }
  CHECK(wallVertices > 0);
}

TEST_CASE("remesh gives its result's one-rings, and remeshes a moved result as built afresh") {
  Random random;
  auto jitter = [&](glm::dvec3 p) {
    return p +
           0.7 * glm::dvec3(random.uniform() - 0.5, random.uniform() - 0.5, random.uniform() - 0.5);
  };
  MeshRings rings;
  const SurfaceMesh m = remesh(moved(sphereMesh({20, 20, 20}, 12, 1.75), jitter), kMin, kMax,
                               std::size_t(1) << 22, &rings);
  // meshRings() builds the half-edges afresh (test_surface_mesh checks its fans); remesh()
  // reads them off its compacted ones.
  auto sameRings = [](const MeshRings& r, const SurfaceMesh& mesh) {
    const MeshRings expected = meshRings(mesh);
    return r.start == expected.start && r.ring == expected.ring;
  };
  CHECK(sameRings(rings, m));
  // A snake's next remeshing: the same faces, moved; it starts from the kept half-edges.
  const SurfaceMesh next = moved(m, jitter);
  const SurfaceMesh kept = remesh(next, kMin, kMax, std::size_t(1) << 22, &rings);
  REQUIRE(kept.faces != m.faces);
  remesh(sphereMesh({0, 0, 0}, 5, 1), kMin, kMax);  // other half-edges kept now
  const SurfaceMesh built = remesh(next, kMin, kMax);
  CHECK(kept.vertices == built.vertices);
  CHECK(kept.faces == built.faces);
  CHECK(sameRings(rings, kept));
}
