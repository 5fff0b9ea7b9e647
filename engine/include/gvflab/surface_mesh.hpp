#pragma once
// Closed triangle meshes for 3D active surfaces (SurfaceSnake): start shapes, checks, measures
// and the remeshing that keeps edge lengths within [dmin, dmax] so that a surface can stretch
// into a concavity without its triangles degenerating. Pure host code, double precision where
// it measures.
//
// Coordinates: voxel coordinates, as --snake uses pixel coordinates: x along a row, y down the
// rows, z across the planes; voxel (i, j, k) covers [i, i+1) x [j, j+1) x [k, k+1), so its
// centre is (i + 0.5, j + 0.5, k + 0.5). Faces are counter-clockwise seen from outside in a
// right-handed (x, y, z) frame: (b - a) x (c - a) points outwards, and meshVolume() > 0.
#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <string>
#include <vector>

namespace gvflab {

struct SurfaceMesh {
  std::vector<glm::vec3> vertices;
  std::vector<glm::uvec3> faces;  // vertex indices, outward orientation (see above)
  bool empty() const { return faces.empty(); }
};

// A sphere: an icosahedron subdivided until its edges are at most `edgeLength` long, projected
// on the sphere. ParameterError when centre or radius is not finite or radius <= 0 or
// edgeLength <= 0; ResourceError beyond 2^26 vertices (boxMesh too). Each icosahedron edge is
// cut into n = ceil(1.3232 radius / edgeLength) (10 n^2 + 2 vertices), so that edges come out
// between about 0.8 and 1 times edgeLength; every vertex is on the sphere (to float precision).
SurfaceMesh sphereMesh(const glm::dvec3& centre, double radius, double edgeLength);
// How many vertices sphereMesh() would give, without building them (checked before building).
std::size_t sphereMeshVertexCount(double radius, double edgeLength);
// An axis-aligned box between corners lo and hi (lo < hi on every axis), each face a grid of
// squares at most `edgeLength` wide split into triangles.
SurfaceMesh boxMesh(const glm::dvec3& lo, const glm::dvec3& hi, double edgeLength);

// What checkMesh() found: closed (every edge has exactly two faces), manifold (and every
// vertex's faces form one fan), consistently oriented (each edge used once in each direction)
// and no face repeats a vertex. `problem` is a sentence naming the first fault ("" when none);
// a vertex that belongs to no face is a fault too.
struct MeshCheck {
  bool closed = false;
  bool manifold = false;
  bool oriented = false;
  int eulerCharacteristic = 0;  // V - E + F: 2 for a sphere-like surface
  std::string problem;
  bool ok() const { return closed && manifold && oriented && problem.empty(); }
};
MeshCheck checkMesh(const SurfaceMesh& mesh);

double meshVolume(const SurfaceMesh& mesh);  // signed (divergence theorem), > 0 outward
double meshArea(const SurfaceMesh& mesh);
// Area-weighted vertex normals, unit length (zero for an isolated vertex).
std::vector<glm::vec3> vertexNormals(const SurfaceMesh& mesh);
// Each vertex's neighbours (the one-ring) in fan order, counter-clockwise seen from outside
// (so the kernels can form normals from the ring alone; the internal forces' Laplacians use
// them), in compressed rows for a closed, manifold, consistently oriented mesh (else
// ParameterError, as remesh()): the neighbours of v are ring[start[v]] .. ring[start[v + 1] - 1]
// (none for a vertex in no face).
struct MeshRings {
  std::vector<std::uint32_t> start;  // vertices + 1
  std::vector<std::uint32_t> ring;
};
MeshRings meshRings(const SurfaceMesh& mesh);
// The same as one list per vertex.
std::vector<std::vector<std::uint32_t>> vertexNeighbours(const SurfaceMesh& mesh);

// Remeshing of a closed manifold mesh: edges longer than dmax are split, edges shorter than
// dmin collapsed (unless that would make the mesh non-manifold, fold a face over or leave a
// vertex of valence below 3), and edges flipped where that brings valences nearer 6. Returns a
// closed, manifold, consistently oriented mesh with every edge in [dmin, dmax] as far as those
// constraints allow. Needs dmax >= 2 dmin (SnakeParams' rule). The 2D snakes' counterpart is
// resampleContour().
//
// In detail, up to 10 passes of: splits at edge midpoints, longest edge first (never refused,
// so no edge of the result is longer than dmax); collapses of an edge to its midpoint (or, where
// that would fold a face, to one of its ends), shortest first (in sorted rounds), refused when the
// two ends share neighbours other than the edge's two opposite vertices (the link condition), when
// an opposite vertex would keep fewer than three edges, when a face would turn by more than about
// 78 degrees or degenerate, or when an edge would grow beyond dmax (those edges stay shorter than
// dmin: about 1% of them on the tests' smooth shapes, 3% on a crumpled one); flips of an edge to
// the other diagonal of its two faces when that brings the four valences nearer 6, the faces bend
// by less than 60 degrees (creases stay), the new faces do not fold and the new edge is in [dmin,
// dmax]. Vertices no operation touches keep their positions exactly, and a mesh already in range
// with no improving flip comes back identical. Surviving input vertices keep their order, vertices
// added by splits come after them (so when nothing collapsed, vertex i of the input is vertex i of
// the result); stray vertices (in no face) are dropped. Splits preserve the volume exactly;
// collapses and flips change it by well under 1% on smooth surfaces sampled well below their
// curvature radius. Cost: linear in the mesh; for a 50k-vertex sphere, measured as CPU time on a
// loaded 2-core machine: 6 ms with nothing to do, 7.5 ms with 1% of its vertices moved, 11 ms with
// all of them jittered, about 55 ms grown 1.5 times (36k splits) and 60 ms shrunk 2 times (37k
// collapses). ParameterError for dmin <= 0, dmax < 2 dmin, or a mesh that is not closed, manifold
// and consistently oriented (naming checkMesh()'s problem); ResourceError when splits would make
// more than maxVertices vertices (a diverging surface; SurfaceSnake may pass its kMaxVertices).
//
// With `rings`, also the result's one-rings, as meshRings(result) gives them, read off the
// remesher's half-edges (no second pass). The half-edges of the last result are kept per
// thread: remeshing a mesh of the same faces again (a snake's surface moved since) skips
// building them (its results are the same either way).
SurfaceMesh remesh(const SurfaceMesh& mesh, double dmin, double dmax,
                   std::size_t maxVertices = std::size_t(1) << 22, MeshRings* rings = nullptr);
// The same into `result` (which may be `mesh` itself), reusing its storage.
void remeshInto(const SurfaceMesh& mesh, SurfaceMesh& result, double dmin, double dmax,
                std::size_t maxVertices, MeshRings* rings);

}  // namespace gvflab
