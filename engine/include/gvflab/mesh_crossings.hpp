#pragma once
// Where a closed triangle mesh passes through itself, and the repair SurfaceSnake applies after
// remeshing. Pure host code, double precision.
//
// Two faces cross when they share no vertex and one's edge pierces the other (or touches it
// within 1e-9 of the scale), or when they share exactly one vertex and the edge opposite it in
// one face pierces the other face (a fold about that vertex). Faces that share an edge only
// meet along it: a fold across an edge shows as crossings with the faces around it. Coplanar
// overlaps are not counted (they need exact coordinates; moving surfaces do not produce them).
// Faces are bucketed by their bounding boxes in a uniform grid (cells as wide as the median
// edge), and a pair is tested only in the cell holding the low corner of the overlap of their
// boxes, so each pair counts once: O(F) for meshes whose faces are about as large as the
// median, not O(F^2).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "gvflab/surface_mesh.hpp"

namespace gvflab {

// Every crossing pair (face indices, first < second), sorted.
std::vector<std::pair<std::uint32_t, std::uint32_t>> crossingFacePairs(const SurfaceMesh& mesh);

// Whether some face turns more than 90 degrees from the area-weighted normal at one of its
// corners: the mark of a local fold, found in a few linear sweeps (a tenth of the cost of
// crossingFacePairs()); SurfaceSnake looks for crossings only where it is true.
bool hasFoldedFaces(const SurfaceMesh& mesh);

// Untangles local folds: the vertices of crossing faces, and their one-rings, move to the mean
// of their one-rings (Laplacian smoothing, which irons a fold flat), in up to `rounds` rounds,
// the region growing by one ring each round it fails; vertices of faces that cross nothing keep
// their positions exactly. Returns the crossing pairs left (0 when repaired): two sheets of the
// surface that pass through each other far from a fold are not a local fold, and stay.
struct Untangled {
  std::size_t found = 0;  // crossing pairs before
  std::size_t left = 0;   // and after
};
Untangled untangleCrossings(SurfaceMesh& mesh, int rounds = 8);

}  // namespace gvflab
