#pragma once
// The measures behind SurfaceSnake's step and states (surface_snake.hpp), product code that the
// tests call directly: how many relaxation sweeps an iteration takes, whether points lie near a
// mesh (the progress of a window), the collapse rule and the extent of the widest unheld patch.
#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <vector>

#include "gvflab/parametric_snake.hpp"
#include "gvflab/surface_mesh.hpp"

namespace gvflab {

// The semi-implicit step (γI + A) x_{t+1} = b, A = −αL + βL², is solved by Richardson sweeps
// y ← y + ω (b − (γI + A) y) from y = x_t with ω = 1 / (γ + 2α + 4β). The eigenvalues of −L
// (umbrella weights: I − D⁻¹W, similar to a symmetric matrix) lie in [0, 2], so those of
// γI + A lie in [γ, γ + 2α + 4β] and every mode of the error shrinks by a factor in
// [0, g], g = (2α + 4β) / (γ + 2α + 4β) < 1, per sweep: stable for every α, β, γ the table
// allows, with no oscillation. The slowest mode is the smooth one (the surface's motion as a
// whole); the sweep count makes it reach all but kSweepResidual of the implicit step, at most
// kMaxSweeps (then the step is a fraction 1 − g^kMaxSweeps of it: slower, never unstable).
inline constexpr double kSweepResidual = 0.05;
inline constexpr int kMaxSweeps = 8;
double surfaceRelaxation(const SnakeParams& params);  // ω
int surfaceSweeps(const SnakeParams& params);         // in [1, kMaxSweeps]

// When remeshing is due (checked on the device every `resample` iterations, no read-back
// unless due): at once when an edge is longer than kRemeshFar dmax (the surface loses
// resolution where it stretches); when edges are only a little out of [dmin, dmax], or shorter
// than dmin / kRemeshFar, at the end of a convergence window (read back then anyway) or after
// kRemeshPatience resampling periods since the last remeshing. On a surface of 10^5 vertices
// some edge is always a little out (its vertices slide and jitter), so remeshing whenever one
// is would cost a read-back and a remesh every `resample` iterations (measured: 490
// iterations/s for 50k vertices on an H100, 0.06 ms of kernels per iteration). Far-short edges
// wait too: a shrinking surface makes new ones within two resampling periods of every
// remeshing (the bench surface remeshed at 136 of 200 checks, 1356 iterations/s on an H200),
// and a short edge costs a vertex, not resolution.
inline constexpr double kRemeshFar = 1.5;
inline constexpr int kRemeshPatience = 10;

// Whether some triangle of one mesh lies within d <= cap of a point (stops at the first found):
// the triangles are bucketed once in a grid of cells max(cap, longest edge) wide, and a query
// looks at the 27 cells around its point (its own first), so N queries against M triangles cost
// O(N + M). Keeps its own copy of the mesh.
class MeshDistance {
 public:
  MeshDistance(const SurfaceMesh& mesh, double cap);
  bool within(const glm::dvec3& p, double d) const;

 private:
  SurfaceMesh mesh_;
  double cell_ = 1;
  glm::dvec3 origin_{0.0};
  int dims_[3] = {0, 0, 0};
  std::vector<std::uint32_t> start_, triangles_;  // compressed rows per cell
};

// The collapse rule: `mesh` encloses less than kCollapseFraction of `initialVolume` and less
// than max(kCollapseArea dmin³, kCollapseWidth dmin × its area): a dot or a sheet (or it turned
// inside out: a negative volume).
bool collapsedSurface(const SurfaceMesh& mesh, double initialVolume, double dmin);

// The unheld extent the states judge (snake_stop.hpp): the diameter of the disc as large as the
// largest connected patch of unheld vertices grown by `reach` (the hold test's kHoldDistance) all
// round, since a vertex that near the end of an edge is held by an edge it does not lie on
// (beside the walls of a bridged mouth or pocket). The patch's area is its vertices' share of
// their faces; grown by reach it is A + reach P + pi reach^2, P its border (through the
// midpoints of the edges between unheld and held vertices). An area, not a width: a bridge
// 6 voxels wide across a long channel is unheld over far more than a disc 8 voxels wide.
// 0 when every vertex is held; the diagonal of the bounding box when none is.
double unheldPatchExtent(const SurfaceMesh& mesh, const std::vector<bool>& held, double reach);

}  // namespace gvflab
